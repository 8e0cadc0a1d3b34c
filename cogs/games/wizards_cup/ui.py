"""Wizards Cup in Discord: the ``GameUI`` wiring the game's modules together.

- ``prompts.py``: the private prompts (deck, order, swap, Botanist), their click handlers and the
  game's custom_id grammar;
- ``posts.py``: the channel post after a resolution, the board, /rules and /card;
- ``cards.py``: how a card is shown (shared by both).

Wizards Cup posts no pictures (no ``art.py``).
"""

from __future__ import annotations

from ..base import ModularUI
from . import posts, prompts


class WizardsCupUI(ModularUI):
    slug = "wizards-cup"
    story_kinds = frozenset({"duel", "round_end", "game_end", "forfeit"})  # each resolved duel is told
    quiet_kinds = frozenset({"deck_chosen", "planned", "prepared"})  # "ann is ready": shown at the duel
    board_titles = ("Board",)


UI = WizardsCupUI(prompts, posts)
