"""Generator of ``rules/ai/arena_disciplines.json``: how each Arena Discipline does in the AI's hands.

``python -m bench.arena_disciplines [--games N] [--out PATH]`` (about three minutes of CPU). The
rules' reader is :func:`rules.ai.arena_portfolio.chosen_discipline`.

Why: a Discipline is chosen once, at set-up, and shapes the whole game; a playout from set-up ends
long before it shows, and the score :mod:`rules.ai.arena_setup` computes from the rules' data alone
(damage dealt and taken per turn) ranked the Metallurgist first, where whole games say otherwise.
So each Discipline is played, by the first of the AI's scripts (:data:`rules.ai.arena_script.SCRIPTS`,
"screen"), against each script of the pool's tune half ("rush", "screen", each with its own
Discipline), ``N`` games per pairing, seats alternated (a seed per pair of games from
:data:`SEED`), and its score (wins, a draw half) is stored. The AI takes the Discipline whose
worst score is highest (maximin: it does not know whom it meets). The pool's holdout half takes
no part (issue 32: reported apart).

Stored (JSON): ``{"version", "games", "seed", "script", "opponents", "scores"}`` with
``scores[discipline][opponent]`` the score in 0..1.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules.actions import ActionModel
from rules.ai.arena_script import SCRIPTS, Style, decide
from rules.arena import DISCIPLINE_IDS
from rules.core import State

from .ai_play import play

OUT = Path(__file__).resolve().parent.parent / "rules" / "ai" / "arena_disciplines.json"
#: Games per (Discipline, opponent) pairing.
GAMES = 80
#: The first seed (each pair of games, seats swapped, shares one).
SEED = 6000
#: The pool's tune half (the AI's opponents here): the first two scripts.
OPPONENTS = ("rush", "screen")


def _player(style: Style):  # type: ignore[no-untyped-def]
    def play_style(state: State, seat: int, rng: random.Random) -> ActionModel:
        return decide(style, state, seat, rng)

    return play_style


def score(discipline: str, opponent: str, games: int = GAMES, seed: int = SEED) -> float:
    """The first script playing ``discipline`` against the script ``opponent``: its score (0..1)
    over ``games`` games, seats alternated."""
    me = _player(replace(next(iter(SCRIPTS.values())), discipline=discipline))
    them = _player(SCRIPTS[opponent])
    total = 0.0
    for g in range(games):
        seats = [me, them] if g % 2 == 0 else [them, me]
        total += play("arena", seats, seed + g // 2).scores[g % 2]
    return total / games


def generate(games: int = GAMES) -> dict[str, Any]:
    scores = {d: {o: round(score(d, o, games), 4) for o in OPPONENTS} for d in DISCIPLINE_IDS}
    return {
        "version": 1,
        "games": games,
        "seed": SEED,
        "script": next(iter(SCRIPTS)),
        "opponents": list(OPPONENTS),
        "scores": scores,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    data = generate(args.games)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    for d, row in sorted(data["scores"].items(), key=lambda kv: -min(kv[1].values())):
        print(f"{d:20} " + "  ".join(f"{o} {v:.3f}" for o, v in row.items()))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
