"""Firewall: two wizards push a Fire Wall across a collapsing bridge with secret mana bets and spells."""

from .actions import LarcenyChoice, Order, RecycleChoice, Shuffle, Turn
from .spells import SPELLS, Spell
from .state import Firewall, FirewallOptions, FirewallState, Phase, larceny_of
from .view import render_view

__all__ = [
    "SPELLS",
    "Firewall",
    "FirewallOptions",
    "FirewallState",
    "LarcenyChoice",
    "Order",
    "Phase",
    "RecycleChoice",
    "Shuffle",
    "Spell",
    "Turn",
    "larceny_of",
    "render_view",
]
