"""The questions the rules ask about an Arena table: who is on it, the models' effective stats now,
movement (by bit boards, see board.py), targets with range and line of sight, the Actions a model may
take, and the squares and spells on offer. Functions of an :class:`~.state.ArenaState` that only
read it (a search asks these in its inner loops); the state's methods of the same names call them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import ActionModel
from .actions import ACT, EXTINGUISH, Act, Move, act_at, act_on, byte_moves
from .board import (
    Square,
    label,
    manhattan,
    on_board,
    path_to,
    reach_bits,
    reachable,
    reachable_squares,
    square_bit,
    squares_in,
    within,
    within_bits,
)
from .data import ActionDef, Discipline
from .ground import blocked_bits, blocked_squares, blocker, free_test, occupant
from .pieces import Model, id_order_key

if TYPE_CHECKING:
    from .state import ArenaState


def discipline(st: ArenaState, seat: int) -> Discipline:
    d = st.players[seat].discipline
    assert d is not None
    return st.data.disciplines[d]


def is_discipline(st: ArenaState, seat: int, discipline_id: str) -> bool:
    return st.players[seat].discipline == discipline_id


def wizard(st: ArenaState, seat: int) -> Model | None:
    return st.models.get(f"p{seat + 1}-wizard")


def minions(st: ArenaState, seat: int) -> list[Model]:
    return [m for m in ordered_models(st) if m.owner == seat and not m.is_wizard]


def minion_count(st: ArenaState, seat: int) -> int:
    """``len(minions(seat))``."""
    return sum(1 for m in st.models.values() if m.owner == seat and not m.is_wizard)


def ordered_models(st: ArenaState) -> list[Model]:
    """Seat 0's Wizard, its Minions by number, then seat 1's."""
    ids = tuple(st.models)
    if st._order[0] != ids:
        st._order = (ids, tuple(sorted(ids, key=id_order_key)))
    return list(map(st.models.__getitem__, st._order[1]))


def move_actions(st: ArenaState, m: Model, blocked: int | None = None) -> list[Move]:
    """``[move_to(sq) for sq in move_list(m)]``, from a table of the actions by bits.
    ``blocked``: this board's ``blocked_bits()``, if the caller has it."""
    steps = eff_move(st, m)
    if steps <= 0:
        return []
    nbytes, rows = byte_moves(st.size)
    bits = reach_bits(m.pos, steps, st.size, blocked_bits(st) if blocked is None else blocked)
    out: list[Move] = []
    for row, byte in zip(rows, bits.to_bytes(nbytes, "little"), strict=True):
        if byte:
            out += row[byte]
    return out


def move_list(st: ArenaState, m: Model, blocked: int | None = None) -> list[Square]:
    """The squares of ``move_squares(m)`` in reading order. ``blocked``: this board's
    ``blocked_bits()``, if the caller has it."""
    steps = eff_move(st, m)
    if steps <= 0:
        return []
    bb = blocked_bits(st) if blocked is None else blocked
    return squares_in(reach_bits(m.pos, steps, st.size, bb), st.size)


def can_reach(st: ArenaState, m: Model, to: Square) -> bool:
    """Whether ``to`` is in ``move_squares(m)``."""
    steps = eff_move(st, m)
    if steps <= 0 or not on_board(to, st.size):
        return False
    return bool(reach_bits(m.pos, steps, st.size, blocked_bits(st)) & square_bit(to, st.size))


def mname(st: ArenaState, mid: str) -> str:
    return st.names.get(mid, mid)


def action_def(st: ArenaState, action_id: str) -> ActionDef:
    return st.data.action(action_id)


# ---------------------------------------------------------------- stats now
def eff_move(st: ArenaState, m: Model) -> int:
    if not m.effects:
        return m.move if m.move > 0 else 0
    v = m.move + m.mutation("move")
    if m.has("transmuted"):
        v += 2
    if m.has("crippled", st.turn_no):
        v -= 1
    return max(0, v)


