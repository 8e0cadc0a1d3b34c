"""A whole Swiss tournament in Discord: the real bot (all its cogs) inside the fake Discord with
Discord's rate limits enforced, an organizer and ``--players`` members, every match played to the
end, the tournament run to its champion; the bot's requests counted.

    python -m tests.discord_harness.tournament [--players 64] [--game wizards-cup] [--seed N]
                                               [--think 5.0] [--join-every 2.0] [--rounds N]
                                               [--no-images]
                                               [--code DIR]

prints one JSON object: ``{"code": {module: file}, "result": {figures}}``. ``bench/tournament.py``
(``python -m bench tournament``) runs it in a subprocess (the benchmarks import neither discord nor
the cogs) and prints the table.

The event, as people run one: the first member (the organizer, who plays too) runs ``/tournament
create`` (Swiss, the game, the default number of rounds) in a guild channel; every member presses
*Join* on the tournament message, one every ``--join-every`` seconds; the organizer runs
``/tournament start``. Every round's matches are then played at once, as players play them: each
match is its own player pair, whose next move comes a think time after its last one (uniform
between half and one and a half ``--think`` seconds on the harness's clock, seeded), so the moves
of the round's matches interleave on the clock as they would. A move is a random legal action
(seeded) through the match service (``service.submit``, as the traffic driver's fallback does):
the bot tells it in Discord as it tells any move (the board in the thread, the story posts, the
next prompt by DM). Between moves the bot's tournament timer runs every
``TOURNAMENT_TICK_SECONDS`` of the harness's clock (``bot.tick_tournaments()``: the tournament
message edited, round starts and the champion announced), as the real client's timer loop does.
When the last match of a round ends, the service pairs the next round and starts its matches (their
threads, opening boards and first prompts) in the background, which the harness's settle waits for.
Nothing sleeps: the harness's clock is moved (players' think time, and 429s, the bot's own pacing
and the tournament message's edit window waited out on it, see ``pace_on_harness_clock`` and
``presenter_on_harness_clock``).

Rate limits are enforced as in the traffic driver: a 429 is answered, counted, waited out on the
harness's clock and retried, as discord.py does; the run does not stop for it.

Figures (``result``): ``http_429`` (requests answered 429), ``matches`` (tournament matches played
to their end), ``rounds``, ``seconds`` (wall time of the event: from ``/tournament create`` to the
champion), ``event_clock_s`` (the same on the harness's clock: how long the event took for the
players), ``rest_calls`` (requests counted against the rate limits: all but interaction
responses), ``interaction_calls``, ``max_messages_per_5s_per_channel`` (the most messages the bot
created in one channel, thread or DM within any 5 s), ``channel_max_messages_per_5s`` and
``channel_max_requests_per_5s`` (in the tournament's channel itself: its posts, and every request
on it, thread starts and edits included), ``champion`` (whether the tournament finished with one),
``status``, ``tournament_message_edits`` (edits of the one tournament message), ``moves``,
``players``, ``game``, and ``detail`` (routes, the 429s, round starts on the clock).
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .counting import interaction_call, max_in_window, measure
from .traffic import loaded_from

__all__ = ["main", "pace_on_harness_clock", "play", "presenter_on_harness_clock", "run"]

TICK_SECONDS = 5.0
"""The bot's tournament timer period (``bot.client.TOURNAMENT_TICK_SECONDS``; read from there)."""
SETTLE = 600.0
"""Seconds (real) a settle may take: starting a round's 32 matches takes a while."""
MAX_EVENTS = 200_000
"""Moves and ticks the driver makes at most before it gives up (a stuck tournament)."""


def pace_on_harness_clock(bot: Any, harness: Any) -> Any:
    """Make the bot's own pacing (``cogs.pacing``: the thread starts of ``cogs.placement``, if this
    code has them) wait on the harness's clock, as the fake Discord's 429s are waited out: the
    clock is moved, nothing sleeps. Returns the pacer (None: no pacing in this code)."""
    table = getattr(getattr(bot.service, "notifier", None), "table", None)
    return on_harness_clock(getattr(table, "pacer", None), harness)


def presenter_on_harness_clock(bot: Any, harness: Any) -> Any:
    """Run the tournament presenter's edit window (``cogs.tournament_presenter.EDIT_EVERY``, if this code
    has it) on the harness's clock: a deferred edit moves the clock to the window's end rather
    than sleeping, and the fake Discord's rate limits see the edits' true spacing. Returns the
    presenter (None: no edit window in this code)."""
    return on_harness_clock(getattr(bot, "tournament_presenter", None), harness)


def on_harness_clock(obj: Any, harness: Any) -> Any:
    """Give ``obj`` (with ``clock`` and ``sleep`` attributes) the harness's clock: a sleep moves
    the clock instead of sleeping. Returns ``obj`` (None when it is None or has no such attributes)."""
    if obj is None or not hasattr(obj, "clock") or not hasattr(obj, "sleep"):
        return None

    async def sleep(seconds: float) -> None:
        harness.clock.advance_to(harness.clock.now() + seconds)
        await asyncio.sleep(0)

    obj.clock = harness.clock.now
    obj.sleep = sleep
    return obj


