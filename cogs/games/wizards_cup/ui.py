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

from bot.endings import wizards_cup as end_card
from rules.wizards_cup.game import WizardsCup
from rules.wizards_cup.view import SeatView, SpectatorView

from ..base import ModularUI, PromptContext
from . import howto as guide
from . import posts, prompts
from .art import situation_file


class WizardsCupUI(ModularUI[SeatView, SpectatorView]):
    slug = "wizards-cup"
    howto = guide.HOWTO
    first_match_tip = guide.FIRST_MATCH_TIP
    ending = end_card
    story_kinds = WizardsCup.story_kinds  # the game says what closes a resolution
    quiet_kinds = frozenset({"deck_chosen", "planned", "prepared"})  # "ann is ready": shown at the duel
    board_titles = ("Board",)

    def situation(self, ctx: PromptContext[SeatView]) -> discord.File | None:
        return situation_file(ctx.seen, ctx.names)  # the round, the tokens, the duel zones


UI = WizardsCupUI(prompts, posts)
