"""Firewall actions. Each is a frozen value object with a JSON form (docs/actions/firewall.md).

Numbers are checked by the state (``_check``) rather than by the model, so an out-of-range bet or
an unknown card gets a readable IllegalAction instead of a schema error.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

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


_new = object.__new__
_set = object.__setattr__
# The pydantic slots of a model instance, set directly (pydantic's own __setattr__ refuses: frozen).
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def known_turn(bet: int, spells: tuple[int, ...], clone: int | None) -> Turn:
    """A Turn the engine builds from values it knows to be well formed (its legal actions), without
    pydantic's validation; equal to ``Turn(bet=bet, spells=spells, clone=clone)``. A hot path of
    random playouts and search (``Model.model_construct`` does the same, more slowly)."""
    turn = _new(Turn)
    _set(turn, "__dict__", {"type": "turn", "bet": bet, "spells": spells, "clone": clone})
    _set_fields_set(turn, {"bet", "spells", "clone"})
    _set_extra(turn, None)
    _set_private(turn, None)
    return turn


def known_shuffle(seat: int, order: tuple[int, ...]) -> Shuffle:
    """A Shuffle the engine draws itself (a permutation of the deck), without pydantic's validation;
    equal to ``Shuffle(seat=seat, order=order)``."""
    shuffle = _new(Shuffle)
    _set(shuffle, "__dict__", {"type": "shuffle", "seat": seat, "order": order})
    _set_fields_set(shuffle, {"seat", "order"})
    _set_extra(shuffle, None)
    _set_private(shuffle, None)
    return shuffle


def larceny_of(cards: list[int]) -> LarcenyChoice:
    """The Larceny follow-up applying ``cards`` (any order)."""
    return LarcenyChoice(apply=tuple(sorted(cards)))


FirewallAction = Annotated[
    Shuffle | Order | Turn | LarcenyChoice | RecycleChoice,
    Field(discriminator="type"),
]
action_adapter: TypeAdapter[FirewallAction] = TypeAdapter(FirewallAction)
