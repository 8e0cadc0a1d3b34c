"""What a match costs in Discord traffic: full matches of each game, played with the real bot inside
the fake Discord with Discord's rate limits enforced, the players clicking the bot's prompts, and the
bot's requests counted.

    python -m tests.discord_harness.traffic [--games SLUG ...] [--think 2.0] [--click-time 0.0]
                                            [--options SLUG TEXT] [--seed N] [--no-images] [--code DIR]

prints one JSON object: ``{"code": {module: file}, "result": {slug: figures}}``. ``bench/traffic.py``
(``python -m bench traffic``) runs it in a subprocess (the benchmarks import neither discord nor the
cogs) and prints the table.

A match is started as players start one: ``/challenge`` in a guild channel, then each invited
player presses *Accept* (through the service if the lobby offers no such button). The moves are
made as players make them, by clicking the prompts (:class:`Monkey`, a player who knows nothing of
the game): for each seat the service awaits (``service.prompt(match, seat)``: ``awaited``,
``seat_step``), the player finds the seat's current prompt, the newest message they can see (DMs,
ephemeral messages to them, guild channels and threads) with a usable component whose custom_id is
``m:<match>:<seat>:<seat step>:...`` (the grammar of ``cogs/games/base.py``), and uses a random one
of those components, preferring what it has not tried yet in this move (a custom_id it has not used,
then the label or placeholder, numbers aside, it has used least: a player does not press the same
thing over and over to no effect): a button is clicked, a string select gets random options (as
many as its min/max allow), a modal the bot opens is filled in (a text input's default; for a number-like input
a random number in the range its label or placeholder names, else 0-20; else a short name) and
submitted, again with other values if the bot refuses the answer (up to 3 times). The player follows
the prompt as it is edited in place or replaced (an ephemeral message, a follow-up, a new DM or
channel post) until the seat's step advances: that is a move. Without a prompt, a button that opens
the seat's prompt (``open:<match>:<seat>``, e.g. "Make your move" for closed DMs) is pressed. A seat
that made no progress in 25 clicks (or has no prompt at all) makes a random legal move through
``service.submit`` instead (a *fallback* move, counted). Everything random is seeded (``--seed``).
The first action of a move comes ``--think`` seconds after the previous move (on the harness's
clock: a player's think time; nothing sleeps), each further click of the same move
``--click-time`` seconds after the one before (default 0: the moves keep the pace of ``--think``).

Per game (``figures``), counting from the challenge to the end:

- ``rest_calls_per_move``: requests bound by Discord's rate limits, per move: everything but
  interaction responses (the interaction callback, and the follow-ups and the edits, fetches or
  deletions of interaction messages on the interaction's webhook, whose id is the application's);
- ``interaction_calls_per_move``: those interaction responses, per move (Discord does not count them
  against the bot's global rate limit);
- ``clicks_per_move``: the players' interactions while playing (clicks, select picks, modal
  submissions, "open my prompt" presses), per move;
- ``fallback_moves``: moves made through the service because clicking made no progress;
- ``channel_posts_per_move``: messages the bot created (``POST /channels/{id}/messages``) in guild
  channels and threads, per move (``dm_posts_per_move``: in DMs);
- ``max_messages_per_5s_per_channel``: the most messages the bot created that way in one channel
  (or thread, or DM) within any 5 s of the harness's clock;
- ``http_429``: requests Discord answered 429 (the bot waits ``retry_after`` and retries);
- ``loop_block_ms_max``: the longest the event loop ran one callback without yielding while a move
  was handled (from the click, select or modal submission that made the move, or a fallback's
  ``submit``, until the bot had settled), in ms; the fake Discord's own time inside a callback
  (answering a request, validating its body, settling) is subtracted;
- ``moves``, ``seats``, ``seconds`` (wall clock), and ``detail`` (start-up traffic, the worst
  channel, the slowest callback, requests per route, why moves fell back, a digest of the clicks).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .counting import LoopMonitor, interaction_call, match_figures, max_in_window, measure
from .records import HarnessError

__all__ = ["LoopMonitor", "Monkey", "interaction_call", "match_figures", "max_in_window", "measure", "play", "run"]

SLUGS = ["wizards-cup", "firewall", "magic-duel", "arena"]
SEATS = {"magic-duel": 3}
NAMES = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]
MAX_MOVES = 5000
MAX_CLICKS = 25
"""Clicks a seat may spend on one move before it falls back to ``service.submit``."""
MODAL_TRIES = 3
"""Answers a player gives one modal (the bot refusing the earlier ones) before clicking elsewhere."""
CLICK_TIME = 0.0
"""Seconds on the harness's clock between two clicks of the same move (``--click-time``)."""
PACE = (2.0, 10.0)
"""Seconds on the harness's clock before every click (a seeded random number in this range): the
players' steady pace (``--pace``; ``--no-pace``: ``--think`` before a move, ``--click-time`` between
its clicks)."""

BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 2, 3, 4, 18
LINK_STYLES = (5, 6)  # link and premium buttons send no interaction
NUMBER_HINT = re.compile(r"\b(numbers?|how many|amount|count|bid|points?|total|roll|score|value)\b", re.IGNORECASE)
RANGE_HINT = re.compile(r"(-?\d+)\s*(?:-|–|—|to|\.\.)\s*(-?\d+)")
DIGITS = re.compile(r"\d+")
TEXT_ANSWERS = ["Morgana the Bold", "Quill", "Ash and Ember", "Old Grey", "Zed"]


async def play(
    slug: str,
    *,
    think: float,
    seed: int,
    images: bool,
    workdir: Path,
    seats: int | None = None,
    options: str | None = None,
    click_time: float = CLICK_TIME,
    pace: tuple[float, float] | None = PACE,
    closed_dm: bool = True,
) -> dict[str, Any]:
    """One full match of ``slug`` (``options``: the game's options text, as in /challenge;
    ``closed_dm``: the last seat's DMs are closed; ``pace``: see :data:`PACE`)."""
    from bot.client import build_bot
    from bot.settings import Settings
    from db import Database

    from .harness import DiscordHarness

    seats = seats or SEATS.get(slug, 2)
    path = workdir / f"{slug}.sqlite3"
    db = await Database.open(path)
    settings = Settings(discord_token="traffic", database_path=str(path), render_images=images)
    bot = build_bot(settings, db, run_timers=False)
    bot.service._seed_factory = lambda: seed
    harness = await DiscordHarness.create(bot, rate_limits=True, think_time=think)
    started = time.perf_counter()
    try:
        guild = harness.add_guild("Academy")
        channel = harness.add_text_channel(guild, "duels")
        users = [harness.add_member(guild, NAMES[i]) for i in range(seats)]
        closed = users[-1] if closed_dm else None
        if closed is not None:
            harness.close_dms(closed)
        first = len(harness.requests)
        match_id, started = await start(harness, bot, channel, slug, users, options)
        after_start = len(harness.requests)
        monkey = Monkey(harness, bot.service, match_id, users, think=think, click_time=click_time, seed=seed, pace=pace)
        tally = await monkey.play()
        await harness.settle(check=False)
        requests = harness.requests[first:]
        figures = measure(harness.server, requests, tally.moves, harness.requests[first:after_start])
        whole = match_figures(
            harness.server,
            requests,
            players=[harness.user(u) for u in users],
            closed=harness.user(closed) if closed is not None else None,
            channel_id=channel.id,
            started=started - first,
            player_turns=tally.player_turns,
        )
        figures["detail"] |= whole.pop("detail")
        figures |= whole
        figures |= tally.figures() | {"seats": seats, "seconds": time.perf_counter() - started}
        figures["detail"] |= tally.detail()
        figures["detail"]["status"] = str((await bot.service.get(match_id)).status)
        figures["detail"]["rate_limited"] = [
            f"{hit.method} {hit.route}: {harness.server.describe_hit(hit)}" for hit in harness.rate_limit_hits
        ]
        others = [v for v in harness.violations if "Discord would answer 429 " not in v]
        if others or harness.bot_errors:
            raise RuntimeError(
                f"{slug}: the bot broke Discord's rules or failed:\n" + "\n".join(others + harness.bot_errors)
            )
        return figures
    finally:
        await harness.close(raise_errors=False)
        await db.close()


