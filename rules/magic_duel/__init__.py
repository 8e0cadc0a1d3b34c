"""Magic Duel: a trick game for 2 to 8 wizards with ordinary playing cards.

Layout: ``game`` (the Game, options, constants) <- ``table`` (the data and its queries) <- ``draws``
(drawing from the decks) <- ``tricks`` (casting and resolving tricks, the draws between them, scoring
a hand) <- ``state`` (the State: decisions, legal actions, checks, the deal, forfeits) <- ``view``
(what a seat sees); ``actions``, ``cards``, ``deal``, ``trick`` and ``scoring`` hold the data and the
rules these use.
"""

from .actions import Deal, Draw, PlayCards
from .cards import (
    CURSE,
    HAND_SIZE,
    Card,
    Combo,
    Kind,
    classify,
    combinations_in,
    deck_ids,
    label,
    not_a_combination,
    parse_card,
)
from .game import CARDS_PER_DECK, MagicDuel, MagicDuelOptions, Phase
from .state import MagicDuelState
from .verdict import Play, Trick, TrickPlay, Verdict, resolve
from .view import SeatView, SpectatorView, YouView, render_view

MagicDuel.bind(MagicDuelState, render_view)

__all__ = [
    "CARDS_PER_DECK",
    "CURSE",
    "HAND_SIZE",
    "Card",
    "Combo",
    "Deal",
    "Draw",
    "Kind",
    "MagicDuel",
    "MagicDuelOptions",
    "MagicDuelState",
    "Phase",
    "Play",
    "PlayCards",
    "SeatView",
    "SpectatorView",
    "Trick",
    "TrickPlay",
    "Verdict",
    "YouView",
    "classify",
    "not_a_combination",
    "combinations_in",
    "deck_ids",
    "label",
    "parse_card",
    "render_view",
    "resolve",
]
