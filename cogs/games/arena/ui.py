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

Arena's turns take many steps, so the awaited player drives a whole turn through one private
control panel (``panel``: a DM, or an ephemeral message where DMs are closed, like the other
games' prompts), edited in place step by step with the board at full size (re-uploaded only when
the board changed); the thread keeps one match card and one story post per player-turn.
"""

from __future__ import annotations

import discord

from bot.endings import arena as end_card
from rules.arena.game import Arena
from rules.arena.view import ArenaView

from ..base import ModularUI, Prompt, PromptContext
from . import howto as guide
from . import posts, prompts
from .art import board_file
from .posts import EVENT_ICON, IMAGE_NAME
from .text import COLOUR, DATA, discipline_embed, model_line, model_name, pretty


class ArenaUI(ModularUI[ArenaView, ArenaView]):
    slug = "arena"
    howto = guide.HOWTO
    first_match_tip = guide.FIRST_MATCH_TIP
    ending = end_card
    panel = True  # one private control panel per turn, edited step by step
    story_pictures = False  # the match card shows the board; the turn's story is told in words
    story_kinds = Arena.story_kinds  # the game says what closes a resolution
    board_each_resolution = False  # the player's prompt shows each step of their turn
    board_titles = ("Board",)

    #: The set-up's milestones (the players' panels are private: the card shows the set-up as it
    #: goes, without an edit for each terrain piece or model placed).
    setup_kinds = frozenset({"discipline_chosen", "terrain_random", "edge_chosen", "rolloff"})

    def refreshes_board(self, kinds: set[str]) -> bool:
        """The card follows the set-up step by step, then the fight once per player-turn."""
        return super().refreshes_board(kinds) or not kinds.isdisjoint(self.setup_kinds)

    def situated(self, ctx: PromptContext[ArenaView], prompt: Prompt) -> Prompt:
        """The panel's screen: its line as a sentence (the screens' lines were written to follow a
        mention), and the board at full size."""
        prompt.content = prompt.content[:1].upper() + prompt.content[1:]
        return super().situated(ctx, prompt)

    def situation(self, ctx: PromptContext[ArenaView]) -> discord.File | None:
        return board_file(ctx.seen, ctx.names, filename=None, panel=True)  # the board as it stands


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