class Agenda:
    """The simulation's agenda: moves of live matches and the bot's timer ticks, by harness time."""

    def __init__(self) -> None:
        self.heap: list[tuple[float, int, str, int]] = []
        self.count = 0

    def push(self, at: float, kind: str, match_id: int = 0) -> None:
        self.count += 1
        heapq.heappush(self.heap, (at, self.count, kind, match_id))

    def pop(self) -> tuple[float, str, int]:
        at, _, kind, match_id = heapq.heappop(self.heap)
        return at, kind, match_id


async def move_once(service: Any, match_id: int, rng: random.Random) -> bool:
    """One random legal move by an awaited seat of the match (a random one); False if none can."""
    m = await service.get(match_id)
    if str(m.status) != "active":
        return False
    seats = list(range(len(m.seats)))
    rng.shuffle(seats)
    for s in seats:
        p = await service.prompt(match_id, s)
        if p.awaited and p.decision is not None and len(p.decision.choices) > 0:
            action = p.decision.choices[rng.randrange(len(p.decision.choices))]
            await service.submit(match_id, m.seats[s].user_id, action, seat_step=p.seat_step)
            return True
    return False


async def play(
    players: int,
    *,
    game: str,
    seed: int,
    think: float,
    join_every: float,
    images: bool,
    workdir: Path,
    rounds: int | None = None,
) -> dict[str, Any]:
    """One Swiss tournament of ``players`` members of ``game``, played to its champion
    (``rounds``: as /tournament create's option; None: the default, enough to find a winner)."""
    from bot import client as bot_client
    from bot.client import build_bot
    from bot.settings import Settings
    from db import Database

    from .harness import DiscordHarness

    tick_seconds = float(getattr(bot_client, "TOURNAMENT_TICK_SECONDS", TICK_SECONDS))
    rng = random.Random(seed)
    path = workdir / "tournament.sqlite3"
    db = await Database.open(path)
    settings = Settings(discord_token="tournament", database_path=str(path), render_images=images)
    bot = build_bot(settings, db, run_timers=False)
    bot.service._seed_factory = lambda: rng.randrange(2**31)
    harness = await DiscordHarness.create(bot, rate_limits=True, think_time=join_every)
    pacer = pace_on_harness_clock(bot, harness)
    presenter_on_harness_clock(bot, harness)
    try:
        guild = harness.add_guild("Academy")
        channel = harness.add_text_channel(guild, "tournaments")
        width = len(str(players))
        users = [harness.add_member(guild, f"wizard{i + 1:0{width}d}") for i in range(players)]
        organizer = users[0]
        first = len(harness.requests)
        started = time.perf_counter()
        clock0 = harness.clock.now()

        # the sign-up: /tournament create, everyone presses Join, the organizer starts
        options: dict[str, Any] = {"game": game, "format": "swiss"}
        if rounds is not None:
            options["rounds"] = rounds
        created = await harness.slash(organizer, channel, "tournament create", options, wait=False)
        await harness.settle(SETTLE, check=False)
        message = created.message
        join = next(b for b in message.buttons if b.get("label") == "Join")
        tid = int(str(join["custom_id"]).rsplit(":", 1)[1])
        for user in users:
            await harness.click(user, message, join["custom_id"], wait=False)
            await harness.settle(SETTLE, check=False)
        harness.think_time = join_every
        await harness.slash(organizer, channel, "tournament start", {"tournament": tid}, wait=False)
        await harness.settle(SETTLE, check=False)
        start_clock = harness.clock.now()
        await bot.tick_tournaments()
        await harness.settle(SETTLE, check=False)

        # the rounds: every live match moves a think time after its last move; the timer ticks
        agenda = Agenda()
        scheduled: set[int] = set()
        played: set[int] = set()
        round_starts: list[dict[str, Any]] = []
        moves = 0

        async def schedule_new() -> int:
            """Put the current round's new live matches on the agenda; how many."""
            view = await bot.tournaments.view(tid)
            fresh = 0
            for link in view.current_links().values():
                if link.recorded or link.match_id in scheduled:
                    continue
                scheduled.add(link.match_id)
                agenda.push(harness.clock.now() + think * rng.uniform(0.5, 1.5), "move", link.match_id)
                fresh += 1
            if fresh and view.tournament is not None and view.tournament.current_round is not None:
                round_starts.append(
                    {
                        "round": view.tournament.current_round.number,
                        "matches": fresh,
                        "at_s": round(harness.clock.now() - clock0, 1),
                    }
                )
            return fresh

        await schedule_new()
        agenda.push(harness.clock.now() + tick_seconds, "tick")
        status = (await bot.tournaments.record(tid)).status.value
        for _ in range(MAX_EVENTS):
            if status != "running" or not agenda.heap:
                break
            at, kind, match_id = agenda.pop()
            harness.clock.advance_to(at)
            if kind == "tick":
                await bot.tick_tournaments()
                await harness.settle(SETTLE, check=False)
                await schedule_new()
                agenda.push(harness.clock.now() + tick_seconds, "tick")
            else:
                moved = await move_once(bot.service, match_id, rng)
                await harness.settle(SETTLE, check=False)
                if moved:
                    moves += 1
                if str((await bot.service.get(match_id)).status) == "active":
                    agenda.push(harness.clock.now() + think * rng.uniform(0.5, 1.5), "move", match_id)
                else:
                    played.add(match_id)
                    await schedule_new()  # the round's last match ended: the next round started
            status = (await bot.tournaments.record(tid)).status.value
        # the timer delivers what is left (the last results, the champion)
        for _ in range(3):
            harness.clock.advance(tick_seconds)
            await bot.service.settle()
            await bot.tick_tournaments()
            await harness.settle(SETTLE, check=False)
        seconds = time.perf_counter() - started
        view = await bot.tournaments.view(tid)
        requests = harness.requests[first:]

        figures = measure(harness.server, requests, moves, [])
        detail = figures["detail"]
        cid = str(channel.id)
        tournament_message = str(view.record.message_id)
        in_channel = [r for r in requests if r.params.get("channel_id") == cid and r.status == 200]
        channel_posts = [
            r.at for r in in_channel if r.method == "POST" and r.dpy_route == "/channels/{channel_id}/messages"
        ]
        edits = [
            r
            for r in requests
            if r.method == "PATCH" and r.params.get("message_id") == tournament_message and r.status == 200
        ]
        t = view.tournament
        champion = t.champion if t is not None else None
        result: dict[str, Any] = {
            "game": game,
            "players": players,
            "http_429": figures["http_429"],
            "matches": len(played),
            "rounds": t.current_round.number if t is not None and t.current_round is not None else 0,
            "seconds": seconds,
            "event_clock_s": harness.clock.now() - clock0,
            "rounds_clock_s": harness.clock.now() - start_clock,
            "rest_calls": detail["rest_calls"],
            "interaction_calls": detail["interaction_calls"],
            "rest_calls_per_move": figures["rest_calls_per_move"],
            "max_messages_per_5s_per_channel": figures["max_messages_per_5s_per_channel"],
            "channel_max_messages_per_5s": max_in_window(channel_posts),
            "channel_max_requests_per_5s": max_in_window([r.at for r in in_channel]),
            "max_requests_per_1s": max_in_window(
                [r.at for r in requests if not interaction_call(r, harness.server.app_id)], 1.0
            ),
            "champion": champion is not None and view.record.status.value == "finished",
            "status": view.record.status.value,
            "tournament_message_edits": len(edits),
            "moves": moves,
            "paced": pacer is not None,
            "pacing_wait_s": float(getattr(pacer, "waited", 0.0)),
            "detail": {
                "champion": view.record.name_of(champion) if champion is not None else None,
                "round_starts": round_starts,
                "busiest_channel": detail["busiest_channel"],
                "routes": detail["routes"],
                "interaction_routes": detail["interaction_routes"],
                "rate_limited": [
                    f"{hit.method} {hit.route}: {harness.server.describe_hit(hit)}"
                    for hit in harness.rate_limit_hits[:20]
                ],
                "rate_limited_routes": dict(Counter(f"{h.method} {h.route}" for h in harness.rate_limit_hits)),
            },
        }
        others = [v for v in harness.violations if "Discord would answer 429 " not in v]
        if others or harness.bot_errors:
            raise RuntimeError("the bot broke Discord's rules or failed:\n" + "\n".join(others + harness.bot_errors))
        return result
    finally:
        await harness.close(raise_errors=False)
        await db.close()


