"""Models on the board, their lasting effects and the records a resolution keeps.

Turns are counted per player turn (``turn_no`` 1, 2, 3...: Player 1 plays the odd ones). "Its next
turn" of a model owned by seat S, said during turn T of the active seat A, is T+1 when S != A and
T+2 when S == A (see :func:`next_turn_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Square, label


@dataclass
class Effect:
    kind: str
    #: In force only during this player turn (None: whenever present).
    applies_turn: int | None = None
    #: Removed when this player turn ends.
    ends_after_turn: int | None = None
    #: Removed when this player turn starts.
    ends_at_start_of: int | None = None
    #: The model that caused it (the Phantasm of Hypnotic Dancing, the caster...).
    source: str | None = None
    #: Mutation: which stat ("move", "skill", "defence").
    value: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for k in ("applies_turn", "ends_after_turn", "ends_at_start_of", "source", "value"):
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        return out


@dataclass
class Model:
    id: str
    owner: int
    kind: str  # "wizard" or "minion"
    discipline: str
    name: str
    pos: Square
    health: int
    max_health: int
    move: int
    skill: int
    defence: int
    effects: list[Effect] = field(default_factory=list)

    @property
    def is_wizard(self) -> bool:
        return self.kind == "wizard"

    def effect(self, kind: str) -> Effect | None:
        return next((e for e in self.effects if e.kind == kind), None)

    def has(self, kind: str, turn: int | None = None) -> bool:
        """Whether the effect is present (and, given ``turn``, in force during that turn)."""
        e = self.effect(kind)
        if e is None:
            return False
        return turn is None or e.applies_turn is None or e.applies_turn == turn

    def mutation(self, stat: str) -> int:
        return sum(1 for e in self.effects if e.kind == "mutation" and e.value == stat)

    def square(self) -> str:
        return label(self.pos)


@dataclass
class ActionCtx:
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


@dataclass
class RollSpec:
    """A roll the state waits for: ``sides`` per die (6 = D6, 3 = D3, N = a random pick of N)."""

    purpose: str
    sides: list[int]
    info: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "sides": list(self.sides), "count": len(self.sides), **self.info}


@dataclass
class RollRecord:
    """The last roll that modifiers (hometown chant, Noble Scholar) may still change."""

    purpose: str
    dice: list[int]
    sides: list[int]
    info: dict[str, Any] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    #: Noble Scholar +2 on a total, by seat (opposed rolls).
    bonus: dict[int, int] = field(default_factory=dict)
    #: Noble Scholar +2 on one die, by die index (Spell Selection).
    die_bonus: dict[int, int] = field(default_factory=dict)

    def values(self) -> list[int]:
        return [min(6, d + self.die_bonus.get(i, 0)) for i, d in enumerate(self.dice)]


def next_turn_of(owner: int, active: int, turn_no: int) -> int:
    return turn_no + 1 if owner != active else turn_no + 2