async def start(
    harness: Any, bot: Any, channel: Any, slug: str, users: list[Any], game_options: str | None
) -> tuple[int, int]:
    """The match started by ``/challenge`` and the invited players' acceptances: its id, and the
    index in ``harness.requests`` of the first request of the last acceptance (the match's start)."""
    host, invited = users[0], users[1:]
    names = ["opponent"] + [f"opponent{i}" for i in range(2, len(invited) + 1)]
    options: dict[str, Any] = {"game": slug, **dict(zip(names, invited, strict=True))}
    if game_options:
        options["options"] = game_options
    # wait=False and settle(check=False): a 429 is counted, not raised
    result = await harness.slash(host, channel, "challenge", options, wait=False)
    await harness.settle(check=False)
    (record,) = await bot.service.live_matches_for(host.id)
    lobby = result.message
    started = len(harness.requests)
    for user in invited:
        started = len(harness.requests)
        accept = next((b for b in lobby.buttons if str(b.get("label", "")).startswith("Accept")), None)
        if accept is not None and not accept.get("disabled"):
            await harness.click(user, lobby, accept["custom_id"], wait=False)
        else:
            await bot.service.accept(record.id, user.id)
        await harness.settle(check=False)
    status = str((await bot.service.get(record.id)).status)
    if status != "active":
        raise RuntimeError(f"{slug}: match #{record.id} did not start (status {status})")
    return int(record.id), started


# ------------------------------------------------------------------------------ the players


@dataclass
class Tally:
    """What the players did: moves, clicks, fallbacks, and the loop block of each move."""

    moves: int = 0
    clicks: int = 0
    fallbacks: int = 0
    unanswered: int = 0  # interactions the bot never acknowledged ("This interaction failed")
    impossible: list[str] = field(default_factory=list)  # clicks the fake Discord's client refused
    refused_answers: int = 0  # modal answers the bot refused
    blocks: list[float] = field(default_factory=list)  # ms, one per move
    worst: str = ""
    worst_ms: float = 0.0
    any_click_ms: float = 0.0  # the longest callback after any click, a move or not
    fallback_reasons: Counter[str] = field(default_factory=Counter)
    stuck: list[list[str]] = field(default_factory=list)  # the last clicks of the first fallbacks
    trail: list[str] = field(default_factory=list)  # every click, in order (seat:step:what)
    movers: list[int] = field(default_factory=list)  # the seat of each move, in order

    @property
    def player_turns(self) -> int:
        """Player-turns: runs of moves by the same seat (a turn ends when the next move is another
        seat's: the move passed)."""
        return sum(1 for i, seat in enumerate(self.movers) if i == 0 or self.movers[i - 1] != seat)

    def moved(self, block_ms: float, what: str, seat: int = -1) -> None:
        self.moves += 1
        self.movers.append(seat)
        self.blocks.append(block_ms)
        if block_ms > self.worst_ms:
            self.worst_ms, self.worst = block_ms, what

    def digest(self) -> str:
        return hashlib.sha256("\n".join(self.trail).encode()).hexdigest()[:16]

    def figures(self) -> dict[str, Any]:
        per_move = max(1, self.moves)
        return {
            "clicks_per_move": self.clicks / per_move,
            "fallback_moves": self.fallbacks,
            "loop_block_ms_max": max(self.blocks) if self.blocks else 0.0,
        }

    def detail(self) -> dict[str, Any]:
        return {
            "clicks": self.clicks,
            "click_digest": self.digest(),
            "unanswered_clicks": self.unanswered,
            "impossible_clicks": self.impossible[:5],
            "refused_answers": self.refused_answers,
            "fallback_reasons": dict(self.fallback_reasons),
            "fallback_examples": self.stuck,
            "loop_block_ms_p50": statistics.median(self.blocks) if self.blocks else 0.0,
            "loop_block_ms_max_any_click": self.any_click_ms,
            "slowest_callback": self.worst,
        }


