"""``python -m bench web``: the web table under load (issue 35, part 6).

The bot's own pieces, in this process: a match service on a fresh SQLite file with :data:`MATCHES`
live matches, the four games in turn (:data:`GAMES`), the replays, and the web table
(``web.make_app``) on a free port, its per-client limits lifted (every client is 127.0.0.1). The
clients are another process (``bench.web_clients``), so what is measured here is the server's side:

- **pages**: ``--viewers`` (200) clients each load match pages back to back for ``--seconds``;
  ``page_p50_ms_200_viewers`` and ``page_p99_ms_200_viewers`` are the latencies they saw.
- **push**: ``--watchers`` (1,000) clients each hold a match's live stream open while this process
  makes ``--moves`` moves, one every ``--interval`` seconds; ``push_p99_ms_1000_watchers`` is the
  time from a move's commit (its ``submit`` returned) to its ``moved`` event at each watcher
  (goal: 500 ms), on the machine's clock (both processes read ``time.time``).
- ``page_p50_ms_by_game``: the pages' p50 per game (each game's board and story differ).
- ``kb_per_watcher``: this process's resident memory with the watchers connected, less before
  they connected, per watcher.
- ``errors``: answers that were not 200, streams that broke, and moves a watcher never saw.

``--quick`` (under a minute) uses 50 viewers and 200 watchers, whose figures are written under
the same keys (the JSON says the sizes: ``viewers``, ``watchers``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .report import table, write_json
from .service_worker import percentile

MATCHES = 20
GAMES = ("firewall", "wizards-cup", "magic-duel", "arena")  # the live matches' games, in turn
PUSH_GOAL_MS = 500.0
ROOT = Path(__file__).resolve().parent.parent


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def run(viewers: int, watchers: int, seconds: float, moves: int, interval: float, seed: int) -> dict[str, Any]:
    from bot.matches import MatchService
    from bot.replays import ReplayService
    from bot.signing import Signer
    from bot.watch import MatchWatch
    from db import Database
    from web import WebServer, make_app
    from web.app import RateLimiter

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        db = await Database.open(Path(tmp) / "web.sqlite3")
        service = MatchService(db, seed_factory=lambda: rng.getrandbits(31))
        signer = Signer("bench-web-secret-of-some-length")
        watch = MatchWatch(db)
        # every client is 127.0.0.1: the per-client limits (requests, open streams) are lifted
        unlimited = RateLimiter(rate=1e9, burst=10**9)
        app = make_app(ReplayService(db), signer, watch=watch, limiter=unlimited, streams_per_client=10**9)
        server = WebServer(app, "127.0.0.1", 0)
        await server.start()
        client: subprocess.Popen[str] | None = None
        try:
            matches = []
            for i in range(MATCHES):
                a, b = 2 * i + 1, 2 * i + 2
                game = GAMES[i % len(GAMES)]
                record = await service.create_challenge(game, None, 1, 1, (a, f"p{a}"), [(b, f"p{b}")])
                await service.accept(record.id, b)
                matches.append((record.id, [a, b]))
                for _ in range(4):
                    await _move(service, record.id, [a, b], rng)
            urls = [f"{server.url}/m/{signer.token('match', m)}" for m, _ in matches]
            plan = {"urls": urls, "viewers": viewers, "watchers": watchers, "seconds": seconds}
            client = subprocess.Popen(
                [sys.executable, "-m", "bench.web_clients"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert client.stdin is not None and client.stdout is not None
            client.stdin.write(json.dumps(plan) + "\n")
            client.stdin.flush()
            loop = asyncio.get_running_loop()
            ready = json.loads(await loop.run_in_executor(None, client.stdout.readline))  # pages done, watchers up
            before = rss_kb()
            from web.app import OPEN

            # every stream open (each watched match read at least once) before the first move
            await _until(lambda: watch.watched == len(urls) and sum(app[OPEN].values()) >= watchers, 30)
            connected = rss_kb()
            committed: dict[str, dict[int, float]] = {}
            for n in range(moves):
                match_id, users = matches[n % len(matches)]
                version = await _move(service, match_id, users, rng)
                if version is None:  # the match is over: its watchers are told so, no move to time
                    continue
                committed.setdefault(str(match_id), {})[version] = time.time()
                await asyncio.sleep(interval)
            await asyncio.sleep(1.0)
            client.stdin.write(json.dumps({"stop": True, "committed": committed}) + "\n")
            client.stdin.flush()
            seen = json.loads(await loop.run_in_executor(None, client.stdout.readline))
        finally:
            if client is not None and client.poll() is None:
                client.kill()
            await server.stop()
            await service.close()
            await db.close()
    pages = [float(x) for x in ready["page_ms"]]
    by_game: dict[str, list[float]] = {}
    for index, ms in ready["page_by_url"]:
        by_game.setdefault(GAMES[int(index) % len(GAMES)], []).append(float(ms))
    pushes = [float(x) for x in seen["push_ms"]]
    endings = [float(x) for x in seen.get("over_ms", [])]
    return {
        "viewers": viewers,
        "watchers": watchers,
        "page_p50_ms_200_viewers": percentile(pages, 0.5) if pages else None,
        "page_p99_ms_200_viewers": percentile(pages, 0.99) if pages else None,
        "pages_loaded": len(pages),
        "page_p50_ms_by_game": {game: percentile(found, 0.5) for game, found in sorted(by_game.items())},
        "push_p99_ms_1000_watchers": percentile(pushes, 0.99) if pushes else None,
        "push_p50_ms": percentile(pushes, 0.5) if pushes else None,
        "pushes": len(pushes),
        "over_pushes": len(endings),  # of which "over": the move that ended its match
        "over_p99_ms": percentile(endings, 0.99) if endings else None,
        "kb_per_watcher": round(max(connected - before, 0) / max(watchers, 1), 2),
        "errors": int(ready["errors"]) + int(seen["errors"]),
    }


async def _move(service: Any, match_id: int, users: list[int], rng: random.Random) -> int | None:
    """One random legal move by an awaited seat; the match's version after it (None: the match is
    over, nothing moved)."""
    if (await service.get(match_id)).status.value != "active":
        return None
    for seat in rng.sample(range(len(users)), len(users)):
        prompt = await service.prompt(match_id, seat)
        if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
            choice = prompt.decision.choices[rng.randrange(len(prompt.decision.choices))]
            await service.submit(match_id, users[seat], choice, seat_step=prompt.seat_step)
            return int((await service.get(match_id)).version)
    raise RuntimeError(f"match {match_id} awaits nobody")


async def _until(done: Any, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not done() and time.monotonic() < end:
        await asyncio.sleep(0.05)


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench web")
    parser.add_argument("--viewers", type=int, default=None, help="clients loading pages at once (200; quick 50)")
    parser.add_argument("--watchers", type=int, default=None, help="live streams held open (1000; quick 200)")
    parser.add_argument("--seconds", type=float, default=None, help="how long the viewers load pages (10; quick 3)")
    parser.add_argument("--moves", type=int, default=None, help="moves made while the watchers watch (60; quick 20)")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between two moves")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args(argv)
    viewers = args.viewers or (50 if quick else 200)
    watchers = args.watchers or (200 if quick else 1000)
    seconds = args.seconds or (3.0 if quick else 10.0)
    moves = args.moves or (20 if quick else 60)
    data = asyncio.run(run(viewers, watchers, seconds, moves, args.interval, args.seed))
    push = data["push_p99_ms_1000_watchers"]
    print(f"The web table ({'quick' if quick else 'full'}): {viewers} viewers, {watchers} watchers, {moves} moves")
    rows = [
        ["page p50 ms", data["page_p50_ms_200_viewers"], None],
        ["page p99 ms", data["page_p99_ms_200_viewers"], None],
        ["pages loaded", data["pages_loaded"], None],
        *([f"page p50 ms, {game}", ms, None] for game, ms in data["page_p50_ms_by_game"].items()),
        ["push p99 ms (commit to watcher)", push, f"<= {PUSH_GOAL_MS:g}"],
        ["push p50 ms", data["push_p50_ms"], None],
        ["KB per watcher", data["kb_per_watcher"], None],
        ["errors", data["errors"], "0"],
    ]
    print(table(["figure", "value", "goal"], rows))
    write_json(json_path, data)
    missed = data["errors"] > 0 or push is None or push > PUSH_GOAL_MS
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], quick=False, json_path=None))
