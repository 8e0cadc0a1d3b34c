"""Magic Duel: the game, its options and constants.

The game's rules (its rule text and design note, not part of this repository) as the engine
implements them, with the rulings that fill their gaps: docs/rulings/magic-duel.md (options:
docs/rulings/magic-duel.md#decks, docs/rulings/magic-duel.md#points-to-win). The package ``__init__``
binds the State (state.py) and the view (view.py) to :class:`MagicDuel`.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Any, ClassVar

from pydantic import Field

from ..core import Game, GameOptions
from ..errors import IllegalAction
from ..text import plural
from .actions import action_adapter
from .cards import CURSE, HAND_SIZE, deck_ids

#: Cards in one deck: 52 and 2 Jokers.
CARDS_PER_DECK = 54

__all__ = ["CARDS_PER_DECK", "CURSE", "HAND_SIZE", "MagicDuel", "MagicDuelOptions", "Phase", "decks_for"]


class MagicDuelOptions(GameOptions):
    #: Number of 54-card decks; None = one deck for up to 5 players, two from 6.
    decks: int | None = Field(default=None, ge=1, le=3)
    #: Tournament points a wizard needs to win the game.
    points_to_win: int = Field(default=3, ge=1, le=50)


def decks_for(options: MagicDuelOptions, seats: int) -> int:
    """How many decks a game of ``seats`` players uses (rulings, set-up 1)."""
    return options.decks if options.decks is not None else (1 if seats <= 5 else 2)


class Phase(StrEnum):
    """Where a game is; the values are the view's ``phase`` and the decision kinds."""

    DEAL = "deal"  # chance: the shuffle and deal of a hand
    TRICK = "trick"  # seats cast their spells in turn order
    DRAW = "draw"  # seats refill their hands in turn order
    OVER = "over"


@cache
def _card_ids(decks: int) -> tuple[str, ...]:
    return tuple(deck_ids(decks))


class MagicDuel(Game[MagicDuelOptions]):
    slug: ClassVar[str] = "magic-duel"
    name: ClassVar[str] = "Magic Duel"
    summary: ClassVar[str] = (
        "A trick game for 2 to 8 wizards with ordinary cards: cast singles, pairs, threes, fours or "
        "Jokers face-down (or face-up after risking a card), gather the most tricks before the Cursed "
        "Spell ends the hand, and score tournament points."
    )
    min_seats = 2
    max_seats = 8
    options_model = MagicDuelOptions
    action_adapter = action_adapter

    def __init__(self, options: Any = None, num_seats: int = 2):
        super().__init__(options, num_seats)
        decks = decks_for(self.options, num_seats)
        if num_seats * (HAND_SIZE + 1) > decks * CARDS_PER_DECK:
            raise IllegalAction(
                f"{plural(decks, 'deck')} of 54 cards cannot deal 7 cards to each of {num_seats} "
                f"players plus the Deck of Risk; use decks={decks + 1} (or leave decks out: two decks from 6 players)."
            )
        self.decks = decks
        self.card_ids: tuple[str, ...] = _card_ids(decks)
