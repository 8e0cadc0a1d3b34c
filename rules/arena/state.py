"""Arena's State: every datum of a game in progress, what is awaited and asked, the legal actions
and the checks, applying an action or a chance outcome, and the outcome.

:class:`ArenaState` is one class, a :class:`~rules.core.State`; the data of a game is its attributes
(all set in ``__init__``). What the rules do with them is in functions of the state, in modules
that are not base classes:

- ground.py (the terrain and the occupied squares) and queries.py (effective stats, movement,
  targets, the Actions a model may take): questions that only read the state. The methods of the
  same names below call them: they are the state's API for the view, the AI, the UI and the tests;
  the engine's modules call the functions themselves (a search runs them in its inner loops);
- table.py: the small changes every part of the rules makes (events, scheduling steps, asking for a
  roll or a choice, placing and moving models, Crowd Favour);
- legal.py: the legal actions and the checks (explain.py: why an action is refused); dice.py: the
  rolls as chance actions;
- the steps of the rules machine: setup.py, turn.py, resolve.py, casualties.py, crowd.py.

Applying an action runs the step machine: ``run`` pops steps from the stack and calls their
functions from the one table :data:`STEPS` until a step needs a roll, a layout or a seat's choice.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from itertools import repeat
from operator import is_
from typing import Any

from ..core import ActionModel, Ask, Awaiting, Bound, Event, Outcome, State
from ..errors import IllegalAction
from . import dice, ground, legal, queries, resolve, setup, turn
from .actions import (
    Act,
    ChooseEdge,
    ChooseSpell,
    Decline,
    Move,
    PlaceTerrain,
    RandomTerrain,
    Roll,
    SpendFavour,
    TerrainLayout,
    roll,
)
from .board import Square, neighbour_bits, neighbour_table
from .data import ActionDef, ArenaData, Discipline, load_data
from .explain import explain
from .game import SETUP_PHASES, Arena, Phase
from .pieces import Model
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
from .steps import Step, StepName
from .table import take_events

#: Every step of the machine, by name: the one place a step name leads to its function.
STEPS: dict[StepName, Callable[..., None]] = {
    "first_player": setup.first_player,
    "deploy_progress": setup.deploy_progress,
    "rolloff": setup.rolloff,
    "mutation": turn.mutation,
    "turn_start": turn.turn_start,
    "burning": turn.burning,
    "trickster": turn.trickster,
    "necro": turn.necro,
    "witch": turn.witch,
    "blood": turn.blood,
    "crowd": turn.crowd,
    "spell_roll": turn.spell_roll,
    "spell_prompt": turn.spell_prompt,
    "end_turn": turn.end_turn,
    "activity_done": turn.activity_done,
    "blood_damage": turn.blood_damage,
    "window": turn.window,
    "crowd_result": resolve.crowd_result,
    "gremlin_model": resolve.gremlin_model,
    "gremlin_damage": resolve.gremlin_damage,
    "shard_damage": resolve.shard_damage,
    "opposed": resolve.opposed,
    "explosion": resolve.explosion,
    "effect": resolve.effect,
    "damage": resolve.damage_step,
    "heal": resolve.heal_step,
    "dominate_end": resolve.dominate_end,
    "fate": resolve.fate,
}


# What may be awaited (immutable, shared).
_TERMINAL = Awaiting.terminal()
_CHANCE = Awaiting.chance()
_SEAT = (Awaiting.of(0), Awaiting.of(1))


class ArenaState(State):
    game: Arena

    def __init__(self, game: Arena):
        State.__init__(self, game)
        opts = game.options
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
        #: The steps still to run (LIFO; see ``table.push``).
        self.stack: list[Step] = []
        self.resolutions: dict[int, Resolution] = {}
        self.next_resolution = 1
        #: A die roll the state waits for (a chance action).
        self.pending_roll: RollSpec | None = None
        self.pending_layout = False
        self.roll: RollRecord | None = None
        self.last_roll: LastRoll | None = None
        #: A choice a seat owes.
        self.prompt: Prompt | None = None
        self.dominate: Domination | None = None
        self.ko: KnockOut | None = None
        self.final: Outcome | None = None
        #: The events not yet taken (``table.emit``, ``table.take_events``).
        self._ev: list[Event] = []
        #: The terrain list the memo (``_terrain_set``, ``_terrain_bits``; see ground.py) was made from.
        self._terrain_src: list[Square] | None = None
        self._terrain_set: frozenset[Square] = frozenset()
        self._terrain_bits = 0
        #: Counts the changes (applied actions and chance outcomes).
        self._version = 0
        #: The last legal actions listed: (version, seat, actions). An action object taken from
        #: that list while nothing changed is legal without further checks (a sampled action).
        self._offered: tuple[int, int, Sequence[ActionModel]] = (-1, -1, ())
        if opts.first_player == "roll_off":
            setup.ask_first_player(self)

    def _copy(self) -> ArenaState:
        """An independent copy: the records that change are copied, the shared data is not."""
        out = ArenaState.__new__(ArenaState)
        out.__dict__.update(self.__dict__)
        out.terrain = list(self.terrain)
        if self._terrain_src is self.terrain:
            out._terrain_src = out.terrain  # the same squares: the memo holds
        out.players = [p.copy() for p in self.players]
        out.models = {k: m.copy() for k, m in self.models.items()}
        out.names = dict(self.names)
        out.spell = self.spell.copy() if self.spell else None
        out.activation = self.activation.copy() if self.activation else None
        out.activated = list(self.activated)
        out.stack = list(self.stack)
        out.resolutions = {k: c.copy() for k, c in self.resolutions.items()}
        out.roll = self.roll.copy() if self.roll else None
        out.dominate = self.dominate.copy() if self.dominate else None
        out._ev = list(self._ev)
        return out

    @property
    def player_two(self) -> int:
        return 1 - self.player_one

    # ================================================================== the step machine
    def waiting(self) -> bool:
        return self.pending_roll is not None or self.pending_layout or self.prompt is not None or self.final is not None

    def run(self) -> None:
        stack = self.stack  # changed in place only (push, pop, clear)
        steps = STEPS
        for _ in range(100_000):
            # not self.waiting(), inlined
            if not stack or self.pending_roll is not None or self.pending_layout or self.prompt is not None:
                return
            if self.final is not None:
                return
            name, args = stack.pop()
            steps[name](self, *args)
        raise RuntimeError("arena: the step machine did not settle")

    # ================================================================== what is awaited and asked
    def _awaiting(self) -> Awaiting:
        if self.final is not None:
            return _TERMINAL
        if self.pending_roll is not None or self.pending_layout:
            return _CHANCE
        if self.prompt is not None:
            return _SEAT[self.prompt.seat]
        phase = self.phase
        if phase == Phase.ACTION:
            return _SEAT[self.active]
        if phase == Phase.DISCIPLINE:
            return Awaiting.of(*(s for s, p in enumerate(self.players) if p.discipline is None))
        if phase == Phase.TERRAIN:
            return _SEAT[self.player_one]
        if phase == Phase.EDGE:
            return _SEAT[self.player_two]
        if phase == Phase.DEPLOY:
            return _SEAT[self.deploy_seat]
        raise RuntimeError(f"arena: nothing awaited in phase {self.phase}")  # pragma: no cover

    def _ask(self, seat: int) -> Ask:
        """The kind is the prompt's kind for the prompted seat, else the phase. Open information:
        nothing is secret."""
        p = self.prompt
        if p is not None and p.seat == seat:
            if p.kind == "crowd":
                return Ask(p.kind, bounds=(Bound("points", 0, self.players[seat].favour),))
            return Ask(p.kind)
        # the Disciplines are chosen by both seats at once (each sees the other's once made)
        return Ask(str(self.phase), simultaneous=self.phase == Phase.DISCIPLINE)

    def _outcome(self) -> Outcome:
        assert self.final is not None
        return self.final

    # ================================================================== legal actions and checks
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        out = legal.legal_actions(self, seat)
        self._offered = (self._version, seat, out)
        return out

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: optional follow-ups are declined, no Crowd Favour is spent, Arcane Rocket is
        the spell, the Necromancer's free Minion goes on the first legal square, a Player 1 who has
        placed no terrain gets the random layout, Player 2 takes the south edge and a deployment
        uses the first free square. Choosing a Discipline and the Action Phase have no default
        (the seat forfeits)."""
        if seat not in self.awaiting.seats:
            return None
        listed = self._legal_actions(seat)
        if self.prompt is not None:
            kind = self.prompt.kind
            if kind == "crowd":
                return SpendFavour(points=0)
            if kind == "spell":
                return ChooseSpell(spell="arcane_rocket")
            if kind == "necro":
                return listed[0] if listed else None
            return Decline()
        if self.phase == Phase.TERRAIN:
            return RandomTerrain() if not self.terrain else (listed[0] if listed else None)
        if self.phase == Phase.EDGE:
            return ChooseEdge(side="south")
        if self.phase == Phase.DEPLOY:
            return listed[0] if listed else None
        return None

    def _check(self, seat: int, action: ActionModel) -> None:
        version, offered_to, offered = self._offered
        if version == self._version and offered_to == seat and any(map(is_, offered, repeat(action))):
            return
        if legal.is_listed(self, seat, action):
            return
        raise IllegalAction(explain(self, seat, action, self._legal_actions(seat)))

    # ================================================================== chance
    def _chance_outcomes(self) -> Sequence[ActionModel]:
        if self.pending_layout:
            return setup.layout_space(self)
        spec = self.pending_roll
        if spec is None:
            return []
        return [roll(d) for d in itertools.product(*(range(1, s + 1) for s in spec.sides))]

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        if self.pending_layout:
            space = setup.layout_space(self)
            return space[rng.randrange(len(space))]
        spec = self.pending_roll
        if spec is None:
            return super()._sample_chance(rng)
        # rng.randint(1, s) is rng.randrange(1, s + 1): the same draws, one call fewer
        rr = rng.randrange
        sides = spec.sides
        if len(sides) == 2:
            return roll((rr(1, sides[0] + 1), rr(1, sides[1] + 1)))
        return roll(tuple([rr(1, s + 1) for s in sides]))

    def _check_chance(self, action: ActionModel) -> None:
        if self.pending_layout:
            if not isinstance(action, TerrainLayout):
                raise IllegalAction("The referee is laying out the terrain: expected a terrain_layout.")
            setup.check_layout(self, list(action.squares))
            return
        dice.check_roll(self, action)

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        self._version += 1
        if type(action) is TerrainLayout:
            setup.apply_layout(self, action)
        else:
            assert isinstance(action, Roll)
            dice.apply_roll(self, action)
        self.run()
        return take_events(self)

    # ================================================================== applying
    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        self._version += 1
        if self.prompt is not None:
            turn.answer_prompt(self, seat, action)
        elif self.phase in SETUP_PHASES:
            setup.apply_setup(self, seat, action, self.game.options.terrain_setup == "random")
        else:
            turn.apply_action_phase(self, seat, action)
        self.run()
        return take_events(self)

    # ================================================================== the queries
    # The state's questions, for the view, explain.py, the AI, the UI and the tests: each calls the
    # function of the same name in ground.py or queries.py (which has its docstring), with which
    # the engine's own modules ask them.
    def occupant(self, sq: Square) -> Model | None:
        return ground.occupant(self, sq)

    def is_free(self, sq: Square) -> bool:
        return ground.is_free(self, sq)

    def blocked(self) -> set[Square]:
        return ground.blocked_squares(self)

    def free_test(self) -> Callable[[Square], bool]:
        return ground.free_test(self)

    def blocked_bits(self) -> int:
        return ground.blocked_bits(self)

    def blocker(self, a: Square, b: Square) -> Square | None:
        return ground.blocker(self, a, b)

    def terrain_allowed(self, sq: Square) -> bool:
        return ground.terrain_allowed(self, sq)

    def terrain_squares(self) -> list[Square]:
        return ground.terrain_squares(self)

    def terrain_actions(self) -> list[PlaceTerrain]:
        return ground.terrain_actions(self)

    def discipline(self, seat: int) -> Discipline:
        return queries.discipline(self, seat)

    def is_discipline(self, seat: int, discipline_id: str) -> bool:
        return queries.is_discipline(self, seat, discipline_id)

    def wizard(self, seat: int) -> Model | None:
        return queries.wizard(self, seat)

    def minions(self, seat: int) -> list[Model]:
        return queries.minions(self, seat)

    def minion_count(self, seat: int) -> int:
        return queries.minion_count(self, seat)

    def ordered_models(self) -> list[Model]:
        return queries.ordered_models(self)

    def move_actions(self, m: Model, blocked: int | None = None) -> list[Move]:
        return queries.move_actions(self, m, blocked)

    def move_list(self, m: Model, blocked_bits: int | None = None) -> list[Square]:
        return queries.move_list(self, m, blocked_bits)

    def can_reach(self, m: Model, to: Square) -> bool:
        return queries.can_reach(self, m, to)

    def mname(self, mid: str) -> str:
        return queries.mname(self, mid)

    def action_def(self, action_id: str) -> ActionDef:
        return queries.action_def(self, action_id)

    def eff_move(self, m: Model) -> int:
        return queries.eff_move(self, m)

    def eff_defence(self, m: Model) -> tuple[int, list[dict[str, Any]]]:
        return queries.eff_defence(self, m)

    def eff_skill(self, m: Model, target: Model | None = None) -> tuple[int, list[dict[str, Any]]]:
        return queries.eff_skill(self, m, target)

    def held_by_vines(self, m: Model) -> bool:
        return queries.held_by_vines(self, m)

    def move_options(self, m: Model, steps: int) -> dict[Square, list[Square]]:
        return queries.move_options(self, m, steps)

    def move_path(self, m: Model, to: Square) -> list[Square]:
        return queries.move_path(self, m, to)

    def move_squares(self, m: Model, blocked: set[Square] | None = None) -> set[Square]:
        return queries.move_squares(self, m, blocked)

    def can_move(self, m: Model, blocked: int | None = None) -> bool:
        return queries.can_move(self, m, blocked)

    def model_action(self, m: Model) -> ActionDef | None:
        return queries.model_action(self, m)

    def reach(self, actor: Model, target: Model, rng: int | None, side: int) -> tuple[bool, str]:
        return queries.reach(self, actor, target, rng, side)

    def reaches(self, actor: Model, target: Model, rng: int | None, side: int) -> bool:
        return queries.reaches(self, actor, target, rng, side)

    def target_kind_ok(self, actor: Model, target: Model, kind: str, side: int, dominated: bool) -> tuple[bool, str]:
        return queries.target_kind_ok(self, actor, target, kind, side, dominated)

    def hypnotic_source(self, m: Model) -> str | None:
        return queries.hypnotic_source(self, m)

    def act_options(self, m: Model, side: int, dominated: bool = False) -> list[ActionModel]:
        return queries.act_options(self, m, side, dominated)

    def can_act(self, m: Model, blocked: int | None = None) -> bool:
        return queries.can_act(self, m, blocked)

    def act_allowed(self, m: Model, side: int, action: Act, dominated: bool = False) -> bool:
        return queries.act_allowed(self, m, side, action, dominated)

    def eligible(self, m: Model, blocked: int | None = None) -> bool:
        return queries.eligible(self, m, blocked)

    def witch_squares(self) -> list[Square]:
        return queries.witch_squares(self)

    def necro_squares(self) -> list[Square]:
        return queries.necro_squares(self)

    def teleport_squares(self, mid: str) -> list[Square]:
        return queries.teleport_squares(self, mid)

    def spell_for_die(self, seat: int, value: int) -> str:
        return queries.spell_for_die(self, seat, value)

    def all_spells(self, seat: int) -> list[str]:
        return queries.all_spells(self, seat)


__all__ = ["STEPS", "ArenaState"]
