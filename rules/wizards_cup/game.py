"""Wizards Cup: the game, its options and its constants.

The game's rules and the project's rulings on them: docs/rulings/wizards-cup.md (each ruling's
*Rule:* line says which part of the game's rule texts it implements). Seats: 0 is the challenger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..core import Event, Game, GameOptions, TournamentProfile, view_int
from ..events import last_public
from .actions import action_adapter
from .cards import CardSet, load_card_set

#: Cards in a player's Deck: the random card and 5 chosen ones.
DECK_SIZE = 6
#: Cards a player puts in playing order each round (the sixth is the Waiting card).
PLAYED = 5
#: Victory tokens that win the Cup.
TOKENS_TO_WIN = 2


class WizardsCupOptions(GameOptions):
    card_set: Literal["default"] = "default"


if TYPE_CHECKING:
    from .view import SeatView, SpectatorView  # noqa: F401 (the view types below are strings: view imports this module)


class WizardsCup(Game[WizardsCupOptions, "SeatView", "SpectatorView"]):
    slug: ClassVar[str] = "wizards-cup"
    name: ClassVar[str] = "Wizards Cup"
    summary: ClassVar[str] = (
        "Pick a team of 6 wizards (one drawn at random by your opponent), order 5 of them in secret "
        "and watch them duel: Magic power, then Element, then Value decide. Two round wins take the Cup."
    )
    min_seats = 2
    max_seats = 2
    options_model = WizardsCupOptions
    action_adapter = action_adapter
    story_kinds = frozenset({"duel", "round_end", "game_end", "forfeit"})  # each resolved duel
    notice_kinds = frozenset({"deck_chosen", "planned", "prepared"})
    # a duel both Wizards lose is won by nobody and not counted
    tournament = TournamentProfile(score_event="duel", score_word="duel")

    @classmethod
    def chapter(cls, events: Sequence[Event], names: Sequence[str]) -> str | None:
        """ "Round 2", or "Round 2 (continued)" for a part without its start."""
        start = last_public(events, "round_start")
        if start is not None:
            return f"Round {start.data.get('round', '?')}"
        duel = last_public(events, "duel", "round_end")
        return f"Round {duel.data.get('round', '?')} (continued)" if duel is not None else None

    @classmethod
    def position(cls, view: Mapping[str, Any]) -> str:
        """ "Round 2"."""
        rnd = view_int(view, "round")
        return f"Round {rnd}" if rnd else ""

    @property
    def cards(self) -> CardSet:
        return load_card_set(self.options.card_set)

    def value_label(self, field: str, value: Any) -> str | None:
        """A card by its name, Element and Value (a Deck, an order, the waiting card, a swap)."""
        if isinstance(value, str) and value in self.cards:
            card = self.cards[value]
            return f"{card.name} ({card.element_name} {card.value})"
        return None
