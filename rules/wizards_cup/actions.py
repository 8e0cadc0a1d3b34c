"""Wizards Cup actions. Each is a frozen value object with a JSON form (docs/actions/wizards-cup.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, model_validator

from ..core import ActionModel

#: Five card ids (a Deck's chosen cards, a round's playing order).
FiveCards = tuple[str, str, str, str, str]


class RandomPick(ActionModel):
    """Chance: the card the opponent picks at random from ``seat``'s set of 18."""

    type: Literal["random_pick"] = "random_pick"
    seat: int = Field(ge=0, le=1)
    card: str

    def to_json(self) -> dict[str, Any]:
        # = model_dump(mode="json"), without the serializer: every match logs two of these
        return {"type": self.type, "seat": self.seat, "card": self.card}


class ChooseDeck(ActionModel):
    """Secret: the 5 cards chosen to join the random card in the Deck."""

    type: Literal["choose_deck"] = "choose_deck"
    cards: FiveCards


class Plan(ActionModel):
    """Secret: 5 of the 6 Deck cards in playing order (first = top) and the Waiting card."""

    type: Literal["plan"] = "plan"
    order: FiveCards
    waiting: str


class Swap(ActionModel):
    """Secret, between rounds: swap ``remove`` (a Deck card) for ``add`` (one of the 12 unused
    cards), or keep the Deck with both left out."""

    type: Literal["swap"] = "swap"
    remove: str | None = None
    add: str | None = None

    @model_validator(mode="after")
    def _both_or_neither(self) -> Swap:
        if (self.remove is None) != (self.add is None):
            raise ValueError("name both the card to remove and the card to add, or neither to keep your Deck")
        return self


class BotanistChoice(ActionModel):
    """The Botanist's owner decides whether to discard their Waiting card ("may")."""

    type: Literal["botanist"] = "botanist"
    discard: bool


WizardsCupAction = Annotated[
    RandomPick | ChooseDeck | Plan | Swap | BotanistChoice,
    Field(discriminator="type"),
]
action_adapter: TypeAdapter[WizardsCupAction] = TypeAdapter(WizardsCupAction)
