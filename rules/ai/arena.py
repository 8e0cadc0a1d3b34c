"""Arena's search knowledge (see :mod:`rules.ai.policy`): an open board, so nothing to determinize.

Random playouts are useless here: a random player ends its turns at once and wanders, a full
game is hundreds of actions, and who wins depends on who closes in and attacks. So:

- **playout policy** (epsilon-greedy): a model's Action against the enemy Wizard first, then an
  enemy Minion; a move to the square nearest the enemy Wizard (Manhattan distance: Arena measures
  without diagonals); activate models rather than end the activation or the turn; prompts (spell,
  rerolls, crowd...) at random;
- **cut-off**: a playout stops after :data:`HORIZON` actions (about two player turns, dice
  included) and the position is **evaluated**: each side's Wizard health (the game is lost when it
  reaches 0), its Minions on the board and their health, and its Crowd Favour, the difference
  squashed to 0..1 by a logistic;
- **pruning**: when a model can act against an enemy model, ending the activation or the turn is
  not considered in the tree (the policy never does it either).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..actions import ActionModel
from ..arena.actions import Act, EndActivation, EndTurn, Extinguish, Move, SelectModel
from ..arena.game import Phase
from ..arena.state import ArenaState
from ..core import State
from .policy import Tuning, greedy

#: Playout actions (chance included) before the position is evaluated.
HORIZON = 36
#: Logistic slope of the evaluation (score units: a full-health Wizard is worth 4).
SLOPE = 0.9


def _enemy_wizard(st: ArenaState, seat: int) -> tuple[int, int] | None:
    for m in st.models.values():
        if m.owner != seat and m.is_wizard:
            return m.pos
    return None


def _score(st: ArenaState, seat: int, target_pos: tuple[int, int] | None, action: ActionModel) -> float:
    kind = type(action)
    if kind is Act:
        assert isinstance(action, Act)
        target = action.target
        if target is None:
            return 50.0
        m = st.models.get(target)
        if m is None or m.owner == seat:
            return 10.0
        return 100.0 if m.is_wizard else 80.0
    if kind is Move:
        assert isinstance(action, Move)
        if target_pos is None:
            return 10.0
        x, y = action.to
        return 40.0 - float(abs(x - target_pos[0]) + abs(y - target_pos[1]))
    if kind is SelectModel:
        return 20.0
    if kind is Extinguish:
        return 30.0
    if kind is EndActivation:
        return -20.0
    if kind is EndTurn:
        return -30.0
    return 0.0


def policy(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Aggressive play in the Action Phase (see the module docstring); set-up and prompts at random."""
    assert isinstance(state, ArenaState)
    if state.prompt is not None or state.phase != Phase.ACTION:
        return state.sample_action(seat, rng)
    legal = state.legal_actions(seat)
    target_pos = _enemy_wizard(state, seat)
    return greedy(legal, lambda a: _score(state, seat, target_pos, a), rng)


def side_score(st: ArenaState, seat: int) -> float:
    """What ``seat`` has on the board: Wizard health (4 at full), Minions (0.5 each and 0.5 at
    full health), Crowd Favour (0.2 each)."""
    score = 0.2 * st.players[seat].favour
    for m in st.models.values():
        if m.owner != seat:
            continue
        frac = m.health / m.max_health if m.max_health > 0 else 0.0
        if m.is_wizard:
            score += 4.0 * frac
        else:
            score += 0.5 + 0.5 * frac
    return score


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance of winning: a logistic of the difference of side scores."""
    assert isinstance(state, ArenaState)
    diff = side_score(state, 0) - side_score(state, 1)
    p0 = 1.0 / (1.0 + math.exp(-SLOPE * diff))
    return [p0, 1.0 - p0]


def prune(state: State, seat: int, legal: Sequence[ActionModel]) -> Sequence[ActionModel]:
    """Leave out ending the activation or the turn when an Action against an enemy is possible."""
    assert isinstance(state, ArenaState)
    if state.prompt is not None:
        return legal
    attack = False
    for a in legal:
        if type(a) is Act:
            assert isinstance(a, Act)
            m = state.models.get(a.target) if a.target is not None else None
            if m is not None and m.owner != seat:
                attack = True
                break
    if not attack:
        return legal
    return [a for a in legal if type(a) is not EndTurn and type(a) is not EndActivation]


TUNING = Tuning(policy=policy, epsilon=0.1, horizon=HORIZON, evaluate=evaluate, prune=prune, uct_c=0.5)
