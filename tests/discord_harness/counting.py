"""What the traffic benchmark counts (see traffic.py): the messages per channel within any 5 s,
the longest event-loop callback, which requests are interaction responses (not rate-limited), and
the figures of a played match's requests."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

WINDOW = 5.0  # seconds: Discord's per-channel message window


def max_in_window(times: Sequence[float], window: float = WINDOW) -> int:
    """The most of ``times`` inside any half-open interval ``[t, t + window)``."""
    ordered = sorted(times)
    best, start = 0, 0
    for end, t in enumerate(ordered):
        while ordered[start] <= t - window:
            start += 1
        best = max(best, end - start + 1)
    return best


class LoopMonitor:
    """Times every callback the event loop runs (``asyncio.events.Handle._run``) and keeps the
    longest since :meth:`reset`, minus the time ``overhead()`` grew inside it (the fake Discord's)."""

    def __init__(self, overhead: Callable[[], float]):
        self.overhead = overhead
        self.longest = 0.0
        self.what = ""

    def reset(self) -> None:
        self.longest, self.what = 0.0, ""

    @contextmanager
    def installed(self) -> Iterator[LoopMonitor]:
        handle_class: Any = asyncio.events.Handle
        original = handle_class._run
        monitor = self
        perf = time.perf_counter

        def _run(handle: Any) -> None:
            t0, o0 = perf(), monitor.overhead()
            try:
                original(handle)
            finally:
                spent = perf() - t0 - (monitor.overhead() - o0)
                if spent > monitor.longest:
                    monitor.longest = spent
                    monitor.what = describe_handle(handle)

        handle_class._run = _run
        try:
            yield self
        finally:
            handle_class._run = original


def describe_handle(handle: Any) -> str:
    from .tasks import describe

    owner = getattr(getattr(handle, "_callback", None), "__self__", None)
    if isinstance(owner, asyncio.Task):
        return describe(owner)
    return repr(handle)[:200]


def interaction_call(request: Any, app_id: int) -> bool:
    """An interaction response: the callback (``/interactions/{id}/{token}/callback``) or a request
    on the interaction's webhook (``/webhooks/{application id}/{token}...``: follow-ups, and fetching,
    editing or deleting the original response or a follow-up). Discord does not count these against
    the bot's global rate limit; any other webhook's requests are counted."""
    parts = request.path.split("/")
    return len(parts) > 3 and (parts[1] == "interactions" or (parts[1] == "webhooks" and parts[2] == str(app_id)))


def measure(server: Any, requests: list[Any], moves: int, start_requests: list[Any]) -> dict[str, Any]:
    """The traffic figures of ``requests`` (made by the bot on the fake Discord ``server``)."""
    answers = [r for r in requests if interaction_call(r, server.app_id)]
    rest = [r for r in requests if not interaction_call(r, server.app_id)]
    posts = [r for r in requests if r.method == "POST" and r.dpy_route == "/channels/{channel_id}/messages"]
    created = [r for r in posts if r.status == 200]
    by_channel: dict[str, list[float]] = defaultdict(list)
    for r in created:
        by_channel[r.params["channel_id"]].append(r.at)
    peaks = {cid: max_in_window(times) for cid, times in by_channel.items()}
    worst_channel = max(peaks, key=lambda c: peaks[c]) if peaks else None
    in_dm = {cid for cid in by_channel if server.channels[int(cid)].is_dm}
    per_move = max(1, moves)
    to_start = sum(1 for r in start_requests if not interaction_call(r, server.app_id))
    return {
        "moves": moves,
        "rest_calls_per_move": len(rest) / per_move,
        "rest_calls_per_move_in_play": (len(rest) - to_start) / per_move,
        "interaction_calls_per_move": len(answers) / per_move,
        "channel_posts_per_move": sum(1 for r in created if r.params["channel_id"] not in in_dm) / per_move,
        "dm_posts_per_move": sum(1 for r in created if r.params["channel_id"] in in_dm) / per_move,
        "max_messages_per_5s_per_channel": peaks[worst_channel] if worst_channel else 0,
        "http_429": sum(1 for r in requests if r.status == 429),
        "detail": {
            "rest_calls": len(rest),
            "interaction_calls": len(answers),
            "rest_calls_to_start": to_start,
            "busiest_channel": server.describe_channel(worst_channel) if worst_channel else None,
            "routes": dict(Counter(f"{r.method} {r.route}" for r in rest).most_common()),
            "interaction_routes": dict(Counter(f"{r.method} {r.route}" for r in answers).most_common()),
        },
    }


# ------------------------------------------------------------------------------ a whole match

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
THUMBNAIL = 11  # the components-v2 Thumbnail (a section's accessory: shown small, like an embed thumbnail)


@dataclass
class Sent:
    """One message the bot created or edited, resolved from its request: ``create`` (``fill``: the
    first content of a deferred "thinking..." response, or of its first follow-up, which is when
    Discord shows and notifies it; not a new message) or an edit, with the body sent."""

    message: Any  # HarnessMessage
    body: dict[str, Any]
    create: bool
    fill: bool = False
    at: int = 0  # index of the request in the match's requests


def sends(server: Any, requests: Sequence[Any]) -> list[Sent]:
    """The messages the bot created or edited, in order, from its successful requests: channel
    messages (``POST``/``PATCH /channels/{id}/messages...``) and interaction messages (the callback's
    response, type 4, 5 or 7; follow-ups; ``PATCH`` on the interaction's webhook)."""
    out: list[Sent] = []
    loading: set[int] = set()

    def add(mid: int | None, body: dict[str, Any], *, create: bool, at: int) -> None:
        msg = server.messages.get(mid) if mid is not None else None
        if msg is None:
            return
        if mid in loading:  # the deferred response gets its content: shown (and notified) now
            loading.discard(mid)
            out.append(Sent(msg, body, create=True, fill=True, at=at))
        else:
            out.append(Sent(msg, body, create=create, at=at))

    for at, r in enumerate(requests):
        if not 200 <= r.status < 300:
            continue
        body = r.json if isinstance(r.json, dict) else {}
        parts = r.path.split("/")
        if r.dpy_route == MESSAGES and r.method == "POST" and isinstance(r.response, dict):
            add(int(r.response["id"]), body, create=True, at=at)
        elif r.dpy_route == MESSAGE and r.method == "PATCH":
            add(int(r.params["message_id"]), body, create=False, at=at)
        elif len(parts) > 3 and parts[1] == "interactions" and r.method == "POST":
            rec = server.interactions.get(parts[3])
            ctype, data = body.get("type"), body.get("data") or {}
            if rec is None:
                continue
            if ctype == 4:
                add(rec.original_message_id, data, create=True, at=at)
            elif ctype == 5:
                add(rec.original_message_id, {}, create=True, at=at)
                loading.add(rec.original_message_id)
            elif ctype == 7:
                add(rec.message_id, data, create=False, at=at)
        elif len(parts) > 3 and parts[1] == "webhooks" and parts[2] == str(server.app_id):
            rec = server.interactions.get(parts[3])
            if rec is None:
                continue
            if r.method == "POST":
                mid = int(r.response["id"]) if isinstance(r.response, dict) and "id" in r.response else None
                add(mid, body, create=True, at=at)
            elif r.method == "PATCH" and len(parts) > 5:
                mid = rec.original_message_id if parts[5] == "@original" else int(parts[5])
                add(mid, body, create=False, at=at)
    return out


def pinged(body: dict[str, Any]) -> set[int]:
    """The users a new message with this body notifies, as Discord decides: the users mentioned
    (``<@id>``) in its content (and, for a components-v2 message, its text displays), as far as
    ``allowed_mentions`` lets them ping: without it, every mention pings; with it, only if its
    ``parse`` has ``"users"`` or its ``users`` lists the id (discord.py always sends the merge of
    the client's and the call's; the bot's client says ``users=False``)."""
    from . import payloads as P

    text = P.displayed_text(body) if int(body.get("flags") or 0) & (1 << 15) else body.get("content") or ""
    mentioned = set(P.mentioned_user_ids(text))
    allowed = body.get("allowed_mentions")
    if not isinstance(allowed, dict) or "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users") or []}