def usable(component: dict[str, Any], prefix: str) -> bool:
    """An enabled button or string select of the prompt whose custom_ids start with ``prefix``."""
    cid = component.get("custom_id")
    if not isinstance(cid, str) or not cid.startswith(prefix) or component.get("disabled"):
        return False
    if component.get("type") == BUTTON:
        return component.get("style") not in LINK_STYLES
    return component.get("type") == STRING_SELECT and bool(component.get("options"))


def looks(component: dict[str, Any]) -> str:
    """What a player recognises a component by: its kind and its label or placeholder (and emoji),
    whatever numbers it shows (a stepper, or a select saying the value chosen so far)."""
    emoji = (component.get("emoji") or {}).get("name") or ""
    text = DIGITS.sub("#", component.get("label") or component.get("placeholder") or "")
    return f"{component.get('type')}:{emoji}:{text}" if emoji or text else str(component.get("custom_id"))


def newness(msg: Any) -> tuple[int, int]:
    """Orders messages by their last change (creation or edit) where the fake records it, then id."""
    return int(getattr(msg, "changed", 0) or 0), int(msg.id)


def modal_fields(components: list[dict[str, Any]], hint: str = "") -> Iterator[tuple[dict[str, Any], str]]:
    """The text inputs and string selects of a modal, each with the text that describes it (its own
    label and placeholder, or those of the label component around it)."""
    for comp in components:
        ctype = comp.get("type")
        if ctype == 1:
            yield from modal_fields(comp.get("components") or [], hint)
        elif ctype == LABEL and isinstance(comp.get("component"), dict):
            yield from modal_fields([comp["component"]], f"{comp.get('label') or ''} {comp.get('description') or ''}")
        elif ctype in (TEXT_INPUT, STRING_SELECT):
            yield comp, f"{hint} {comp.get('label') or ''} {comp.get('placeholder') or ''}"


