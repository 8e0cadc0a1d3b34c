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
from functools import cache

from ..actions import ActionModel
from ..arena.actions import (
    BLOOD_PACT,
    DECLINE,
    END_ACTIVATION,
    END_TURN,
    Act,
    EndActivation,
    EndTurn,
    Extinguish,
    Move,
    SelectModel,
    act_on,
    choose_spell,
    move_to,
    select_model,
)
from ..arena.board import bit_squares, on_board, reach_bits, square_bit
from ..arena.costs import BLOOD_PACT_DAMAGE, damage_range
from ..arena.game import Phase
from ..arena.pieces import Model
from ..arena.state import ArenaState
from ..core import State
from .arena_guard import DANGER, keep_away
from .arena_guard import prior as guard_prior
from .arena_portfolio import search as portfolio_search
from .arena_setup import setup_prior
from .arena_threat import kill_chance, strikes_at, threat
from .kit import AIKit
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


def _enemy_wizard_model(st: ArenaState, seat: int) -> Model | None:
    for m in st.models.values():
        if m.owner != seat and m.is_wizard:
            return m
    return None


def _score(
    st: ArenaState, seat: int, target_pos: tuple[int, int] | None, action: ActionModel, flee: bool = False
) -> float:
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
        d = abs(x - target_pos[0]) + abs(y - target_pos[1])
        return 40.0 - float(2 * st.size - d if flee else d)
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
    """Aggressive play in the Action Phase (see the module docstring); the spell that can hurt the
    enemy Wizard most; other set-up and prompts at random."""
    assert isinstance(state, ArenaState)
    if state.prompt is not None or state.phase != Phase.ACTION:
        return _spell_choice(state, seat, rng) or state.sample_action(seat, rng)
    return _greedy_turn(state, seat, rng)


def _spell_choice(st: ArenaState, seat: int, rng: random.Random) -> ActionModel | None:
    """At Spell Selection: the offered damaging spell of the most average damage that the Wizard
    can cast on the enemy Wizard this turn (a Move, then range and line of sight); None (a random
    choice) when none can. The Blood Mage's sacrifice (ruling 13) whenever it cannot knock its own
    Wizard out."""
    p = st.prompt
    if p is not None and p.kind == "blood_pact":  # never a sacrifice that can knock the Wizard out
        wiz = st.wizard(seat)
        return BLOOD_PACT if wiz is not None and wiz.health > damage_range(BLOOD_PACT_DAMAGE)[1] else DECLINE
    if p is None or p.kind != "spell" or st.spell is None:
        return None
    wiz, enemy = st.wizard(seat), _enemy_wizard_model(st, seat)
    if wiz is None or enemy is None:
        return None
    steps = st.eff_move(wiz)
    reach = reach_bits(wiz.pos, steps, st.size, st.blocked_bits()) if steps > 0 else 0
    best: ActionModel | None = None
    top = 0.0
    for sid in st.spell.options:
        adef = st.data.spell(sid)
        d = adef.damage
        if d is None or adef.target not in ("enemy", "enemy_wizard"):
            continue
        mean = d.count * (d.sides + 1) / 2 if d.count else float(d.flat)
        if mean > top and strikes_at(st, wiz, reach, adef.range, enemy.pos):
            best, top = choose_spell(sid), mean
    return best


def policy_reference(state: State, seat: int, rng: random.Random) -> ActionModel:
    """:func:`policy` the plain way: ``greedy`` over every legal action scored by ``_score``
    (what :func:`_greedy_turn` computes without listing and scoring them all; kept for tests)."""
    assert isinstance(state, ArenaState)
    if state.prompt is not None or state.phase != Phase.ACTION:
        return _spell_choice(state, seat, rng) or state.sample_action(seat, rng)
    legal = state.legal_actions(seat)
    target_pos = _enemy_wizard(state, seat)
    a = state.activation
    flee = a is not None and _flees(state, seat, state.models[a.model], a.moved)
    return greedy(legal, lambda act: _score(state, seat, target_pos, act, flee), rng)


def _flees(st: ArenaState, seat: int, m: Model, moved: bool) -> bool:
    """Whether ``m`` is ``seat``'s Wizard, yet to Move, that the enemy can knock out in its coming
    turn with a fair chance (:data:`rules.ai.arena_guard.DANGER`): then it Moves away from the enemy
    Wizard rather than toward it."""
    return m.is_wizard and m.owner == seat and not moved and kill_chance(st, seat) >= DANGER