async def run(
    players: int,
    *,
    game: str = "wizards-cup",
    seed: int = 20261126,
    think: float = 5.0,
    join_every: float = 2.0,
    images: bool = False,
    rounds: int | None = None,
) -> dict[str, Any]:
    """:func:`play` in a temporary folder (its database)."""
    with tempfile.TemporaryDirectory(prefix="tournament-") as tmp:
        return await play(
            players,
            game=game,
            seed=seed,
            think=think,
            join_every=join_every,
            images=images,
            workdir=Path(tmp),
            rounds=rounds,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.discord_harness.tournament")
    parser.add_argument("--players", type=int, default=64, help="members who join (the organizer among them)")
    parser.add_argument("--game", default="wizards-cup", help="the game's slug")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--think", type=float, default=5.0, help="a player's mean think time per move (s)")
    parser.add_argument("--join-every", type=float, default=2.0, help="seconds between two Join presses")
    parser.add_argument("--rounds", type=int, default=None, help="Swiss rounds (default: enough for a winner)")
    parser.add_argument("--no-images", action="store_true", help="RENDER_IMAGES off")
    parser.add_argument("--code", default=None, help="import bot, cogs, db and rules from this folder")
    args = parser.parse_args(argv)
    if args.players < 2:
        parser.error("a tournament needs at least 2 players")
    if args.code:
        sys.path.insert(0, str(Path(args.code).resolve()))
    result = asyncio.run(
        run(
            args.players,
            game=args.game,
            seed=args.seed,
            think=args.think,
            join_every=args.join_every,
            images=not args.no_images,
            rounds=args.rounds,
        )
    )
    json.dump({"code": loaded_from(), "result": result}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
