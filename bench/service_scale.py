"""The parts of ``python -m bench service`` that measure size and PostgreSQL (issue 33): ratings at
a million rows on both backends (:mod:`bench.ratings_scale`) and a move on PostgreSQL
(:mod:`bench.pg_moves`), each in a worker process of the current code; their options, JSON keys and
tables."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .ratings_scale import headline as ratings_headline
from .ratings_scale import print_ratings
from .report import table

Worker = Callable[[str, Path, dict[str, Any]], Any]


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ratings-rows",
        type=int,
        default=None,
        help="rating rows of the large database (1000000; quick 20000; 0: none)",
    )
    parser.add_argument("--ratings-rounds", type=int, default=None, help="timed rounds per size (100; quick 20)")
    parser.add_argument(
        "--pg-moves", type=int, default=None, help="timed moves on PostgreSQL (3000; quick 300; 0: none)"
    )


def defaults(args: argparse.Namespace, quick: bool) -> None:
    if args.ratings_rows is None:
        args.ratings_rows = 20_000 if quick else 1_000_000
    if args.ratings_rounds is None:
        args.ratings_rounds = 20 if quick else 100
    if args.pg_moves is None:
        args.pg_moves = 300 if quick else 3000


def run(args: argparse.Namespace, tmp: Path, code: Path, run_worker: Worker, notes: list[str]) -> dict[str, Any]:
    """Both parts; ``{"ratings": {backend: ...}, "pg_moves": ...}`` (None where not measured)."""
    ratings: dict[str, Any] = {}
    for backend in ("sqlite", "postgres") if args.ratings_rows > 0 else ():
        folder = tmp / f"ratings-{backend}"
        folder.mkdir()
        params = {"backend": backend, "folder": str(folder), "rows": args.ratings_rows, "seed": args.seed}
        ratings[backend] = run_worker("ratings", code, {**params, "rounds": args.ratings_rounds})
        if ratings[backend] is None:
            notes.append(f"ratings on {backend}: not measured (no PostgreSQL server binaries)")
        shutil.rmtree(folder, ignore_errors=True)
    pg_moves = None
    if args.pg_moves > 0:
        pg_moves = run_worker("pg_moves", code, {"moves": args.pg_moves, "seed": args.seed})
        if pg_moves is None:
            notes.append("moves on PostgreSQL: not measured (no PostgreSQL server binaries)")
    return {"ratings": ratings, "pg_moves": pg_moves}


def headline(found: dict[str, Any]) -> dict[str, Any]:
    pg = found.get("pg_moves")
    return {
        **ratings_headline(found.get("ratings") or {}),
        "pg_round_trips_per_move": pg["round_trips_mean"] if pg else None,
        "pg_p99_ratio": pg["p99_ratio"] if pg else None,
    }


def print_parts(found: dict[str, Any], notes: list[str]) -> None:
    print_ratings(found.get("ratings") or {}, [n for n in notes if n.startswith("ratings")])
    pg = found.get("pg_moves")
    if pg is None:
        return
    print()
    print(
        f"A move on PostgreSQL (durable server; {pg['moves']} moves of the four games, each followed by a bare"
        " INSERT + commit on its own connection)"
    )
    rows = [
        ["round trips per move (mean, p99, max; goal <= 2)", pg["round_trips_mean"], pg["round_trips_p99"]],
        ["", pg["round_trips_max"], None],
        ["submit p50 / p99 ms", pg["submit_p50_ms"], pg["submit_p99_ms"]],
        ["its write (the group commit) p50 / p99 ms", pg["write_p50_ms"], pg["write_p99_ms"]],
        ["the rest (no wait on the server) p50 / p99 ms", pg["engine_p50_ms"], pg["engine_p99_ms"]],
        ["bare INSERT + commit p50 / p99 ms", pg["bare_p50_ms"], pg["bare_p99_ms"]],
        ["p99 submit / bare (goal <= 2); p50", pg["p99_ratio"], pg["p50_ratio"]],
        ["floor: guard + one log entry p50 / p99 ms", pg["floor_p50_ms"], pg["floor_p99_ms"]],
        ["floor p99 / its bare p99", pg["floor_p99_ratio"], None],
        ["p99 of the rest / bare p99", pg["engine_p99_ratio"], None],
    ]
    print(table(["figure", "a", "b"], rows))