@cache
def _rings(size: int, target: tuple[int, int]) -> tuple[int, ...]:
    """Per Manhattan distance ``d`` from ``target``: the bits (board.py) of the squares at ``d``."""
    rings = [0] * (2 * size)
    for x in range(size):
        for y in range(size):
            rings[abs(x - target[0]) + abs(y - target[1])] |= square_bit((x, y), size)
    return tuple(rings)


@cache
def _moves_by_bit(size: int) -> tuple[Move, ...]:
    """Bit index (board.py) -> the Move to that square (padding bits never set: any Move)."""
    return tuple(move_to(sq if on_board(sq, size) else (0, 0)) for sq in bit_squares(size))


#: ``reach_bits`` memo (a search revisits the same positions): (start, steps, size, blocked) -> bits.
_reach_memo: dict[tuple[tuple[int, int], int, int, int], int] = {}
_MEMO_SIZE = 1 << 16


def _greedy_turn(st: ArenaState, seat: int, rng: random.Random) -> ActionModel:
    """``greedy(legal_actions(seat), _score, rng)`` in the Action Phase (no prompt), the same
    action for the same ``rng``: the legal actions are (``_action_phase_actions``) the active
    model's Moves, its Action options, ending the activation, selecting another model, ending the
    turn; each group is only listed when its best score can be the top one, and of the Moves only
    those nearest the enemy Wizard (the top-scoring ones) are."""
    a = st.activation
    if a is None:
        blocked = st.blocked_bits()
        sel: list[ActionModel] = [select_model(m.id) for m in st.ordered_models() if st.eligible(m, blocked)]
        if not sel:
            return END_TURN
        return sel[0] if len(sel) == 1 else sel[rng.randrange(len(sel))]
    m = st.models[a.model]
    wizard = _enemy_wizard_model(st, seat)
    target_pos = wizard.pos if wizard is not None else None
    # the Action options (their scores are 100, 80, 50, 30 or 10)
    act_top = float("-inf")
    act_best: list[ActionModel] = []
    if not a.acted:
        if wizard is not None:
            on_wizard = act_on(wizard.id)
            if st.act_allowed(m, m.owner, on_wizard):
                return on_wizard  # the one action scoring 100
        for act in st.act_options(m, m.owner):
            s = _score(st, seat, target_pos, act)
            if s > act_top:
                act_top, act_best = s, [act]
            elif s == act_top:
                act_best.append(act)
    # the Moves (at most 39, or 10 each without an enemy Wizard): only when they can be the top
    move_top = float("-inf")
    move_best: list[ActionModel] = []
    if act_top < 50.0 and not a.moved and not st.held_by_vines(m):
        steps = st.eff_move(m)
        if steps > 0:
            n = st.size
            blocked = st.blocked_bits()
            key = (m.pos, steps, n, blocked)
            bits = _reach_memo.get(key)
            if bits is None:
                if len(_reach_memo) >= _MEMO_SIZE:
                    _reach_memo.clear()
                bits = _reach_memo[key] = reach_bits(m.pos, steps, n, blocked)
            if bits:
                moves = _moves_by_bit(n)
                if target_pos is None:
                    move_top = 10.0
                    near = bits
                elif _flees(st, seat, m, a.moved):  # the farthest squares from the enemy Wizard
                    rings = _rings(n, target_pos)
                    for d in range(len(rings) - 1, -1, -1):
                        near = bits & rings[d]
                        if near:
                            move_top = 40.0 - float(2 * n - d)
                            break
                else:
                    for d, ring in enumerate(_rings(n, target_pos)):
                        near = bits & ring
                        if near:
                            move_top = 40.0 - float(d)
                            break
                while near:  # the Moves to its squares in reading order (ascending bits)
                    low = near & -near
                    move_best.append(moves[low.bit_length() - 1])
                    near ^= low
    # in the order of the legal list: Moves, Actions, ending the activation, selecting another
    top = max(move_top, act_top, -20.0)
    best: list[ActionModel] = []
    if move_top == top:
        best += move_best
    if act_top == top:
        best += act_best
    if top == -20.0:
        best.append(END_ACTIVATION)
    if top <= 20.0:
        blocked = st.blocked_bits()
        sel = [select_model(o.id) for o in st.ordered_models() if o.id != m.id and st.eligible(o, blocked)]
        if sel:
            if top < 20.0:
                best = sel
            else:
                best += sel
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


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


