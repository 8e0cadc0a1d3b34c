"""How Wizards Cup shows a card in Discord, shared by the prompts (``prompts.py``) and the channel
posts and /card (``posts.py``): the game's colour, element emoji, a card's one-line summary and its
select option."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from rules.wizards_cup import Card, load_card_set

from ..base import clip

CARDS = load_card_set()
ELEMENT_EMOJI = {"Fire": "🔥", "Water": "💧", "Nature": "🌿", "Light": "☀️", "Shadow": "🌑", "Void": "🌀"}
POWER_LABEL = {"immediate": "Immediate", "permanent": "Permanent", "dormant": "Dormant"}
COLOUR = discord.Colour.from_rgb(88, 64, 160)


def card_line(card: Card) -> str:
    """``🔥 **Name** · Fire 3 · Immediate``: a card on one line."""
    power = POWER_LABEL.get(card.power.value, "") if card.power else "No power"
    return f"{ELEMENT_EMOJI[card.element.value]} **{card.name}** · {card.element.value} {card.value} · {power}"


def card_lines(ids: Sequence[str]) -> str:
    """``card_line`` of each card id, one a line."""
    return "\n".join(card_line(CARDS[c]) for c in ids)


def card_names(ids: Sequence[str]) -> str:
    """The cards' names, comma-separated."""
    return ", ".join(CARDS[c].name for c in ids)


def card_option(card: Card, value: str | None = None) -> discord.SelectOption:
    """A select option for ``card``; its value is the card id unless ``value`` is given."""
    return discord.SelectOption(
        label=clip(card.name, 100),
        value=value or card.id,
        description=clip(f"{card.element.value} {card.value} · {card.text}", 100),
        emoji=ELEMENT_EMOJI[card.element.value],
    )
