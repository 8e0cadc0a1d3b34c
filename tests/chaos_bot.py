"""One life of a bot that is killed at random (tests/test_chaos.py): the RefereeBot as ``python -m
bot`` builds it (``build_bot``, its timer loop on), on an SQLite file, inside a fake Discord that
outlives the process (a journal: tests/discord_harness/persist.py), with players clicking their
prompts (``traffic.Monkey``: random legal play through the real components) in matches of all four
games at once. The parent kills it with SIGKILL at a random moment and starts the next life on the
same database and Discord. Nobody calls the service's tick: the client's timer loop does what a
restart needs.

    python -m tests.chaos_bot DB WORLD SEED MATCHES [--finish]

Each life prints JSON lines (flushed at once, so a killed life's lines are read all the same):

- ``{"recovery": {...}}`` first: every seat the service awaited in a live match at start-up, and
  those whose player had no prompt (a message they can see with a component of that seat and
  step, or the button that opens it) when the timer loop's second run ended (two timer periods,
  counted in runs of the loop, so that a loaded machine does not make the goal flaky);
- ``{"ack": [match, seat, step]}`` for each move acknowledged to the player (the click's answer
  came back and the seat's step advanced), before the next click;
- with ``--finish``, a last ``{"done": {...}}`` once the ``MATCHES`` matches of each game are over.

Without ``--finish`` the life plays until it is killed (starting a game's next match when its last
one is over, up to ``MATCHES`` per game).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

from bot.client import build_bot
from bot.settings import Settings
from db import Database
from tests.discord_harness import DiscordHarness
from tests.discord_harness.traffic import Monkey

#: The timer loop's period in these processes (TIMER_SECONDS).
TIMER = 1.0
#: Each game, its two players (by name) and short options (so a life sees matches end).
GAMES: dict[str, tuple[tuple[str, str], str | None]] = {
    "wizards-cup": (("ann", "bob"), None),
    "firewall": (("cy", "dee"), None),
    "magic-duel": (("eve", "fay"), "points_to_win=1"),
    "arena": (("gus", "hal"), "grid_size=8 terrain_count=4 game_turn_limit=4"),
}


def say(**line: Any) -> None:
    print(json.dumps(line), flush=True)


async def life(db_path: str, world: str, seed: int, matches: int, finish: bool) -> None:
    db = await Database.open(db_path)
    settings = Settings(discord_token="chaos", database_path=db_path, render_images=False, timer_seconds=TIMER)
    bot = build_bot(settings, db)  # timers on, as the bot runs
    seats = await awaited_seats(bot)  # what the restart must prompt (the service answers before login)
    box: dict[str, Any] = {}
    watch_ticks(bot, box, seats)
    login = time.monotonic()
    h = box["h"] = await DiscordHarness.create(bot, persist=world, rate_limits=False, think_time=0.0)
    try:
        users = {u.name: u for u in h.server.users.values()}
        if "ann" not in users:  # the first life builds the world
            guild = h.add_guild("Academy")
            h.add_text_channel(guild, "duels")
            for (a, b), _ in GAMES.values():
                users[a], users[b] = h.add_member(guild, a), h.add_member(guild, b)
        (channel,) = [c for c in h.server.channels.values() if c.name == "duels"]
        while "missing" not in box and time.monotonic() - login < 60:
            await asyncio.sleep(0.05)
        say(recovery={"awaited": seats, "missing": box.get("missing", seats), "seconds": time.monotonic() - login})
        rng = random.Random(seed)
        await play(h, bot, channel, users, rng, matches, finish)
        if finish:
            await h.settle(check=False)
            say(done={"matches": await statuses(bot)})
    finally:
        await h.close(raise_errors=False)
        await db.close()


async def statuses(bot: Any) -> dict[str, str]:
    rows = await bot.service.db.fetchall("SELECT id, status FROM matches ORDER BY id")
    return {str(r[0]): str(r[1]) for r in rows}


async def awaited_seats(bot: Any) -> list[tuple[int, int, int, int]]:
    """(match, seat, step, user id) of every seat a live match awaits."""
    out = []
    for (match_id,) in await bot.service.db.fetchall("SELECT id FROM matches WHERE status = 'active' ORDER BY id"):
        record = await bot.service.get(match_id)
        for seat in range(len(record.seats)):
            sp = await bot.service.prompt(match_id, seat)
            if sp.awaited:
                out.append((int(match_id), seat, sp.seat_step, record.seats[seat].user_id))
    return out


def has_prompt(h: DiscordHarness, bot: Any, user: Any, match_id: int, seat: int, step: int) -> bool:
    monkey = Monkey(h, bot.service, match_id, [], think=0.0, click_time=0.0, seed=0)
    return (
        monkey.find(user, f"m:{match_id}:{seat}:{step}:") is not None
        or monkey.find(user, f"open:{match_id}:{seat}", exact=True) is not None
    )


def watch_ticks(bot: Any, box: dict[str, Any], seats: list[tuple[int, int, int, int]]) -> None:
    """Count the timer loop's runs (the loop calls ``service.tick``; this only watches): when the
    second ends, ``box["missing"]`` gets the awaited seats whose player has no prompt."""
    real = bot.service.tick
    runs = [0]

    async def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            return await real(*args, **kwargs)
        finally:
            runs[0] += 1
            h = box.get("h")
            if runs[0] >= 2 and "missing" not in box and h is not None:
                box["missing"] = [
                    [m, s, step]
                    for m, s, step, user in seats
                    if not has_prompt(h, bot, h.server.users[user], m, s, step)
                ]

    bot.service.tick = counted


async def play(
    h: DiscordHarness, bot: Any, channel: Any, users: dict[str, Any], rng: random.Random, matches: int, finish: bool
) -> None:
    """Moves round the games, one at a time, starting a game's next match when its last is over."""
    service = bot.service
    while True:
        moved = False
        for slug, ((a, b), options) in GAMES.items():
            host, guest = users[a], users[b]
            rows = await service.db.fetchall("SELECT id, status FROM matches WHERE game = ? ORDER BY id", (slug,))
            live = [int(r[0]) for r in rows if r[1] in ("active", "pending")]
            if not live:
                if len(rows) >= matches:
                    continue
                await challenge(h, channel, slug, host, guest, options)
                moved = True
                continue
            match_id = live[-1]
            record = await service.get(match_id)
            if str(record.status) == "pending":
                for seat in record.seats:
                    if not seat.accepted:
                        await service.accept(match_id, seat.user_id)
                moved = True
                continue
            players = [h.server.users[s.user_id] for s in record.seats]
            monkey = Monkey(h, service, match_id, players, think=0.0, click_time=0.0, seed=rng.randrange(1 << 30))
            for seat, user in enumerate(players):
                sp = await service.prompt(match_id, seat)
                if not sp.awaited:
                    continue
                await monkey.move(seat, user, sp.seat_step)
                say(ack=[match_id, seat, sp.seat_step])
                moved = True
                break
        if not moved:
            if finish:
                return
            await asyncio.sleep(0.2)


async def challenge(h: DiscordHarness, channel: Any, slug: str, host: Any, guest: Any, options: str | None) -> None:
    args: dict[str, Any] = {"game": slug, "opponent": guest}
    if options:
        args["options"] = options
    result = await h.slash(host, channel, "challenge", args, wait=False)
    await h.settle(check=False)
    lobby = result.message
    accept = next((b for b in lobby.buttons if str(b.get("label", "")).startswith("Accept")), None) if lobby else None
    if accept is not None:
        await h.click(guest, lobby, accept["custom_id"], wait=False)
        await h.settle(check=False)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("world")
    parser.add_argument("seed", type=int)
    parser.add_argument("matches", type=int)
    parser.add_argument("--finish", action="store_true")
    args = parser.parse_args(argv)
    asyncio.run(life(args.db, args.world, args.seed, args.matches, args.finish))


if __name__ == "__main__":
    main(sys.argv[1:])
