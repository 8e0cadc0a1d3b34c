"""Firewall's normal and hard levels: candidate turns played out by scripts (issue 32), replacing
the tree there.

Why: the tree bet the bidding game's equilibrium (:mod:`rules.ai.firewall_prune`) against an
opponent modelled from its revealed bets, with playouts cut at the next turn; against the pool's
rule-based players it lost too often (normal 70 % against ``steady``, hard 7 of 10): one turn's
lookahead cannot see how a bet plays out over the round, where an empty reserve or a spent spell
costs later. Here, as for Arena and Wizards Cup (:mod:`rules.ai.portfolio`):

- the candidates are the scripts' answers (:data:`rules.ai.firewall_script.SCRIPTS`, the pool's
  tune half, each with :data:`JITTERS` draws of its bet; those the tree would not consider left
  out, :func:`rules.ai.firewall_prune.allowed`), the bets of the bidding game's
  equilibrium mix (:func:`rules.ai.firewall_value.equilibrium`) alone, and :data:`EXTRA` turns drawn
  from those the tree considers (:func:`rules.ai.firewall_prune.kept_turns`: no spell that cannot
  help its caster, no last mana spent into a loss); at a follow-up (Recycle, Larceny) every
  legal answer, up to :data:`EXTRA`;
- each is played out on the same samples: a sample of what the seat cannot see
  (:func:`rules.ai.determinize.determinize`, the opponent's secret turn of this step taken back),
  the opponent's answer by an *enemy* (sample ``k`` by ``ENEMIES[k mod n]``: the scripts, and the
  opponent model learned from the match's revealed bets, :func:`rules.ai.firewall.model`: a
  generic opponent), then both seats played on, the seat by the candidate's script, to the end of
  the round (or :data:`DEPTH` turns), scored by :func:`rules.ai.firewall.evaluate` (the bidding
  game's value of the mana, the wall and the bridge; a finished match by its result);
- the best mean wins (ties: the scripts' answers first).

Samples: :data:`SAMPLE_SHARE` of the level's iterations (normal 640 -> 13, hard 2400 -> 48).
Measured (40 games per pairing, seats alternated, seeds 8200-8219 / 8300-8319, CPU p95 on a shared
machine): normal against ``steady`` 40 and 40 of 40 (the tree: 27 of 40 on 8200-8219), ``mirror``
40 and 40 (36), the holdout ``opener`` 34 and 36 (30), ``spells`` 34 and 36 (23), p95 0.57-0.61 s;
hard (8200-8219) 40, 40, 38 and 33 of 40, ``steady`` 20 of 20 on 8300-8309, p95 1.8-2.0 s.

Easy keeps the tree. Deterministic for a seed; reads only what the seat may know (the samples, the
seat's view).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..actions import ActionModel
from ..core import CHANCE, State
from ..firewall.actions import known_turn
from ..firewall.state import FirewallState
from ..firewall.table import Phase
from . import firewall_prune, firewall_value
from .determinize import determinize
from .firewall_script import SCRIPTS, Script, steady
from .portfolio import compare

if TYPE_CHECKING:
    from .ismcts import Budget, SearchResult

_SCRIPTS: tuple[Script, ...] = tuple(SCRIPTS.values())
#: Samples per candidate: this share of the level's iterations (rules.ai.ismcts.iterations_for).
SAMPLE_SHARE = 0.02
#: Draws of each script's answer (its bet is jittered): distinct answers become candidates.
JITTERS = 2
#: Turns drawn at random from those the tree considers, besides the scripts' and the equilibrium's.
EXTRA = 12
#: Turns played after the candidate's (None: to the end of the round).
DEPTH: int | None = None
#: A playout's safety cap on actions.
MAX_STEPS = 400


def _modelled(sim: State, seat: int, rng: random.Random) -> ActionModel:
    """The opponent model learned from the match's revealed bets (:func:`rules.ai.firewall.model`),
    the first script where it has nothing to say (a follow-up, no bet seen yet)."""
    from .firewall import model

    found = model(sim, seat, rng)
    return found if found is not None else steady(sim, seat, rng)


#: The opponent in the playouts, sample ``k`` by ``ENEMIES[k mod n]``.
ENEMIES: tuple[Script, ...] = (*_SCRIPTS, _modelled)


def samples_for(budget: Budget) -> int:
    """The samples per candidate ``budget`` allows (at least 2)."""
    from .ismcts import iterations_for

    return max(2, round(iterations_for(budget, "firewall") * SAMPLE_SHARE))


def _proposals(state: State, seat: int) -> dict[ActionModel, int]:
    """The scripts' answers (:data:`JITTERS` draws each), each with the index of its script."""
    found: dict[ActionModel, int] = {}
    for j in range(JITTERS):
        for i, script in enumerate(_SCRIPTS):
            found.setdefault(script(state, seat, random.Random(j)), i)
    return found