def thumbnails(body: dict[str, Any]) -> int:
    """Uploaded pictures (``attachment://...``) shown as a thumbnail: an embed's ``thumbnail``, or
    a components-v2 Thumbnail."""
    count = sum(
        1
        for e in body.get("embeds") or []
        if isinstance(e, dict) and str((e.get("thumbnail") or {}).get("url") or "").startswith("attachment://")
    )
    stack = list(body.get("components") or [])
    while stack:
        comp = stack.pop()
        if not isinstance(comp, dict):
            continue
        if comp.get("type") == THUMBNAIL and str((comp.get("media") or {}).get("url") or "").startswith(
            "attachment://"
        ):
            count += 1
        stack.extend(comp.get("components") or [])
        stack.extend(comp[k] for k in ("accessory", "component") if isinstance(comp.get(k), dict))
    return count


def picture_kinds(requests: Sequence[Any]) -> dict[str, list[float]]:
    """Uploads by kind (the file name without its numbers and hashes): ``[count, KB]``."""
    kinds: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for r in requests:
        if 200 <= r.status < 300:
            for f in r.files:
                kind = re.sub(r"[-_]?(?:[0-9a-f]{8,}|\d+)", "", f.filename)
                kinds[kind][0] += 1
                kinds[kind][1] += len(f.data) / 1000
    return {k: [int(v[0]), round(v[1], 1)] for k, v in sorted(kinds.items(), key=lambda kv: -kv[1][1])}