def eff_defence(st: ArenaState, m: Model) -> tuple[int, list[dict[str, Any]]]:
    mods: list[dict[str, Any]] = []
    if m.mutation("defence"):
        mods.append({"why": "mutation", "value": m.mutation("defence")})
    if m.has("shield"):
        mods.append({"why": "shield", "value": 2})
    return m.defence + sum(x["value"] for x in mods), mods


def eff_skill(st: ArenaState, m: Model, target: Model | None = None) -> tuple[int, list[dict[str, Any]]]:
    mods: list[dict[str, Any]] = []
    if m.mutation("skill"):
        mods.append({"why": "mutation", "value": m.mutation("skill")})
    if m.has("transmuted"):
        mods.append({"why": "transmuted", "value": 2})
    if m.has("empower"):
        mods.append({"why": "empower", "value": 1})
    if m.has("insult"):
        mods.append({"why": "insult", "value": -1})
    if m.has("torment", st.turn_no):
        mods.append({"why": "torment", "value": -2})
    if (
        target is not None
        and target.is_wizard
        and target.owner != m.owner
        and is_discipline(st, target.owner, "luminous_sorcerer")
        and manhattan(m.pos, target.pos) <= 1
    ):
        mods.append({"why": "luminous", "value": -1})
    return m.skill + sum(x["value"] for x in mods), mods


def held_by_vines(st: ArenaState, m: Model) -> bool:
    if not m.effects:
        return False
    e = m.effect("vines")
    return e is not None and e.applies_turn == st.turn_no


# ---------------------------------------------------------------- movement and targets
def move_options(st: ArenaState, m: Model, steps: int) -> dict[Square, list[Square]]:
    if steps <= 0:
        return {}
    return reachable(m.pos, steps, st.size, free_test(st))


def move_path(st: ArenaState, m: Model, to: Square) -> list[Square]:
    """``move_options(m, eff_move(m))[to]``: the shortest path the Move takes (``to`` is known
    to be reachable). Only the event shows it: ``[]`` when not narrating."""
    if not st.narrate:
        return []
    path = path_to(m.pos, to, eff_move(st, m), st.size, blocked_squares(st))
    assert path is not None
    return path


def move_squares(st: ArenaState, m: Model, blocked: set[Square] | None = None) -> set[Square]:
    """The squares of ``move_options(m, eff_move(m))``, without their paths. ``blocked``: this
    board's ``blocked()``, if the caller has it."""
    steps = eff_move(st, m)
    if steps <= 0:
        return set()
    return reachable_squares(m.pos, steps, st.size, blocked_squares(st) if blocked is None else blocked)


def can_move(st: ArenaState, m: Model, blocked: int | None = None) -> bool:
    """Whether ``m`` may Move now: not held, and a free square next to it (``move_options`` is
    not empty exactly then). ``blocked``: this board's ``blocked_bits()``, if the caller has it."""
    if m.effects:
        if held_by_vines(st, m) or eff_move(st, m) <= 0:
            return False
    elif m.move <= 0:
        return False
    if blocked is None:
        blocked = blocked_bits(st)
    return bool(st.neighbour_bits[m.pos] & ~blocked)


def model_action(st: ArenaState, m: Model) -> ActionDef | None:
    """The Action this model may take now: the selected spell (Wizard, once) or its Minion action."""
    if m.is_wizard:
        if st.spell is None or st.spell.selected is None or st.spell.cast:
            return None
        return st.data.spell(st.spell.selected)
    return discipline(st, m.owner).minion.action


def reach(st: ArenaState, actor: Model, target: Model, rng: int | None, side: int) -> tuple[bool, str]:
    """Whether ``actor`` may target ``target`` for range and line of sight, with the reason if not."""
    if actor.id == target.id:
        return True, ""
    if (
        not actor.is_wizard
        and actor.owner == side
        and is_discipline(st, side, "astral_warlock")
        and (wiz := wizard(st, side)) is not None
        and blocker(st, wiz.pos, target.pos) is None
    ):
        return True, ""  # Astral Warlock: the Wizard sees it
    dist = manhattan(actor.pos, target.pos)
    if rng is not None and dist > rng:
        return False, f"{target.square()} is {dist} squares away; the range is {rng}"
    wall = blocker(st, actor.pos, target.pos)
    if wall is not None:
        return False, f"the line of sight to {target.square()} is blocked by the terrain on {label(wall)}"
    return True, ""


