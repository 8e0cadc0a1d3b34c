"""Wizards Cup: two rulers, six wizards each, duels by Magic power, Element and Value."""

from .actions import BotanistChoice, ChooseDeck, Plan, RandomPick, Swap
from .cards import ELEMENT_BEATS, Card, CardSet, Element, PowerKind, load_card_set
from .state import Phase, Step, WizardsCup, WizardsCupOptions, WizardsCupState
from .view import render_view

__all__ = [
    "ELEMENT_BEATS",
    "BotanistChoice",
    "Card",
    "CardSet",
    "ChooseDeck",
    "Element",
    "Phase",
    "Plan",
    "PowerKind",
    "RandomPick",
    "Step",
    "Swap",
    "WizardsCup",
    "WizardsCupOptions",
    "WizardsCupState",
    "load_card_set",
    "render_view",
]
