"""Magic Duel: the game, its options and constants.

The game's rules (its rule text and design note, not part of this repository) as the engine
implements them, with the rulings that fill their gaps: docs/rulings/magic-duel.md (options:
docs/rulings/magic-duel.md#decks, docs/rulings/magic-duel.md#points-to-win). The package ``__init__``
binds the State (state.py) and the view (view.py) to :class:`MagicDuel`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from ..core import Event, Game, GameOptions, TournamentProfile, view_int
from ..errors import IllegalAction
from ..events import last_public
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


if TYPE_CHECKING:
    from .view import SeatView, SpectatorView  # noqa: F401 (the view types below are strings: view imports this module)


class MagicDuel(Game[MagicDuelOptions, "SeatView", "SpectatorView"]):
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
    story_kinds = frozenset({"trick_won", "trick_tied", "hand_scored", "deal", "hand_dealt", "game_end", "forfeit"})
    tournament = TournamentProfile(tables=True)  # tables of 3 to 8 ranked by placement

    @classmethod
    def chapter(cls, events: Sequence[Event], names: Sequence[str]) -> str | None:
        """ "Hand 2 · trick 5", or "Hand 3 is dealt"."""
        trick = last_public(events, "trick_won", "trick_tied", "reveal")
        if trick is not None:
            return f"Hand {trick.data.get('hand', '?')} · trick {trick.data.get('trick', '?')}"
        deal = last_public(events, "deal")
        return f"Hand {deal.data.get('hand', '?')} is dealt" if deal is not None else None

    @classmethod
    def position(cls, view: Mapping[str, Any]) -> str:
        """ "Hand 2 · trick 1", or "Hand 2" between tricks."""
        hand = view_int(view, "hand")
        trick = view.get("trick")
        number = view_int(trick, "number") if isinstance(trick, Mapping) else None
        if not hand:
            return ""
        return f"Hand {hand} · trick {number}" if number else f"Hand {hand}"

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
