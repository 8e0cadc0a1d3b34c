"""How Magic Duel's seats, cards and spells are shown as text: shared by the prompts and the posts."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from rules.magic_duel import classify, label, parse_card
from rules.magic_duel.cards import SUIT_NAME

from ..pictures import SEAT_EMOJI

COLOUR = discord.Colour.from_rgb(72, 52, 140)
#: A face-down card.
BACK = "🂠"
#: By combination title (``Kind.title``).
KIND_EMOJI = {"Cantrip": "✨", "Codu": "⚡", "Thrack": "🔥", "Raquav": "💥", "Badef": "🛡️", "Jokulme": "🌟"}


def emoji(seat: int) -> str:
    return SEAT_EMOJI[seat % len(SEAT_EMOJI)]


def who(seat: int, names: Sequence[str]) -> str:
    """The seat's marker and name, in bold."""
    return f"{emoji(seat)} **{names[seat]}**"


def cards_text(ids: Sequence[str]) -> str:
    return " ".join(f"`{label(c)}`" for c in ids)


def combo_text(ids: Sequence[str]) -> str:
    """A spell: its combination's emoji and title, then its cards (only the cards if it is none)."""
    combo = classify(ids)
    if combo is None:
        return cards_text(ids)
    return f"{KIND_EMOJI.get(combo.kind.title, '')} **{combo.kind.title}** {cards_text(combo.cards)}"


def card_description(card_id: str) -> str:
    """A card in words ("3 of hearts", "Joker, deck 2"), for a select option."""
    c = parse_card(card_id)
    if c is None:
        return card_id
    base = "Joker" if c.joker else f"{c.rank} of {SUIT_NAME[c.suit or 'D']}"
    return base + (f", deck {c.deck}" if c.deck > 1 else "")
