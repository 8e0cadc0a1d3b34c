"""Random playouts through the public engine API, timed. Runs against whichever ``rules`` package
is importable, so the same code measures the current engines and a baseline checked out from git
(``python -m bench.playout --rules-path DIR ...`` in a subprocess, see bench.engines)."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

SEATS = {"magic-duel": 4}


def run(slug: str, seconds: float, *, trusted: bool, search: bool = False, seed0: int = 0) -> dict[str, Any]:
    """Play seeded random games of ``slug`` for about ``seconds``; time every apply call.

    ``trusted``: use ``State.apply_trusted`` (no checks), as a replay does; else ``State.apply``.
    ``search``: as a search does: on a copy of the starting state that does not narrate
    (``clone(narrate=False)``: no events), with ``apply_trusted``.
    """
    from rules import CHANCE, Match

    seats = SEATS.get(slug, 2)
    names = [f"P{i + 1}" for i in range(seats)]
    games = applies = 0
    apply_ns = 0
    perf = time.perf_counter_ns
    cpu0 = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        seed = seed0 + games
        state = Match.new(slug, seed=seed, seats=names).state
        if search:
            state = state.clone(narrate=False)
        rng = random.Random(seed)
        apply = state.apply_trusted if trusted or search else state.apply
        while True:
            aw = state.awaiting
            if aw.is_terminal:
                break
            seat: Any = CHANCE if aw.is_chance else min(aw.seats)
            action = state.sample_action(seat, rng)
            t0 = perf()
            apply(seat, action)
            apply_ns += perf() - t0
            applies += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "cpu_seconds": time.process_time() - cpu0,
        "playouts_per_s": games / elapsed,
        "applies": applies,
        "apply_us": apply_ns / 1000 / max(1, applies),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules-path", default=None, help="import rules from this folder first")
    parser.add_argument("--slug", required=True)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--trusted", action="store_true")
    parser.add_argument("--search", action="store_true")
    args = parser.parse_args()
    if args.rules_path:
        sys.path.insert(0, args.rules_path)
    json.dump(run(args.slug, args.seconds, trusted=args.trusted, search=args.search), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