#: How much of the coming enemy turn's kill chance counts against a Wizard that may still Move
#: away this turn (its own turn is not over: it may step out of reach; the tree finds where).
MOBILE_SHARE = 0.35


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance of winning: the active player knocks the enemy Wizard out in
    what is left of its turn (``threat``, :mod:`rules.ai.arena_threat`), else the other player
    knocks the active player's Wizard out in its coming turn (a lost game: ruling 42), else a
    logistic of the difference of side scores decides, each Wizard's Health less the damage those
    turns deal it on average."""
    assert isinstance(state, ArenaState)
    a = state.active
    if state.phase not in _TURN_PHASES:
        diff = side_score(state, 0) - side_score(state, 1)
        p0 = 1.0 / (1.0 + math.exp(-SLOPE * diff))
        return [p0, 1.0 - p0]
    now, now_dmg = threat(state, 1 - a)
    nxt, nxt_dmg = threat(state, a)
    if nxt and _can_still_move(state, a):
        nxt *= MOBILE_SHARE
        nxt_dmg *= MOBILE_SHARE
    diff = side_score(state, a) - side_score(state, 1 - a)
    diff += THREAT_WEIGHT * (_health_worth(state, 1 - a, now_dmg) - _health_worth(state, a, nxt_dmg))
    la = 1.0 / (1.0 + math.exp(-SLOPE * diff))
    va = now + (1.0 - now) * (1.0 - nxt) * la
    return [va, 1.0 - va] if a == 0 else [1.0 - va, va]


#: How much of the damage a Wizard takes on average in the coming turn counts in the side scores.
THREAT_WEIGHT = 1.0


def _health_worth(st: ArenaState, seat: int, damage: float) -> float:
    """What ``damage`` to ``seat``'s Wizard is worth in :func:`side_score` units."""
    wiz = st.wizard(seat)
    return 0.0 if wiz is None or wiz.max_health <= 0 or not damage else 4.0 * damage / wiz.max_health


_TURN_PHASES = frozenset({Phase.START, Phase.SPELL, Phase.ACTION})


def _can_still_move(st: ArenaState, seat: int) -> bool:
    """Whether ``seat``'s Wizard may still Move in this turn of ``seat``."""
    wiz = st.wizard(seat)
    if wiz is None:
        return False
    if st.phase != Phase.ACTION:
        return True
    a = st.activation
    if a is not None and a.model == wiz.id:
        return not a.moved
    return wiz.id not in st.activated


def prune(state: State, seat: int, legal: Sequence[ActionModel]) -> Sequence[ActionModel]:
    """Leave out ending the activation or the turn when an Action against an enemy is possible;
    a Wizard in danger keeps away (:func:`rules.ai.arena_guard.keep_away`)."""
    assert isinstance(state, ArenaState)
    if state.prompt is not None:
        return legal
    legal = keep_away(state, seat, legal)
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


def root_prior(state: State, seat: int) -> ActionModel | None:
    """The search's prior (:class:`rules.ai.policy.Tuning`): the set-up choice the rules' data
    favours (:mod:`rules.ai.arena_setup`); at Spell Selection the damaging spell that can reach the
    enemy Wizard this turn (:func:`_spell_choice`); in the Action Phase the guard's kill-first and
    keep-out-of-reach (:mod:`rules.ai.arena_guard`)."""
    assert isinstance(state, ArenaState)
    found = setup_prior(state, seat)
    if found is not None:
        return found
    p = state.prompt
    if p is not None and p.kind == "spell" and state.active == seat:
        return _spell_choice(state, seat, _NO_RNG)
    return guard_prior(state, seat)


_NO_RNG = random.Random(0)


#: scale 0.2: an Arena game has over a hundred AI decisions and each iteration plays up to
#: ``HORIZON`` actions of the policy, so it searches a fifth of a level's iterations (docs/ai.md).
TUNING = Tuning(
    policy=policy,
    epsilon=0.1,
    horizon=HORIZON,
    evaluate=evaluate,
    prune=prune,
    uct_c=0.5,
    scale=0.2,
    prior=lambda state, seat: root_prior(state, seat),
    search=portfolio_search,
    search_levels=frozenset({"normal", "hard"}),
)


#: what the computer players know of the game (named by its registry entry)
KIT = AIKit(tuning=TUNING)
