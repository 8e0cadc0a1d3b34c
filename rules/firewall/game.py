"""Firewall: the game, its options and its constants.

Rules: the game's rule text and its design note (not part of the repository), as the project rules
them in docs/rulings/firewall.md (each ruling's *Rule:* line says which part it implements). Seat 0
(the challenger, ``{p1}``) stands on the left (flagstone 6 at the start,
docs/rulings/firewall.md#bridge) and pushes the wall toward higher numbers; seat 1 (``{p2}``) stands
on the right.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from ..core import Game, GameOptions
from .actions import action_adapter
from .spells import SPELLS

BRIDGE = 19  # flagstones 0..18
START_WALL = 9
GAP = 3  # wizards stand three flagstones from the wall
MAX_MANA = 50
START_HAND = 5
DRAW_PER_ROUND = 3
BOOST = 7  # Attack Boost
RESERVE_GAIN = 13  # Reserve Boost
RECYCLE_RANGE = 5  # Recycle changes the bet by at most this much


class FirewallOptions(GameOptions):
    #: "full_hand": each player holds all 14 spells from the start (variant 1); "chosen_order": each
    #: player orders their own stock in secret instead of shuffling (variant 2).
    variant: Literal["standard", "full_hand", "chosen_order"] = "standard"


class Firewall(Game[FirewallOptions]):
    slug: ClassVar[str] = "firewall"
    name: ClassVar[str] = "Firewall"
    summary: ClassVar[str] = (
        "Two wizards on a collapsing bridge over lava push a Fire Wall with secret mana bets and 14 "
        "spells. Whoever is pushed off the bridge loses."
    )
    min_seats = 2
    max_seats = 2
    options_model = FirewallOptions
    action_adapter = action_adapter

    def value_label(self, field: str, value: Any) -> str | None:
        """A spell by its name and number (the turn's spells, its Clone target, Larceny's choice)."""
        if field in ("spells", "clone", "apply") and isinstance(value, int) and 0 <= value < len(SPELLS):
            return f"{SPELLS[value].name} ({value})"
        return None
