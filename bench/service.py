"""``python -m bench service``: what a move costs in the match service, and what start-up costs.

Two ways are measured in the same run, each in its own worker processes (``bench.service_worker``),
taking turns round by round so a burst of load on this shared machine hits both:

- ``baseline``: ``bot``, ``db`` and ``rules`` as they were at ``--baseline`` (default ``2fa9e59``,
  before the match-service rework), extracted with ``git archive`` into a temporary folder;
- ``current``: the working tree's ``bot``, ``db`` and ``rules``, copied into a temporary folder
  when the run starts (so every round measures the same code while others edit the tree).

Both are driven through the service's public API with Wizards Cup (2 seats, secret simultaneous
moves) on file databases (WAL) in a temporary folder:

- move latency at 1, 100 and 1,000 live matches (``--live``): random moves (a random awaited seat,
  a random legal action) to random live matches, timing each ``submit``; after each one, a bare
  aiosqlite ``INSERT`` + ``commit`` on a separate connection to a separate file in the same folder
  is timed too. Ratios are p50 (p99) of submit over p50 (p99) of the bare op, per way. The live
  matches are copies (made in SQL) of one game at each of its stages; ``recover()`` runs and each
  match is touched once (a ``prompt``) before the timing, so all are loaded whether a way loads at
  start-up or on first use. Moves go round the matches in random order, pass after pass; a match
  that ends is replaced (untimed), so finishing moves (and their rating) are part of the sample;
- round trips per move: calls of ``aiosqlite.core.Connection._execute`` (one hop to the database
  thread) on the service's connection during each submit;
- start-up: a fresh process runs ``Database.open`` + ``MatchService(...)`` + ``recover()`` on a
  database holding N = 1,000 and 10,000 active matches (copies, made in SQL, of the longest of six
  random games stopped one move before its end). ``--quick`` measures the baseline at 1,000 only
  (it takes about 24 s at 10,000) and reports its 10,000 as null, and gives ``recover()`` up after
  ``--startup-cap`` seconds (quick: 8; a null with ``capped_at`` set);
- resident memory per live match: RSS before ``recover()`` and after the 1,000 live matches are
  loaded and have had one move each (the first pass of the first round; after ``gc.collect()``),
  divided by 1,000, in KB.

On a quiet machine ``--quick`` takes under a minute; its p99 comes from 200 moves per way at 1 and
100 live (1,100 at 1,000), so read it as a rough figure (the full run: 2,000 and 2,500).

JSON (``--json FILE``): ``throughput_ratio_200_concurrent``, ``cpu_limit_share_200_concurrent``
and ``caller_p99_ratio_half_load`` (the concurrency run of the current code,
:mod:`bench.service_load`; its phases in ``detail.load``; moves lost or doubled fail the run);
``first_move_ratio_after_restart`` (the current code: in fresh processes on a database with live
matches of every game, each game's first move over its warm moves, the largest of the four;
``detail.restart``); ``kb_per_live_match`` (an object keyed by game slug: resident memory per live
match of each game in a fresh process, the largest over the stages, :mod:`bench.service_memory`;
``detail.memory``, with each game's growth per move in play and while setting up);
``rating_cost_ratio_1m`` and ``leaderboard_cost_ratio_1m`` (SQLite; ``..._postgres`` on a throwaway
PostgreSQL server): rating a finish, and the largest of a /leaderboard page (with and without a
server's minimum of games) and a player's place, on about 1,000,000 rating rows (``--ratings-rows``;
quick 20,000) over the same on about 100, taking turns in one process (:mod:`bench.ratings_scale`;
``detail.ratings``); ``pg_round_trips_per_move`` (mean) and ``pg_p99_ratio`` (a move's p99 over a
bare INSERT + commit's, on a durable PostgreSQL server, in the same run: :mod:`bench.pg_moves`;
``detail.pg_moves``);
``p99_ratio_1000_live``, ``p50_ratio_1000_live``, ``round_trips_per_move`` (mean, at 1,000 live),
``startup_s_10000_live``, ``rss_kb_per_live_match`` for the current code, the same with a
``baseline_`` prefix, and ``detail``: every figure per way and live count (raw µs, the ratio per
round, p99 of the moves that do not end a match, round trips mean and max,
recover and first-touch seconds, the rows copied) and per start-up size.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules.registry import game_slugs

from . import service_scale
from .code import ROOT, checkout, run_measured, snapshot
from .report import table, write_json
from .service_worker import percentile

PACKAGES = ("bot", "db", "rules")
DEFAULT_BASELINE = "2fa9e59"
LIVE = [1, 100, 1000]
STARTUP = [1000, 10000]
WAYS = ("baseline", "current")
HEADLINE_LIVE = 1000
HEADLINE_STARTUP = 10000
QUICK_BASELINE_STARTUP = 1000
"""In --quick, the baseline's start-up is measured up to this many live matches only."""


