"""Arena's legal actions: the list a seat may choose from now, and whether one action is among them
without listing them all (the checks of ``ArenaState._check``; why one is not is explain.py's).
Functions of an :class:`~.state.ArenaState`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Literal, cast

from ..core import ActionModel
from .actions import (
    BLOOD_PACT,
    DECLINE,
    END_ACTIVATION,
    END_TURN,
    Act,
    BloodPact,
    ChooseDiscipline,
    ChooseEdge,
    ChooseSpell,
    Decline,
    Deploy,
    EndActivation,
    EndTurn,
    Extinguish,
    Move,
    PlaceMinion,
    PlaceTerrain,
    RandomTerrain,
    Reroll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    Teleport,
    WitchStep,
    choose_spell,
    deploy,
    place_minion,
    reroll_die,
    scholar_bonus,
    select_model,
    spend_favour,
    teleport,
    witch_step,
)
from .board import Square, edge_squares, manhattan, on_board, reach_bits, square_bit
from .data import load_data
from .game import EDGE_CHOICES, Phase
from .ground import blocked_bits, free_test, occupant, terrain_actions, terrain_allowed
from .queries import (
    act_allowed,
    act_options,
    can_reach,
    eligible,
    held_by_vines,
    move_actions,
    necro_squares,
    ordered_models,
    teleport_squares,
    witch_squares,
    wizard,
)

if TYPE_CHECKING:
    from .state import ArenaState

DEPLOY_KINDS: tuple[Literal["wizard", "minion"], ...] = ("wizard", "minion")


@cache
def _discipline_choices() -> tuple[ChooseDiscipline, ...]:
    return tuple(ChooseDiscipline(discipline=d) for d in load_data().disciplines)


# ------------------------------------------------------------------------------ the lists
def legal_actions(st: ArenaState, seat: int) -> Sequence[ActionModel]:
    if st.prompt is not None:
        return prompt_actions(st)
    if st.phase == Phase.DISCIPLINE:
        return list(_discipline_choices())
    if st.phase == Phase.TERRAIN:
        out: list[ActionModel] = [] if st.terrain else [RandomTerrain()]
        return out + terrain_actions(st)
    if st.phase == Phase.EDGE:
        return [ChooseEdge(side=e) for e in EDGE_CHOICES]
    if st.phase == Phase.DEPLOY:
        p = st.players[seat]
        assert p.edge is not None
        is_free = free_test(st)
        free = [sq for sq in edge_squares(p.edge, st.size) if is_free(sq)]
        return [deploy(k, sq) for k in DEPLOY_KINDS if k not in p.deployed for sq in free]
    if st.phase == Phase.ACTION:
        return action_phase_actions(st)
    return []


def action_phase_actions(st: ArenaState) -> list[ActionModel]:
    a = st.activation
    out: list[ActionModel] = []
    blocked = blocked_bits(st)
    if a is None:
        out += [select_model(m.id) for m in ordered_models(st) if eligible(st, m, blocked)]
    else:
        m = st.models[a.model]
        if not a.moved and not held_by_vines(st, m):
            out += move_actions(st, m, blocked)
        if not a.acted:
            out += act_options(st, m, m.owner)
        out.append(END_ACTIVATION)
        # selecting another model ends this activation (its unused Move or Action is lost)
        out += [select_model(o.id) for o in ordered_models(st) if o.id != m.id and eligible(st, o, blocked)]
    out.append(END_TURN)
    return out


def prompt_actions(st: ArenaState) -> list[ActionModel]:
    p = st.prompt
    assert p is not None
    kind = p.kind
    if kind == "crowd":
        return [spend_favour(k) for k in range(st.players[p.seat].favour + 1)]
    if kind == "spell":
        assert st.spell is not None
        return [choose_spell(s) for s in st.spell.options]
    if kind == "reroll":
        assert st.roll is not None
        return [reroll_die(i) for i in range(len(st.roll.dice))] + [DECLINE]
    if kind == "scholar":
        if p.per_die:
            assert st.roll is not None
            return [scholar_bonus(i) for i in range(len(st.roll.dice))] + [DECLINE]
        return [scholar_bonus(), DECLINE]
    if kind == "blood_pact":
        return [BLOOD_PACT, DECLINE]
    if kind == "witch_step":
        return [witch_step(sq) for sq in witch_squares(st)] + [DECLINE]
    if kind == "necro":
        return [place_minion(sq) for sq in necro_squares(st)]
    if kind == "teleport":
        assert p.model is not None
        return [teleport(sq) for sq in teleport_squares(st, p.model)] + [DECLINE]
    if kind == "dominate":
        d = st.dominate
        assert d is not None
        m = st.models[d.model]
        out: list[ActionModel] = []
        if not d.moved:
            out += move_actions(st, m)
        out += act_options(st, m, d.seat, dominated=True)
        return [*out, DECLINE]
    raise RuntimeError(f"arena: unknown prompt {kind}")  # pragma: no cover


# ------------------------------------------------------------------------------ the checks
def is_listed(st: ArenaState, seat: int, action: ActionModel) -> bool:
    """Whether ``action`` is among ``legal_actions(st, seat)``, without listing them (a Discipline
    choice may carry a free-text name)."""
    if st.prompt is not None:
        return prompt_answer_is_legal(st, action)
    return setup_or_turn_action_is_legal(st, seat, action)


def setup_or_turn_action_is_legal(st: ArenaState, seat: int, action: ActionModel) -> bool:
    """Whether ``action`` is among ``legal_actions(st, seat)`` outside prompts (or is a Discipline
    choice with a free-text name), without listing them."""
    phase = st.phase
    kind = type(action)
    if phase == Phase.ACTION:
        return turn_action_is_legal(st, action)
    if phase == Phase.DISCIPLINE:
        # the optional name is free text: legal_actions lists the choices without a name
        return kind is ChooseDiscipline and cast(ChooseDiscipline, action).discipline in st.data.disciplines
    if phase == Phase.TERRAIN:
        if kind is PlaceTerrain:
            return terrain_allowed(st, cast(PlaceTerrain, action).at)
        return kind is RandomTerrain and not st.terrain
    if phase == Phase.EDGE:
        return kind is ChooseEdge and cast(ChooseEdge, action).side in EDGE_CHOICES
    if phase == Phase.DEPLOY:
        if kind is not Deploy:
            return False
        dep = cast(Deploy, action)
        p = st.players[seat]
        assert p.edge is not None
        return (
            dep.model not in p.deployed
            and dep.at in edge_squares(p.edge, st.size)
            and dep.at not in st.terrain
            and occupant(st, dep.at) is None
        )
    return False


def turn_action_is_legal(st: ArenaState, action: ActionModel) -> bool:
    """Whether ``action`` is among ``action_phase_actions()``, without listing them all."""
    kind = type(action)
    if kind is EndTurn:
        return True
    a = st.activation
    if kind is SelectModel:
        m = st.models.get(cast(SelectModel, action).model)
        return m is not None and (a is None or m.id != a.model) and eligible(st, m)
    if a is None:
        return False
    if kind is EndActivation:
        return True
    m = st.models[a.model]
    if kind is Move:
        return not a.moved and not held_by_vines(st, m) and can_reach(st, m, cast(Move, action).to)
    if kind is Act:
        return not a.acted and act_allowed(st, m, m.owner, cast(Act, action))
    if kind is Extinguish:
        return not a.acted and not held_by_vines(st, m) and m.has("burning")
    return False


def prompt_answer_is_legal(st: ArenaState, action: ActionModel) -> bool:
    """Whether ``action`` is among ``prompt_actions()``, without listing them."""
    p = st.prompt
    assert p is not None
    prompt = p.kind
    kind = type(action)
    if kind is Decline:
        return prompt not in ("crowd", "spell", "necro")
    if prompt == "crowd":
        return kind is SpendFavour and 0 <= cast(SpendFavour, action).points <= st.players[p.seat].favour
    if prompt == "spell":
        assert st.spell is not None
        return kind is ChooseSpell and cast(ChooseSpell, action).spell in st.spell.options
    if prompt == "reroll":
        assert st.roll is not None
        return kind is Reroll and 0 <= cast(Reroll, action).die < len(st.roll.dice)
    if prompt == "scholar":
        if kind is not ScholarBonus:
            return False
        die = cast(ScholarBonus, action).die
        if p.per_die:
            assert st.roll is not None
            return die is not None and 0 <= die < len(st.roll.dice)
        return die is None
    if prompt == "blood_pact":
        return kind is BloodPact
    if prompt == "witch_step":
        if kind is not WitchStep:
            return False
        wiz = wizard(st, st.active)
        assert wiz is not None
        return _reachable_within(st, wiz.pos, cast(WitchStep, action).to, 2)
    if prompt == "necro":
        if kind is not PlaceMinion:
            return False
        wiz = wizard(st, st.active)
        assert wiz is not None
        return _free_within(st, wiz.pos, cast(PlaceMinion, action).at, 2)
    if prompt == "teleport":
        assert p.model is not None
        m = st.models.get(p.model)
        return kind is Teleport and m is not None and _free_within(st, m.pos, cast(Teleport, action).to, 4)
    if prompt == "dominate":
        d = st.dominate
        assert d is not None
        m = st.models[d.model]
        if kind is Move:
            return not d.moved and can_reach(st, m, cast(Move, action).to)
        return kind is Act and act_allowed(st, m, d.seat, cast(Act, action), dominated=True)
    return False  # pragma: no cover


def _free_within(st: ArenaState, centre: Square, sq: Square, dist: int) -> bool:
    """Whether ``sq`` is in ``within(centre, dist)`` and free."""
    return (
        on_board(sq, st.size)
        and 0 < manhattan(sq, centre) <= dist
        and sq not in st.terrain
        and occupant(st, sq) is None
    )


def _reachable_within(st: ArenaState, start: Square, sq: Square, steps: int) -> bool:
    """Whether ``sq`` is reachable from ``start`` in 1..steps steps through free squares."""
    if not on_board(sq, st.size):
        return False
    return bool(reach_bits(start, steps, st.size, blocked_bits(st)) & square_bit(sq, st.size))


__all__ = [
    "DEPLOY_KINDS",
    "action_phase_actions",
    "is_listed",
    "legal_actions",
    "prompt_actions",
    "prompt_answer_is_legal",
    "setup_or_turn_action_is_legal",
    "turn_action_is_legal",
]
