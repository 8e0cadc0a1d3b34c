"""What a match costs in Discord traffic: full matches of each game, played with the real bot inside
the fake Discord with Discord's rate limits enforced, and the bot's requests counted.

    python -m tests.discord_harness.traffic [--games SLUG ...] [--think 2.0] [--options SLUG TEXT]
                                            [--seed N] [--no-images] [--code DIR]

prints one JSON object: ``{"code": {module: file}, "result": {slug: figures}}``. ``bench/traffic.py``
(``python -m bench traffic``) runs it in a subprocess (the benchmarks import neither discord nor the
cogs) and prints the table.

A match is started as players start one: ``/challenge`` in a guild channel, then each invited
player presses *Accept* (through the service if the lobby offers no such button). The moves are
made through the match service, so the driver does not depend on the prompts' layout: each turn,
every awaited seat takes a random legal action from ``service.prompt(match, seat).decision``
(seeded) and submits it with ``service.submit``, after ``--think`` seconds on the harness's clock (a
player's think time; nothing sleeps). The bot does all its Discord posting as usual: channel posts,
DMs, prompts, edits. Per game (``figures``):

- ``rest_calls_per_move``: requests counted against Discord's rate limits (everything but
  interaction callbacks), from the challenge to the end, per move;
- ``channel_posts_per_move``: messages the bot created in guild channels and threads, per move
  (``dm_posts_per_move``: in DMs);
- ``max_messages_per_5s_per_channel``: the most messages the bot created in one channel (or thread,
  or DM) within any 5 s of the harness's clock;
- ``http_429``: requests Discord answered 429 (the bot waits ``retry_after`` and retries);
- ``loop_block_ms_max``: the longest the event loop ran one callback without yielding, while a move
  was being handled (from ``submit`` until the bot had settled), in ms; the fake Discord's own time
  inside a callback (answering a request, validating its body, settling) is subtracted;
- ``moves``, ``seats``, ``seconds`` (wall clock), and ``detail`` (start-up traffic, the worst
  channel, the slowest callback, requests per route).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SLUGS = ["wizards-cup", "firewall", "magic-duel", "arena"]
SEATS = {"magic-duel": 3}
NAMES = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]
WINDOW = 5.0  # seconds: Discord's per-channel message window
MAX_MOVES = 5000


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


async def play(
    slug: str,
    *,
    think: float,
    seed: int,
    images: bool,
    workdir: Path,
    seats: int | None = None,
    options: str | None = None,
) -> dict[str, Any]:
    """One full match of ``slug`` (``options``: the game's options text, as in /challenge)."""
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
        first = len(harness.requests)
        match_id = await start(harness, bot, channel, slug, users, options)
        after_start = len(harness.requests)
        moves, blocks, worst = await play_moves(harness, bot, match_id, users, think=think, seed=seed)
        await harness.settle(check=False)
        figures = measure(harness, harness.requests[first:], moves, harness.requests[first:after_start])
        figures |= {
            "seats": seats,
            "loop_block_ms_max": max(blocks) if blocks else 0.0,
            "seconds": time.perf_counter() - started,
        }
        figures["detail"]["loop_block_ms_p50"] = statistics.median(blocks) if blocks else 0.0
        figures["detail"]["slowest_callback"] = worst
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


async def start(harness: Any, bot: Any, channel: Any, slug: str, users: list[Any], game_options: str | None) -> int:
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
    for user in invited:
        accept = next((b for b in lobby.buttons if str(b.get("label", "")).startswith("Accept")), None)
        if accept is not None and not accept.get("disabled"):
            await harness.click(user, lobby, accept["custom_id"], wait=False)
        else:
            await bot.service.accept(record.id, user.id)
        await harness.settle(check=False)
    status = str((await bot.service.get(record.id)).status)
    if status != "active":
        raise RuntimeError(f"{slug}: match #{record.id} did not start (status {status})")
    return int(record.id)


async def play_moves(
    harness: Any, bot: Any, match_id: int, users: list[Any], *, think: float, seed: int
) -> tuple[int, list[float], str]:
    """Random legal moves until the match ends; the longest callback (ms) of each move."""
    rng = random.Random(seed)
    monitor = LoopMonitor(lambda: harness.overhead_seconds)
    moves, worst, worst_ms = 0, "", 0.0
    blocks: list[float] = []
    with monitor.installed():
        while moves < MAX_MOVES:
            record = await bot.service.get(match_id)
            if str(record.status) != "active":
                return moves, blocks, worst
            moved = False
            for seat, user in enumerate(users):
                sp = await bot.service.prompt(match_id, seat)
                if not sp.awaited or sp.decision is None or not len(sp.decision.choices):
                    continue
                action = sp.decision.choices[rng.randrange(len(sp.decision.choices))]
                harness.advance(think)
                monitor.reset()
                await bot.service.submit(match_id, user.id, action, seat_step=sp.seat_step)
                await harness.settle(check=False)
                blocks.append(monitor.longest * 1000)
                if blocks[-1] > worst_ms:
                    worst_ms, worst = blocks[-1], monitor.what
                moves += 1
                moved = True
                if str((await bot.service.get(match_id)).status) != "active":
                    break
            if not moved:
                raise RuntimeError(f"match #{match_id}: nobody can move")
    raise RuntimeError(f"match #{match_id} did not end in {MAX_MOVES} moves")


def measure(harness: Any, requests: list[Any], moves: int, start_requests: list[Any]) -> dict[str, Any]:
    server = harness.server
    rest = [r for r in requests if r.rate_limited]
    posts = [r for r in requests if r.method == "POST" and r.dpy_route == "/channels/{channel_id}/messages"]
    created = [r for r in posts if r.status == 200]
    by_channel: dict[str, list[float]] = defaultdict(list)
    for r in created:
        by_channel[r.params["channel_id"]].append(r.at)
    peaks = {cid: max_in_window(times) for cid, times in by_channel.items()}
    worst_channel = max(peaks, key=lambda c: peaks[c]) if peaks else None
    in_dm = {cid for cid in by_channel if server.channels[int(cid)].is_dm}
    per_move = max(1, moves)
    return {
        "moves": moves,
        "rest_calls_per_move": len(rest) / per_move,
        "channel_posts_per_move": sum(1 for r in created if r.params["channel_id"] not in in_dm) / per_move,
        "dm_posts_per_move": sum(1 for r in created if r.params["channel_id"] in in_dm) / per_move,
        "max_messages_per_5s_per_channel": peaks[worst_channel] if worst_channel else 0,
        "http_429": sum(1 for r in requests if r.status == 429),
        "detail": {
            "rest_calls": len(rest),
            "rest_calls_to_start": sum(1 for r in start_requests if r.rate_limited),
            "busiest_channel": server.describe_channel(worst_channel) if worst_channel else None,
            "routes": dict(Counter(f"{r.method} {r.route}" for r in rest).most_common()),
        },
    }


def loaded_from() -> dict[str, str]:
    return {name: str(getattr(sys.modules.get(name), "__file__", "")) for name in ("bot", "cogs", "db", "rules")}


async def run(games: list[str], *, think: float, seed: int, images: bool, options: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="traffic-") as tmp:
        for slug in games:
            text = options.get(slug)
            out[slug] = await play(slug, think=think, seed=seed, images=images, workdir=Path(tmp), options=text)
            out[slug]["options"] = text
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.discord_harness.traffic")
    parser.add_argument("--games", nargs="*", default=SLUGS, choices=SLUGS)
    parser.add_argument("--think", type=float, default=2.0, help="seconds on the harness's clock before each move")
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
        run(args.games, think=args.think, seed=args.seed, images=not args.no_images, options=dict(args.options))
    )
    json.dump({"code": loaded_from(), "result": result}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
