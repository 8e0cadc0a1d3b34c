"""Command line: ``python -m rules replay LOG.json`` and ``python -m rules play-random GAME --seed N``."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from pydantic import ValidationError

from .errors import RulesError
from .match import Match, MatchLog, ReplayError
from .registry import game_slugs, get_game


def _dump(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def replay(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        _dump({"error": "unreadable log", "reason": str(exc)})
        return 2
    try:
        log = MatchLog.model_validate(raw)
        match = Match.replay(log)
    except ReplayError as exc:
        _dump(exc.to_json())
        return 2
    except ValidationError as exc:
        _dump({"error": "malformed log", "reason": str(exc)})
        return 2
    except RulesError as exc:
        _dump({"error": type(exc).__name__, "reason": str(exc)})
        return 2
    outcome = match.outcome
    computed = outcome.to_json(match.seats) if outcome else None
    if log.outcome is not None and log.outcome != computed:
        _dump({"error": "outcome mismatch", "recorded": log.outcome, "replayed": computed})
        return 2
    _dump(
        {
            "game": match.game.slug,
            "awaiting": match.awaiting.to_json(),
            "view": match.state.view(None),
            "events": [e.to_json(match.seats) for e in match.events],
            "outcome": computed,
        }
    )
    return 0


def play_random(game: str, seed: int, seats: int | None) -> int:
    try:
        game_cls = get_game(game)
    except RulesError as exc:
        _dump({"error": type(exc).__name__, "reason": str(exc)})
        return 2
    n = seats or game_cls.min_seats
    try:
        match = Match.new(game, seed=seed, seats=[f"Player {i + 1}" for i in range(n)])
    except RulesError as exc:
        _dump({"error": type(exc).__name__, "reason": str(exc)})
        return 2
    rng = random.Random(seed)
    steps = 0
    while not match.awaiting.is_terminal:
        steps += 1
        if steps > 100_000:
            _dump({"error": "no end", "reason": "random play did not finish in 100000 actions"})
            return 1
        seat = min(match.awaiting.seats)
        match.act(seat, match.state.sample_action(seat, rng))
    out = match.to_log().model_dump(mode="json")
    out["outcome"] = match.outcome.to_json(match.seats) if match.outcome else None
    _dump(out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="replay a match log and print view, events and outcome")
    p_replay.add_argument("log")
    p_random = sub.add_parser("play-random", help="play random legal actions to the end; print the log")
    p_random.add_argument("game", choices=game_slugs())
    p_random.add_argument("--seed", type=int, default=0)
    p_random.add_argument("--seats", type=int, default=None)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay(args.log)
    return play_random(args.game, args.seed, args.seats)


if __name__ == "__main__":
    sys.exit(main())