# ---------------------------------------------------------------------------------------
# the code under test
# ---------------------------------------------------------------------------------------


def run_worker(task: str, code: Path, params: dict[str, Any], *, timeout: float = 900) -> Any:
    """Run one ``bench.service_worker`` task in a fresh process with ``code`` first on sys.path;
    check that the measured packages came from there; return the task's result."""
    args = [task, "--code", str(code), "--params", json.dumps(params)]
    return run_measured(
        "bench.service_worker", args, code, cwd=ROOT, timeout=timeout, what=f"the service worker {task} ({code})"
    )


# ---------------------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------------------


def summarize_live(runs: Sequence[dict[str, Any]], built: dict[str, Any]) -> dict[str, Any]:
    """One way at one live count: the samples of every round pooled."""
    submit = [x for r in runs for x in r["submit_us"]]
    bare = [x for r in runs for x in r["bare_us"]]
    trips = [n for r in runs for n in r["round_trips"]]
    ended = [e for r in runs for e in r["ended"]]
    going_on = [x for x, e in zip(submit, ended, strict=True) if not e]
    rss = [r["rss_kb_per_live_match"] for r in runs if r["rss_kb_per_live_match"] is not None]
    s50, s99, b50, b99 = (
        percentile(submit, 0.5),
        percentile(submit, 0.99),
        percentile(bare, 0.5),
        percentile(bare, 0.99),
    )
    return {
        "moves": len(submit),
        "rounds": len(runs),
        "submit_p50_us": s50,
        "submit_p99_us": s99,
        "bare_p50_us": b50,
        "bare_p99_us": b99,
        "p50_ratio": s50 / b50,
        "p99_ratio": s99 / b99,
        "p99_ratio_by_round": [
            percentile(r["submit_us"], 0.99) / percentile(r["bare_us"], 0.99) for r in runs if r["submit_us"]
        ],
        "submit_mean_us": sum(submit) / len(submit),
        "ending_moves": sum(ended),
        "submit_p99_us_not_ending": percentile(going_on, 0.99) if going_on else None,
        "round_trips_mean": sum(trips) / len(trips),
        "round_trips_max": max(trips),
        "round_trips_min": min(trips),
        "rss_kb_per_live_match": sorted(rss)[len(rss) // 2] if rss else None,
        "recover_s": min(r["recover_s"] for r in runs),
        "touch_s": min(r["touch_s"] for r in runs),
        "replaced": sum(r["replaced"] for r in runs),
        "actions_per_match": built["actions_per_match"],
        "rows": built["rows"],
    }


def summarize_startup(runs: Sequence[dict[str, Any]], built: dict[str, Any]) -> dict[str, Any]:
    """One way at one size: the best round (the least disturbed by other load)."""
    seconds = [r["seconds"] for r in runs if r["seconds"] is not None]
    return {
        "seconds": min(seconds) if seconds else None,
        "seconds_by_round": [r["seconds"] for r in runs],
        "capped_at": next((r["capped_at"] for r in runs if r["capped_at"] is not None), None),
        "recovered": next((r["recovered"] for r in runs if r["recovered"] is not None), None),
        "matches": built["matches"],
        "actions_per_match": built["actions_per_match"],
        "build_s": built["seconds"],
        "rows": built["rows"],
    }


def headline(way: dict[str, Any] | None) -> dict[str, Any]:
    """The five top-level figures of one way (None where not measured)."""
    live = (way or {}).get("live", {}).get(str(HEADLINE_LIVE))
    start = (way or {}).get("startup", {}).get(str(HEADLINE_STARTUP))
    return {
        "p99_ratio_1000_live": live["p99_ratio"] if live else None,
        "p50_ratio_1000_live": live["p50_ratio"] if live else None,
        "round_trips_per_move": live["round_trips_mean"] if live else None,
        "startup_s_10000_live": start["seconds"] if start else None,
        "rss_kb_per_live_match": live["rss_kb_per_live_match"] if live else None,
    }


# ---------------------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------------------


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench service")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision of the baseline bot/db/rules")
    parser.add_argument("--no-baseline", action="store_true", help="measure the current code only")
    parser.add_argument(
        "--current",
        default=None,
        metavar="REV",
        help="measure this git revision as current (default: the working tree)",
    )
    parser.add_argument("--live", type=int, nargs="+", default=LIVE, help="live match counts")
    parser.add_argument(
        "--moves",
        type=int,
        default=None,
        help="timed moves per live count and way (2000; quick 200), split over the rounds",
    )
    parser.add_argument("--rounds", type=int, default=None, help="rounds per way (4; quick 1)")
    parser.add_argument("--startup", type=int, nargs="*", default=STARTUP, help="live matches in the start-up database")
    parser.add_argument(
        "--startup-rounds", type=int, default=None, help="start-up rounds per way and size (2; quick 1)"
    )
    parser.add_argument(
        "--startup-cap", type=float, default=None, help="give up a start-up after this many seconds (none; quick 8)"
    )
    parser.add_argument(
        "--load-seconds",
        type=float,
        default=None,
        help="seconds per phase of the concurrency run (20; quick 1.5; 0 skips it)",
    )
    parser.add_argument("--concurrency", type=int, default=200, help="matches moving at once in the saturated phase")
    parser.add_argument(
        "--restart-rounds", type=int, default=None, help="fresh processes timing each game's first move (5; quick 1)"
    )
    parser.add_argument(
        "--memory-live", type=int, default=None, help="live matches per game for memory per match (1000; quick 50)"
    )
    service_scale.add_options(parser)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    service_scale.defaults(args, quick)
    if args.memory_live is None:
        args.memory_live = 50 if quick else 1000
    if args.restart_rounds is None:
        args.restart_rounds = 1 if quick else 5
    if args.load_seconds is None:
        args.load_seconds = 1.5 if quick else 20.0
    rounds = max(1, args.rounds if args.rounds is not None else (1 if quick else 4))
    moves = max(rounds, args.moves if args.moves is not None else (200 if quick else 2000))
    per_round = -(-moves // rounds)
    warmup = 10 if quick else 20
    startup_rounds = max(1, args.startup_rounds if args.startup_rounds is not None else (1 if quick else 2))
    cap = args.startup_cap if args.startup_cap is not None else (8.0 if quick else None)
    lives = sorted(set(args.live))
    sizes = sorted(set(args.startup))
    if min(lives) < 1 or (sizes and min(sizes) < 1):
        parser.error("live match counts must be at least 1")
    notes: list[str] = []
    started = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp_name:
        tmp = Path(tmp_name)
        if args.current is None:
            code: dict[str, Path] = {"current": snapshot(tmp / "code-current", PACKAGES)}
        else:
            cur = checkout(args.current, tmp / "code-current", PACKAGES)
            if cur is None:
                print(f"git could not check out {args.current}", file=sys.stderr)
                return 2
            code = {"current": cur}
        if not args.no_baseline:
            base = checkout(args.baseline, tmp / "code-baseline", PACKAGES)
            if base is None:
                print(f"(no baseline: git could not check out {args.baseline})", file=sys.stderr)
                notes.append(f"no baseline: git could not check out {args.baseline}")
            else:
                code["baseline"] = base
        ways = [w for w in WAYS if w in code]

        # the databases, built once per way (by that way's code, so with its schema)
        measured = {
            w: [n for n in sizes if not (quick and w == "baseline" and n > QUICK_BASELINE_STARTUP)] for w in ways
        }
        if quick and "baseline" in ways and measured["baseline"] != sizes:
            notes.append(
                f"--quick: the baseline's start-up is measured at {QUICK_BASELINE_STARTUP:,} live matches only "
                "(about 24 s at 10,000); its larger sizes are null. Run without --quick for them."
            )
        if cap is not None:
            notes.append(f"start-up is given up after {cap:g} s (seconds null, capped_at set)")
        built: dict[str, dict[str, dict[int, dict[str, Any]]]] = {}
        for way in ways:
            folder = tmp / f"db-{way}"
            folder.mkdir()
            params = {"folder": str(folder), "lives": lives, "sizes": measured[way], "seed": args.seed}
            reply = run_worker("build", code[way], params)
            built[way] = {kind: {int(n): info for n, info in reply[kind].items()} for kind in ("live", "startup")}

        # move latency, round trips, memory: per round, every way once (the order alternating),
        # each on fresh copies of its live-L files
        live_runs: dict[str, dict[int, list[dict[str, Any]]]] = {w: {n: [] for n in lives} for w in ways}
        for r in range(rounds):
            for way in ways if r % 2 == 0 else ways[::-1]:
                folder = tmp / f"moves-{way}-{r}"
                folder.mkdir()
                databases = {}
                for n in lives:
                    databases[n] = str(folder / f"live-{n}.sqlite3")
                    shutil.copyfile(built[way]["live"][n]["path"], databases[n])
                params = {
                    "databases": databases,
                    "folder": str(folder),
                    "moves": per_round,
                    "seed": args.seed + r,
                    "warmup": warmup,
                    "rss": r == 0,
                }
                for n, result in run_worker("moves", code[way], params).items():
                    live_runs[way][int(n)].append(result)
                shutil.rmtree(folder, ignore_errors=True)

        # concurrency (issue 33): the current code only (its figures are ratios within one run)
        load: dict[str, Any] | None = None
        if args.load_seconds > 0:
            folder = tmp / "load"
            folder.mkdir()
            load_params = {
                "folder": str(folder),
                "seed": args.seed,
                "seconds": args.load_seconds,
                "concurrency": args.concurrency,
            }
            load = run_worker("load", code["current"], load_params)
            if load["logs"]["lost"] or load["logs"]["doubled"]:
                notes.append(f"the load run lost or doubled moves: {load['logs']}")

        # the first move of each game after a restart: each round a fresh process on a fresh copy
        restart_runs: list[dict[str, Any]] = []
        if args.restart_rounds > 0:
            built_restart = tmp / "restart.sqlite3"
            spec = run_worker("restart_build", code["current"], {"path": str(built_restart), "seed": args.seed})
            for r in range(args.restart_rounds):
                run_path = tmp / f"restart-{r}.sqlite3"
                shutil.copyfile(built_restart, run_path)
                restart_runs.append(
                    run_worker("restart", code["current"], {"path": str(run_path), "matches": spec, "seed": r})
                )

        # resident memory per live match, each game in a fresh process on a fresh file
        # (--quick: the four games one after the other in one process, a rough figure)
        memory: dict[str, Any] = {}
        if args.memory_live > 0:
            groups = [game_slugs()] if quick else [[game] for game in game_slugs()]
            for games in groups:
                params = {"folder": str(tmp), "games": games, "live": args.memory_live, "seed": args.seed}
                memory.update(run_worker("memory", code["current"], params))

        # ratings at size and a move on PostgreSQL (issue 33, parts 2 and 3): the current code
        scale = service_scale.run(args, tmp, code["current"], run_worker, notes)

        # start-up: each round in a fresh process on a fresh copy of the startup-N file
        startup_runs: dict[str, dict[int, list[dict[str, Any]]]] = {w: {n: [] for n in measured[w]} for w in ways}
        for r in range(startup_rounds):
            for n in sizes:
                for way in ways if r % 2 == 0 else ways[::-1]:
                    if n not in measured[way]:
                        continue
                    run_path = tmp / f"run-startup-{way}-{n}.sqlite3"
                    shutil.copyfile(built[way]["startup"][n]["path"], run_path)
                    try:
                        result = run_worker("startup", code[way], {"path": str(run_path), "cap_s": cap})
                    finally:
                        for suffix in ("", "-wal", "-shm"):
                            Path(f"{run_path}{suffix}").unlink(missing_ok=True)
                    startup_runs[way][n].append(result)

    detail: dict[str, Any] = {
        "baseline_rev": args.baseline if "baseline" in ways else None,
        "current_rev": args.current or "the working tree",
        "quick": quick,
        "rounds": rounds,
        "moves_per_round": per_round,
        "startup_rounds": startup_rounds,
        "startup_cap_s": cap,
        "seconds": time.perf_counter() - started,
        "notes": notes,
    }
    for way in WAYS:
        if way not in ways:
            detail[way] = None
            continue
        detail[way] = {
            "live": {str(n): summarize_live(live_runs[way][n], built[way]["live"][n]) for n in lives},
            "startup": {
                str(n): summarize_startup(startup_runs[way][n], built[way]["startup"][n])
                if n in measured[way]
                else None
                for n in sizes
            },
        }
    detail["load"] = load
    detail["restart"] = summarize_restart(restart_runs)
    detail["memory"] = memory
    detail["ratings"], detail["pg_moves"] = scale["ratings"], scale["pg_moves"]
    current, baseline = headline(detail["current"]), headline(detail["baseline"])
    results: dict[str, Any] = {
        **current,
        **{f"baseline_{k}": v for k, v in baseline.items()},
        **load_headline(load),
        "first_move_ratio_after_restart": detail["restart"]["ratio"] if detail["restart"] else None,
        "kb_per_live_match": {game: m["kb_per_live_match"] for game, m in memory.items()} or None,
        **service_scale.headline(scale),
        "detail": detail,
    }
    print_report(detail, ways, lives, sizes, current, baseline)
    print_load(load)
    print_restart(detail["restart"])
    print_memory(memory, quick)
    service_scale.print_parts(scale, notes)
    write_json(json_path, results)
    failed = load is not None and (load["logs"]["lost"] > 0 or load["logs"]["doubled"] > 0)
    return 1 if failed else 0


def summarize_restart(runs: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """Per game: the median over rounds of the first move after a restart and of the warm moves,
    and their ratio; ``ratio``: the largest of the games' ratios (the goal: at most 3)."""
    if not runs:
        return None
    games: dict[str, Any] = {}
    for game in runs[0]["games"]:
        firsts = [r["games"][game]["first_ms"] for r in runs]
        loaded = [x for r in runs for x in r["games"][game]["loaded_ms"]]
        touched = [x for r in runs for x in r["games"][game]["first_touch_ms"]]
        first, warm = percentile(firsts, 0.5), percentile(loaded, 0.5)
        games[game] = {
            "first_ms": first,
            "first_ms_by_round": firsts,
            "first_touch_ms": percentile(touched, 0.5) if touched else None,
            "warm_ms": warm,
            "ratio": first / warm,
        }
    ready = [r["ready_s"] for r in runs]
    return {
        "rounds": len(runs),
        "ready_s": percentile(ready, 0.5),
        "games": games,
        "ratio": max(g["ratio"] for g in games.values()),
    }


def print_memory(memory: dict[str, Any], quick: bool) -> None:
    if not memory:
        return
    print()
    where = (
        "--quick: the games one after the other in one process, a rough figure (a later game reuses the memory"
        " an earlier one freed); run without --quick for each game in a fresh process"
        if quick
        else "each game in a fresh process"
    )
    print(f"Resident memory per live match; a match that ends is replaced ({where})")
    rows = []
    for game, m in memory.items():
        stages = [f"{s['kb_per_live_match'] or 0:.1f} ({s['moves_per_match']})" for s in m["stages"]]
        rows.append([game, m["matches"], *stages, m["setup_growth_kb_per_move"], m["growth_kb_per_move"]])
    n = max(len(m["stages"]) for m in memory.values())
    rows = [[*r[:2], *r[2:-2], *[""] * (n - (len(r) - 4)), *r[-2:]] for r in rows]
    heads = [f"KB at stage {i + 1} (after moves)" for i in range(n)]
    print(table(["game", "live", *heads, "KB per move (setting up)", "KB per move (in play)"], rows))


def print_restart(restart: dict[str, Any] | None) -> None:
    if restart is None:
        return
    print()
    print(
        f"The first move of each game after a restart (median of {restart['rounds']} fresh processes; "
        f"open + recover took {restart['ready_s']:.2f} s)"
    )
    rows = [
        [game, g["first_ms"], g["first_touch_ms"], g["warm_ms"], g["ratio"]] for game, g in restart["games"].items()
    ]
    print(table(["game", "first move ms", "first touch of a match ms", "warm move ms", "first / warm"], rows))
    print(f"first_move_ratio_after_restart (the largest; goal <= 3): {restart['ratio']:.2f}")


def load_headline(load: dict[str, Any] | None) -> dict[str, Any]:
    """The concurrency run's top-level figures (None where not measured)."""
    return {
        "throughput_ratio_200_concurrent": load["throughput_ratio"] if load else None,
        "cpu_limit_share_200_concurrent": load["cpu_limit_share"] if load else None,
        "caller_p99_ratio_half_load": load["caller_p99_ratio"] if load else None,
    }


def print_load(load: dict[str, Any] | None) -> None:
    if load is None:
        return
    seq, sat, half, bare = load["sequential"], load["saturated"], load["half_load"], load["bare"]
    print()
    print(
        f"Concurrency (current code, SQLite file): {sat['callers']} matches moving at once against one caller; "
        f"an open load at half the saturated rate against bare commits arriving at random beside it"
    )
    rows = [
        ["sequential (1 caller)", seq["moves"], seq["moves_per_s"], seq["cpu_s_per_move"] * 1000, None, None],
        [f"saturated ({sat['callers']} callers)", sat["moves"], sat["moves_per_s"], sat["cpu_s_per_move"] * 1000],
        ["half load (open)", half["moves"], half["rate"], None, half["caller_p50_ms"], half["caller_p99_ms"]],
        ["half load, beside the bare commits", bare["moves"], bare["rate"], None]
        + [bare["caller_p50_ms"], bare["caller_p99_ms"]],
        ["bare commit (open, same seconds)", bare["reference_ops"], bare["reference_rate"], None]
        + [bare["reference_p50_ms"], bare["reference_p99_ms"]],
    ]
    rows[1] += [None, None]
    print(table(["phase", "moves", "moves/s", "CPU ms/move", "p50 ms", "p99 ms"], rows))
    labels = {
        "throughput_ratio": "saturated / sequential moves per second (goal >= 1)",
        "cpu_limit_share": "saturated moves per second x CPU s per move (goal >= 0.7)",
        "caller_p99_ratio": "p99 of a move at half load / p99 of a bare commit, same seconds (goal <= 3)",
    }
    print(table(["figure", "value"], [[labels[k], load[k]] for k in labels]))
    print(f"stored logs: {load['logs']} (matches started during a phase: {load['matches_started_in_play']})")


def print_report(
    detail: dict[str, Any],
    ways: Sequence[str],
    lives: Sequence[int],
    sizes: Sequence[int],
    current: dict[str, Any],
    baseline: dict[str, Any],
) -> None:
    rev = detail["baseline_rev"]
    print(
        f"Match service, Wizards Cup: {detail['rounds']} rounds of {detail['moves_per_round']} timed moves per live "
        f"count and way (the first round: at least one per live match); baseline = bot/db/rules at {rev}; "
        f"current = {detail['current_rev']}"
    )
    rows = []
    for n in lives:
        for way in ways:
            s = detail[way]["live"][str(n)]
            rows.append(
                [
                    f"{n:,} live",
                    way,
                    s["moves"],
                    s["submit_p50_us"],
                    s["submit_p99_us"],
                    s["bare_p50_us"],
                    s["bare_p99_us"],
                    s["p50_ratio"],
                    s["p99_ratio"],
                    s["round_trips_mean"],
                    s["round_trips_max"],
                    s["rss_kb_per_live_match"],
                    s["recover_s"],
                    s["touch_s"],
                ]
            )
    print(
        table(
            [
                "matches",
                "way",
                "moves",
                "submit p50 µs",
                "p99 µs",
                "bare p50 µs",
                "p99 µs",
                "x p50",
                "x p99",
                "trips",
                "max",
                "KB/live",
                "recover s",
                "touch s",
            ],
            rows,
        )
    )
    print()
    rows = []
    for n in sizes:
        for way in ways:
            s = detail[way]["startup"][str(n)]
            if s is None:
                rows.append([f"{n:,} live", way, None, None, None, None])
            else:
                seconds = s["seconds"] if s["seconds"] is not None else f"> {s['capped_at']:g}"
                rows.append([f"{n:,} live", way, seconds, s["recovered"], s["actions_per_match"], s["build_s"]])
    print("Start-up: Database.open + MatchService + recover() in a fresh process (best round)")
    print(table(["database", "way", "seconds", "recovered", "actions/match", "build s"], rows))
    print()
    labels = {
        "p99_ratio_1000_live": "p99 submit / bare commit, 1,000 live (goal <= 3)",
        "p50_ratio_1000_live": "p50 submit / bare commit, 1,000 live",
        "round_trips_per_move": "round trips per move (mean, 1,000 live)",
        "startup_s_10000_live": "start-up s, 10,000 live (goal <= 2)",
        "rss_kb_per_live_match": "KB per live match",
    }
    print(table(["figure", "baseline", "current"], [[labels[k], baseline[k], current[k]] for k in labels]))
    for note in detail["notes"]:
        print(f"note: {note}")
