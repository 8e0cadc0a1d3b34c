"""Wizards Cup: two rulers, six wizards each, duels by Magic power, Element and Value.

Modules: ``game`` (the Game, options, constants), ``actions``, ``cards`` (the card data),
``player`` and ``duel`` (a player's cards; one duel's resolution), ``state`` and ``view``.
"""

from .actions import BotanistChoice, ChooseDeck, Plan, RandomPick, Swap, WizardsCupAction
from .cards import ELEMENT_BEATS, Card, CardSet, Element, PowerKind, load_card_set
from .duel import Duel
from .game import DECK_SIZE, PLAYED, TOKENS_TO_WIN, WizardsCup, WizardsCupOptions
from .player import PlayerState, Step
from .state import Phase, WizardsCupState
from .view import PlayerView, SeatView, SpectatorView, YouView, render_view

WizardsCup.bind(WizardsCupState, render_view)

__all__ = [
    "DECK_SIZE",
    "ELEMENT_BEATS",
    "PLAYED",
    "TOKENS_TO_WIN",
    "BotanistChoice",
    "Card",
    "CardSet",
    "ChooseDeck",
    "Duel",
    "Element",
    "Phase",
    "Plan",
    "PlayerState",
    "PlayerView",
    "PowerKind",
    "RandomPick",
    "SeatView",
    "SpectatorView",
    "Step",
    "Swap",
    "WizardsCup",
    "WizardsCupAction",
    "WizardsCupOptions",
    "WizardsCupState",
    "YouView",
    "load_card_set",
    "render_view",
]
