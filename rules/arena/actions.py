"""Arena actions. Each is a frozen value object with a JSON form (docs/actions/arena.md).

Squares are ``[x, y]``: x = column index from 0 (column A), y = row index from 0 (row 1). A label
such as ``"C4"`` is accepted on input too and stored as ``[2, 3]``.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, TypeAdapter, model_validator

from ..core import ActionModel
from .board import bit_squares, byte_table, parse_label


def _square(value: Any) -> Any:
    if isinstance(value, str):
        return parse_label(value)
    return value


Sq = Annotated[tuple[int, int], BeforeValidator(_square)]
Edge = Literal["north", "south", "east", "west"]


# ---------------------------------------------------------------------------- chance
class Roll(ActionModel):
    """Chance: the dice the state asked for (it knows how many, which sides and why)."""

    type: Literal["roll"] = "roll"
    dice: tuple[int, ...] = Field(min_length=1, max_length=4)


class TerrainLayout(ActionModel):
    """Chance: the random symmetric terrain layout (every square of it)."""

    type: Literal["terrain_layout"] = "terrain_layout"
    squares: tuple[Sq, ...] = Field(min_length=1, max_length=8)


# ---------------------------------------------------------------------------- set-up
class ChooseDiscipline(ActionModel):
    """Set-up, each player once: the Wizard's Magic Discipline and an optional name."""

    type: Literal["choose_discipline"] = "choose_discipline"
    discipline: str
    name: str | None = Field(default=None, max_length=40)

    @model_validator(mode="after")
    def _clean_name(self) -> ChooseDiscipline:
        if self.name is not None and not self.name.strip():
            raise ValueError("the Wizard's name may not be blank (leave it out for no name)")
        return self


class PlaceTerrain(ActionModel):
    """Set-up, Player 1: put one terrain piece on a square."""

    type: Literal["place_terrain"] = "place_terrain"
    at: Sq


class RandomTerrain(ActionModel):
    """Set-up, Player 1, before placing any piece: let the referee lay out the terrain at random
    (mirrored about the centre, never on an edge row)."""

    type: Literal["random_terrain"] = "random_terrain"


class ChooseEdge(ActionModel):
    """Set-up, Player 2: the board edge Player 2 starts on (Player 1 gets the opposite one)."""

    type: Literal["edge"] = "edge"
    side: Edge


class Deploy(ActionModel):
    """Set-up: put your Wizard or your Minion on a free square of your edge row."""

    type: Literal["deploy"] = "deploy"
    model: Literal["wizard", "minion"]
    at: Sq


# ---------------------------------------------------------------------------- a turn
class SpendFavour(ActionModel):
    """Start Phase: spend ``points`` Crowd Favour on the crowd table (0 = no roll)."""

    type: Literal["spend_favour"] = "spend_favour"
    points: int = Field(ge=0)


class ChooseSpell(ActionModel):
    """Spell Selection: the spell for this turn (spell id, e.g. ``arcane_rocket``, ``fire_breath``)."""

    type: Literal["choose_spell"] = "choose_spell"
    spell: str


class SelectModel(ActionModel):
    """Action Phase: start activating one of your models (by id, e.g. ``p1-wizard``, ``p1-m1``)."""

    type: Literal["select_model"] = "select_model"
    model: str


class Move(ActionModel):
    """Move the active model (or a Dominated Minion) to a square it can reach."""

    type: Literal["move"] = "move"
    to: Sq


class Act(ActionModel):
    """The active model's Action: a Wizard casts its selected spell, a Minion makes its action.
    ``target``: a model id; ``at``: a square (Summon Minion); neither: Tidal Wave."""

    type: Literal["act"] = "act"
    target: str | None = None
    at: Sq | None = None

    @model_validator(mode="after")
    def _not_both(self) -> Act:
        if self.target is not None and self.at is not None:
            raise ValueError("give a target model or a square, not both")
        return self


class Extinguish(ActionModel):
    """A burning model uses its Action to put itself out."""

    type: Literal["extinguish"] = "extinguish"


class EndActivation(ActionModel):
    type: Literal["end_activation"] = "end_activation"


class EndTurn(ActionModel):
    type: Literal["end_turn"] = "end_turn"


