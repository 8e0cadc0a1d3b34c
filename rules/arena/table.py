"""Everything on the table of an Arena game, and the small changes the rules make to it.

:class:`Table` holds the data of a game in progress (players, models, terrain, the phase, the
turn's records and the step machine's stack) and the small changes every part of the rules makes
(events, scheduling steps, asking for a roll, placing and moving models, Crowd Favour). Its queries
(effective stats, movement, targets, range and line of sight) are those of its base,
:class:`~.queries.Queries` (queries.py). The step functions (setup.py, turn.py, resolve.py) take a
Table; :class:`~.state.ArenaState` is a Table with the :class:`~rules.core.State` hooks.

The flow is a small machine: ``stack`` holds the steps still to run (LIFO; ``push(a, b)`` runs a
then b), ``pending_roll`` a die roll the state waits for (a chance action), ``prompt`` a choice a
seat owes.
"""

from __future__ import annotations

from typing import Any

from ..core import Event, Outcome, seat_ref
from .board import Square, label, neighbour_bits, neighbour_table
from .data import ArenaData, load_data
from .game import ArenaOptions, Phase
from .pieces import Effect, Model
from .queries import Queries
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


class Table(Queries):
    """The data of an Arena game in progress and its queries (no State hooks: see state.py)."""

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


__all__ = ["Player", "Table"]
