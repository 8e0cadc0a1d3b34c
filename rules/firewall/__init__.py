"""Firewall: two wizards push a Fire Wall across a collapsing bridge with secret mana bets and spells.

Modules: ``game`` (the Game, its options and constants), ``actions``, ``spells`` (the catalogue),
``table`` (the game's data), ``choices`` (the legal-action sequences, lazy and cached), ``state``
(the State), ``effects`` (what each spell does), ``rounds`` (the end of a turn, a round, the match)
and ``view`` (what a seat or a spectator sees).
"""

from .actions import LarcenyChoice, Order, RecycleChoice, Shuffle, Turn
from .game import (
    BOOST,
    BRIDGE,
    DRAW_PER_ROUND,
    GAP,
    MAX_MANA,
    RECYCLE_RANGE,
    RESERVE_GAIN,
    START_HAND,
    START_WALL,
    Firewall,
    FirewallOptions,
)
from .spells import CLONE, DECK, SPELLS, Spell, spell_name
from .state import FirewallState
from .table import Phase
from .view import FirewallView, PlayerView, SeatView, render_view

Firewall.bind(FirewallState, render_view)

__all__ = [
    "BOOST",
    "BRIDGE",
    "CLONE",
    "DECK",
    "DRAW_PER_ROUND",
    "GAP",
    "MAX_MANA",
    "RECYCLE_RANGE",
    "RESERVE_GAIN",
    "SPELLS",
    "START_HAND",
    "START_WALL",
    "Firewall",
    "FirewallOptions",
    "FirewallState",
    "FirewallView",
    "LarcenyChoice",
    "Order",
    "Phase",
    "PlayerView",
    "RecycleChoice",
    "SeatView",
    "Shuffle",
    "Spell",
    "Turn",
    "render_view",
    "spell_name",
]
