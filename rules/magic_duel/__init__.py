"""Magic Duel: a trick game for 2 to 8 wizards with ordinary playing cards."""

from .actions import Deal, Draw, PlayCards
from .cards import CURSE, HAND_SIZE, Card, Combo, Kind, classify, combinations_in, deck_ids, label, parse_card
from .state import MagicDuel, MagicDuelOptions, MagicDuelState, Phase, Trick, TrickPlay
from .trick import Play, Verdict, resolve
from .view import render_view

__all__ = [
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
    "Trick",
    "TrickPlay",
    "Verdict",
    "classify",
    "combinations_in",
    "deck_ids",
    "label",
    "parse_card",
    "render_view",
    "resolve",
]
