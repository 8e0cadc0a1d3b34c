"""``python -m bench engines``: random playouts per second and the cost of one apply, per game.

For each game, seeded random games are played to the end through the public API (the same
driver, ``bench.playout``), four ways in the same run:

- ``baseline``: the engines as they were at ``--baseline`` (default ``baf9076``, the commit before
  the rules-core rework), checked out with ``git archive`` into a temporary folder and run in a
  subprocess with ``State.apply`` (which validated and deep-copied then);
- ``checked``: today's engines with ``State.apply`` (validate, then apply in place; the bot's way);
- ``trusted``: today's engines with ``State.apply_trusted`` (no checks, with events: a replay);
- ``search``: as a search plays out: ``apply_trusted`` on ``state.clone(narrate=False)`` (no
  checks, no events: only the state changes). This is the issue's "random playouts per second".

The ways take turns in short rounds (``--rounds``, the time split between them; the order turns
round each round). A speed-up is measured two ways, neither of which rewards a way for getting a
quiet moment (issue 33: dividing each way's best round by the other's did):

- same-round: in each round, the way's playouts per second over the baseline's in that round (the
  two ran one right after the other, under the same load); the figure is the median of the
  rounds' ratios;
- CPU time: playouts per CPU second of the worker process (``time.process_time``: what the way
  cost, whatever else ran on the machine), over all rounds, divided by the baseline's.

Playouts per second are the total over all rounds (games / seconds). Magic Duel is played by 4
seats, the others by 2. JSON (``--json FILE``)::

    {"<slug>": {"playouts_per_s": search games/s, "apply_us": checked µs per apply,
                "playouts_per_s_checked": ..., "playouts_per_s_trusted": ...,
                "apply_us_trusted": ..., "apply_us_search": ...,
                "baseline_playouts_per_s": ..., "baseline_apply_us": ...,
                "speedup": search / baseline (median same-round ratio),
                "speedup_cpu": search / baseline per CPU second,
                "speedup_rounds": [each round's ratio],
                "speedup_trusted", "speedup_trusted_cpu", "speedup_checked", "speedup_checked_cpu"}}
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rules.registry import game_slugs

from .code import checkout
from .report import table, write_json

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASELINE = "baf9076"


def _worker(
    slug: str, seconds: float, *, trusted: bool = False, search: bool = False, rules_path: str | None = None
) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "bench.playout", "--slug", slug, "--seconds", str(seconds)]
    if trusted:
        cmd.append("--trusted")
    if search:
        cmd.append("--search")
    if rules_path:
        cmd += ["--rules-path", rules_path]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{slug}: playout worker failed:\n{out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def total(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A way's rounds together: games per second and per CPU second, µs per apply."""
    games = sum(int(r["games"]) for r in results)
    seconds = sum(float(r["seconds"]) for r in results)
    cpu = sum(float(r.get("cpu_seconds", r["seconds"])) for r in results)
    applies = sum(int(r["applies"]) for r in results)
    apply_us = sum(float(r["apply_us"]) * int(r["applies"]) for r in results) / max(1, applies)
    return {"games": games, "playouts_per_s": games / seconds, "playouts_per_cpu_s": games / cpu, "apply_us": apply_us}


def speedups(way: list[dict[str, Any]], base: list[dict[str, Any]]) -> dict[str, Any]:
    """``way`` against ``base``, round by round (the same index: run one after the other): the
    median of the same-round ratios, each round's, and the ratio per CPU second over all rounds."""
    rounds = [float(w["playouts_per_s"]) / float(b["playouts_per_s"]) for w, b in zip(way, base, strict=True)]
    return {
        "same_round": statistics.median(rounds),
        "rounds": rounds,
        "cpu": total(way)["playouts_per_cpu_s"] / total(base)["playouts_per_cpu_s"],
    }


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench engines")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision of the baseline engines")
    parser.add_argument("--no-baseline", action="store_true", help="measure today's engines only")
    parser.add_argument("--seconds", type=float, default=None, help="time per game and way (default 10, quick 2.5)")
    parser.add_argument("--games", nargs="*", default=game_slugs(), choices=game_slugs())
    parser.add_argument("--rounds", type=int, default=None, help="rounds per way (default 5, quick 2)")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (2.5 if quick else 10.0)
    rounds = max(1, args.rounds if args.rounds is not None else (2 if quick else 5))

    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        base_path = None if args.no_baseline else checkout(args.baseline, Path(tmp), ("rules",))
        if not args.no_baseline and base_path is None:
            print(f"(no baseline: git could not check out {args.baseline})", file=sys.stderr)
        for slug in args.games:
            slice_s = seconds / rounds
            ways: dict[str, list[dict[str, Any]]] = {"baseline": [], "checked": [], "trusted": [], "search": []}
            for r in range(rounds):
                order = [w for w in ways if w != "baseline" or base_path]
                for way in order if r % 2 == 0 else order[::-1]:
                    path = str(base_path) if way == "baseline" else None
                    result = _worker(slug, slice_s, trusted=way == "trusted", search=way == "search", rules_path=path)
                    ways[way].append(result)
            checked, trusted, search = total(ways["checked"]), total(ways["trusted"]), total(ways["search"])
            row: dict[str, Any] = {
                "playouts_per_s": search["playouts_per_s"],
                "apply_us": checked["apply_us"],
                "playouts_per_s_checked": checked["playouts_per_s"],
                "playouts_per_s_trusted": trusted["playouts_per_s"],
                "apply_us_trusted": trusted["apply_us"],
                "apply_us_search": search["apply_us"],
                "games": sum(t["games"] for t in (checked, trusted, search)),
                "rounds": rounds,
            }
            if ways["baseline"]:
                base = total(ways["baseline"])
                row |= {"baseline": args.baseline, "baseline_playouts_per_s": base["playouts_per_s"]}
                row["baseline_apply_us"] = base["apply_us"]
                for name, key in (
                    ("search", "speedup"),
                    ("trusted", "speedup_trusted"),
                    ("checked", "speedup_checked"),
                ):
                    found = speedups(ways[name], ways["baseline"])
                    row[key], row[f"{key}_cpu"] = found["same_round"], found["cpu"]
                    if name == "search":
                        row["speedup_rounds"] = found["rounds"]
            results[slug] = row
    rows = [
        [
            slug,
            r.get("baseline_playouts_per_s"),
            r["playouts_per_s_checked"],
            r["playouts_per_s_trusted"],
            r["playouts_per_s"],
            r.get("speedup_checked"),
            r.get("speedup_trusted"),
            r.get("speedup"),
            r.get("speedup_cpu"),
            r.get("baseline_apply_us"),
            r["apply_us"],
            r["apply_us_trusted"],
        ]
        for slug, r in results.items()
    ]
    print(
        f"Random playouts, {seconds:g} s per game and way in {rounds} rounds, taking turns; x = the median"
        f" same-round ratio, CPU x = per CPU second over all rounds; baseline = engines at {args.baseline}"
    )
    print(
        table(
            [
                "game",
                "base games/s",
                "checked/s",
                "trusted/s",
                "search/s",
                "x checked",
                "x trusted",
                "x search",
                "CPU x search",
                "base apply µs",
                "apply µs",
                "trusted µs",
            ],
            rows,
        )
    )
    write_json(json_path, results)
    return 0
