"""Arena in Discord: the ``GameUI`` of the game, wiring its parts together.

- ``prompts``: what the seat is asked and the handlers of its clicks (a table by payload head); the
  custom_id grammar is documented there;
- ``screens``: the prompt screens (set-up, the turn, the follow-up choices);
- ``confirm`` and ``risks``: the confirm screens of a move, an Action and a risky sacrifice, and
  the costs their warnings name;
- ``posts``: the channel post after a resolution (events, board embed), /rules and /card;
- ``story`` and ``rolls``: the events as the channel tells them (dice as sums, damage as it adds
  up, roll-offs with the players' names);
- ``art``: the board picture (every text fitted in its box) and the text grid;
- ``text`` and ``controls``: the words and the components the prompts and the posts share.

Arena is open information (``view(None) == view(seat)``), so the awaited player's prompt is posted
in the channel (``public_prompts``); only that player may use its components (the platform checks).
"""

from __future__ import annotations

from typing import cast

import discord

from rules.arena.view import ArenaView

from ..base import ModularUI, PromptContext
from . import posts, prompts
from .art import board_file
from .posts import EVENT_ICON, IMAGE_NAME
from .text import COLOUR, DATA, discipline_embed, model_line, model_name, pretty


class ArenaUI(ModularUI):
    slug = "arena"
    public_prompts = True
    story_kinds = frozenset({"turn_end", "game_end", "forfeit"})  # one summary per player-turn
    board_each_resolution = False  # the player's prompt shows each step of their turn
    board_titles = ("Board",)

    def situation(self, ctx: PromptContext) -> discord.File | None:
        return board_file(cast(ArenaView, ctx.seen), ctx.names, filename=None)  # the board as it stands


UI = ArenaUI(prompts, posts)

__all__ = [
    "COLOUR",
    "DATA",
    "EVENT_ICON",
    "IMAGE_NAME",
    "UI",
    "ArenaUI",
    "discipline_embed",
    "model_line",
    "model_name",
    "pretty",
]
