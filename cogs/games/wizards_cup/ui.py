"""Wizards Cup in Discord: the ``GameUI`` wiring the game's modules together.

- ``prompts.py``: the private prompts (deck, order, swap, Botanist), their click handlers and the
  game's custom_id grammar;
- ``posts.py``: the channel post after a resolution, the board, /rules and /card;
- ``cards.py``: how a card is shown (shared by both).

Wizards Cup posts no pictures (no ``art.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from rules import Event

from ..base import ModularUI, Post
from ..boards import board_from_post
from . import posts, prompts


class WizardsCupUI(ModularUI):
    slug = "wizards-cup"
    story_kinds = frozenset({"duel", "round_end", "game_end", "forfeit"})  # each resolved duel is told
    quiet_kinds = frozenset({"deck_chosen", "planned", "prepared"})  # "ann is ready": shown at the duel

    def board_post(self, view: Mapping[str, Any], names: Sequence[str], *, images: bool) -> Post:
        return board_from_post(self.public_post(view, [], names, images=images), ("Board",))

    # ------------------------------------------------------------------ channel embeds
    def public_embeds(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]
    ) -> list[discord.Embed]:
        return posts.public_embeds(view, events, names)

    def board_embed(self, view: Mapping[str, Any], names: Sequence[str]) -> discord.Embed:
        return posts.board_embed(view, names)


UI = WizardsCupUI(prompts, posts)