def match_figures(
    server: Any,
    requests: Sequence[Any],
    *,
    players: Sequence[Any],
    closed: Any | None,
    channel_id: int,
    started: int = 0,
    player_turns: int = 0,
) -> dict[str, Any]:
    """The figures of one whole match (``requests``: from the challenge to the end card; see
    ``traffic.py``). ``players``: the seats' users; ``closed``: the one whose DMs are closed;
    ``channel_id``: where the challenge was made; ``started``: the index in ``requests`` from which
    the match runs (its last acceptance), for a match without a thread."""
    sent = sends(server, requests)
    threads = {m.message.channel_id for m in sent if server.channels[m.message.channel_id].is_thread}
    places = threads or {channel_id}

    def in_place(m: Sent) -> bool:
        return m.message.channel_id in places and not m.message.ephemeral and (bool(threads) or m.at >= started)

    posts = [m for m in sent if m.create and not m.fill and in_place(m)]
    edits = [m for m in sent if not m.create and in_place(m)]
    pings: Counter[int] = Counter()
    for m in sent:
        if m.create and not m.message.ephemeral:
            pings.update(pinged(m.body))
    uploaded = sum(len(f.data) for r in requests if 200 <= r.status < 300 for f in r.files)
    names = {int(p.id): p.name for p in players}
    turns = max(1, player_turns)
    return {
        "thread_posts_per_match": len(posts),
        "edits_per_match": len(edits),
        "pings_max_per_player": max((pings[i] for i in names), default=0),
        "closed_dm_pings": pings[int(closed.id)] if closed is not None else 0,
        "picture_mb_per_match": round(uploaded / 1e6, 3),
        "board_thumbnails": sum(thumbnails(m.body) for m in sent),
        "player_turns": player_turns,
        "thread_posts_per_player_turn": len(posts) / turns,
        "edits_per_player_turn": len(edits) / turns,
        "detail": {
            "pings_by_player": {names[i]: pings[i] for i in names},
            "closed_dm_player": closed.name if closed is not None else None,
            "match_places": [server.describe_channel(str(c)) for c in sorted(places)],
            "pictures_uploaded": sum(len(r.files) for r in requests if 200 <= r.status < 300),
            "picture_kb_by_kind": picture_kinds(requests),
            "ephemeral_messages": sum(1 for m in sent if m.create and not m.fill and m.message.ephemeral),
            "dm_messages": sum(
                1 for m in sent if m.create and not m.fill and server.channels[m.message.channel_id].is_dm
            ),
        },
    }
