"""Wizards Cup's board on the web table: the round, and for each player their Victory tokens,
the wizard in their duel zone (face up: name, Element and Value), whether a card waits face down,
the cards left in their Deck and their discard pile's top card (docs/rulings/wizards-cup.md).
Drawn from the spectator view only: a Deck's cards and its order are never in it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.wizards_cup.cards import load_card_set

from . import WIDTH, Links, svg, text

SIDES = ("#2f6fd1", "#c2410c")
TOKENS_TO_WIN = 2


def card_words(card_id: str | None) -> str:
    if card_id is None:
        return "(empty)"
    card = load_card_set().by_id.get(card_id)
    return card_id if card is None else f"{card.name} ({card.element.value} {card.value})"


def draw(view: Mapping[str, Any], names: Sequence[str], *, links: Links | None = None) -> str:
    players = list(view["players"])
    column = WIDTH / max(len(players), 1)
    height = 330
    parts = [f'<rect width="{WIDTH}" height="{height}" fill="#fbf7ef"/>']
    parts.append(text(WIDTH / 2, 34, f"Round {view.get('round', '?')}", fill="#1d1d27"))
    described = []
    for i, player in enumerate(players):
        seat = int(player["seat"])
        colour = SIDES[seat % 2]
        left = i * column
        mid = left + column / 2
        name = names[seat] if seat < len(names) else f"seat {seat + 1}"
        parts.append(
            f'<rect x="{left + 8:.0f}" y="52" width="{column - 16:.0f}" height="{height - 62}" rx="10"'
            f' fill="#ffffff" stroke="{colour}" stroke-width="3"/>'
        )
        parts.append(text(mid, 88, name, fill=colour, font_weight="bold"))
        tokens = int(player["tokens"])
        for t in range(TOKENS_TO_WIN):
            cx = mid + (t - (TOKENS_TO_WIN - 1) / 2) * 40
            fill = "#f59e0b" if t < tokens else "#ffffff"
            parts.append(
                f'<circle cx="{cx:.0f}" cy="118" r="14" fill="{fill}" stroke="#b45309" stroke-width="2">'
                f"<title>Victory tokens: {tokens}</title></circle>"
            )
        duel = player.get("duel")
        parts.append(text(mid, 172, "In the duel zone:", fill="#5b5b6b"))
        parts.append(text(mid, 204, _short(card_words(duel)), fill="#1d1d27"))
        waiting = "a card waits face down" if player.get("has_waiting") else "no card waiting"
        if player.get("waiting"):
            waiting = "waiting face up: " + card_words(player["waiting"])
        parts.append(text(mid, 246, _short(waiting), fill="#5b5b6b"))
        discard = list(player.get("discard") or [])
        top = f"discard: {card_words(discard[-1])} on top" if discard else "discard: empty"
        parts.append(text(mid, 282, f"Deck {player['deck_count']} left", fill="#5b5b6b"))
        parts.append(text(mid, 312, _short(top), fill="#5b5b6b"))
        described.append(f"{name}: {tokens} Victory token(s), duelling {card_words(duel)}")
    return svg(WIDTH, height, parts, title="Wizards Cup: " + "; ".join(described))


def _short(words: str, limit: int = 24) -> str:
    """A line that fits half the board at the smallest legible size."""
    return words if len(words) <= limit else words[: limit - 1] + "…"


BOARD = draw
