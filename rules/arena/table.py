"""Everything on the table of an Arena game, and the questions the rules ask about it.

:class:`Table` holds the data of a game in progress (players, models, terrain, the phase, the
turn's records and the step machine's stack) with its queries (effective stats, movement,
targets, range and line of sight) and the small changes every part of the rules makes (events,
scheduling steps, asking for a roll, placing and moving models, Crowd Favour). The step
functions (setup.py, turn.py, resolve.py) take a Table; :class:`~.state.ArenaState` is a Table
with the :class:`~rules.core.State` hooks.

The flow is a small machine: ``stack`` holds the steps still to run (LIFO; ``push(a, b)`` runs a
then b), ``pending_roll`` a die roll the state waits for (a chance action), ``prompt`` a choice a
seat owes.
"""

from __future__ import annotations

from typing import Any

from ..core import ActionModel, Event, Outcome, seat_ref
from .actions import ACT, EXTINGUISH, Act, Move, act_at, act_on, byte_moves
from .board import (
    Square,
    label,
    manhattan,
    neighbour_bits,
    neighbour_table,
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
from .data import ActionDef, ArenaData, Discipline, load_data
from .game import ArenaOptions, Phase
from .ground import Ground
from .pieces import Effect, Model, id_order_key
from .records import (
    Activation,
    Domination,
    KnockOut,
    LastRoll,
    Player,
    Prompt,
    Resolution,
    RollRecord,
    RollSpec,
    SpellChoice,
)
from .steps import Step, step


class Table(Ground):
    """The data of an Arena game in progress and its queries (no State hooks: see state.py)."""

    #: Whether events are built (``State.narrate``): a search's copy (False) skips them, and the
    #: hot paths skip formatting their texts too; the state changes exactly the same.
    narrate: bool

    def _setup_table(self, opts: ArenaOptions) -> None:
        #: The Discipline and table data (shared, never copied with the state).
        self.data: ArenaData = load_data()
        self.size: int = opts.grid_size
        #: Every square's neighbours on this board (shared).
        self.neighbours: dict[Square, tuple[Square, ...]] = neighbour_table(self.size)
        #: The same as bits (shared).
        self.neighbour_bits: dict[Square, int] = neighbour_bits(self.size)
        self.terrain_count: int = opts.terrain_count
        self.turn_limit: int = opts.game_turn_limit
        self.terrain: list[Square] = []
        self.players = [Player(), Player()]
        #: The seat that is Player 1 (the roll-off's winner, or the challenger).
        self.player_one = 0
        self.models: dict[str, Model] = {}
        self.names: dict[str, str] = {}  # model id -> display name (kept after removal)
        self._order: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # models' ids -> in order
        self.phase = Phase.DISCIPLINE
        self.deploy_seat = 0
        self.turn_no = 0
        self.game_turn = 0
        self.active = 0
        self.spell: SpellChoice | None = None
        self.activation: Activation | None = None
        self.activated: list[str] = []
        self.brawl_until: int | None = None
        self.stack: list[Step] = []
        self.resolutions: dict[int, Resolution] = {}
        self.next_resolution = 1
        self.pending_roll: RollSpec | None = None
        self.pending_layout = False
        self.roll: RollRecord | None = None
        self.last_roll: LastRoll | None = None
        self.prompt: Prompt | None = None
        self.dominate: Domination | None = None
        self.ko: KnockOut | None = None
        self.final: Outcome | None = None
        self._ev: list[Event] = []
        #: The terrain list the set ``_terrain_set`` was made from.
        self._terrain_src: list[Square] | None = None
        self._terrain_set: frozenset[Square] = frozenset()
        self._terrain_bits = 0

    def _copy_table_from(self, other: Table) -> None:
        """Make this table an independent copy of ``other`` (records that change are copied)."""
        self.__dict__.update(other.__dict__)
        self.terrain = list(other.terrain)
        if other._terrain_src is other.terrain:
            self._terrain_src = self.terrain  # the same squares: the memo holds
        self.players = [p.copy() for p in other.players]
        self.models = {k: m.copy() for k, m in other.models.items()}
        self.names = dict(other.names)
        self.spell = other.spell.copy() if other.spell else None
        self.activation = other.activation.copy() if other.activation else None
        self.activated = list(other.activated)
        self.stack = list(other.stack)
        self.resolutions = {k: c.copy() for k, c in other.resolutions.items()}
        self.roll = other.roll.copy() if other.roll else None
        self.dominate = other.dominate.copy() if other.dominate else None
        self._ev = list(other._ev)

    @property
    def player_two(self) -> int:
        return 1 - self.player_one

    # ================================================================== plumbing
    def emit(self, kind: str, text: str, /, **data: Any) -> None:
        if self.narrate:
            self._ev.append(Event(kind, text, data))

    def take_events(self) -> list[Event]:
        out, self._ev = self._ev, []
        return out

    def push(self, *steps: Step) -> None:
        """Schedule steps: the first given runs first. After a knock-out only its fate roll."""
        if self.ko is not None:
            steps = tuple(s for s in steps if s[0] == "fate")
        if len(steps) == 1:
            self.stack.append(steps[0])
        else:
            self.stack.extend(reversed(steps))

    def request_roll(self, purpose: str, sides: list[int], then: Step | None = None, **info: Any) -> None:
        if self.ko is not None and purpose != "knockout":
            return
        if then is not None:
            self.push(then)
        self.pending_roll = RollSpec(purpose, tuple(sides), info)

    def waiting(self) -> bool:
        return self.pending_roll is not None or self.pending_layout or self.prompt is not None or self.final is not None

    def ask(self, seat: int, kind: Any, **details: Any) -> None:
        """Make ``seat`` owe a choice (see :class:`~.records.Prompt`)."""
        self.prompt = Prompt(seat, kind, **details)

    # ================================================================== queries
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

    # ================================================================== small changes
    def place_wizard(self, seat: int, sq: Square) -> None:
        w = self.data.wizard
        d = self.discipline(seat)
        p = self.players[seat]
        mid = f"p{seat + 1}-wizard"
        name = p.wizard_name or "Wizard"
        self.models[mid] = Model(
            mid, seat, "wizard", d.id, name, sq, w["health"], w["health"], w["move"], w["skill"], w["defence"]
        )
        self.names[mid] = f"{seat_ref(seat)}'s {p.wizard_name + ' the ' if p.wizard_name else ''}{d.name}"
        if self.narrate:
            self.emit(
                "deployed",
                f"{self.names[mid]} takes the field on {label(sq)}.",
                seat=seat,
                model=mid,
                kind="wizard",
                at=list(sq),
                square=label(sq),
            )

    def place_minion(self, seat: int, sq: Square, why: str) -> str:
        d = self.discipline(seat)
        p = self.players[seat]
        p.minion_count += 1
        mid = f"p{seat + 1}-m{p.minion_count}"
        mn = d.minion
        self.models[mid] = Model(
            mid, seat, "minion", d.id, mn.name, sq, mn.health, mn.health, mn.move, mn.skill, mn.defence
        )
        self.names[mid] = f"{seat_ref(seat)}'s {mn.name} {mid}"
        verb = {"deployed": "takes the field", "summoned": "is summoned", "necromancer": "rises from the ground"}[why]
        if self.narrate:
            self.emit(
                "deployed" if why == "deployed" else "summon",
                f"{self.names[mid]} {verb} on {label(sq)}.",
                seat=seat,
                model=mid,
                kind="minion",
                at=list(sq),
                square=label(sq),
                cause=why,
            )
        if d.id == "flesh_transmuter":
            self.request_roll("mutation", [3], step("mutation", mid), model=mid, label=f"the mutation of {mid} (D3)")
        return mid

    def relocate(self, m: Model, to: Square, cause: str, path: list[Square]) -> None:
        frm = m.pos
        m.pos = to
        if not self.narrate:
            return
        verbs = {
            "move": "moves",
            "witch_step": "steps (Green Witch, free)",
            "dominate": "is moved by its new master",
            "teleport": "is teleported",
            "tidal_wave": "is swept back by the Tidal Wave",
        }
        if self.narrate:
            self.emit(
                "move",
                f"{self.mname(m.id)} {verbs.get(cause, 'moves')} from {label(frm)} to {label(to)}.",
                model=m.id,
                to=list(to),
                path=[list(p) for p in path],
                squares=[label(frm), label(to)],
                cause=cause,
                **{"from": list(frm)},
            )

    def gain_favour(self, seat: int, n: int, reason: str) -> None:
        if self.brawl_until is not None:
            if self.narrate:
                self.emit(
                    "favour_blocked",
                    f"A brawl in the stands: {seat_ref(seat)} gains no Crowd Favour ({reason}).",
                    seat=seat,
                    reason=reason,
                )
            return
        p = self.players[seat]
        p.favour += n
        if self.narrate:
            self.emit(
                "favour",
                f"{seat_ref(seat)} gains {n} Crowd Favour ({reason}): {p.favour}.",
                seat=seat,
                change=n,
                total=p.favour,
                reason=reason,
            )

    def heal(self, m: Model, amount: int, why: str) -> None:
        gained = min(amount, m.max_health - m.health)
        m.health += gained
        if self.narrate:
            self.emit(
                "heal",
                f"{self.mname(m.id)} regains {gained} Health ({why}): {m.health}/{m.max_health}.",
                model=m.id,
                amount=gained,
                rolled=amount,
                health=m.health,
                max_health=m.max_health,
                why=why,
            )

    def add_effect(self, m: Model, e: Effect, text: str) -> None:
        """Effects do not stack: a new one replaces the old one of the same kind."""
        m.effects = [x for x in m.effects if x.kind != e.kind]
        m.effects.append(e)
        if self.narrate:
            self.emit(
                "effect", text, model=m.id, effect=e.kind, **{k: v for k, v in e.to_json().items() if k != "kind"}
            )

    def finish_activation(self) -> None:
        a = self.activation
        if a is None:
            return
        self.activation = None
        if a.model not in self.activated:
            self.activated.append(a.model)
        if self.narrate:
            self.emit("activation_end", f"{self.mname(a.model)} is done for this turn.", model=a.model)

    def record_roll(self, spec: RollSpec, dice: list[int]) -> None:
        self.last_roll = LastRoll(spec.purpose, tuple(dice), spec.sides, spec.info)


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


__all__ = ["Player", "Table"]
