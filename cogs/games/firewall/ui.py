"""Firewall's GameUI: wires the private prompts (``prompts``: the screens, the handler table and the
custom_id grammar), the channel posts and the /rules and /card reference (``posts``) and the
pictures (``art``) into the one object the cogs use, ``UI``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import discord

from rules import Event
from rules.firewall import FirewallView

from ..base import ModularUI, Post
from . import posts, prompts
from .turn import bet_choices, stepped_bet

__all__ = ["UI", "FirewallUI", "bet_choices", "stepped_bet"]


class FirewallUI(ModularUI):
    slug = "firewall"
    story_kinds = frozenset({"turn_end", "game_end", "forfeit"})  # each resolved turn is told
    quiet_kinds = frozenset({"submitted"})  # "ann has locked in": shown at the reveal

    def public_embeds(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]
    ) -> list[discord.Embed]:
        return self.public_post(view, events, names, images=False).embeds

    def public_post(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str], *, images: bool
    ) -> Post:
        return posts.public_post(cast(FirewallView, view), events, names, images=images)


UI = FirewallUI(prompts, posts)
