"""Firewall's GameUI: wires the private prompts (``prompts``: the screens, the handler table and the
custom_id grammar), the channel posts and the /rules and /card reference (``posts``) and the
pictures (``art``) into the one object the cogs use, ``UI``."""

from __future__ import annotations

import discord

from bot.endings import firewall as end_card
from rules.firewall import FirewallView
from rules.firewall.game import Firewall

from ..base import ModularUI, PromptContext
from . import howto as guide
from . import posts, prompts
from .art import bridge_file
from .turn import bet_choices, stepped_bet

__all__ = ["UI", "FirewallUI", "bet_choices", "stepped_bet"]


class FirewallUI(ModularUI[FirewallView, FirewallView]):
    slug = "firewall"
    howto = guide.HOWTO
    first_match_tip = guide.FIRST_MATCH_TIP
    ending = end_card
    story_kinds = Firewall.story_kinds  # the game says what closes a resolution
    quiet_kinds = frozenset({"submitted"})  # "ann has locked in": shown at the reveal

    def in_prompt_words(self, text: str) -> str:
        """ "You bet 6 and cast ..." (the engine says "lay down"; the prompt's button says Cast)."""
        return text.replace(" and lay down ", " and cast ")

    def situation(self, ctx: PromptContext[FirewallView]) -> discord.File | None:
        return bridge_file(ctx.seen, ctx.names, filename=None)  # the bridge, the wall


UI = FirewallUI(prompts, posts)