class Monkey:
    """Players who know nothing of the game: each awaited seat clicks its prompt at random until its
    step advances (see the module's docstring). ``play`` returns the :class:`Tally`."""

    def __init__(
        self,
        harness: Any,
        service: Any,
        match_id: int,
        users: list[Any],
        *,
        think: float,
        click_time: float,
        seed: int,
        pace: tuple[float, float] | None = None,
    ):
        self.harness, self.service, self.match_id, self.users = harness, service, match_id, users
        self.think, self.click_time, self.pace = think, click_time, pace
        self.rng = random.Random(seed)
        self.pace_rng = random.Random(f"pace {seed}")  # apart, so the pace does not change the choices
        self.monitor = LoopMonitor(lambda: harness.overhead_seconds)
        self.tally = Tally()
        self.last: list[int] = []  # the messages the last interaction created or edited
        self.used: set[str] = set()  # the custom_ids used in this move
        self.seen: Counter[str] = Counter()  # how often each kind of component (its look) was used
        self.block = (0.0, "")  # the last interaction's longest callback (ms) and what ran it

    async def play(self) -> Tally:
        """Moves until the match ends."""
        with self.monitor.installed():
            while self.tally.moves < MAX_MOVES:
                if not await self.active():
                    return self.tally
                moved = False
                for seat, user in enumerate(self.users):
                    sp = await self.service.prompt(self.match_id, seat)
                    if not sp.awaited:
                        continue
                    await self.move(seat, user, sp.seat_step)
                    moved = True
                    if not await self.active():
                        break
                if not moved:
                    raise RuntimeError(f"match #{self.match_id}: nobody can move")
        raise RuntimeError(f"match #{self.match_id} did not end in {MAX_MOVES} moves")

    async def active(self) -> bool:
        return str((await self.service.get(self.match_id)).status) == "active"

    async def move(self, seat: int, user: Any, step: int) -> None:
        """One move of ``seat`` (at ``step``): by clicking, else through the service."""
        self.harness.think_time = self.think  # the move's first action comes after the think time
        self.last, self.used, self.seen = [], set(), Counter()
        clicks, opened = self.tally.clicks, 0
        reason = "no progress in %d clicks" % MAX_CLICKS
        while self.tally.clicks - clicks < MAX_CLICKS:
            msg = self.find(user, f"m:{self.match_id}:{seat}:{step}:")
            if msg is not None:
                if await self.use_prompt(user, seat, step, msg):
                    return
                continue
            opener = self.find(user, f"open:{self.match_id}:{seat}", exact=True) if opened < 2 else None
            if opener is None:
                reason = "no prompt" if self.tally.clicks == clicks else "the prompt went away"
                break
            opened += 1
            cid = f"open:{self.match_id}:{seat}"
            await self.interact(f"{seat}:{step}:open", self.harness.click(user, opener, cid, wait=False))
            if await self.made(seat, step):
                return
        await self.fallback(seat, user, step, reason, clicked=self.tally.clicks > clicks)

    # -- finding the prompt ----------------------------------------------------------------------------
    def find(self, user: Any, prefix: str, *, exact: bool = False) -> Any:
        """The newest message ``user`` can see with a usable component whose custom_id starts with
        ``prefix`` (or is ``prefix``): first among those the last interaction created or edited (the
        prompt followed in place, or its replacement), then among all (the last created or edited
        first, where the fake Discord records that order, else the last created)."""
        server = self.harness.server

        def offers(msg: Any) -> bool:
            if msg.deleted or not self.sees(user, msg):
                return False
            return any(usable(c, prefix) and (not exact or c["custom_id"] == prefix) for c in msg.walk_components())

        touched = [server.messages[i] for i in reversed(self.last) if i in server.messages]
        found = next((m for m in touched if offers(m)), None)
        if found is None:
            found = max((m for m in server.messages.values() if offers(m)), key=newness, default=None)
        return found

    def sees(self, user: Any, msg: Any) -> bool:
        if msg.ephemeral and msg.recipient_id != user.id:
            return False
        channel = self.harness.server.channels.get(msg.channel_id)
        return channel is not None and self.harness.world.can_see(user, channel) is None

    # -- clicking ----------------------------------------------------------------------------------------
    async def use_prompt(self, user: Any, seat: int, step: int, msg: Any) -> bool:
        """Use a random component of the prompt ``msg``; whether the move was made."""
        prefix = f"m:{self.match_id}:{seat}:{step}:"
        offered = [c for c in msg.walk_components() if usable(c, prefix)]
        tried = {id(c): (c["custom_id"] in self.used, self.seen[looks(c)]) for c in offered}
        least = min(tried.values())
        comp = self.rng.choice([c for c in offered if tried[id(c)] == least])
        self.used.add(comp["custom_id"])
        self.seen[looks(comp)] += 1
        result = await self.use(user, f"{seat}:{step}", msg, comp, prefix)
        if result is not None and result.modal is not None:
            return await self.answer(user, seat, step, msg, comp, result.modal)
        return await self.made(seat, step)

    async def use(self, user: Any, where: str, msg: Any, comp: dict[str, Any], prefix: str) -> Any:
        """Click the button ``comp`` or pick random options in the select ``comp``."""
        cid = comp["custom_id"]
        payload = cid[len(prefix) :]
        if comp.get("type") == BUTTON:
            return await self.interact(f"{where}:click {payload}", self.harness.click(user, msg, cid, wait=False))
        options = [str(o["value"]) for o in comp.get("options") or []]
        high = min(int(comp.get("max_values", 1)), len(options))
        values = self.rng.sample(options, self.rng.randint(min(int(comp.get("min_values", 1)), high), high))
        return await self.interact(
            f"{where}:select {payload} {','.join(values)}",
            self.harness.select(user, msg, cid, values, wait=False),
        )

    async def answer(self, user: Any, seat: int, step: int, msg: Any, comp: dict[str, Any], modal: Any) -> bool:
        """Fill in and submit the modal the prompt opened; if the bot refuses the answer, open it
        again and give another (up to :data:`MODAL_TRIES` answers). Whether the move was made."""
        prefix = f"m:{self.match_id}:{seat}:{step}:"
        for attempt in range(MODAL_TRIES):
            if attempt:
                if msg.deleted or comp["custom_id"] not in msg.custom_ids:
                    return False
                reopened = await self.use(user, f"{seat}:{step}", msg, comp, prefix)
                if reopened is None or reopened.modal is None:
                    return await self.made(seat, step)
                modal = reopened.modal
            values = self.fill(modal, first=attempt == 0)
            cid = str(modal.get("custom_id"))
            result = await self.interact(
                f"{seat}:{step}:modal {cid.removeprefix(prefix)} {sorted(values.items())}",
                self.harness.submit_modal(user, values, custom_id=cid, wait=False),
            )
            if await self.made(seat, step):
                return True
            if result is not None and self.shows_prompt(result, prefix):
                return False  # the answer led to the prompt's next screen
            self.tally.refused_answers += 1
        return False

    def shows_prompt(self, result: Any, prefix: str) -> bool:
        """Whether the interaction created or edited a message that carries the prompt."""
        messages = [self.harness.server.messages.get(i) for i in result.record.touched_ids]
        return any(m is not None and any(usable(c, prefix) for c in m.walk_components()) for m in messages)

    def fill(self, modal: dict[str, Any], *, first: bool) -> dict[str, Any]:
        """Values for every field of ``modal``: a text input's default (first answer only), a
        random number for a number-like input, else a short name; random options for a select."""
        values: dict[str, Any] = {}
        for comp, hint in modal_fields(modal.get("components") or []):
            if comp.get("type") == STRING_SELECT:
                options = [str(o["value"]) for o in comp.get("options") or []]
                high = min(int(comp.get("max_values", 1)), len(options))
                low = min(max(int(comp.get("min_values", 1)), 1 if comp.get("required", True) else 0), high)
                values[comp["custom_id"]] = self.rng.sample(options, self.rng.randint(low, high))
            else:
                values[comp["custom_id"]] = self.text(comp, hint, first=first)
        return values

    def text(self, comp: dict[str, Any], hint: str, *, first: bool) -> str:
        default = str(comp.get("value") or "")
        low, high = int(comp.get("min_length", 0)), int(comp.get("max_length", 4000))
        if default and first:
            return default
        if NUMBER_HINT.search(hint) or default.lstrip("-").isdigit():
            bounds = RANGE_HINT.search(hint)
            lo, hi = (int(bounds[1]), int(bounds[2])) if bounds else (0, max(20, 2 * int(default or 0)))
            text = str(self.rng.randint(min(lo, hi), max(lo, hi)))
        else:
            text = self.rng.choice([answer for answer in TEXT_ANSWERS if answer != default])
        return text[:high].ljust(low, "x")

    async def interact(self, what: str, send: Awaitable[Any]) -> Any:
        """One interaction of a player (``send``, not yet awaited): sent, the bot settled, its
        longest callback kept."""
        self.tally.clicks += 1
        self.tally.trail.append(what)
        if self.pace is not None:
            self.harness.think_time = self.next_pause()
        self.monitor.reset()
        try:
            result = await send
        except HarnessError as exc:  # Discord's client would not send this (a bot's malformed component)
            self.tally.impossible.append(f"{what}: {exc}"[:300])
            self.block = (0.0, "")
            return None
        await self.harness.settle(check=False)
        self.harness.think_time = self.click_time  # the next click of the same move
        self.block = (self.monitor.longest * 1000, self.monitor.what)
        self.tally.any_click_ms = max(self.tally.any_click_ms, self.block[0])
        if not result.responded:
            self.tally.unanswered += 1
        self.last = list(result.record.touched_ids)
        return result

    def next_pause(self) -> float:
        """Seconds before the next click at the players' pace."""
        assert self.pace is not None
        return self.pace_rng.uniform(*self.pace)

    async def made(self, seat: int, step: int) -> bool:
        """Whether the seat's step advanced (the move was made): counted, with its loop block."""
        if await self.service.seat_step(self.match_id, seat) == step:
            return False
        self.tally.moved(*self.block, seat=seat)
        return True

    async def fallback(self, seat: int, user: Any, step: int, reason: str, *, clicked: bool) -> None:
        """A random legal action through the service, for a seat that could not click its move."""
        sp = await self.service.prompt(self.match_id, seat)
        choices = sp.decision.choices if sp.decision is not None else ()
        if not sp.awaited or sp.seat_step != step or not len(choices):
            raise RuntimeError(f"match #{self.match_id}: seat {seat} cannot move at step {step}")
        action = choices[self.rng.randrange(len(choices))]
        self.tally.fallbacks += 1
        self.tally.fallback_reasons[reason] += 1
        if len(self.tally.stuck) < 3:
            self.tally.stuck.append([reason, *self.tally.trail[-6:]])
        self.tally.trail.append(f"{seat}:{step}:fallback")
        if self.pace is not None:
            self.harness.advance(self.next_pause())
        elif not clicked:
            self.harness.advance(self.think)
        self.monitor.reset()
        await self.service.submit(self.match_id, user.id, action, seat_step=step)
        await self.harness.settle(check=False)
        self.tally.moved(self.monitor.longest * 1000, self.monitor.what, seat=seat)


