"""The questions the rules ask about an Arena table: who is on it, the models' effective stats now,
movement (by bit boards, see board.py), targets with range and line of sight, the Actions a model may
take, and the squares and spells on offer. :class:`Queries` is the base of :class:`~.table.Table`,
which sets its attributes up; it only reads them (a search asks these in its inner loops).
"""

from __future__ import annotations

from typing import Any

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
from .data import ActionDef, ArenaData, Discipline
from .ground import Ground
from .pieces import Model, id_order_key
from .records import Player, SpellChoice


class Queries(Ground):
    """The queries of a table in progress (the attributes are set by ``Table``)."""

    #: Whether events are built (``State.narrate``): a search's copy (False) skips them, and the
    #: hot paths skip formatting their texts too; the state changes exactly the same.
    narrate: bool
    data: ArenaData
    neighbour_bits: dict[Square, int]
    players: list[Player]
    names: dict[str, str]
    _order: tuple[tuple[str, ...], tuple[str, ...]]
    turn_no: int
    active: int
    spell: SpellChoice | None
    activated: list[str]

    def discipline(self, seat: int) -> Discipline:
        d = self.players[seat].discipline
        assert d is not None
        return self.data.disciplines[d]

    def is_discipline(self, seat: int, discipline_id: str) -> bool:
        return self.players[seat].discipline == discipline_id

    def wizard(self, seat: int) -> Model | None:
        return self.models.get(f"p{seat + 1}-wizard")

    def minions(self, seat: int) -> list[Model]:
        return [m for m in self.ordered_models() if m.owner == seat and not m.is_wizard]

    def minion_count(self, seat: int) -> int:
        """``len(minions(seat))``."""
        return sum(1 for m in self.models.values() if m.owner == seat and not m.is_wizard)

    def ordered_models(self) -> list[Model]:
        """Seat 0's Wizard, its Minions by number, then seat 1's."""
        ids = tuple(self.models)
        if self._order[0] != ids:
            self._order = (ids, tuple(sorted(ids, key=id_order_key)))
        return list(map(self.models.__getitem__, self._order[1]))

    def move_actions(self, m: Model, blocked: int | None = None) -> list[Move]:
        """``[move_to(sq) for sq in move_list(m)]``, from a table of the actions by bits.
        ``blocked``: this board's ``blocked_bits()``, if the caller has it."""
        steps = self.eff_move(m)
        if steps <= 0:
            return []
        nbytes, rows = byte_moves(self.size)
        bits = reach_bits(m.pos, steps, self.size, self.blocked_bits() if blocked is None else blocked)
        out: list[Move] = []
        for row, byte in zip(rows, bits.to_bytes(nbytes, "little"), strict=True):
            if byte:
                out += row[byte]
        return out

    def move_list(self, m: Model, blocked_bits: int | None = None) -> list[Square]:
        """The squares of ``move_squares(m)`` in reading order. ``blocked_bits``: this board's
        ``blocked_bits()``, if the caller has it."""
        steps = self.eff_move(m)
        if steps <= 0:
            return []
        bb = self.blocked_bits() if blocked_bits is None else blocked_bits
        return squares_in(reach_bits(m.pos, steps, self.size, bb), self.size)

    def can_reach(self, m: Model, to: Square) -> bool:
        """Whether ``to`` is in ``move_squares(m)``."""
        steps = self.eff_move(m)
        if steps <= 0 or not on_board(to, self.size):
            return False
        return bool(reach_bits(m.pos, steps, self.size, self.blocked_bits()) & square_bit(to, self.size))

    def mname(self, mid: str) -> str:
        return self.names.get(mid, mid)

    def action_def(self, action_id: str) -> ActionDef:
        return self.data.action(action_id)

    # ---------------------------------------------------------------- stats now
    def eff_move(self, m: Model) -> int:
        if not m.effects:
            return m.move if m.move > 0 else 0
        v = m.move + m.mutation("move")
        if m.has("transmuted"):
            v += 2
        if m.has("crippled", self.turn_no):
            v -= 1
        return max(0, v)

    def eff_defence(self, m: Model) -> tuple[int, list[dict[str, Any]]]:
        mods: list[dict[str, Any]] = []
        if m.mutation("defence"):
            mods.append({"why": "mutation", "value": m.mutation("defence")})
        if m.has("shield"):
            mods.append({"why": "shield", "value": 2})
        return m.defence + sum(x["value"] for x in mods), mods

    def eff_skill(self, m: Model, target: Model | None = None) -> tuple[int, list[dict[str, Any]]]:
        mods: list[dict[str, Any]] = []
        if m.mutation("skill"):
            mods.append({"why": "mutation", "value": m.mutation("skill")})
        if m.has("transmuted"):
            mods.append({"why": "transmuted", "value": 2})
        if m.has("empower"):
            mods.append({"why": "empower", "value": 1})
        if m.has("insult"):
            mods.append({"why": "insult", "value": -1})
        if m.has("torment", self.turn_no):
            mods.append({"why": "torment", "value": -2})
        if (
            target is not None
            and target.is_wizard
            and target.owner != m.owner
            and self.is_discipline(target.owner, "luminous_sorcerer")
            and manhattan(m.pos, target.pos) <= 1
        ):
            mods.append({"why": "luminous", "value": -1})
        return m.skill + sum(x["value"] for x in mods), mods

    def held_by_vines(self, m: Model) -> bool:
        if not m.effects:
            return False
        e = m.effect("vines")
        return e is not None and e.applies_turn == self.turn_no

    # ---------------------------------------------------------------- movement and targets
    def move_options(self, m: Model, steps: int) -> dict[Square, list[Square]]:
        if steps <= 0:
            return {}
        return reachable(m.pos, steps, self.size, self.free_test())

    def move_path(self, m: Model, to: Square) -> list[Square]:
        """``move_options(m, eff_move(m))[to]``: the shortest path the Move takes (``to`` is known
        to be reachable). Only the event shows it: ``[]`` when not narrating."""
        if not self.narrate:
            return []
        path = path_to(m.pos, to, self.eff_move(m), self.size, self.blocked())
        assert path is not None
        return path

    def move_squares(self, m: Model, blocked: set[Square] | None = None) -> set[Square]:
        """The squares of ``move_options(m, eff_move(m))``, without their paths. ``blocked``: this
        board's ``blocked()``, if the caller has it."""
        steps = self.eff_move(m)
        if steps <= 0:
            return set()
        return reachable_squares(m.pos, steps, self.size, self.blocked() if blocked is None else blocked)

    def can_move(self, m: Model, blocked: int | None = None) -> bool:
        """Whether ``m`` may Move now: not held, and a free square next to it (``move_options`` is
        not empty exactly then). ``blocked``: this board's ``blocked_bits()``, if the caller has it."""
        if m.effects:
            if self.held_by_vines(m) or self.eff_move(m) <= 0:
                return False
        elif m.move <= 0:
            return False
        if blocked is None:
            blocked = self.blocked_bits()
        return bool(self.neighbour_bits[m.pos] & ~blocked)

    def model_action(self, m: Model) -> ActionDef | None:
        """The Action this model may take now: the selected spell (Wizard, once) or its Minion action."""
        if m.is_wizard:
            if self.spell is None or self.spell.selected is None or self.spell.cast:
                return None
            return self.data.spell(self.spell.selected)
        return self.discipline(m.owner).minion.action

    def reach(self, actor: Model, target: Model, rng: int | None, side: int) -> tuple[bool, str]:
        """Whether ``actor`` may target ``target`` for range and line of sight, with the reason if not."""
        if actor.id == target.id:
            return True, ""
        if (
            not actor.is_wizard
            and actor.owner == side
            and self.is_discipline(side, "astral_warlock")
            and (wiz := self.wizard(side)) is not None
            and self.blocker(wiz.pos, target.pos) is None
        ):
            return True, ""  # Astral Warlock: the Wizard sees it
        dist = manhattan(actor.pos, target.pos)
        if rng is not None and dist > rng:
            return False, f"{target.square()} is {dist} squares away; the range is {rng}"
        blocker = self.blocker(actor.pos, target.pos)
        if blocker is not None:
            return False, f"the line of sight to {target.square()} is blocked by the terrain on {label(blocker)}"
        return True, ""

    def reaches(self, actor: Model, target: Model, rng: int | None, side: int) -> bool:
        """``reach(actor, target, rng, side)[0]``, without the reason."""
        if actor is target or actor.id == target.id:
            return True
        tp = target.pos
        if (
            actor.owner == side
            and actor.kind != "wizard"
            and self.players[side].discipline == "astral_warlock"
            and (wiz := self.models.get(f"p{side + 1}-wizard")) is not None
            and self.blocker(wiz.pos, tp) is None
        ):
            return True
        ap = actor.pos
        if rng is not None and abs(ap[0] - tp[0]) + abs(ap[1] - tp[1]) > rng:
            return False
        return self.blocker(ap, tp) is None

    def target_kind_ok(self, actor: Model, target: Model, kind: str, side: int, dominated: bool) -> tuple[bool, str]:
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

    def hypnotic_source(self, m: Model) -> str | None:
        e = m.effect("hypnotic")
        if e is None or e.applies_turn != self.turn_no or e.source not in self.models:
            return None
        return e.source

    def act_options(self, m: Model, side: int, dominated: bool = False) -> list[ActionModel]:
        if not dominated and self.held_by_vines(m):
            return []
        out: list[ActionModel] = []
        if not dominated and m.has("burning"):
            out.append(EXTINGUISH)
        adef = self.model_action(m) if not dominated else self.discipline(m.owner).minion.action
        if adef is None:
            return out
        if adef.target == "none":
            out.append(ACT)
        elif adef.target == "square":
            if self.minion_count(side) < self.data.max_minions:
                blocked = self.blocked()
                out += [act_at(sq) for sq in within(m.pos, adef.range or 2, self.size) if sq not in blocked]
        else:
            hyp = None if dominated or not m.effects else self.hypnotic_source(m)
            kind, rng = adef.target, adef.range
            for t in self.ordered_models():
                if hyp is not None and t.id != hyp:
                    continue
                if (
                    self.target_kind_ok(m, t, kind, side, dominated)[0] if dominated else _kind_ok(m, t, kind, side)
                ) and self.reaches(m, t, rng, side):
                    out.append(act_on(t.id))
        return out

    def can_act(self, m: Model, blocked: int | None = None) -> bool:
        """``bool(act_options(m, m.owner))`` (not dominated), stopping at the first option."""
        if m.effects:
            if self.held_by_vines(m):
                return False
            if m.has("burning"):
                return True
        adef = self.model_action(m)
        if adef is None:
            return False
        kind = adef.target
        if kind == "none":
            return True
        side = m.owner
        if kind == "square":
            if self.minion_count(side) >= self.data.max_minions:
                return False
            if blocked is None:
                blocked = self.blocked_bits()
            return bool(within_bits(m.pos, adef.range or 2, self.size) & ~blocked)
        hyp = None if not m.effects else self.hypnotic_source(m)
        rng = adef.range
        for t in self.models.values():  # any target: the order does not matter
            if hyp is not None and t.id != hyp:
                continue
            if _kind_ok(m, t, kind, side) and self.reaches(m, t, rng, side):
                return True
        return False

    def act_allowed(self, m: Model, side: int, action: Act, dominated: bool = False) -> bool:
        """Whether ``action`` is among ``act_options(m, side, dominated)``, without listing them."""
        if not dominated and self.held_by_vines(m):
            return False
        adef = self.model_action(m) if not dominated else self.discipline(m.owner).minion.action
        if adef is None:
            return False
        kind = adef.target
        target, at = action.target, action.at
        if kind == "none":
            return target is None and at is None
        if kind == "square":
            if target is not None or at is None or self.minion_count(side) >= self.data.max_minions:
                return False
            return (
                on_board(at, self.size)
                and 0 < manhattan(at, m.pos) <= (adef.range or 2)
                and at not in self.terrain
                and self.occupant(at) is None
            )
        if at is not None or target is None:
            return False
        t = self.models.get(target)
        if t is None:
            return False
        hyp = None if dominated or not m.effects else self.hypnotic_source(m)
        if hyp is not None and t.id != hyp:
            return False
        ok = self.target_kind_ok(m, t, kind, side, dominated)[0] if dominated else _kind_ok(m, t, kind, side)
        return ok and self.reaches(m, t, adef.range, side)

    def eligible(self, m: Model, blocked: int | None = None) -> bool:
        """Whether the active player may activate ``m`` (it can move or act). ``blocked``: this
        board's ``blocked_bits()``, if the caller has it."""
        if m.owner != self.active or m.id in self.activated:
            return False
        return self.can_move(m, blocked) or self.can_act(m, blocked)

    def witch_squares(self) -> list[Square]:
        wiz = self.wizard(self.active)
        assert wiz is not None
        return squares_in(reach_bits(wiz.pos, 2, self.size, self.blocked_bits()), self.size)

    def necro_squares(self) -> list[Square]:
        wiz = self.wizard(self.active)
        assert wiz is not None
        free = self.free_test()
        return [sq for sq in within(wiz.pos, 2, self.size) if free(sq)]

    def teleport_squares(self, mid: str) -> list[Square]:
        m = self.models.get(mid)
        if m is None:
            return []
        free = self.free_test()
        return [sq for sq in within(m.pos, 4, self.size) if free(sq)]

    def spell_for_die(self, seat: int, value: int) -> str:
        sid = self.data.spell_table[value]
        return self.discipline(seat).spell.id if sid == "discipline" else sid

    def all_spells(self, seat: int) -> list[str]:
        out = [self.spell_for_die(seat, v) for v in range(1, 7)]
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


__all__ = ["Queries"]