def reaches(st: ArenaState, actor: Model, target: Model, rng: int | None, side: int) -> bool:
    """``reach(actor, target, rng, side)[0]``, without the reason."""
    if actor is target or actor.id == target.id:
        return True
    tp = target.pos
    if (
        actor.owner == side
        and actor.kind != "wizard"
        and st.players[side].discipline == "astral_warlock"
        and (wiz := st.models.get(f"p{side + 1}-wizard")) is not None
        and blocker(st, wiz.pos, tp) is None
    ):
        return True
    ap = actor.pos
    if rng is not None and abs(ap[0] - tp[0]) + abs(ap[1] - tp[1]) > rng:
        return False
    return blocker(st, ap, tp) is None


def target_kind_ok(
    st: ArenaState, actor: Model, target: Model, kind: str, side: int, dominated: bool
) -> tuple[bool, str]:
    friendly = target.owner == side and not (dominated and target.id == actor.id)
    is_self = target.id == actor.id
    if kind == "enemy":
        return (not friendly and not is_self), "it must target an enemy model"
    if kind == "enemy_minion":
        return (not friendly and not is_self and not target.is_wizard), "it must target an enemy Minion"
    if kind == "enemy_wizard":
        return (not friendly and target.is_wizard), "it must target the enemy Wizard"
    if kind == "friendly":
        return friendly, "it must target a friendly model (or the Wizard itself)"
    if kind == "friendly_minion":
        return (friendly and not is_self and not target.is_wizard), "it must target a friendly Minion"
    if kind == "any":
        return (not dominated or not is_self), "it must target a model"
    return False, "it does not target a model"


def hypnotic_source(st: ArenaState, m: Model) -> str | None:
    e = m.effect("hypnotic")
    if e is None or e.applies_turn != st.turn_no or e.source not in st.models:
        return None
    return e.source


def act_options(st: ArenaState, m: Model, side: int, dominated: bool = False) -> list[ActionModel]:
    if not dominated and held_by_vines(st, m):
        return []
    out: list[ActionModel] = []
    if not dominated and m.has("burning"):
        out.append(EXTINGUISH)
    adef = model_action(st, m) if not dominated else discipline(st, m.owner).minion.action
    if adef is None:
        return out
    if adef.target == "none":
        out.append(ACT)
    elif adef.target == "square":
        if minion_count(st, side) < st.data.max_minions:
            blocked = blocked_squares(st)
            out += [act_at(sq) for sq in within(m.pos, adef.range or 2, st.size) if sq not in blocked]
    else:
        hyp = None if dominated or not m.effects else hypnotic_source(st, m)
        kind, rng = adef.target, adef.range
        for t in ordered_models(st):
            if hyp is not None and t.id != hyp:
                continue
            if (
                target_kind_ok(st, m, t, kind, side, dominated)[0] if dominated else _kind_ok(m, t, kind, side)
            ) and reaches(st, m, t, rng, side):
                out.append(act_on(t.id))
    return out


def can_act(st: ArenaState, m: Model, blocked: int | None = None) -> bool:
    """``bool(act_options(m, m.owner))`` (not dominated), stopping at the first option."""
    if m.effects:
        if held_by_vines(st, m):
            return False
        if m.has("burning"):
            return True
    adef = model_action(st, m)
    if adef is None:
        return False
    kind = adef.target
    if kind == "none":
        return True
    side = m.owner
    if kind == "square":
        if minion_count(st, side) >= st.data.max_minions:
            return False
        if blocked is None:
            blocked = blocked_bits(st)
        return bool(within_bits(m.pos, adef.range or 2, st.size) & ~blocked)
    hyp = None if not m.effects else hypnotic_source(st, m)
    rng = adef.range
    for t in st.models.values():  # any target: the order does not matter
        if hyp is not None and t.id != hyp:
            continue
        if _kind_ok(m, t, kind, side) and reaches(st, m, t, rng, side):
            return True
    return False


