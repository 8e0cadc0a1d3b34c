"""Wizards Cup in Discord: the ``GameUI`` wiring the game's modules together.

- ``prompts.py``: the private prompts (deck, order, swap, Botanist), their click handlers and the
  game's custom_id grammar;
- ``posts.py``: the channel post after a resolution, the board, /rules and /card;
- ``cards.py``: how a card is shown (shared by both);
- ``story.py``: each duel told in full (owners, every Value modifier, how it was decided);
- ``art.py``: the pictures: the prompts' scoreboard thumbnail, the set, the Deck and the planned
  order on the prompts (``draw.py``: fitting text, drawing a card), and the story post's duels, one
  row each (``duel_rows.py``).
"""

from __future__ import annotations

import discord

from ..base import ModularUI, PromptContext
from . import posts, prompts
from .art import situation_file


class WizardsCupUI(ModularUI):
    slug = "wizards-cup"
    story_kinds = frozenset({"duel", "round_end", "game_end", "forfeit"})  # each resolved duel is told
    quiet_kinds = frozenset({"deck_chosen", "planned", "prepared"})  # "ann is ready": shown at the duel
    board_titles = ("Board",)

    def situation(self, ctx: PromptContext) -> discord.File | None:
        return situation_file(ctx.seen, ctx.names)  # the round, the tokens, the duel zones


UI = WizardsCupUI(prompts, posts)
