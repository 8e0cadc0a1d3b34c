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

from ..base import GameUI, Lookup, Prompt, PromptContext, Submit
from . import posts, prompts


class WizardsCupUI(GameUI):
    slug = "wizards-cup"

    # ------------------------------------------------------------------ reference
    def rules_fields(self) -> list[tuple[str, str]]:
        return posts.rules_fields()

    def lookup_choices(self, current: str) -> list[Lookup]:
        return posts.lookup_choices(current)

    def lookup(self, key: str) -> discord.Embed | None:
        return posts.lookup(key)

    # ------------------------------------------------------------------ private prompts
    def prompt(self, ctx: PromptContext) -> Prompt:
        return prompts.prompt(ctx)

    def handle(self, ctx: PromptContext, payload: str, values: Sequence[str]) -> Submit | Prompt:
        return prompts.handle(ctx, payload, values)

    # ------------------------------------------------------------------ channel embeds
    def public_embeds(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]
    ) -> list[discord.Embed]:
        return posts.public_embeds(view, events, names)

    def board_embed(self, view: Mapping[str, Any], names: Sequence[str]) -> discord.Embed:
        return posts.board_embed(view, names)


UI = WizardsCupUI()