def act_allowed(st: ArenaState, m: Model, side: int, action: Act, dominated: bool = False) -> bool:
    """Whether ``action`` is among ``act_options(m, side, dominated)``, without listing them."""
    if not dominated and held_by_vines(st, m):
        return False
    adef = model_action(st, m) if not dominated else discipline(st, m.owner).minion.action
    if adef is None:
        return False
    kind = adef.target
    target, at = action.target, action.at
    if kind == "none":
        return target is None and at is None
    if kind == "square":
        if target is not None or at is None or minion_count(st, side) >= st.data.max_minions:
            return False
        return (
            on_board(at, st.size)
            and 0 < manhattan(at, m.pos) <= (adef.range or 2)
            and at not in st.terrain
            and occupant(st, at) is None
        )
    if at is not None or target is None:
        return False
    t = st.models.get(target)
    if t is None:
        return False
    hyp = None if dominated or not m.effects else hypnotic_source(st, m)
    if hyp is not None and t.id != hyp:
        return False
    ok = target_kind_ok(st, m, t, kind, side, dominated)[0] if dominated else _kind_ok(m, t, kind, side)
    return ok and reaches(st, m, t, adef.range, side)


def eligible(st: ArenaState, m: Model, blocked: int | None = None) -> bool:
    """Whether the active player may activate ``m`` (it can move or act). ``blocked``: this
    board's ``blocked_bits()``, if the caller has it."""
    if m.owner != st.active or m.id in st.activated:
        return False
    return can_move(st, m, blocked) or can_act(st, m, blocked)


def witch_squares(st: ArenaState) -> list[Square]:
    wiz = wizard(st, st.active)
    assert wiz is not None
    return squares_in(reach_bits(wiz.pos, 2, st.size, blocked_bits(st)), st.size)


def necro_squares(st: ArenaState) -> list[Square]:
    wiz = wizard(st, st.active)
    assert wiz is not None
    free = free_test(st)
    return [sq for sq in within(wiz.pos, 2, st.size) if free(sq)]


def teleport_squares(st: ArenaState, mid: str) -> list[Square]:
    m = st.models.get(mid)
    if m is None:
        return []
    free = free_test(st)
    return [sq for sq in within(m.pos, 4, st.size) if free(sq)]


def spell_for_die(st: ArenaState, seat: int, value: int) -> str:
    sid = st.data.spell_table[value]
    return discipline(st, seat).spell.id if sid == "discipline" else sid


def all_spells(st: ArenaState, seat: int) -> list[str]:
    out = [spell_for_die(st, seat, v) for v in range(1, 7)]
    return list(dict.fromkeys([*out, "arcane_rocket"]))


def _kind_ok(actor: Model, target: Model, kind: str, side: int) -> bool:
    """``target_kind_ok(actor, target, kind, side, dominated=False)[0]``, without the reason."""
    if kind == "enemy":
        return target.owner != side and target.id != actor.id
    if kind == "enemy_minion":
        return target.owner != side and target.id != actor.id and not target.is_wizard
    if kind == "enemy_wizard":
        return target.owner != side and target.is_wizard
    if kind == "friendly":
        return target.owner == side
    if kind == "friendly_minion":
        return target.owner == side and target.id != actor.id and not target.is_wizard
    return kind == "any"


__all__ = [
    "act_allowed",
    "act_options",
    "action_def",
    "all_spells",
    "can_act",
    "can_move",
    "can_reach",
    "discipline",
    "eff_defence",
    "eff_move",
    "eff_skill",
    "eligible",
    "held_by_vines",
    "hypnotic_source",
    "is_discipline",
    "minion_count",
    "minions",
    "mname",
    "model_action",
    "move_actions",
    "move_list",
    "move_options",
    "move_path",
    "move_squares",
    "necro_squares",
    "ordered_models",
    "reach",
    "reaches",
    "spell_for_die",
    "target_kind_ok",
    "teleport_squares",
    "witch_squares",
    "wizard",
]
