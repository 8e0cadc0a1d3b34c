"""The pieces on the board (Wizards and Minions) and their lasting effects.

Turns are counted per player turn (``turn_no`` 1, 2, 3...: Player 1 plays the odd ones). "Its next
turn" of a model owned by seat S, said during turn T of the active seat A, is T+1 when S != A and
T+2 when S == A (see :func:`next_turn_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .board import Square, label

_EFFECT_FIELDS = ("applies_turn", "ends_after_turn", "ends_at_start_of", "source", "value")


@dataclass(frozen=True, slots=True)
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
        for k in _EFFECT_FIELDS:
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        return out


@dataclass(slots=True)
class Model:
    """A Wizard or a Minion on the board (ids ``p1-wizard``, ``p2-m3``: by seat)."""

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
    #: ``kind == "wizard"`` (kept as a plain attribute: asked in every hot loop).
    is_wizard: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.is_wizard = self.kind == "wizard"

    def copy(self) -> Model:
        """An independent copy (effects are immutable; the list is not shared)."""
        return Model(
            self.id,
            self.owner,
            self.kind,
            self.discipline,
            self.name,
            self.pos,
            self.health,
            self.max_health,
            self.move,
            self.skill,
            self.defence,
            list(self.effects),
        )

    def effect(self, kind: str) -> Effect | None:
        for e in self.effects:
            if e.kind == kind:
                return e
        return None

    def has(self, kind: str, turn: int | None = None) -> bool:
        """Whether the effect is present (and, given ``turn``, in force during that turn)."""
        e = self.effect(kind)
        if e is None:
            return False
        return turn is None or e.applies_turn is None or e.applies_turn == turn

    def mutation(self, stat: str) -> int:
        if not self.effects:
            return 0
        return sum(1 for e in self.effects if e.kind == "mutation" and e.value == stat)

    def square(self) -> str:
        return label(self.pos)


def next_turn_of(owner: int, active: int, turn_no: int) -> int:
    return turn_no + 1 if owner != active else turn_no + 2


__all__ = ["Effect", "Model", "id_order_key", "next_turn_of"]


@cache
def id_order_key(mid: str) -> tuple[int, int, int]:
    """Seat 0's Wizard, its Minions by number, then seat 1's (ids ``p1-wizard``, ``p2-m3``)."""
    wizard = mid.endswith("-wizard")
    return (int(mid[1]) - 1, 0 if wizard else 1, 0 if wizard else int(mid.split("-m")[1]))
