"""What the traffic benchmark counts (see traffic.py): the messages per channel within any 5 s,
the longest event-loop callback, which requests are interaction responses (not rate-limited), and
the figures of a played match's requests."""

from __future__ import annotations

import asyncio
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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
