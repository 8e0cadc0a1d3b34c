"""Wizards Cup's one picture: a small scoreboard of the situation for the prompts' thumbnail (the
round, each wizard's Victory tokens and the card in their duel zone). Drawn from public parts of
the view only, so both players' prompts share one cached picture."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from PIL import Image

from ..pictures import MUTED, PICTURES, TEXT, canvas, seat_colour, star, text_centered
from .cards import CARDS

WIDTH, HEIGHT = 360, 200
ELEMENT_COLOUR = {
    "Fire": (214, 86, 44),
    "Water": (52, 124, 214),
    "Nature": (64, 158, 74),
    "Light": (236, 214, 120),
    "Shadow": (96, 66, 128),
    "Void": (70, 70, 78),
}


def public_situation(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the picture shows (the same for every seat): the round and each player's tokens and duel card."""
    players = [{"seat": p["seat"], "tokens": p["tokens"], "duel": p["duel"]} for p in view["players"]]
    return {"round": view["round"], "players": players}


def situation_image(situation: Mapping[str, Any], names: Sequence[str]) -> Image.Image:
    img, draw = canvas(WIDTH, HEIGHT)
    text_centered(draw, (WIDTH / 2, 18), f"Round {situation['round']}", 18, fill=MUTED)
    players = situation["players"]
    column = WIDTH / max(1, len(players))
    for i, p in enumerate(players):
        cx = column * (i + 0.5)
        text_centered(draw, (cx, 46), names[p["seat"]][:16], 16, fill=seat_colour(p["seat"]))
        for k in range(p["tokens"]):  # one star per Victory token
            star(draw, cx + (k - (p["tokens"] - 1) / 2) * 22, 72, 9, (240, 190, 40))
        card = CARDS[p["duel"]] if p["duel"] else None
        box = (cx - 55, 92, cx + 55, 188)
        if card is None:
            draw.rounded_rectangle(box, radius=8, outline=MUTED, width=2)
            text_centered(draw, (cx, 140), "duel zone empty", 12, fill=MUTED)
            continue
        draw.rounded_rectangle(box, radius=8, fill=ELEMENT_COLOUR.get(card.element.value, MUTED))
        text_centered(draw, (cx, 118), card.name[:16], 13, fill=TEXT)
        text_centered(draw, (cx, 150), str(card.value), 28, fill=TEXT)
        text_centered(draw, (cx, 176), card.element.value, 12, fill=TEXT)
    return img


def situation_file(view: Mapping[str, Any], names: Sequence[str]) -> discord.File:
    """The scoreboard as a PNG named by its content (a prompt edit keeps it when it is unchanged)."""
    situation = public_situation(view)
    return PICTURES.file("wc-situation", [situation, list(names)], None, lambda: situation_image(situation, names))


__all__ = ["public_situation", "situation_file", "situation_image"]
