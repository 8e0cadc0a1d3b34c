"""The Hint button of a person's prompts in a practice match (its custom_id and where it goes).
Apart from cogs/practice.py so that the notifier, which builds prompts, can add it."""

from __future__ import annotations

from typing import Any

import discord

from bot.matches import Hint, MatchRecord, SeatPrompt

from .games import get_ui
from .games.base import Prompt
from .ids import FIELD

HINT_TEMPLATE = rf"hint:(?P<match>{FIELD}):(?P<seat>{FIELD}):(?P<step>{FIELD})"


def hint_button(match_id: int, seat: int, seat_step: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Hint", emoji="💡", style=discord.ButtonStyle.secondary, custom_id=f"hint:{match_id}:{seat}:{seat_step}"
    )


def with_hint(prompt: Prompt, record: MatchRecord, sp: SeatPrompt) -> Prompt:
    """A person's prompt in a practice match gets a Hint button (where its view has room)."""
    if not record.practice or record.is_ai(sp.seat) or not sp.awaited:
        return prompt
    view = prompt.view if prompt.view is not None else discord.ui.View(timeout=None)
    if len(view.children) >= 25:
        return prompt
    try:
        view.add_item(hint_button(sp.match_id, sp.seat, sp.seat_step))
    except ValueError:  # every row is full (wide selects): /hint still works
        return prompt
    prompt.view = view
    return prompt


def hint_text(hint: Hint) -> str:
    chance = round(hint.chance * 100)
    ui = get_ui(hint.game)
    said = ui.in_prompt_words(hint.text) if hint.text else ui.describe(hint.action)
    return (
        f"💡 **Hint** for your move in match #{hint.match_id}: {said}\n"
        f"Your chance to win from here, as the computer judges it: **{chance}%**.\n"
        "-# A hint shows one good move the computer found, not the only one. It sees only what you see."
    )[:2000]


__all__ = ["HINT_TEMPLATE", "hint_button", "hint_text", "with_hint"]