# ---------------------------------------------------------------------------- follow-up choices
class Reroll(ActionModel):
    """Hometown chant: re-roll die number ``die`` (0-based index in the roll's ``dice``)."""

    type: Literal["reroll"] = "reroll"
    die: int = Field(ge=0)


class ScholarBonus(ActionModel):
    """Noble Scholar: +2 to this roll (Spell Selection: to die number ``die``)."""

    type: Literal["scholar_bonus"] = "scholar_bonus"
    die: int | None = Field(default=None, ge=0)


class BloodPact(ActionModel):
    """Blood Mage: take D6 damage for one extra die in this Spell Selection."""

    type: Literal["blood_pact"] = "blood_pact"


class WitchStep(ActionModel):
    """Green Witch: the free 2-square step of the Start Phase."""

    type: Literal["witch_step"] = "witch_step"
    to: Sq


class PlaceMinion(ActionModel):
    """Necromancer: where the free Minion is summoned."""

    type: Literal["place_minion"] = "place_minion"
    at: Sq


class Teleport(ActionModel):
    """Teleport: where the target goes."""

    type: Literal["teleport"] = "teleport"
    to: Sq


class Decline(ActionModel):
    """Decline the optional choice offered now (chant re-roll, Scholar's +2, Witch step, Blood
    pact, the rest of a Domination, a Teleport)."""

    type: Literal["decline"] = "decline"


ArenaActionT = Annotated[
    Roll
    | TerrainLayout
    | ChooseDiscipline
    | PlaceTerrain
    | RandomTerrain
    | ChooseEdge
    | Deploy
    | SpendFavour
    | ChooseSpell
    | SelectModel
    | Move
    | Act
    | Extinguish
    | EndActivation
    | EndTurn
    | Reroll
    | ScholarBonus
    | BloodPact
    | WitchStep
    | PlaceMinion
    | Teleport
    | Decline,
    Field(discriminator="type"),
]
action_adapter: TypeAdapter[ArenaActionT] = TypeAdapter(ArenaActionT)


# ---------------------------------------------------------------------------- the engine's own
# The engine lists the same actions over and over (every legal move, every target): it builds each
# once. The objects are frozen, so sharing them is safe. ``known``: the values are valid (no validation).


@cache
def move_to(sq: tuple[int, int]) -> Move:
    return Move.known(to=sq)


@cache
def act_on(target: str) -> Act:
    return Act.known(target=target)


@cache
def act_at(sq: tuple[int, int]) -> Act:
    return Act.known(at=sq)


@cache
def select_model(model: str) -> SelectModel:
    return SelectModel.known(model=model)


@cache
def place_terrain(sq: tuple[int, int]) -> PlaceTerrain:
    return PlaceTerrain.known(at=sq)


@cache
def deploy(model: Literal["wizard", "minion"], sq: tuple[int, int]) -> Deploy:
    return Deploy.known(model=model, at=sq)


@cache
def witch_step(sq: tuple[int, int]) -> WitchStep:
    return WitchStep.known(to=sq)


@cache
def place_minion(sq: tuple[int, int]) -> PlaceMinion:
    return PlaceMinion.known(at=sq)


@cache
def teleport(sq: tuple[int, int]) -> Teleport:
    return Teleport.known(to=sq)


@cache
def roll(dice: tuple[int, ...]) -> Roll:
    return Roll.known(dice=dice)


ACT = Act()
EXTINGUISH = Extinguish()
END_ACTIVATION = EndActivation()
END_TURN = EndTurn()
DECLINE = Decline()


@cache
def spend_favour(points: int) -> SpendFavour:
    return SpendFavour.known(points=points)


@cache
def choose_spell(spell: str) -> ChooseSpell:
    return ChooseSpell.known(spell=spell)


@cache
def reroll_die(die: int) -> Reroll:
    return Reroll.known(die=die)


@cache
def scholar_bonus(die: int | None = None) -> ScholarBonus:
    return ScholarBonus.known(die=die)


BLOOD_PACT = BloodPact()


@cache
def byte_moves(size: int) -> tuple[int, list[list[tuple[Move, ...]]]]:
    """``byte_squares(size)`` with the Move to each square instead of the square."""
    return byte_table(size, [move_to(sq) for sq in bit_squares(size)])
