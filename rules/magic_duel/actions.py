"""Magic Duel actions. Each is a frozen value object with a JSON form (docs/actions/magic-duel.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from ..core import ActionModel


class Deal(ActionModel):
    """Chance, at the start of every hand: the shuffled cards as dealt.

    ``hands[seat]`` is the 7 cards dealt to each seat still playing (``[]`` for a removed seat),
    ``risk`` the Deck of Risk (top first, one card per player), ``advantage`` the Deck of
    Advantage (top first) with the Cursed Spell ``"CURSE"`` shuffled in.
    """

    type: Literal["deal"] = "deal"
    hands: tuple[tuple[str, ...], ...]
    risk: tuple[str, ...]
    advantage: tuple[str, ...]


class PlayCards(ActionModel):
    """A seat's spell for the trick: the cards of one combination. ``risk`` names a card put on the
    Deck of Risk first (face-down); the spell is then cast face-up."""

    type: Literal["play"] = "play"
    cards: tuple[str, ...] = Field(min_length=1, max_length=4)
    risk: str | None = None


class Draw(ActionModel):
    """Refilling the hand to 7: ``risk`` cards from the Deck of Risk, the rest from the Deck of
    Advantage (Risk cards are drawn first). ``advantage`` may be given; it must then be the rest."""

    type: Literal["draw"] = "draw"
    risk: int = Field(default=0, ge=0, le=8)
    advantage: int | None = Field(default=None, ge=0, le=8)


MagicDuelAction = Annotated[Deal | PlayCards | Draw, Field(discriminator="type")]
action_adapter: TypeAdapter[MagicDuelAction] = TypeAdapter(MagicDuelAction)
