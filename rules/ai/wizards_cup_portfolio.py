"""Wizards Cup's normal and hard levels: candidates played out by scripts (issue 32), replacing the
tree there.

Why: a Wizards Cup decision is a Deck (5 of 23 cards), a swap or a plan (an order of 5 of 6 cards and
the Waiting card): hundreds of choices, which the tree with uniformly random playouts could only
open a few dozen of, and against the pool's "powers" (Mentor and Jester first, then the strong
cards lifted) normal won about half its games. Here:

- the candidates are the scripts' answers (:data:`rules.ai.wizards_cup_script.SCRIPTS`, the pool's
  tune half) and :data:`EXTRA` more legal answers drawn at random (every one when there are fewer);
- each is played out on the same samples: a sample of what the seat cannot see
  (:func:`rules.ai.determinize.determinize`, with its opponent model, the opponent's secret choice
  of this step taken back), the opponent's answer on it by the scripts in turn (sample ``k`` by
  script ``k mod n``), then both seats played by scripts to the end of the match (the seat's
  candidate continued by the script that proposed it, a drawn one by the last script);
- the best mean wins (ties: the scripts' answers first).

Samples: :data:`SAMPLE_SHARE` of the level's iterations (normal 1000 -> 20, hard 2400 -> 36), with
:data:`EXTRA` drawn candidates (normal 32, hard 48): more candidates on fewer samples measured
better (normal against "powers", 40 games: 16 drawn on 32 samples 24.5 of 40, 32 drawn on 20
samples 29.5 of 40, at the same decision time; hard, 80 games on two seed sets: 32 drawn on 48
samples 65 of 80, 48 drawn on 36 samples 70 of 80, CPU p95 1.8-1.9 s -> 2.0-2.1 s).
Easy keeps the tree. Deterministic for a seed; reads only what the seat may know (the samples).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import ActionModel
from ..core import CHANCE, State
from .determinize import determinize
from .portfolio import compare
from .wizards_cup_script import SCRIPTS

if TYPE_CHECKING:
    from .ismcts import Budget, SearchResult

_SCRIPTS = tuple(SCRIPTS.values())
#: Samples per candidate, by level: this share of the level's iterations
#: (rules.ai.ismcts.iterations_for); a budget made by hand takes normal's.
SAMPLE_SHARE: dict[str, float] = {"normal": 0.02, "hard": 0.015}
#: Legal answers drawn at random besides the scripts', by level (every one when there are fewer).
EXTRA: dict[str, int] = {"normal": 32, "hard": 48}
#: A playout's safety cap on steps (a match takes about fifty).
MAX_STEPS = 5_000


def samples_for(budget: Budget) -> int:
    """The samples per candidate ``budget`` allows (at least 2)."""
    from .ismcts import iterations_for

    share = SAMPLE_SHARE.get(budget.level, SAMPLE_SHARE["normal"])
    return max(2, round(iterations_for(budget, "wizards-cup") * share))


def candidates(state: State, seat: int, rng: random.Random, extra: int = EXTRA["normal"]) -> dict[ActionModel, int]:
    """The candidates: each script's answer, then ``extra`` legal answers drawn with ``rng``; each
    with the index of the script that continues it."""
    found: dict[ActionModel, int] = {}
    for i, script in enumerate(_SCRIPTS):
        found.setdefault(script(state, seat, random.Random(0)), i)
    legal = state.legal_actions(seat)  # a lazy sequence of thousands of Decks: sampled, never listed
    drawn = legal if len(legal) <= extra else rng.sample(legal, extra)
    for action in drawn:
        found.setdefault(action, len(_SCRIPTS) - 1)
    return found


def playout(state: State, seat: int, action: ActionModel, mine: int, k: int, seed: int) -> float:
    """``action`` for ``seat`` on sample ``k`` of ``state`` (drawn from ``seed``), then scripts to the
    end: ``seat``'s reward (1 a win, 1/2 a draw)."""
    from .ismcts import rewards

    rng = random.Random(seed)
    sim = determinize(state, seat, rng, reopen=True)
    enemy = _SCRIPTS[k % len(_SCRIPTS)]
    others = [(s, enemy(sim, s, rng)) for s in sorted(sim.awaiting.seats) if s != seat]
    sim.apply(seat, action)
    for s, answer in others:
        if sim.is_legal(s, answer):
            sim.apply(s, answer)
    script = _SCRIPTS[mine]
    for _ in range(MAX_STEPS):
        aw = sim.awaiting
        if aw.is_terminal:
            break
        if aw.is_chance:
            sim.apply(CHANCE, sim.sample_action(CHANCE, rng))
            continue
        picks = [(s, (script if s == seat else enemy)(sim, s, rng)) for s in sorted(aw.seats)]
        for s, answer in picks:
            sim.apply(s, answer)
    return rewards(sim.outcome, sim.num_seats)[seat]


def search(
    state: State,
    seat: int,
    budget: Budget,
    seed: int,
    time_limit: float | None = None,
    root_actions: Sequence[ActionModel] | None = None,
) -> SearchResult:
    """The level's answer for ``seat`` (module docstring) as a search result: each candidate with its
    (samples, mean). ``root_actions`` plays out exactly those (a review's "what was it worth")."""

    rng = random.Random(seed)
    if root_actions is not None:
        proposed = {a: i for i, s in enumerate(_SCRIPTS) for a in [s(state, seat, random.Random(0))]}
        cands = {a: proposed.get(a, len(_SCRIPTS) - 1) for a in dict.fromkeys(root_actions)}
    else:
        cands = candidates(state, seat, rng, EXTRA.get(budget.level, EXTRA["normal"]))
    n = samples_for(budget)
    seeds = [rng.getrandbits(63) for _ in range(n)]
    return compare(cands, seeds, lambda a, mine, k, s: playout(state, seat, a, mine, k, s), time_limit)
