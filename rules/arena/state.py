"""Arena's State: what is awaited and asked, the legal actions, the checks, applying an action or
a chance outcome, and the outcome.

:class:`ArenaState` is a :class:`~.table.Table` (the data and its queries) with the
:class:`~rules.core.State` hooks. Applying an action runs the step machine: ``run`` pops steps
from the stack and calls their functions from the one table :data:`STEPS` until a step needs a
roll, a layout or a seat's choice. The steps themselves are in setup.py, turn.py and resolve.py.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from functools import cache
from itertools import repeat
from operator import is_
from typing import Literal, cast

from ..core import ActionModel, Ask, Awaiting, Bound, Event, Outcome, State, seat_ref
from ..errors import IllegalAction
from . import resolve, setup, turn
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
    Roll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    Teleport,
    TerrainLayout,
    WitchStep,
    choose_spell,
    deploy,
    place_minion,
    reroll_die,
    roll,
    scholar_bonus,
    select_model,
    spend_favour,
    teleport,
    witch_step,
)
from .board import Square, edge_squares, manhattan, on_board, reach_bits, square_bit
from .data import load_data
from .explain import explain
from .game import CHANT_PURPOSES, EDGE_CHOICES, SETUP_PHASES, Arena, Phase
from .records import RollRecord
from .steps import StepName, step
from .table import Table

DEPLOY_KINDS: tuple[Literal["wizard", "minion"], ...] = ("wizard", "minion")

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


@cache
def _discipline_choices() -> tuple[ChooseDiscipline, ...]:
    return tuple(ChooseDiscipline(discipline=d) for d in load_data().disciplines)


class ArenaState(Table, State):
    game: Arena

    def __init__(self, game: Arena):
        State.__init__(self, game)
        self._setup_table(game.options)
        #: Counts the changes (applied actions and chance outcomes).
        self._version = 0
        #: The last legal actions listed: (version, seat, actions). An action object taken from
        #: that list while nothing changed is legal without further checks (a sampled action).
        self._offered: tuple[int, int, Sequence[ActionModel]] = (-1, -1, ())
        if game.options.first_player == "roll_off":
            setup.ask_first_player(self)

    def _copy(self) -> ArenaState:
        out = ArenaState.__new__(ArenaState)
        out._copy_table_from(self)
        return out

    # ================================================================== the step machine
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

    # ================================================================== legal actions
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        out = self._list_legal_actions(seat)
        self._offered = (self._version, seat, out)
        return out

    def _list_legal_actions(self, seat: int) -> Sequence[ActionModel]:
        if self.prompt is not None:
            return self._prompt_actions()
        if self.phase == Phase.DISCIPLINE:
            return list(_discipline_choices())
        if self.phase == Phase.TERRAIN:
            out: list[ActionModel] = [] if self.terrain else [RandomTerrain()]
            return out + self.terrain_actions()
        if self.phase == Phase.EDGE:
            return [ChooseEdge(side=e) for e in EDGE_CHOICES]
        if self.phase == Phase.DEPLOY:
            p = self.players[seat]
            assert p.edge is not None
            is_free = self.free_test()
            free = [sq for sq in edge_squares(p.edge, self.size) if is_free(sq)]
            return [deploy(k, sq) for k in DEPLOY_KINDS if k not in p.deployed for sq in free]
        if self.phase == Phase.ACTION:
            return self._action_phase_actions()
        return []

    def _action_phase_actions(self) -> list[ActionModel]:
        a = self.activation
        out: list[ActionModel] = []
        blocked = self.blocked_bits()
        if a is None:
            out += [select_model(m.id) for m in self.ordered_models() if self.eligible(m, blocked)]
        else:
            m = self.models[a.model]
            if not a.moved and not self.held_by_vines(m):
                out += self.move_actions(m, blocked)
            if not a.acted:
                out += self.act_options(m, m.owner)
            out.append(END_ACTIVATION)
            # selecting another model ends this activation (its unused Move or Action is lost)
            out += [select_model(o.id) for o in self.ordered_models() if o.id != m.id and self.eligible(o, blocked)]
        out.append(END_TURN)
        return out

    def _prompt_actions(self) -> list[ActionModel]:
        p = self.prompt
        assert p is not None
        kind = p.kind
        if kind == "crowd":
            return [spend_favour(k) for k in range(self.players[p.seat].favour + 1)]
        if kind == "spell":
            assert self.spell is not None
            return [choose_spell(s) for s in self.spell.options]
        if kind == "reroll":
            assert self.roll is not None
            return [reroll_die(i) for i in range(len(self.roll.dice))] + [DECLINE]
        if kind == "scholar":
            if p.per_die:
                assert self.roll is not None
                return [scholar_bonus(i) for i in range(len(self.roll.dice))] + [DECLINE]
            return [scholar_bonus(), DECLINE]
        if kind == "blood_pact":
            return [BLOOD_PACT, DECLINE]
        if kind == "witch_step":
            return [witch_step(sq) for sq in self.witch_squares()] + [DECLINE]
        if kind == "necro":
            return [place_minion(sq) for sq in self.necro_squares()]
        if kind == "teleport":
            assert p.model is not None
            return [teleport(sq) for sq in self.teleport_squares(p.model)] + [DECLINE]
        if kind == "dominate":
            d = self.dominate
            assert d is not None
            m = self.models[d.model]
            out: list[ActionModel] = []
            if not d.moved:
                out += self.move_actions(m)
            out += self.act_options(m, d.seat, dominated=True)
            return [*out, DECLINE]
        raise RuntimeError(f"arena: unknown prompt {kind}")  # pragma: no cover

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: optional follow-ups are declined, no Crowd Favour is spent, Arcane Rocket is
        the spell, the Necromancer's free Minion goes on the first legal square, a Player 1 who has
        placed no terrain gets the random layout, Player 2 takes the south edge and a deployment
        uses the first free square. Choosing a Discipline and the Action Phase have no default
        (the seat forfeits)."""
        if seat not in self.awaiting.seats:
            return None
        legal = self._legal_actions(seat)
        if self.prompt is not None:
            kind = self.prompt.kind
            if kind == "crowd":
                return SpendFavour(points=0)
            if kind == "spell":
                return ChooseSpell(spell="arcane_rocket")
            if kind == "necro":
                return legal[0] if legal else None
            return Decline()
        if self.phase == Phase.TERRAIN:
            return RandomTerrain() if not self.terrain else (legal[0] if legal else None)
        if self.phase == Phase.EDGE:
            return ChooseEdge(side="south")
        if self.phase == Phase.DEPLOY:
            return legal[0] if legal else None
        return None

    # ================================================================== checks
    def _check(self, seat: int, action: ActionModel) -> None:
        version, offered_to, offered = self._offered
        if version == self._version and offered_to == seat and any(map(is_, offered, repeat(action))):
            return
        if self.prompt is not None:
            if self._prompt_answer_is_legal(action):
                return
        elif self._setup_or_turn_action_is_legal(seat, action):
            return
        raise IllegalAction(explain(self, seat, action, self._legal_actions(seat)))

    def _setup_or_turn_action_is_legal(self, seat: int, action: ActionModel) -> bool:
        """Whether ``action`` is among ``_legal_actions(seat)`` outside prompts (or is a Discipline
        choice with a free-text name), without listing them."""
        phase = self.phase
        kind = type(action)
        if phase == Phase.ACTION:
            return self._turn_action_is_legal(action)
        if phase == Phase.DISCIPLINE:
            # the optional name is free text: legal_actions lists the choices without a name
            return kind is ChooseDiscipline and cast(ChooseDiscipline, action).discipline in self.data.disciplines
        if phase == Phase.TERRAIN:
            if kind is PlaceTerrain:
                return self.terrain_allowed(cast(PlaceTerrain, action).at)
            return kind is RandomTerrain and not self.terrain
        if phase == Phase.EDGE:
            return kind is ChooseEdge and cast(ChooseEdge, action).side in EDGE_CHOICES
        if phase == Phase.DEPLOY:
            if kind is not Deploy:
                return False
            dep = cast(Deploy, action)
            p = self.players[seat]
            assert p.edge is not None
            return (
                dep.model not in p.deployed
                and dep.at in edge_squares(p.edge, self.size)
                and dep.at not in self.terrain
                and self.occupant(dep.at) is None
            )
        return False

    def _turn_action_is_legal(self, action: ActionModel) -> bool:
        """Whether ``action`` is among ``_action_phase_actions()``, without listing them all."""
        kind = type(action)
        if kind is EndTurn:
            return True
        a = self.activation
        if kind is SelectModel:
            m = self.models.get(cast(SelectModel, action).model)
            return m is not None and (a is None or m.id != a.model) and self.eligible(m)
        if a is None:
            return False
        if kind is EndActivation:
            return True
        m = self.models[a.model]
        if kind is Move:
            return not a.moved and not self.held_by_vines(m) and self.can_reach(m, cast(Move, action).to)
        if kind is Act:
            return not a.acted and self.act_allowed(m, m.owner, cast(Act, action))
        if kind is Extinguish:
            return not a.acted and not self.held_by_vines(m) and m.has("burning")
        return False

    def _prompt_answer_is_legal(self, action: ActionModel) -> bool:
        """Whether ``action`` is among ``_prompt_actions()``, without listing them."""
        p = self.prompt
        assert p is not None
        prompt = p.kind
        kind = type(action)
        if kind is Decline:
            return prompt not in ("crowd", "spell", "necro")
        if prompt == "crowd":
            return kind is SpendFavour and 0 <= cast(SpendFavour, action).points <= self.players[p.seat].favour
        if prompt == "spell":
            assert self.spell is not None
            return kind is ChooseSpell and cast(ChooseSpell, action).spell in self.spell.options
        if prompt == "reroll":
            assert self.roll is not None
            return kind is Reroll and 0 <= cast(Reroll, action).die < len(self.roll.dice)
        if prompt == "scholar":
            if kind is not ScholarBonus:
                return False
            die = cast(ScholarBonus, action).die
            if p.per_die:
                assert self.roll is not None
                return die is not None and 0 <= die < len(self.roll.dice)
            return die is None
        if prompt == "blood_pact":
            return kind is BloodPact
        if prompt == "witch_step":
            if kind is not WitchStep:
                return False
            wiz = self.wizard(self.active)
            assert wiz is not None
            return self._reachable_within(wiz.pos, cast(WitchStep, action).to, 2)
        if prompt == "necro":
            if kind is not PlaceMinion:
                return False
            wiz = self.wizard(self.active)
            assert wiz is not None
            return self._free_within(wiz.pos, cast(PlaceMinion, action).at, 2)
        if prompt == "teleport":
            assert p.model is not None
            m = self.models.get(p.model)
            return kind is Teleport and m is not None and self._free_within(m.pos, cast(Teleport, action).to, 4)
        if prompt == "dominate":
            d = self.dominate
            assert d is not None
            m = self.models[d.model]
            if kind is Move:
                return not d.moved and self.can_reach(m, cast(Move, action).to)
            return kind is Act and self.act_allowed(m, d.seat, cast(Act, action), dominated=True)
        return False  # pragma: no cover

    def _free_within(self, centre: Square, sq: Square, dist: int) -> bool:
        """Whether ``sq`` is in ``within(centre, dist)`` and free."""
        return (
            on_board(sq, self.size)
            and 0 < manhattan(sq, centre) <= dist
            and sq not in self.terrain
            and self.occupant(sq) is None
        )

    def _reachable_within(self, start: Square, sq: Square, steps: int) -> bool:
        """Whether ``sq`` is reachable from ``start`` in 1..steps steps through free squares."""
        if not on_board(sq, self.size):
            return False
        return bool(reach_bits(start, steps, self.size, self.blocked_bits()) & square_bit(sq, self.size))

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
        spec = self.pending_roll
        assert spec is not None
        if not isinstance(action, Roll):
            raise IllegalAction(f"The game is waiting for a roll ({spec.purpose}), not {action.to_json()['type']}.")
        if len(action.dice) != len(spec.sides):
            raise IllegalAction(f"The {spec.purpose} roll has {len(spec.sides)} dice, not {len(action.dice)}.")
        for d, s in zip(action.dice, spec.sides, strict=True):
            if not 1 <= d <= s:
                raise IllegalAction(f"A die of the {spec.purpose} roll shows 1 to {s}, not {d}.")

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        self._version += 1
        if type(action) is TerrainLayout:
            setup.apply_layout(self, action)
        else:
            assert isinstance(action, Roll)
            self._apply_roll(action)
        self.run()
        return self.take_events()

    def _apply_roll(self, action: Roll) -> None:
        spec = self.pending_roll
        assert spec is not None
        self.pending_roll = None
        dice = list(action.dice)
        self.record_roll(spec, dice)
        if spec.purpose == "reroll":
            rec = self.roll
            assert rec is not None
            i = spec.info["die"]
            old = rec.dice[i]
            rec.dice[i] = dice[0]
            if not self.narrate:
                return
            if self.narrate:
                self.emit(
                    "reroll",
                    f"Hometown chant: {seat_ref(self.active)} re-rolls die {i + 1} of the "
                    f"{rec.purpose.replace('_', ' ')} roll: {old} becomes {dice[0]}.",
                    purpose=rec.purpose,
                    die=i,
                    old=old,
                    new=dice[0],
                    dice=list(rec.dice),
                )
            return
        self.roll = RollRecord(spec.purpose, dice, spec.sides, dict(spec.info))
        if self.narrate:
            self.emit(
                "roll",
                f"Roll for {spec.info.get('label', spec.purpose.replace('_', ' '))}: {', '.join(map(str, dice))}.",
                purpose=spec.purpose,
                dice=dice,
                sides=list(spec.sides),
                **spec.info,
            )
        if spec.purpose in CHANT_PURPOSES:
            self.push(step("window"))

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
        return self.take_events()


__all__ = ["STEPS", "ArenaState"]