def loaded_from() -> dict[str, str]:
    return {name: str(getattr(sys.modules.get(name), "__file__", "")) for name in ("bot", "cogs", "db", "rules")}


async def run(
    games: list[str],
    *,
    think: float,
    seed: int,
    images: bool,
    options: dict[str, str],
    click_time: float = CLICK_TIME,
    pace: tuple[float, float] | None = PACE,
    closed_dm: bool = True,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="traffic-") as tmp:
        for slug in games:
            text = options.get(slug)
            out[slug] = await play(
                slug,
                think=think,
                seed=seed,
                images=images,
                workdir=Path(tmp),
                options=text,
                click_time=click_time,
                pace=pace,
                closed_dm=closed_dm,
            )
            out[slug]["options"] = text
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.discord_harness.traffic")
    parser.add_argument("--games", nargs="*", default=SLUGS, choices=SLUGS)
    parser.add_argument("--think", type=float, default=2.0, help="seconds on the harness's clock before each move")
    parser.add_argument(
        "--click-time", type=float, default=CLICK_TIME, help="seconds between two clicks of the same move"
    )
    parser.add_argument(
        "--pace", type=float, nargs=2, default=PACE, metavar=("LOW", "HIGH"), help="seconds before every click"
    )
    parser.add_argument("--no-pace", action="store_true", help="--think before a move, --click-time between clicks")
    parser.add_argument("--open-dms", action="store_true", help="no seat with its DMs closed")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--no-images", action="store_true", help="RENDER_IMAGES off")
    parser.add_argument(
        "--options",
        nargs=2,
        action="append",
        default=[],
        metavar=("SLUG", "TEXT"),
        help="a game's options, as in /challenge (repeatable)",
    )
    parser.add_argument("--code", default=None, help="import bot, cogs, db and rules from this folder")
    args = parser.parse_args(argv)
    if args.code:
        sys.path.insert(0, str(Path(args.code).resolve()))
    result = asyncio.run(
        run(
            args.games,
            think=args.think,
            seed=args.seed,
            images=not args.no_images,
            options=dict(args.options),
            click_time=args.click_time,
            pace=None if args.no_pace else (min(args.pace), max(args.pace)),
            closed_dm=not args.open_dms,
        )
    )
    json.dump({"code": loaded_from(), "result": result}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
