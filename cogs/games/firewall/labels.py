"""How Firewall names things, in the private prompts and the channel posts alike: the game's colour,
each spell's emoji and label, and a seat's revealed bet and spells."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from rules.firewall import SPELLS, spell_name

COLOUR = discord.Colour.from_rgb(226, 88, 34)
SPELL_EMOJI = {
    0: "🃏",
    1: "🔇",
    2: "🪞",
    3: "🦝",
    4: "⏹️",
    5: "↩️",
    6: "♻️",
    7: "⚔️",
    8: "✖️",
    9: "🔄",
    10: "🌋",
    11: "🛡️",
    12: "😤",
    13: "🔋",
    14: "🌀",
}


def spell_label(n: int) -> str:
    """A spell's name and number: "Attack Boost (7)"."""
    return f"{spell_name(n)} ({n})"


def spell_list(cards: Sequence[int]) -> str:
    """The spells' labels, comma-separated, or "no spell"."""
    return ", ".join(spell_label(c) for c in cards) if cards else "no spell"


def spell_line(n: int) -> str:
    """One line of a hand or a list of stolen spells: emoji, number, name and the spell's text."""
    return f"{SPELL_EMOJI.get(n, '•')} `{n:>2}` **{spell_name(n)}** — {SPELLS[n].text}"


def played(d: Mapping[str, Any], seat: int) -> str:
    """A seat's revealed bet and spells from a reveal event or a turn record: "**5** · Attack Boost (7)"."""
    clone = d["clone"][seat]
    return f"**{d['bets'][seat]}** · {spell_list(d['spells'][seat])}" + (
        f" (cloning {spell_label(clone)})" if clone is not None else ""
    )
