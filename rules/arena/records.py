"""The records the turn keeps: the spell choice, the activation, the rolls, the prompt a seat
owes, the Domination, the knock-out and the Actions being resolved. Each has the JSON form the
view shows (``to_json``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from .board import Square

#: What a prompt asks (the Decision kind of the prompted seat).
PromptKind = Literal["crowd", "spell", "reroll", "scholar", "blood_pact", "witch_step", "necro", "teleport", "dominate"]


class SpellJSON(TypedDict):
    dice: list[int]
    values: list[int]
    options: list[str]
    any: bool  # a double: any spell may be chosen
    selected: str | None
    cast: bool


class ActivationJSON(TypedDict):
    model: str
    moved: bool
    acted: bool


class DominationJSON(TypedDict):
    ctx: int
    model: str
    moved: bool
    seat: int


class PromptJSON(TypedDict):
    seat: int
    kind: str
    purpose: NotRequired[str]
    dice: NotRequired[list[int]]
    per_die: NotRequired[bool]
    roll: NotRequired[str]
    model: NotRequired[str]
    ctx: NotRequired[int]
    moved: NotRequired[bool]


@dataclass(slots=True)
class Player:
    discipline: str | None = None
    wizard_name: str | None = None
    edge: str | None = None
    favour: int = 0
    deployed: list[str] = field(default_factory=list)  # "wizard", "minion"
    minion_count: int = 0  # Minions ever placed (for ids)
    chant: bool = False  # hometown chant this turn
    chant_used: bool = False
    blood_extra: bool = False
    scholar_game_turn: int = 0  # the game turn the Noble Scholar's +2 was last used

    def copy(self) -> Player:
        return Player(
            self.discipline,
            self.wizard_name,
            self.edge,
            self.favour,
            list(self.deployed),
            self.minion_count,
            self.chant,
            self.chant_used,
            self.blood_extra,
            self.scholar_game_turn,
        )


@dataclass(slots=True)
class SpellChoice:
    """This turn's Spell Selection: the dice, the spells they allow and the one chosen."""

    dice: list[int]
    values: list[int]
    options: list[str]
    any: bool
    selected: str | None = None
    cast: bool = False

    def copy(self) -> SpellChoice:
        return SpellChoice(self.dice, self.values, self.options, self.any, self.selected, self.cast)

    def to_json(self) -> SpellJSON:
        return {
            "dice": list(self.dice),
            "values": list(self.values),
            "options": list(self.options),
            "any": self.any,
            "selected": self.selected,
            "cast": self.cast,
        }


@dataclass(slots=True)
class Activation:
    """The model being activated and what it has done."""

    model: str
    moved: bool = False
    acted: bool = False

    def copy(self) -> Activation:
        return Activation(self.model, self.moved, self.acted)

    def to_json(self) -> ActivationJSON:
        return {"model": self.model, "moved": self.moved, "acted": self.acted}


@dataclass(frozen=True, slots=True)
class Prompt:
    """A choice a seat owes before the game goes on. Absent details are None (not shown)."""

    seat: int
    kind: PromptKind
    purpose: str | None = None  # reroll, scholar: the roll's purpose
    dice: tuple[int, ...] | None = None  # reroll: the dice
    per_die: bool = False  # scholar: +2 on one die (Spell Selection) rather than a total
    roll: str | None = None  # scholar: which roll ("Spell Selection", "Skill", "Defence")
    model: str | None = None  # teleport, dominate: the model
    ctx: int | None = None  # teleport: the resolution
    moved: bool | None = None  # dominate: whether the Dominated Minion has moved

    def to_json(self) -> PromptJSON:
        out: PromptJSON = {"seat": self.seat, "kind": self.kind}
        if self.purpose is not None:
            out["purpose"] = self.purpose
        if self.dice is not None:
            out["dice"] = list(self.dice)
        if self.per_die:
            out["per_die"] = True
        if self.roll is not None:
            out["roll"] = self.roll
        if self.model is not None:
            out["model"] = self.model
        if self.ctx is not None:
            out["ctx"] = self.ctx
        if self.moved is not None:
            out["moved"] = self.moved
        return out


@dataclass(slots=True)
class Domination:
    """A Dominated enemy Minion: its new master may move it and make its Action."""

    ctx: int
    model: str
    seat: int
    moved: bool = False

    def copy(self) -> Domination:
        return Domination(self.ctx, self.model, self.seat, self.moved)

    def to_json(self) -> DominationJSON:
        return {"ctx": self.ctx, "model": self.model, "moved": self.moved, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class KnockOut:
    """A knocked-out Wizard, waiting for its fate roll."""

    model: str
    seat: int
    by_wizard: bool
    cause: str
    line: str  # the key of the fate line

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "seat": self.seat,
            "by_wizard": self.by_wizard,
            "cause": self.cause,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class RollSpec:
    """A roll the state waits for: ``sides`` per die (6 = D6, 3 = D3, N = a random pick of N)."""

    purpose: str
    sides: tuple[int, ...]
    info: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "sides": list(self.sides), "count": len(self.sides), **self.info}


@dataclass(frozen=True, slots=True)
class LastRoll:
    """The last dice rolled, as the view shows them."""

    purpose: str
    dice: tuple[int, ...]
    sides: tuple[int, ...]
    info: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "dice": list(self.dice), "sides": list(self.sides), **self.info}


@dataclass(slots=True)
class RollRecord:
    """The last roll that modifiers (hometown chant, Noble Scholar) may still change."""

    purpose: str
    dice: list[int]
    sides: tuple[int, ...]
    info: dict[str, Any] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    #: Noble Scholar +2 on a total, by seat (opposed rolls).
    bonus: dict[int, int] = field(default_factory=dict)
    #: Noble Scholar +2 on one die, by die index (Spell Selection).
    die_bonus: dict[int, int] = field(default_factory=dict)

    def copy(self) -> RollRecord:
        return RollRecord(
            self.purpose,
            list(self.dice),
            self.sides,
            self.info,
            set(self.asked),
            dict(self.bonus),
            dict(self.die_bonus),
        )

    def values(self) -> list[int]:
        return [min(6, d + self.die_bonus.get(i, 0)) for i, d in enumerate(self.dice)]


@dataclass(slots=True)
class Resolution:
    """One Action being resolved (a spell or a Minion action, possibly a Dominated one)."""

    id: int
    actor: str
    side: int  # the seat controlling the Action
    action: str  # ActionDef id
    target: str | None = None
    at: Square | None = None
    by_wizard: bool = False
    dominated: bool = False
    reflected: bool = False
    double: bool = False
    target_owner: int | None = None
    result: str = ""  # ally / success / explosion_success / reflected / fail
    dealt: int = 0

    def copy(self) -> Resolution:
        return Resolution(
            self.id,
            self.actor,
            self.side,
            self.action,
            self.target,
            self.at,
            self.by_wizard,
            self.dominated,
            self.reflected,
            self.double,
            self.target_owner,
            self.result,
            self.dealt,
        )

    @property
    def victim(self) -> str | None:
        """The model the Action's effect lands on."""
        return self.actor if self.reflected else self.target

    @property
    def effect_side(self) -> int:
        """Whose side the effect works for: the reflecting side when reflected."""
        if self.reflected and self.target_owner is not None:
            return self.target_owner
        return self.side


__all__ = [
    "Activation",
    "ActivationJSON",
    "DominationJSON",
    "PromptJSON",
    "SpellJSON",
    "Domination",
    "KnockOut",
    "LastRoll",
    "Player",
    "Prompt",
    "PromptKind",
    "Resolution",
    "RollRecord",
    "RollSpec",
    "SpellChoice",
]