def candidates(state: State, seat: int, rng: random.Random) -> dict[ActionModel, int]:
    """The candidates (module docstring), each with the index of the script that continues it (a
    candidate no script proposed: the first)."""
    assert isinstance(state, FirewallState)
    found = {a: i for a, i in _proposals(state, seat).items() if firewall_prune.allowed(state, seat, a)}
    if state.phase is Phase.TURN:
        x, d, m, n, k = firewall_value.context(state, seat)
        for bet, _ in firewall_value.equilibrium(x, d, m, n, k, firewall_prune.exposed(state, seat)):
            found.setdefault(known_turn(min(bet, m), (), None), 0)
        pool: Sequence[ActionModel] = firewall_prune.kept_turns(state, seat)
    else:
        pool = state.legal_actions(seat)
    picks = range(len(pool)) if len(pool) <= EXTRA else rng.sample(range(len(pool)), EXTRA)
    for i in picks:
        found.setdefault(pool[i], 0)
    return found


def _done(sim: FirewallState, round_: int, turns: int) -> bool:
    if sim.awaiting.is_terminal or sim.round != round_:
        return True
    return DEPTH is not None and sim.turns_total - turns > DEPTH


def playout(state: State, seat: int, action: ActionModel, mine: int, k: int, seed: int) -> float:
    """``action`` for ``seat`` on sample ``k`` of ``state`` (drawn from ``seed``), the opponent by
    ``ENEMIES[k mod n]``, then on to the round's end: ``seat``'s value there."""
    from .firewall import evaluate
    from .ismcts import rewards

    rng = random.Random(seed)
    sim = determinize(state, seat, rng, reopen=True)
    assert isinstance(sim, FirewallState)
    enemy = ENEMIES[k % len(ENEMIES)]
    others = [(s, enemy(sim, s, rng)) for s in sorted(sim.awaiting.seats) if s != seat]
    sim.apply_trusted(seat, action)
    for s, answer in others:
        if sim.is_legal(s, answer):
            sim.apply_trusted(s, answer)
    round_, turns = state.round, state.turns_total  # type: ignore[attr-defined]
    script = _SCRIPTS[mine]
    players: dict[int, Callable[[State, int, random.Random], ActionModel]] = {seat: script, 1 - seat: enemy}
    for _ in range(MAX_STEPS):
        if _done(sim, round_, turns):
            break
        aw = sim.awaiting
        if aw.is_chance:
            sim.apply_trusted(CHANCE, sim.sample_action(CHANCE, rng))
            continue
        picks = [(s, players[s](sim, s, rng)) for s in sorted(aw.seats)]
        for s, answer in picks:
            sim.apply_trusted(s, answer)
    if sim.awaiting.is_terminal:
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
    """The level's answer for ``seat`` (module docstring) as a search result: each candidate with its
    (samples, mean). ``root_actions`` plays out exactly those (a review's "what was it worth")."""
    rng = random.Random(seed)
    if root_actions is not None:
        proposed = _proposals(state, seat)
        cands = {a: proposed.get(a, 0) for a in dict.fromkeys(root_actions)}
    else:
        cands = candidates(state, seat, rng)
    n = samples_for(budget)
    seeds = [rng.getrandbits(63) for _ in range(n)]
    return compare(cands, seeds, lambda a, mine, k, s: playout(state, seat, a, mine, k, s), time_limit)
