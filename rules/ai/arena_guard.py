"""Arena: the search's *prior* (:class:`rules.ai.policy.Tuning`), what a sound player does about
the Wizards' danger (:mod:`rules.ai.arena_threat`) at the root of a search:

- **kill first**: a Wizard that can take an Action against the enemy Wizard does it (the game is
  won the moment that Wizard falls, ruling 42), before it moves away;
- **keep out of reach**: a Wizard whose enemy can knock it out in the coming turn with a fair
  chance (:data:`DANGER`) is activated, and Moves to the square where that chance is least (a Move
  that starts next to an enemy costs 2 damage, ruling 23, counted), among those the squares from
  which it can still strike the enemy Wizard first, then the nearest to it (no running away for
  good: a drawn game at the turn limit is no win).

Otherwise it has no opinion (None) and the search decides alone. The search plays the prior
unless another action earns clearly more visits (:data:`rules.ai.ismcts.PRIOR_SHARE`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import ActionModel
from ..arena.actions import EndActivation, EndTurn, Move, SelectModel, act_on, move_to, select_model
from ..arena.board import Square, manhattan, reach_bits, squares_in
from ..arena.costs import DISENGAGE_DAMAGE
from ..arena.game import Phase
from ..arena.state import ArenaState
from ..core import State
from .arena_threat import damage_to, kill_chance

#: The kill chance in the enemy's coming turn from which the Wizard steps out of reach.
DANGER = 0.08


def _adjacent_enemy(st: ArenaState, seat: int, pos: Square) -> bool:
    return any(m.owner != seat and manhattan(m.pos, pos) == 1 for m in st.models.values())


def safest_square(st: ArenaState, seat: int) -> tuple[Square, float] | None:
    """Where ``seat``'s Wizard is least likely to be knocked out in the enemy's coming turn, among
    its square and those it may Move to now, and that chance; None without a Wizard."""
    wiz = st.wizard(seat)
    if wiz is None:
        return None
    here = kill_chance(st, seat)
    steps = st.eff_move(wiz)
    if steps <= 0 or st.held_by_vines(wiz):
        return wiz.pos, here
    health = wiz.health - (DISENGAGE_DAMAGE if _adjacent_enemy(st, seat, wiz.pos) else 0)
    if health <= 0:
        return wiz.pos, here
    enemy = st.wizard(1 - seat)
    spell = st.model_action(wiz)
    goal = enemy.pos if enemy is not None else None
    rng = spell.range if spell is not None and spell.damage is not None and goal is not None else -1
    best = (here, _hit(st, wiz.pos, rng, goal), _dist(wiz.pos, goal), wiz.pos)
    for sq in squares_in(reach_bits(wiz.pos, steps, st.size, st.blocked_bits()), st.size):
        wiz_pos = wiz.pos
        wiz.pos = sq  # the enemy's moves go round the Wizard where it stands then
        try:
            k = damage_to(st, wiz, sq, cap=health)[-1]
        finally:
            wiz.pos = wiz_pos
        cand = (round(k, 3), _hit(st, sq, rng, goal), _dist(sq, goal), sq)
        if cand < best:
            best = cand
    return best[3], best[0]


def _hit(st: ArenaState, at: Square, rng: int | None, goal: Square | None) -> int:
    """0 when a spell of range ``rng`` (-1: none that hurts) reaches ``goal`` from ``at``, else 1."""
    if goal is None or rng == -1:
        return 1
    return 0 if (rng is None or manhattan(at, goal) <= rng) and st.blocker(at, goal) is None else 1


def _dist(sq: Square, goal: Square | None) -> int:
    return 0 if goal is None else manhattan(sq, goal)


def prior(state: State, seat: int) -> ActionModel | None:
    """The sound action for ``seat`` at the root (see the module docstring), or None."""
    assert isinstance(state, ArenaState)
    st = state
    if st.prompt is not None or st.phase != Phase.ACTION or st.active != seat:
        return None
    wiz, enemy = st.wizard(seat), st.wizard(1 - seat)
    if wiz is None or enemy is None:
        return None
    a = st.activation
    if a is None:
        if wiz.id in st.activated or not st.eligible(wiz):
            return None
        if st.act_allowed(wiz, seat, act_on(enemy.id)) or kill_chance(st, seat) >= DANGER:
            return select_model(wiz.id)
        return None
    if a.model != wiz.id:
        return None
    if not a.acted and st.act_allowed(wiz, seat, act_on(enemy.id)):
        return act_on(enemy.id)
    if a.moved or kill_chance(st, seat) < DANGER:
        return None
    found = safest_square(st, seat)
    if found is None or found[0] == wiz.pos:
        return None
    return move_to(found[0])


def keep_away(st: ArenaState, seat: int, legal: Sequence[ActionModel]) -> Sequence[ActionModel]:
    """The tree's pruning for a Wizard in danger (kill chance at least :data:`DANGER` where it
    stands) that may still Move: its Moves only away from the enemy Wizard (when there are such),
    and no ending of its activation or of the turn before it has moved (nor selecting another model,
    which ends its activation). ``legal`` as it is otherwise."""
    if st.prompt is not None or st.phase != Phase.ACTION or st.active != seat:
        return legal
    wiz, enemy = st.wizard(seat), st.wizard(1 - seat)
    if wiz is None or enemy is None:
        return legal
    a = st.activation
    if a is None or a.model != wiz.id:
        if wiz.id in st.activated or not st.can_move(wiz):
            return legal
    elif a.moved:
        return legal
    if kill_chance(st, seat) < DANGER:
        return legal
    if a is None or a.model != wiz.id:  # another model's turn first, but the Wizard's is to come
        return [x for x in legal if type(x) is not EndTurn] or legal
    here = manhattan(wiz.pos, enemy.pos)
    away = [x for x in legal if type(x) is Move and manhattan(x.to, enemy.pos) > here]
    others = [x for x in legal if type(x) not in (Move, EndTurn, EndActivation, SelectModel)]
    return (away + others) if away else legal


__all__ = ["DANGER", "keep_away", "prior", "safest_square"]
