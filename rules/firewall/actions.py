"""Firewall actions. Each is a frozen value object with a JSON form (docs/actions/firewall.md).

Numbers are checked by the state (``_check``) rather than by the model, so an out-of-range bet or
an unknown card gets a readable IllegalAction instead of a schema error.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from ..core import ActionModel


class Shuffle(ActionModel):
    """Chance: the order of ``seat``'s 14-spell stock after the shuffle (first = top)."""

    type: Literal["shuffle"] = "shuffle"
    seat: int = Field(ge=0, le=1)
    order: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        # What model_dump(mode="json") gives, made directly: the match logs every shuffle.
        return {"type": "shuffle", "seat": self.seat, "order": list(self.order)}


class Order(ActionModel):
    """Secret, variant "chosen_order", before the match: the seat's own stock order (first = top)."""

    type: Literal["order"] = "order"
    stock: tuple[int, ...]


class Turn(ActionModel):
    """Secret, every turn: the bet (1 .. mana) and the spells laid face down (the false card 0 may be
    among them). ``clone``: when Clone (2) is played, the opponent's spell from the previous turn
    that it copies (None when there is nothing to copy)."""

    type: Literal["turn"] = "turn"
    bet: int
    spells: tuple[int, ...] = ()
    clone: int | None = None


class LarcenyChoice(ActionModel):
    """Follow-up of Larceny: the stolen spells (by number) applied for the larcener; the others are
    discarded. ``clone`` is not needed: a stolen spell is never a Clone (Clone resolves before Larceny)."""

    type: Literal["larceny"] = "larceny"
    apply: tuple[int, ...] = ()


class RecycleChoice(ActionModel):
    """Follow-up of Recycle: the new bet (old bet - 5 .. old bet + 5, and 1 .. mana)."""

    type: Literal["recycle"] = "recycle"
    bet: int


#: ``known_turn(bet, spells, clone)``: a Turn the engine builds from values it knows to be well
#: formed (its legal actions), without validation: equal to ``Turn(bet=bet, spells=spells,
#: clone=clone)``. A hot path of playouts.
known_turn = Turn.maker("bet", "spells", "clone")


#: ``known_shuffle(seat, order)``: ``Shuffle(seat=seat, order=order)`` for a shuffle the engine drew.
known_shuffle = Shuffle.maker("seat", "order")


def larceny_of(cards: list[int]) -> LarcenyChoice:
    """The Larceny follow-up applying ``cards`` (any order)."""
    return LarcenyChoice(apply=tuple(sorted(cards)))


FirewallAction = Annotated[
    Shuffle | Order | Turn | LarcenyChoice | RecycleChoice,
    Field(discriminator="type"),
]
action_adapter: TypeAdapter[FirewallAction] = TypeAdapter(FirewallAction)
