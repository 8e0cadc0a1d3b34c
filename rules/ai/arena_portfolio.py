"""Arena's normal and hard levels: a search over scripts (issue 32), replacing the tree there.

Why: the tree over single actions (a Move to one of 39 squares, then an Action, then the next
model...) with playouts by a charging policy lost nine games in ten to the opponent pool's
rule-based players: at a few dozen iterations per decision it could not see a plan through, and
its playouts did not play like an opponent. Rule-based players that plan each activation whole
(:mod:`rules.ai.arena_script`) play far better; so the levels search *over* them, as Portfolio
Greedy Search does for real-time strategy combat (Churchill and Buro, 2013):

- every script (:data:`rules.ai.arena_script.SCRIPTS`) proposes its answer to the decision;
  when they all agree, that is played at once;
- otherwise each distinct answer is played out: the answer, then its script for the rest of the
  seat's turn, the enemy's whole turn played by the scripts in turn (sample ``k`` by script
  ``k mod n``: a generic opponent, not one fitted to any player), chance drawn by the rules; the
  position at the start of the seat's next turn is scored by :func:`rules.ai.arena.evaluate`
  (Wizard health, the coming turn's knock-out chances, Minions, Crowd Favour). Every answer is
  played out on the same samples (the same random numbers: a fairer comparison);
- the answer of the best mean is played (ties: the order of the scripts).

Set-up: the Discipline that did best in the first script's hands against the pool's tune half
over whole games (:func:`chosen_discipline`, from ``arena_disciplines.json``: the Noble Scholar;
:mod:`rules.ai.arena_setup`'s score from the rules' data alone ranked the Metallurgist first, which
won 64 % and 50 % where the Noble Scholar won 71 % and 69 %), then the terrain, edge and
deployment of the first script, the screen (a playout from set-up ends long before a set-up choice
shows). Measured (40 games each, seeds 8100-8119,
seats alternated): with ``arena_setup``'s deployment in cover instead, 11 of 40 against the pool's
"kite" and 14 of 40 against "screen"; with the screen's deployment 18 and 19.

The number of samples comes from the level's iterations (:data:`SAMPLE_SHARE`): normal 8, hard 30.
Easy keeps the tree search (:mod:`rules.ai.ismcts`).
Deterministic for a seed; Arena is an open board, so nothing hidden is read.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..actions import ActionModel
from ..arena.actions import ChooseDiscipline
from ..arena.game import Phase
from ..arena.state import ArenaState
from ..core import CHANCE, State
from .arena_script import SCRIPTS, Style
from .arena_script import decide as script_decide
from .portfolio import compare

if TYPE_CHECKING:
    from .ismcts import Budget, SearchResult

#: Samples per answer: this share of the level's iterations (normal 400 -> 8, hard 1500 -> 30).
SAMPLE_SHARE = 0.02
#: Player turns played out: 2 = the rest of the seat's turn and the enemy's next turn.
DEPTH = 2
#: A playout's safety cap on actions (two turns take about a hundred).
MAX_STEPS = 2_000
_SETUP = frozenset({Phase.DISCIPLINE, Phase.TERRAIN, Phase.EDGE, Phase.DEPLOY})
_SCRIPTS: tuple[Style, ...] = tuple(SCRIPTS.values())


@cache
def discipline_scores() -> dict[str, dict[str, float]]:
    """Each Discipline's score in the first script's hands against the pool's tune half
    (``arena_disciplines.json``, made by ``python -m bench.arena_disciplines``, which says how)."""
    data = json.loads(Path(__file__).with_name("arena_disciplines.json").read_text())
    scores: dict[str, dict[str, float]] = data["scores"]
    return scores


def chosen_discipline() -> ChooseDiscipline:
    """The Discipline whose worst score (:func:`discipline_scores`) is highest (ties: by name)."""
    scores = discipline_scores()
    return ChooseDiscipline(discipline=max(sorted(scores), key=lambda d: min(scores[d].values())))


def samples_for(budget: Budget) -> int:
    """The samples per answer ``budget`` allows (at least 2)."""
    return max(2, round(budget.iterations * SAMPLE_SHARE))


def proposals(state: ArenaState, seat: int) -> dict[ActionModel, Style]:
    """Each distinct answer of the scripts to ``seat``'s decision, with the first script that gives
    it (in the order of :data:`SCRIPTS`)."""
    found: dict[ActionModel, Style] = {}
    for style in _SCRIPTS:
        found.setdefault(script_decide(style, state, seat, random.Random(0)), style)
    return found


def playout(state: ArenaState, seat: int, first: ActionModel, style: Style, k: int, seed: int) -> float:
    """Play ``first`` for ``seat`` on a copy of ``state``, then ``style`` for ``seat`` and script
    ``k mod n`` for the enemy, chance from ``seed``, for :data:`DEPTH` player turns; ``seat``'s
    estimated chance of winning there."""
    from .arena import evaluate

    sim = state.clone(narrate=False)
    rng = random.Random(seed)
    enemy = _SCRIPTS[k % len(_SCRIPTS)]
    stop = sim.turn_no + DEPTH
    sim.apply(seat, first)
    for _ in range(MAX_STEPS):
        aw = sim.awaiting
        if aw.is_terminal or (sim.turn_no >= stop and sim.phase not in _SETUP):
            break
        if aw.is_chance:
            sim.apply(CHANCE, sim.sample_action(CHANCE, rng))
            continue
        s = min(aw.seats)
        sim.apply(s, script_decide(style if s == seat else enemy, sim, s, rng))
    if sim.outcome is not None:
        from .ismcts import rewards

        return rewards(sim.outcome, sim.num_seats)[seat]
    return evaluate(sim)[seat]


def search(
    state: State,
    seat: int,
    budget: Budget,
    seed: int,
    time_limit: float | None = None,
    root_actions: Sequence[ActionModel] | None = None,
) -> SearchResult:
    """The level's answer for ``seat`` (module docstring) as a search result: each answer played
    out with its (samples, mean). ``root_actions`` plays out exactly those answers (each continued
    by the script that proposes it, else the first script): a review's "what was it worth"."""
    from .ismcts import SearchResult

    assert isinstance(state, ArenaState)
    proposed = proposals(state, seat)
    if root_actions is not None:
        default = _SCRIPTS[0]
        candidates = {a: proposed.get(a, default) for a in dict.fromkeys(root_actions)}
    else:
        candidates = proposed
    rng = random.Random(seed)
    n = samples_for(budget)
    seeds = [rng.getrandbits(63) for _ in range(n)]
    if state.phase in _SETUP and root_actions is None:
        discipline = chosen_discipline() if state.phase == Phase.DISCIPLINE else None
        first = next(iter(candidates))
        candidates = {discipline if discipline is not None and state.is_legal(seat, discipline) else first: _SCRIPTS[0]}
    if (len(candidates) == 1 and root_actions is None) or state.phase in _SETUP:
        action = next(iter(candidates))
        from .arena import evaluate

        return SearchResult(action, evaluate(state)[seat], 0, {})
    return compare(candidates, seeds, lambda a, style, k, s: playout(state, seat, a, style, k, s), time_limit)
