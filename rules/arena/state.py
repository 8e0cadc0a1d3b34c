"""Arena: the game, its options, set-up, the turn sequence and the legal actions.

Rule text: ../shared/seeds/004_9544fbdb8d72f9ce.txt; data, gaps and rulings:
../shared/design/arena.md and docs/rulings/arena.md. Seat 0 is Player 1 (the challenger).

The flow is a small machine: ``stack`` holds the steps still to run (LIFO; ``_push(a, b)`` runs a
then b), ``pending_roll`` a die roll the state waits for (a chance action), ``prompt`` a choice a
seat owes. ``_run`` executes steps until one of them needs a roll or a choice. The resolution of
Actions (opposed rolls, explosions, damage, effects) is in resolve.py.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from math import comb
from typing import Any, ClassVar, Literal

from pydantic import Field

from ..core import ActionModel, Ask, Awaiting, Event, Game, GameOptions, Outcome, State, seat_ref
from ..errors import IllegalAction
from ..lazy import LazySeq, nth_combination
from .actions import (
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
    action_adapter,
)
from .board import (
    EDGES,
    OPPOSITE,
    Square,
    edge_squares,
    first_blocker,
    is_edge_square,
    label,
    line_of_sight,
    manhattan,
    mirror,
    on_board,
    reachable,
    within,
)
from .data import ActionDef, ArenaData, load_data
from .model import ActionCtx, Effect, Model, RollRecord, RollSpec
from .resolve import ResolveMixin
from .view import render_view

#: Rolls after which the hometown chant's re-roll is offered.
CHANT_PURPOSES = frozenset({"spell_selection", "opposed", "explosion", "damage", "heal", "mutation"})


class ArenaOptions(GameOptions):
    grid_size: int = Field(10, ge=8, le=12, description="the board is grid_size x grid_size squares")
    terrain_count: int = Field(6, ge=4, le=8, description="single-square terrain pieces")
    terrain_setup: Literal["player1", "random"] = Field(
        "player1",
        description="player1: Player 1 places the terrain (or asks for a random layout); random: always random",
    )
    game_turn_limit: int = Field(
        30, ge=0, le=200, description="after this many game turns without a knock-out the match is a draw; 0 = none"
    )


class Arena(Game[ArenaOptions]):
    slug: ClassVar[str] = "arena"
    name: ClassVar[str] = "Arena"
    summary: ClassVar[str] = (
        "Two Wizards of rival Magic Disciplines and their Minions fight on a square grid with terrain: "
        "roll for your spell, move, cast, win the crowd, and knock out the enemy Wizard."
    )
    min_seats = 2
    max_seats = 2
    options_model = ArenaOptions
    action_adapter = action_adapter

    def new_state(self) -> ArenaState:
        return ArenaState(self)


class Player:
    def __init__(self) -> None:
        self.discipline: str | None = None
        self.wizard_name: str | None = None
        self.edge: str | None = None
        self.favour = 0
        self.deployed: list[str] = []  # "wizard", "minion"
        self.minion_count = 0  # Minions ever placed (for ids)
        self.chant = False  # hometown chant this turn
        self.chant_used = False
        self.blood_extra = False
        self.scholar_game_turn = 0  # the game turn the Noble Scholar's +2 was last used


class ArenaState(ResolveMixin, State):
    game: Arena

    def __init__(self, game: Arena):
        super().__init__(game)
        opts = game.options
        self.size: int = opts.grid_size
        self.terrain_count: int = opts.terrain_count
        self.turn_limit: int = opts.game_turn_limit
        self.terrain: list[Square] = []
        self.players = [Player(), Player()]
        self.models: dict[str, Model] = {}
        self.names: dict[str, str] = {}  # model id -> display name (kept after removal)
        self.phase = "discipline"
        self.deploy_seat = 0
        self.turn_no = 0
        self.game_turn = 0
        self.active = 0
        self.spell: dict[str, Any] | None = None
        self.activation: dict[str, Any] | None = None
        self.activated: list[str] = []
        self.brawl_until: int | None = None
        self.stack: list[tuple[Any, ...]] = []
        self.ctxs: dict[int, ActionCtx] = {}
        self.next_ctx = 1
        self.pending_roll: RollSpec | None = None
        self.pending_layout = False
        self.roll: RollRecord | None = None
        self.last_roll: dict[str, Any] | None = None
        self.prompt: dict[str, Any] | None = None
        self.dominate: dict[str, Any] | None = None
        self.ko: dict[str, Any] | None = None
        self.final: Outcome | None = None
        self._ev: list[Event] = []

    @property
    def data(self) -> ArenaData:
        """The Discipline and table data (shared, never copied with the state)."""
        return load_data()

    # ================================================================== plumbing
    def _emit(self, kind: str, text: str, /, **data: Any) -> None:
        self._ev.append(Event(kind, text, data))

    def _take_events(self) -> list[Event]:
        out, self._ev = self._ev, []
        return out

    def _push(self, *steps: tuple[Any, ...]) -> None:
        """Schedule steps: the first given runs first."""
        if self.ko is not None:
            steps = tuple(s for s in steps if s[0] == "fate")
        self.stack.extend(reversed(steps))

    def _request_roll(self, purpose: str, sides: list[int], then: tuple[Any, ...] | None = None, **info: Any) -> None:
        if self.ko is not None and purpose != "knockout":
            return
        if then is not None:
            self._push(then)
        self.pending_roll = RollSpec(purpose, list(sides), info)

    def _waiting(self) -> bool:
        return self.pending_roll is not None or self.pending_layout or self.prompt is not None or self.final is not None

    def _run(self) -> None:
        guard = 0
        while self.stack and not self._waiting():
            guard += 1
            if guard > 100_000:
                raise RuntimeError("arena: the step machine did not settle")
            step = self.stack.pop()
            getattr(self, "_s_" + step[0])(*step[1:])

    # ================================================================== queries
    def _ask(self, seat: int) -> Ask:
        p = self.prompt
        return Ask(str(p["kind"]) if p and p.get("seat") == seat else str(self.phase))

    def _awaiting(self) -> Awaiting:
        if self.final is not None:
            return Awaiting.terminal()
        if self.pending_roll is not None or self.pending_layout:
            return Awaiting.chance()
        if self.prompt is not None:
            return Awaiting.of(self.prompt["seat"])
        if self.phase == "discipline":
            return Awaiting.of(*(s for s, p in enumerate(self.players) if p.discipline is None))
        if self.phase == "terrain":
            return Awaiting.of(0)
        if self.phase == "edge":
            return Awaiting.of(1)
        if self.phase == "deploy":
            return Awaiting.of(self.deploy_seat)
        if self.phase == "action":
            return Awaiting.of(self.active)
        raise RuntimeError(f"arena: nothing awaited in phase {self.phase}")  # pragma: no cover

    def _outcome(self) -> Outcome:
        assert self.final is not None
        return self.final

    def discipline(self, seat: int):  # noqa: ANN201 - Discipline
        d = self.players[seat].discipline
        assert d is not None
        return self.data.disciplines[d]

    def is_discipline(self, seat: int, discipline_id: str) -> bool:
        return self.players[seat].discipline == discipline_id

    def wizard(self, seat: int) -> Model | None:
        return self.models.get(f"p{seat + 1}-wizard")

    def minions(self, seat: int) -> list[Model]:
        return [m for m in self.ordered_models() if m.owner == seat and not m.is_wizard]

    def ordered_models(self) -> list[Model]:
        def key(m: Model) -> tuple[int, int, int]:
            return (m.owner, 0 if m.is_wizard else 1, 0 if m.is_wizard else int(m.id.split("-m")[1]))

        return sorted(self.models.values(), key=key)

    def occupant(self, sq: Square) -> Model | None:
        for m in self.models.values():
            if m.pos == sq:
                return m
        return None

    def is_free(self, sq: Square) -> bool:
        return on_board(sq, self.size) and sq not in self.terrain and self.occupant(sq) is None

    def mname(self, mid: str) -> str:
        return self.names.get(mid, mid)

    def action_def(self, action_id: str) -> ActionDef:
        return self.data.action(action_id)

    # ---------------------------------------------------------------- stats now
    def eff_move(self, m: Model) -> int:
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
        e = m.effect("vines")
        return e is not None and e.applies_turn == self.turn_no

    # ---------------------------------------------------------------- movement and targets
    def move_options(self, m: Model, steps: int) -> dict[Square, list[Square]]:
        if steps <= 0:
            return {}
        return reachable(m.pos, steps, self.size, self.is_free)

    def can_move(self, m: Model) -> bool:
        if self.held_by_vines(m):
            return False
        return bool(self.move_options(m, self.eff_move(m)))

    def model_action(self, m: Model) -> ActionDef | None:
        """The Action this model may take now: the selected spell (Wizard, once) or its Minion action."""
        if m.is_wizard:
            if self.spell is None or self.spell.get("selected") is None or self.spell.get("cast"):
                return None
            return self.data.spell(self.spell["selected"])
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
            and line_of_sight(wiz.pos, target.pos, self.terrain)
        ):
            return True, ""  # Astral Warlock: the Wizard sees it
        dist = manhattan(actor.pos, target.pos)
        if rng is not None and dist > rng:
            return False, f"{target.square()} is {dist} squares away; the range is {rng}"
        blocker = first_blocker(actor.pos, target.pos, self.terrain)
        if blocker is not None:
            return False, f"the line of sight to {target.square()} is blocked by the terrain on {label(blocker)}"
        return True, ""

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
            out.append(Extinguish())
        adef = self.model_action(m) if not dominated else self.discipline(m.owner).minion.action
        if adef is None:
            return out
        if adef.target == "none":
            out.append(Act())
        elif adef.target == "square":
            if len(self.minions(side)) < self.data.max_minions:
                out += [Act(at=sq) for sq in within(m.pos, adef.range or 2, self.size) if self.is_free(sq)]
        else:
            hyp = None if dominated else self.hypnotic_source(m)
            for t in self.ordered_models():
                if hyp is not None and t.id != hyp:
                    continue
                if self.target_kind_ok(m, t, adef.target, side, dominated)[0] and self.reach(m, t, adef.range, side)[0]:
                    out.append(Act(target=t.id))
        return out

    def eligible(self, m: Model) -> bool:
        if m.owner != self.active or m.id in self.activated:
            return False
        return self.can_move(m) or bool(self.act_options(m, m.owner))

    # ================================================================== legal actions
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        if self.prompt is not None:
            return self._prompt_actions()
        if self.phase == "discipline":
            return [ChooseDiscipline(discipline=d) for d in self.data.disciplines]
        if self.phase == "terrain":
            out: list[ActionModel] = [] if self.terrain else [RandomTerrain()]
            return out + [PlaceTerrain(at=sq) for sq in self._terrain_squares()]
        if self.phase == "edge":
            return [ChooseEdge(side=e) for e in ("south", "north", "west", "east")]  # type: ignore[arg-type]
        if self.phase == "deploy":
            p = self.players[seat]
            assert p.edge is not None
            free = [sq for sq in edge_squares(p.edge, self.size) if self.is_free(sq)]
            return [Deploy(model=k, at=sq) for k in ("wizard", "minion") if k not in p.deployed for sq in free]  # type: ignore[arg-type]
        if self.phase == "action":
            return self._action_phase_actions()
        return []

    def _terrain_squares(self) -> list[Square]:
        """Squares Player 1 may still put terrain on: free, and every board edge keeps at least 2
        free squares (so both teams can always deploy)."""
        out = []
        for y in range(self.size):
            for x in range(self.size):
                sq = (x, y)
                if sq in self.terrain:
                    continue
                after = set(self.terrain) | {sq}
                if all(sum(1 for s in edge_squares(e, self.size) if s not in after) >= 2 for e in EDGES):
                    out.append(sq)
        return out

    def _action_phase_actions(self) -> list[ActionModel]:
        a = self.activation
        out: list[ActionModel] = []
        if a is None:
            out += [SelectModel(model=m.id) for m in self.ordered_models() if self.eligible(m)]
        else:
            m = self.models[a["model"]]
            if not a["moved"] and not self.held_by_vines(m):
                out += [Move(to=sq) for sq in sorted(self.move_options(m, self.eff_move(m)), key=_rowkey)]
            if not a["acted"]:
                out += self.act_options(m, m.owner)
            out.append(EndActivation())
            # selecting another model ends this activation (its unused Move or Action is lost)
            out += [SelectModel(model=o.id) for o in self.ordered_models() if o.id != m.id and self.eligible(o)]
        out.append(EndTurn())
        return out

    def _prompt_actions(self) -> list[ActionModel]:
        p = self.prompt
        assert p is not None
        kind = p["kind"]
        if kind == "crowd":
            return [SpendFavour(points=k) for k in range(self.players[p["seat"]].favour + 1)]
        if kind == "spell":
            assert self.spell is not None
            return [ChooseSpell(spell=s) for s in self.spell["options"]]
        if kind == "reroll":
            assert self.roll is not None
            return [Reroll(die=i) for i in range(len(self.roll.dice))] + [Decline()]
        if kind == "scholar":
            if p.get("per_die"):
                assert self.roll is not None
                return [ScholarBonus(die=i) for i in range(len(self.roll.dice))] + [Decline()]
            return [ScholarBonus(), Decline()]
        if kind == "blood_pact":
            return [BloodPact(), Decline()]
        if kind == "witch_step":
            return [WitchStep(to=sq) for sq in self._witch_squares()] + [Decline()]
        if kind == "necro":
            return [PlaceMinion(at=sq) for sq in self._necro_squares()]
        if kind == "teleport":
            return [Teleport(to=sq) for sq in self._teleport_squares(p["model"])] + [Decline()]
        if kind == "dominate":
            d = self.dominate
            assert d is not None
            m = self.models[d["model"]]
            out: list[ActionModel] = []
            if not d["moved"]:
                out += [Move(to=sq) for sq in sorted(self.move_options(m, self.eff_move(m)), key=_rowkey)]
            out += self.act_options(m, d["seat"], dominated=True)
            return [*out, Decline()]
        raise RuntimeError(f"arena: unknown prompt {kind}")  # pragma: no cover

    def _witch_squares(self) -> list[Square]:
        wiz = self.wizard(self.active)
        assert wiz is not None
        return sorted(reachable(wiz.pos, 2, self.size, self.is_free), key=_rowkey)

    def _necro_squares(self) -> list[Square]:
        wiz = self.wizard(self.active)
        assert wiz is not None
        return [sq for sq in within(wiz.pos, 2, self.size) if self.is_free(sq)]

    def _teleport_squares(self, mid: str) -> list[Square]:
        m = self.models.get(mid)
        if m is None:
            return []
        return [sq for sq in within(m.pos, 4, self.size) if self.is_free(sq)]

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
            kind = self.prompt["kind"]
            if kind == "crowd":
                return SpendFavour(points=0)
            if kind == "spell":
                return ChooseSpell(spell="arcane_rocket")
            if kind == "necro":
                return legal[0] if legal else None
            return Decline()
        if self.phase == "terrain":
            return RandomTerrain() if not self.terrain else (legal[0] if legal else None)
        if self.phase == "edge":
            return ChooseEdge(side="south")
        if self.phase == "deploy":
            return legal[0] if legal else None
        return None

    # ================================================================== checks
    def _check(self, seat: int, action: ActionModel) -> None:
        legal = self._legal_actions(seat)
        if action in legal:
            return
        # the optional name is free text: legal_actions lists the choices without a name
        if (
            isinstance(action, ChooseDiscipline)
            and self.phase == "discipline"
            and action.discipline in self.data.disciplines
        ):
            return
        raise IllegalAction(self._explain(seat, action, legal))

    def _explain(self, seat: int, action: ActionModel, legal: Sequence[ActionModel]) -> str:
        types = sorted({a.type for a in legal})
        allowed = ", ".join(types)
        kind = self.prompt["kind"] if self.prompt else self.phase
        asked = _ASKED.get(kind, kind)
        if action.type not in types and action.type not in _TYPES.get(kind, ()):
            return f"Now you are asked to {asked}; allowed actions: {allowed}."
        if isinstance(action, ChooseDiscipline):
            return f"Unknown Discipline {action.discipline!r}; choose one of: {', '.join(self.data.disciplines)}."
        if isinstance(action, PlaceTerrain):
            sq = action.at
            if not on_board(sq, self.size):
                return f"{_lab(sq)} is not on the {self.size}x{self.size} board."
            if sq in self.terrain:
                return f"There is already terrain on {label(sq)}."
            return f"Terrain on {label(sq)} would leave a board edge with fewer than 2 free squares."
        if isinstance(action, Deploy):
            p = self.players[seat]
            if action.model in p.deployed:
                return f"Your {action.model} is already deployed."
            if not on_board(action.at, self.size):
                return f"{_lab(action.at)} is not on the board."
            if action.at not in edge_squares(p.edge or "south", self.size):
                return f"{label(action.at)} is not on your board edge ({p.edge}); deploy on your edge row."
            return f"{label(action.at)} is not free (terrain or a model is there)."
        if isinstance(action, SpendFavour):
            have = self.players[seat].favour
            return f"You have {have} Crowd Favour; spend 0 to {have}."
        if isinstance(action, ChooseSpell):
            opts = ", ".join(self.spell["options"]) if self.spell else ""
            return f"{action.spell!r} is not among your spells this turn; choose one of: {opts}."
        if isinstance(action, SelectModel):
            m = self.models.get(action.model)
            if m is None:
                return f"There is no model {action.model!r} on the board."
            if m.owner != seat:
                return f"{action.model} is not yours."
            if m.id in self.activated:
                return f"{action.model} has already been activated this turn."
            return f"{action.model} can neither move nor act now."
        if isinstance(action, (Move, Extinguish, EndActivation)) and self.prompt is None and self.activation is None:
            return "Select a model first (select_model)."
        if isinstance(action, Extinguish):
            return "Only a burning model that has not yet taken its Action can put itself out."
        if isinstance(action, (Move, WitchStep, Teleport, PlaceMinion)):
            sq = action.to if not isinstance(action, PlaceMinion) else action.at
            if not on_board(sq, self.size):
                return f"{_lab(sq)} is not on the board."
            if sq in self.terrain:
                return f"{label(sq)} is terrain."
            if self.occupant(sq) is not None:
                return f"{label(sq)} is occupied by {self.occupant(sq).id}."  # type: ignore[union-attr]
            if isinstance(action, Move) and self.activation and self.activation["moved"] and not self.prompt:
                return "This model has already moved this turn."
            held = self.activation and not self.prompt and self.held_by_vines(self.models[self.activation["model"]])
            if isinstance(action, Move) and held:
                return "This model is held by Grasping Vines: it cannot Move this turn."
            if isinstance(action, Move):
                steps = self._mover_steps()
                return f"{label(sq)} cannot be reached: the model can move {steps} squares around terrain and models."
            if isinstance(action, Teleport) and self.prompt and self.prompt.get("model") in self.models:
                return f"{label(sq)} is more than 4 squares from {self.prompt['model']}."
            return f"{label(sq)} is not a square this choice allows."
        if isinstance(action, Act):
            return self._explain_act(seat, action)
        if isinstance(action, (Reroll, ScholarBonus)):
            n = len(self.roll.dice) if self.roll else 0
            return f"Choose a die number from 0 to {n - 1}." if n else "There is no die to change."
        return f"That {action.type.replace('_', ' ')} is not allowed now; allowed actions: {allowed}."

    def _mover_steps(self) -> int:
        mid = self.dominate["model"] if self.prompt and self.dominate else (self.activation or {}).get("model")
        m = self.models.get(mid or "")
        return self.eff_move(m) if m else 0

    def _explain_act(self, seat: int, action: Act) -> str:
        if self.prompt and self.dominate:
            m, side, dominated = self.models[self.dominate["model"]], self.dominate["seat"], True
        elif self.activation:
            m, side, dominated = self.models[self.activation["model"]], seat, False
        else:
            return "Select a model first."
        if not dominated and self.activation and self.activation["acted"]:
            return "This model has already taken its Action this turn."
        if not dominated and self.held_by_vines(m):
            return "This model is held by Grasping Vines: no Action this turn."
        adef = self.model_action(m) if not dominated else self.discipline(m.owner).minion.action
        if adef is None:
            return "Your Wizard has already cast its spell this turn."
        if adef.target == "none":
            return f"{adef.name} has no target: send act with neither target nor at."
        if adef.target == "square":
            if action.at is None:
                return f"{adef.name} needs a square (at), not a model."
            if len(self.minions(side)) >= self.data.max_minions:
                return f"You already have {self.data.max_minions} Minions on the board."
            if not on_board(action.at, self.size):
                return f"{_lab(action.at)} is not on the board."
            if manhattan(action.at, m.pos) > (adef.range or 2):
                return f"{label(action.at)} is more than {adef.range} squares from the Wizard."
            return f"{label(action.at)} is not free."
        if action.target is None:
            return f"{adef.name} needs a target model."
        t = self.models.get(action.target)
        if t is None:
            return f"There is no model {action.target!r} on the board."
        ok, why = self.target_kind_ok(m, t, adef.target, side, dominated)
        if not ok:
            return f"{adef.name}: {why}."
        hyp = None if dominated else self.hypnotic_source(m)
        if hyp is not None and t.id != hyp:
            return f"This model is under Hypnotic Dancing: it may only target {hyp} this turn."
        ok, why = self.reach(m, t, adef.range, side)
        if not ok:
            return f"{t.id} is obscured or out of reach: {why}. Choose another target."
        return f"{adef.name} cannot target {t.id} now."

    # ================================================================== chance
    def _chance_outcomes(self) -> Sequence[ActionModel]:
        if self.pending_layout:
            return self._layout_space()
        spec = self.pending_roll
        if spec is None:
            return []
        return [Roll(dice=d) for d in itertools.product(*(range(1, s + 1) for s in spec.sides))]

    def _layout_parts(self) -> tuple[list[Square], list[Square], int]:
        """(centre choices for an odd count, pair representatives, number of pairs)."""
        n, c = self.size, self.terrain_count
        interior = [(x, y) for y in range(1, n - 1) for x in range(1, n - 1)]
        centre: list[Square] = []
        if c % 2:
            lo, hi = (n - 1) // 2, n // 2
            centre = sorted({(x, y) for x in (lo, hi) for y in (lo, hi)}, key=_rowkey)
        reps = [sq for sq in interior if sq < mirror(sq, n) and sq not in centre and mirror(sq, n) not in centre]
        return centre, reps, c // 2

    def _layout_space(self) -> LazySeq[ActionModel]:
        centre, reps, k = self._layout_parts()
        per = comb(len(reps), k)
        n = self.size

        def make(i: int) -> ActionModel:
            ci, pi = divmod(i, per)
            squares = [sq for r in nth_combination(reps, k, pi) for sq in (r, mirror(r, n))]
            if centre:
                squares.append(centre[ci])
            return TerrainLayout(squares=tuple(sorted(squares, key=_rowkey)))

        return LazySeq(per * max(1, len(centre)), make)

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        if self.pending_layout:
            space = self._layout_space()
            return space[rng.randrange(len(space))]
        spec = self.pending_roll
        if spec is None:
            return super()._sample_chance(rng)
        return Roll(dice=tuple(rng.randint(1, s) for s in spec.sides))

    def _check_chance(self, action: ActionModel) -> None:
        if self.pending_layout:
            if not isinstance(action, TerrainLayout):
                raise IllegalAction("The referee is laying out the terrain: expected a terrain_layout.")
            self._check_layout(list(action.squares))
            return
        spec = self.pending_roll
        assert spec is not None
        if not isinstance(action, Roll):
            raise IllegalAction(f"The game is waiting for a roll ({spec.purpose}), not {action.type}.")
        if len(action.dice) != len(spec.sides):
            raise IllegalAction(f"The {spec.purpose} roll has {len(spec.sides)} dice, not {len(action.dice)}.")
        for d, s in zip(action.dice, spec.sides, strict=True):
            if not 1 <= d <= s:
                raise IllegalAction(f"A die of the {spec.purpose} roll shows 1 to {s}, not {d}.")

    def _check_layout(self, squares: list[Square]) -> None:
        n, c = self.size, self.terrain_count
        if len(squares) != c or len(set(squares)) != c:
            raise IllegalAction(f"The layout needs {c} different squares.")
        for sq in squares:
            if not on_board(sq, n) or is_edge_square(sq, n):
                raise IllegalAction(f"{_lab(sq)}: random terrain never goes on a board edge row.")
        centre, _reps, _k = self._layout_parts()
        unpaired = [sq for sq in squares if mirror(sq, n) not in squares or mirror(sq, n) == sq]
        if c % 2 == 0 and unpaired:
            raise IllegalAction(f"The layout must be mirrored about the centre; {label(unpaired[0])} has no mirror.")
        if c % 2 and (len(unpaired) != 1 or unpaired[0] not in centre):
            raise IllegalAction("The layout must be mirrored about the centre, with one piece on a centre square.")

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        if isinstance(action, TerrainLayout):
            self.pending_layout = False
            self.terrain = sorted(action.squares, key=_rowkey)
            labels = [label(s) for s in self.terrain]
            self._emit(
                "terrain_layout",
                f"The referee lays out the terrain at random, mirrored about the centre: {', '.join(labels)}.",
                squares=[list(s) for s in self.terrain],
                labels=labels,
            )
            self.phase = "edge"
        else:
            assert isinstance(action, Roll)
            spec = self.pending_roll
            assert spec is not None
            self.pending_roll = None
            dice = list(action.dice)
            self.last_roll = {"purpose": spec.purpose, "dice": dice, "sides": list(spec.sides), **spec.info}
            if spec.purpose == "reroll":
                rec = self.roll
                assert rec is not None
                i = spec.info["die"]
                old = rec.dice[i]
                rec.dice[i] = dice[0]
                self._emit(
                    "reroll",
                    f"Hometown chant: {seat_ref(self.active)} re-rolls die {i + 1} of the "
                    f"{rec.purpose.replace('_', ' ')} roll: {old} becomes {dice[0]}.",
                    purpose=rec.purpose,
                    die=i,
                    old=old,
                    new=dice[0],
                    dice=list(rec.dice),
                )
            else:
                self.roll = RollRecord(spec.purpose, dice, list(spec.sides), dict(spec.info))
                self._emit(
                    "roll",
                    f"Roll for {spec.info.get('label', spec.purpose.replace('_', ' '))}: {', '.join(map(str, dice))}.",
                    purpose=spec.purpose,
                    dice=dice,
                    sides=list(spec.sides),
                    **spec.info,
                )
                if spec.purpose in CHANT_PURPOSES:
                    self._push(("window",))
        self._run()
        return self._take_events()

    # ================================================================== applying
    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        if self.prompt is not None:
            self._answer_prompt(seat, action)
        elif self.phase in ("discipline", "terrain", "edge", "deploy"):
            self._apply_setup(seat, action)
        else:
            self._apply_action_phase(seat, action)
        self._run()
        return self._take_events()

    # ---------------------------------------------------------------- set-up
    def _apply_setup(self, seat: int, action: ActionModel) -> None:
        who = seat_ref(seat)
        if isinstance(action, ChooseDiscipline):
            p = self.players[seat]
            p.discipline = action.discipline
            p.wizard_name = action.name.strip() if action.name else None
            d = self.data.disciplines[action.discipline]
            named = f" named {p.wizard_name}" if p.wizard_name else ""
            self._emit(
                "discipline_chosen",
                f"{who}'s Wizard{named} follows the {d.name} Discipline ({d.spell.name}; Minion: {d.minion.name}).",
                seat=seat,
                discipline=d.id,
                name=p.wizard_name,
            )
            if all(pl.discipline for pl in self.players):
                self.phase = "terrain"
                if self.game.options.terrain_setup == "random":
                    self.pending_layout = True
        elif isinstance(action, RandomTerrain):
            self._emit("terrain_random", f"{who} asks the referee for a random symmetric terrain layout.", seat=seat)
            self.pending_layout = True
        elif isinstance(action, PlaceTerrain):
            self.terrain = sorted([*self.terrain, action.at], key=_rowkey)
            left = self.terrain_count - len(self.terrain)
            self._emit(
                "terrain_placed",
                f"{who} places terrain on {label(action.at)} ({left} left).",
                seat=seat,
                at=list(action.at),
                square=label(action.at),
                left=left,
            )
            if left == 0:
                self.phase = "edge"
        elif isinstance(action, ChooseEdge):
            self.players[1].edge = action.side
            self.players[0].edge = OPPOSITE[action.side]
            self.phase = "deploy"
            self.deploy_seat = 0
            self._emit(
                "edge_chosen",
                f"{who} starts on the {action.side} edge; {seat_ref(0)} gets the {OPPOSITE[action.side]} edge.",
                seat=seat,
                edges=[self.players[0].edge, self.players[1].edge],
            )
        elif isinstance(action, Deploy):
            p = self.players[seat]
            p.deployed.append(action.model)
            self._push(("deploy_progress",))
            if action.model == "wizard":
                self._place_wizard(seat, action.at)
            else:
                self._place_minion(seat, action.at, why="deployed")

    def _s_deploy_progress(self) -> None:
        if len(self.players[self.deploy_seat].deployed) < 2:
            return
        if self.deploy_seat == 0:
            self.deploy_seat = 1
            return
        self.phase = "rolloff"
        self._request_roll("rolloff", [6, 6], ("rolloff",), label="the crowd roll-off (Player 1, Player 2)")

    def _s_rolloff(self) -> None:
        assert self.roll is not None
        a, b = self.roll.dice
        if a == b:
            self._emit("rolloff", f"The crowd roll-off is a tie ({a}-{b}); roll again.", dice=[a, b], winner=None)
            self._request_roll("rolloff", [6, 6], ("rolloff",), label="the crowd roll-off (Player 1, Player 2)")
            return
        winner = 0 if a > b else 1
        self._emit(
            "rolloff",
            f"{seat_ref(winner)} has the most fans in the audience ({a}-{b}).",
            dice=[a, b],
            winner=winner,
        )
        self._gain_favour(winner, 1, "won the crowd roll-off")
        self.turn_no = 1
        self.game_turn = 1
        self.active = 0
        self._push(("turn_start",))

    def _place_wizard(self, seat: int, sq: Square) -> None:
        w = self.data.wizard
        d = self.discipline(seat)
        p = self.players[seat]
        mid = f"p{seat + 1}-wizard"
        name = p.wizard_name or "Wizard"
        self.models[mid] = Model(
            mid, seat, "wizard", d.id, name, sq, w["health"], w["health"], w["move"], w["skill"], w["defence"]
        )
        self.names[mid] = f"{seat_ref(seat)}'s {p.wizard_name + ' the ' if p.wizard_name else ''}{d.name}"
        self._emit(
            "deployed",
            f"{self.names[mid]} takes the field on {label(sq)}.",
            seat=seat,
            model=mid,
            kind="wizard",
            at=list(sq),
            square=label(sq),
        )

    def _place_minion(self, seat: int, sq: Square, why: str) -> str:
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
        self._emit(
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
            self._request_roll("mutation", [3], ("mutation", mid), model=mid, label=f"the mutation of {mid} (D3)")
        return mid

    def _s_mutation(self, mid: str) -> None:
        assert self.roll is not None
        m = self.models.get(mid)
        if m is None:
            return
        stat = {1: "move", 2: "skill", 3: "defence"}[self.roll.values()[0]]
        m.effects.append(Effect("mutation", value=stat))
        self._emit(
            "effect",
            f"{self.mname(mid)} mutates: +1 {stat.capitalize()} until it dies.",
            model=mid,
            effect="mutation",
            value=stat,
        )

    # ---------------------------------------------------------------- the turn
    def _s_turn_start(self) -> None:
        t, a = self.turn_no, self.active
        for m in self.ordered_models():
            for e in [e for e in m.effects if e.ends_at_start_of == t]:
                m.effects.remove(e)
                self._emit("effect_end", f"{self.mname(m.id)}'s {e.kind} ends.", model=m.id, effect=e.kind)
        if self.brawl_until == t:
            self.brawl_until = None
            self._emit("brawl_end", "The brawl in the stands is over: Crowd Favour can be gained again.", seat=a)
        self.phase = "start"
        self.spell = None
        self.activation = None
        self.activated = []
        p = self.players[a]
        p.chant = p.chant_used = p.blood_extra = False
        self._emit(
            "turn_start",
            f"Game turn {self.game_turn}: {seat_ref(a)}'s turn begins (Start Phase).",
            seat=a,
            game_turn=self.game_turn,
            turn=t,
        )
        self._push(("burning",), ("trickster",), ("necro",), ("witch",), ("blood",), ("crowd",), ("spell_roll",))

    def _s_burning(self) -> None:
        for m in self.ordered_models():
            if m.owner == self.active and m.has("burning") and m.id in self.models:
                self._emit("burning", f"{self.mname(m.id)} burns.", model=m.id)
                self._damage(m.id, 1, cause="burning")

    def _s_trickster(self) -> None:
        if self.is_discipline(self.active, "artful_trickster"):
            self._gain_favour(self.active, 1, "Artful Trickster ability")

    def _s_necro(self) -> None:
        a = self.active
        if not self.is_discipline(a, "necromancer") or self.minions(a):
            return
        if not self._necro_squares():
            self._emit(
                "ability",
                "The Necromancer has no Minion, but no square within 2 is free.",
                seat=a,
                ability="necromancer",
            )
            return
        self.prompt = {"seat": a, "kind": "necro"}

    def _s_witch(self) -> None:
        a = self.active
        wiz = self.wizard(a)
        if self.is_discipline(a, "green_witch") and wiz and not self.held_by_vines(wiz) and self._witch_squares():
            self.prompt = {"seat": a, "kind": "witch_step"}

    def _s_blood(self) -> None:
        if self.is_discipline(self.active, "blood_mage"):
            self.prompt = {"seat": self.active, "kind": "blood_pact"}

    def _s_crowd(self) -> None:
        if self.players[self.active].favour >= 1:
            self.prompt = {"seat": self.active, "kind": "crowd"}

    def _s_spell_roll(self) -> None:
        a = self.active
        wiz = self.wizard(a)
        assert wiz is not None
        n = 2
        why = []
        if self.players[a].blood_extra:
            n += 1
            why.append("+1 die (Blood Mage)")
        curse = wiz.effect("curse")
        if curse is not None and curse.applies_turn == self.turn_no:
            n -= 1
            why.append("-1 die (Curse)")
            wiz.effects.remove(curse)
        self.phase = "spell"
        self._emit(
            "spell_selection",
            f"Spell Selection: {seat_ref(a)} rolls {n} dice{' (' + ', '.join(why) + ')' if why else ''}.",
            seat=a,
            dice=n,
        )
        self._request_roll("spell_selection", [6] * n, ("spell_prompt",), seat=a, label="Spell Selection")

    def spell_for_die(self, seat: int, value: int) -> str:
        sid = self.data.spell_table[value]
        return self.discipline(seat).spell.id if sid == "discipline" else sid

    def all_spells(self, seat: int) -> list[str]:
        out = [self.spell_for_die(seat, v) for v in range(1, 7)]
        return list(dict.fromkeys([*out, "arcane_rocket"]))

    def _s_spell_prompt(self) -> None:
        rec = self.roll
        assert rec is not None
        a = self.active
        values = rec.values()
        double = len(values) != len(set(values))
        if double:
            options = self.all_spells(a)
        else:
            options = list(dict.fromkeys([*(self.spell_for_die(a, v) for v in values), "arcane_rocket"]))
        self.spell = {
            "dice": list(rec.dice),
            "values": values,
            "options": options,
            "any": double,
            "selected": None,
            "cast": False,
        }
        names = ", ".join(self.data.spell(s).name for s in options)
        self._emit(
            "spell_options",
            f"{seat_ref(a)} rolled {', '.join(map(str, values))}"
            + (": a double, any spell may be chosen" if double else "")
            + f". Options: {names}.",
            seat=a,
            dice=list(rec.dice),
            values=values,
            options=options,
            any=double,
        )
        self.prompt = {"seat": a, "kind": "spell"}

    def _s_end_turn(self) -> None:
        t, a = self.turn_no, self.active
        self._finish_activation()
        self.ctxs.clear()  # no resolution outlives its turn
        for m in self.ordered_models():
            if m.has("transmuted") and m.effect("transmuted").ends_after_turn == t:  # type: ignore[union-attr]
                self._emit(
                    "transmutation_death",
                    f"{self.mname(m.id)} collapses at the end of its transmuted turn.",
                    model=m.id,
                )
                self._remove_minion(m.id, by="transmutation")
        for m in self.ordered_models():
            for e in [e for e in m.effects if e.ends_after_turn == t]:
                m.effects.remove(e)
                self._emit("effect_end", f"{self.mname(m.id)}'s {e.kind} ends.", model=m.id, effect=e.kind)
        self._emit("turn_end", f"{seat_ref(a)}'s turn ends.", seat=a, turn=t, game_turn=self.game_turn)
        if a == 1:
            if self.turn_limit and self.game_turn >= self.turn_limit:
                why = (
                    f"No Wizard was knocked out in {self.turn_limit} game turns: "
                    "the crowd goes home and the match is a draw."
                )
                self.final = Outcome.draw(2, why)
                self.phase = "over"
                self._emit("game_end", why, outcome=self.final.to_json())
                return
            self.game_turn += 1
        self.active = 1 - a
        self.turn_no += 1
        self._push(("turn_start",))

    # ---------------------------------------------------------------- the Action Phase
    def _apply_action_phase(self, seat: int, action: ActionModel) -> None:
        if isinstance(action, EndTurn):
            self._push(("end_turn",))
            return
        if isinstance(action, EndActivation):
            self._finish_activation()
            self._push(("activity_done",))
            return
        if isinstance(action, SelectModel):
            self._finish_activation()
            self.activation = {"model": action.model, "moved": False, "acted": False}
            self._emit(
                "select", f"{seat_ref(seat)} activates {self.mname(action.model)}.", seat=seat, model=action.model
            )
            return
        a = self.activation
        assert a is not None
        m = self.models[a["model"]]
        self._push(("activity_done",))
        if isinstance(action, Move):
            a["moved"] = True
            adjacent = [o.id for o in self.models.values() if o.owner != m.owner and manhattan(o.pos, m.pos) == 1]
            if adjacent:
                self._emit(
                    "disengage",
                    f"{self.mname(m.id)} starts its Move next to an enemy ({', '.join(adjacent)}) and takes 2 damage.",
                    model=m.id,
                    enemies=adjacent,
                )
                self._damage(m.id, 2, cause="move")
                if m.id not in self.models or self.ko:
                    return
            path = self.move_options(m, self.eff_move(m))[action.to]
            self._relocate(m, action.to, cause="move", path=path)
        elif isinstance(action, Extinguish):
            a["acted"] = True
            if m.is_wizard and self.spell:
                self.spell["cast"] = True
            eff = m.effect("burning")
            if eff:
                m.effects.remove(eff)
            self._emit("extinguish", f"{self.mname(m.id)} uses its Action to put out the flames.", model=m.id)
        elif isinstance(action, Act):
            a["acted"] = True
            if m.is_wizard and self.spell:
                self.spell["cast"] = True
            adef = self.model_action(m) if not m.is_wizard else self.data.spell(self.spell["selected"])  # type: ignore[index]
            assert adef is not None
            self._begin_action(m, adef, seat, action.target, action.at, dominated=False)

    def _finish_activation(self) -> None:
        a = self.activation
        if a is None:
            return
        self.activation = None
        if a["model"] not in self.activated:
            self.activated.append(a["model"])
        self._emit("activation_end", f"{self.mname(a['model'])} is done for this turn.", model=a["model"])

    def _s_activity_done(self) -> None:
        if self.phase != "action" or self.final is not None:
            return
        a = self.activation
        if a is not None:
            m = self.models.get(a["model"])
            can_move = m is not None and not a["moved"] and self.can_move(m)
            can_act = m is not None and not a["acted"] and bool(self.act_options(m, m.owner))
            if not (can_move or can_act):
                self._finish_activation()
        if self.activation is None and not any(self.eligible(m) for m in self.models.values()):
            self._emit(
                "no_more_activations",
                f"None of {seat_ref(self.active)}'s models can do anything more.",
                seat=self.active,
            )
            self._push(("end_turn",))

    # ---------------------------------------------------------------- prompts
    def _answer_prompt(self, seat: int, action: ActionModel) -> None:
        p = self.prompt
        assert p is not None
        kind = p["kind"]
        self.prompt = None
        who = seat_ref(seat)
        if kind == "crowd":
            assert isinstance(action, SpendFavour)
            if action.points == 0:
                self._emit("crowd_skip", f"{who} keeps their Crowd Favour.", seat=seat)
                return
            pl = self.players[seat]
            pl.favour -= action.points
            self._emit(
                "favour",
                f"{who} spends {action.points} Crowd Favour on the crowd ({pl.favour} left).",
                seat=seat,
                change=-action.points,
                total=pl.favour,
                reason="crowd roll",
            )
            self._request_roll(
                "crowd", [6], ("crowd_result", action.points), seat=seat, bonus=action.points - 1, label="the crowd"
            )
        elif kind == "spell":
            assert isinstance(action, ChooseSpell) and self.spell is not None
            self.spell["selected"] = action.spell
            self.phase = "action"
            self._emit(
                "spell_chosen",
                f"{who} prepares {self.data.spell(action.spell).name} for this turn. Action Phase.",
                seat=seat,
                spell=action.spell,
            )
            self._push(("activity_done",))
        elif kind == "reroll":
            assert self.roll is not None
            self.roll.asked.add("chant")
            if isinstance(action, Reroll):
                self.players[seat].chant_used = True
                self._request_roll(
                    "reroll", [self.roll.sides[action.die]], ("window",), die=action.die, label="the chant re-roll"
                )
            else:
                self._push(("window",))
        elif kind == "scholar":
            assert self.roll is not None
            self.roll.asked.add(f"scholar{seat}")
            if isinstance(action, ScholarBonus):
                self.players[seat].scholar_game_turn = self.game_turn
                if p.get("per_die"):
                    assert action.die is not None
                    self.roll.die_bonus[action.die] = self.roll.die_bonus.get(action.die, 0) + 2
                    self._emit(
                        "scholar_bonus",
                        f"Noble Scholar: {who} adds +2 to die {action.die + 1} of the Spell Selection roll.",
                        seat=seat,
                        purpose=self.roll.purpose,
                        die=action.die,
                    )
                else:
                    self.roll.bonus[seat] = self.roll.bonus.get(seat, 0) + 2
                    self._emit(
                        "scholar_bonus",
                        f"Noble Scholar: {who} adds +2 to their {p.get('roll', 'roll')} roll.",
                        seat=seat,
                        purpose=self.roll.purpose,
                        roll=p.get("roll"),
                    )
            self._push(("window",))
        elif kind == "blood_pact":
            if isinstance(action, BloodPact):
                self.players[seat].blood_extra = True
                self._emit(
                    "ability", f"{who}'s Blood Mage opens a vein for an extra die.", seat=seat, ability="blood_pact"
                )
                self._request_roll(
                    "blood_pact", [6], ("blood_damage",), seat=seat, label="the Blood Mage's sacrifice (D6)"
                )
        elif kind == "witch_step":
            if isinstance(action, WitchStep):
                wiz = self.wizard(seat)
                assert wiz is not None
                path = reachable(wiz.pos, 2, self.size, self.is_free)[action.to]
                self._relocate(wiz, action.to, cause="witch_step", path=path)
        elif kind == "necro":
            assert isinstance(action, PlaceMinion)
            self._place_minion(seat, action.at, why="necromancer")
        elif kind == "teleport":
            if isinstance(action, Teleport):
                m = self.models[p["model"]]
                self._relocate(m, action.to, cause="teleport", path=[action.to])
            else:
                self._emit("teleport_declined", f"{who} leaves {p['model']} where it is.", seat=seat, model=p["model"])
        elif kind == "dominate":
            self._answer_dominate(seat, action)

    def _s_blood_damage(self) -> None:
        assert self.roll is not None
        self._damage(f"p{self.active + 1}-wizard", self.roll.values()[0], cause="blood_pact")

    def _s_window(self) -> None:
        """After a roll: offer the hometown chant's re-roll, then the Noble Scholar's +2."""
        rec = self.roll
        assert rec is not None
        a = self.active
        pl = self.players[a]
        if rec.purpose in CHANT_PURPOSES and pl.chant and not pl.chant_used and "chant" not in rec.asked:
            self.prompt = {"seat": a, "kind": "reroll", "purpose": rec.purpose, "dice": list(rec.dice)}
            return
        for s in (a, 1 - a):
            if f"scholar{s}" in rec.asked or not self.is_discipline(s, "noble_scholar"):
                continue
            if self.players[s].scholar_game_turn == self.game_turn:
                continue
            if rec.purpose == "spell_selection" and s == a:
                self.prompt = {
                    "seat": s,
                    "kind": "scholar",
                    "purpose": rec.purpose,
                    "per_die": True,
                    "roll": "Spell Selection",
                }
                return
            if rec.purpose == "opposed":
                ctx = self.ctxs[rec.info["ctx"]]
                att, dfn = self.opposed_totals(ctx)
                if s == ctx.side and att["total"] <= dfn["total"]:
                    self.prompt = {"seat": s, "kind": "scholar", "purpose": rec.purpose, "roll": "Skill"}
                    return
                if s == ctx.target_owner and s != ctx.side and att["total"] >= dfn["total"]:
                    self.prompt = {"seat": s, "kind": "scholar", "purpose": rec.purpose, "roll": "Defence"}
                    return

    # ---------------------------------------------------------------- view
    def view(self, seat: int | None) -> dict[str, Any]:
        return render_view(self)


_TYPES = {
    "action": ("select_model", "move", "act", "extinguish", "end_activation"),
    "dominate": ("move", "act"),
    "witch_step": ("witch_step",),
    "teleport": ("teleport",),
    "necro": ("place_minion",),
    "terrain": ("place_terrain",),
    "deploy": ("deploy",),
}

_ASKED = {
    "discipline": "choose your Wizard's Discipline (choose_discipline)",
    "terrain": "place terrain (place_terrain) or ask for a random layout (random_terrain)",
    "edge": "choose your board edge (edge)",
    "deploy": "deploy your Wizard and Minion on your edge row (deploy)",
    "action": "activate your models (select_model, move, act, end_activation, end_turn)",
    "crowd": "decide how much Crowd Favour to spend (spend_favour)",
    "spell": "choose your spell for this turn (choose_spell)",
    "reroll": "decide on the hometown chant's re-roll (reroll or decline)",
    "scholar": "decide on the Noble Scholar's +2 (scholar_bonus or decline)",
    "blood_pact": "decide on the Blood Mage's sacrifice (blood_pact or decline)",
    "witch_step": "make the Green Witch's free step (witch_step or decline)",
    "necro": "place the Necromancer's free Minion (place_minion)",
    "teleport": "choose where the Teleport sends the model (teleport or decline)",
    "dominate": "move and act with the Dominated Minion (move, act or decline)",
}


def _rowkey(sq: Square) -> tuple[int, int]:
    return (sq[1], sq[0])


def _lab(sq: Square) -> str:
    x, y = sq
    return label(sq) if 0 <= x < 26 and y >= 0 else f"[{x}, {y}]"


__all__ = ["Arena", "ArenaOptions", "ArenaState", "CHANT_PURPOSES", "Player"]
