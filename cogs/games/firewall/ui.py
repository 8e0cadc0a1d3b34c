"""Firewall's GameUI: wires the private prompts (``prompts``: the screens, the handler table and the
custom_id grammar), the channel posts and the /rules and /card reference (``posts``) and the
pictures (``art``) into the one object the cogs use, ``UI``."""

from __future__ import annotations

from ..base import ModularUI
from . import posts, prompts
from .turn import bet_choices, stepped_bet

__all__ = ["UI", "FirewallUI", "bet_choices", "stepped_bet"]


class FirewallUI(ModularUI):
    slug = "firewall"
    story_kinds = frozenset({"turn_end", "game_end", "forfeit"})  # each resolved turn is told
    quiet_kinds = frozenset({"submitted"})  # "ann has locked in": shown at the reveal


UI = FirewallUI(prompts, posts)
