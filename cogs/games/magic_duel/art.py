"""Magic Duel pictures: a hand (private prompt) and a trick (channel post), drawn with Pillow.

Suit symbols are drawn as shapes (the default font has no ♦♥♠♣ glyphs). The hand picture is only
ever made from the seat's own view; the trick picture only from public events (the reveal, or the
face-up spells and the card counts of face-down ones).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import discord
from PIL import Image, ImageDraw

from rules.magic_duel import parse_card

from ..pictures import MUTED, PICTURES, TEXT, canvas, clipped, legible, seat_colour, star, text_centered
from ..pictures import text as draw_text

CARD_FACE = (250, 248, 240)
CARD_BACK = (72, 52, 140)
RED = (200, 30, 45)
BLACK = (25, 25, 30)
GOLD = (240, 190, 40)


def _suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float, fill) -> None:
    """A suit symbol of radius ``r`` centred on (cx, cy)."""
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill)
        return
    if suit == "C":
        k = r * 0.42
        for dx, dy in ((0, -r * 0.45), (-r * 0.48, r * 0.12), (r * 0.48, r * 0.12)):
            draw.ellipse([cx + dx - k, cy + dy - k, cx + dx + k, cy + dy + k], fill=fill)
        draw.polygon([(cx, cy), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=fill)
        return
    # heart (point down) or spade (heart upside down, with a stem)
    k = r * 0.5
    sign = 1 if suit == "H" else -1
    for dx in (-k, k):
        oy = cy - sign * r * 0.3
        draw.ellipse([cx + dx - k, oy - k, cx + dx + k, oy + k], fill=fill)
    draw.polygon([(cx - r, cy - sign * r * 0.2), (cx + r, cy - sign * r * 0.2), (cx, cy + sign * r)], fill=fill)
    if suit == "S":
        draw.polygon([(cx, cy + r * 0.1), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=fill)


DECK_INK = (90, 90, 96)


def draw_card(
    draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, card_id: str | None, small: int = 0
) -> None:
    """A card face (``card_id``) or a card back (None) with its top-left corner at (x, y); ``small``:
    the size of its smallest text (the deck number; default: an eighth of the card's height)."""
    small = max(small, int(h / 8))
    radius = max(4, int(w / 9))
    if card_id is None:
        draw.rounded_rectangle([x, y, x + w, y + h], radius, fill=CARD_BACK, outline=(180, 170, 230), width=2)
        draw.rounded_rectangle([x + 6, y + 6, x + w - 6, y + h - 6], radius - 2, outline=(140, 120, 210), width=2)
        text_centered(draw, (x + w / 2, y + h / 2), "?", int(h / 3), fill=(200, 190, 240))
        return
    draw.rounded_rectangle([x, y, x + w, y + h], radius, fill=CARD_FACE, outline=(120, 120, 120), width=1)
    card = parse_card(card_id)
    if card is None:  # not expected: show the raw id
        text_centered(draw, (x + w / 2, y + h / 2), card_id[:4], int(h / 5), fill=BLACK)
        return
    if card.joker:
        text_centered(draw, (x + w / 2, y + h * 0.42), "JOKER", max(small, int(h / 6)), fill=(120, 40, 160))
        star(draw, x + w / 2, y + h * 0.68, h * 0.16, (120, 40, 160))
    else:
        colour = RED if card.suit in ("D", "H") else BLACK
        text_centered(draw, (x + w / 2, y + h * 0.28), card.rank or "", int(h / 3.2), fill=colour)
        _suit(draw, card.suit or "D", x + w / 2, y + h * 0.66, h * 0.17, colour)
    if card.deck > 1:
        text_centered(draw, (x + w - small / 2 - 3, y + h - small / 2 - 3), str(card.deck), small, fill=DECK_INK)


def hand_file(hand: Sequence[str]) -> discord.File:
    """The seat's hand, each card numbered as the prompt's selects number it. Named by its content
    (``md-hand-<16 hex>.png``): the picture does not show the spell being chosen, so every screen
    of one decision shows the same picture and the message keeps the attachment it already has
    (``Prompt.edit_kwargs``): one upload per decision, not per click."""
    return PICTURES.file("md-hand", [list(hand)], None, lambda: _hand_image(hand))


def _hand_image(hand: Sequence[str]) -> Image.Image:
    w, h, gap, pad = 72, 104, 10, 16
    n = max(1, len(hand))
    width = max(pad * 2 + n * w + (n - 1) * gap, 300)
    size = legible(width)
    img, draw = canvas(width, pad * 2 + h + 30)
    left = (width - (n * w + (n - 1) * gap)) / 2
    for i, cid in enumerate(hand):
        x = left + i * (w + gap)
        draw_card(draw, x, pad, w, h, cid, small=size)
        text_centered(draw, (x + w / 2, pad + h + 16), str(i + 1), max(18, size), fill=TEXT)
    if not hand:
        text_centered(draw, (img.width / 2, img.height / 2), "no cards", 18, fill=MUTED)
    return img


@dataclass(frozen=True)
class TrickRow:
    """One spell of a trick as the channel may see it: cards when face-up or revealed, else a count."""

    seat: int
    name: str
    cards: tuple[str, ...] | None
    count: int
    note: str = ""  # e.g. "Codu", "face-up"
    winner: bool = False


def trick_file(title: str, rows: Sequence[TrickRow], filename: str = "trick.png") -> discord.File:
    """The spells of a trick in the order they were cast, one row per wizard; the winner framed."""
    inputs = [title, [dataclasses.astuple(row) for row in rows]]
    return PICTURES.file("md-trick", inputs, filename, lambda: _trick_image(title, rows))


def _trick_image(title: str, rows: Sequence[TrickRow]) -> Image.Image:
    w, h, gap, pad, name_w, row_h = 50, 72, 6, 14, 170, 86
    width = pad * 2 + name_w + 4 * (w + gap) + 110
    size = legible(width)  # 15
    img, draw = canvas(width, pad * 2 + 30 + max(1, len(rows)) * row_h)
    draw_text(draw, (pad, pad), title[:60], 20, TEXT)
    for r, row in enumerate(rows):
        y = pad + 34 + r * row_h
        colour = seat_colour(row.seat)
        if row.winner:
            draw.rounded_rectangle([pad - 6, y - 6, width - pad + 6, y + h + 6], 10, outline=GOLD, width=3)
        draw.ellipse([pad, y + h / 2 - 8, pad + 16, y + h / 2 + 8], fill=colour)
        draw_text(draw, (pad + 24, y + h / 2 - 12), clipped(row.name, name_w - 30, 18), 18, TEXT)
        if row.note:
            draw_text(draw, (pad + 24, y + h / 2 + 8), clipped(row.note, name_w - 30, size), size, MUTED)
        cards: Sequence[str | None] = row.cards if row.cards is not None else [None] * row.count
        for i, cid in enumerate(cards[:4]):
            draw_card(draw, pad + name_w + i * (w + gap), y, w, h, cid, small=size)
        if row.winner:
            text_centered(draw, (width - pad - 50, y + h / 2), "WINS", 20, fill=GOLD)
    if not rows:
        text_centered(draw, (width / 2, pad + 34 + row_h / 2), "no spells", 18, fill=MUTED)
    return img
