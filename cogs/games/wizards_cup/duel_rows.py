"""The duels of a Wizards Cup channel post as a picture: one row per duel, the two Wizards side by
side (owner, name, Element and Value as they counted), the deciding criterion named between them
and marked in gold on what decided (the Element, the Value, or the Magic power's card), the
winner's card framed in gold and a loser's in red."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from PIL import Image

from ..pictures import BACKGROUND, MUTED, PICTURES, TEXT, seat_colour
from .cards import CARDS
from .draw import CARD_FACE, ELEMENT_COLOUR, GOLD, LOSER, Box, Painter, ink_on
from .story import CRITERION, DuelStory, Side

ROW_W, ROW_H, ROW_GAP, TOP = 640, 88, 8, 8
LABEL_W, BOX_W, MID_W = 64, 240, 80


def duels_painter(stories: Sequence[DuelStory], names: Sequence[str]) -> Painter:
    """One row per duel (``stories`` in order)."""
    height = TOP * 2 + max(1, len(stories)) * (ROW_H + ROW_GAP) - ROW_GAP
    p = Painter(Image.new("RGB", (ROW_W, height), BACKGROUND))
    for n, story in enumerate(stories):
        _row(p, TOP + n * (ROW_H + ROW_GAP), story, names)
    return p


def duels_image(stories: Sequence[DuelStory], names: Sequence[str]) -> Image.Image:
    return duels_painter(stories, names).image


def duels_file(stories: Sequence[DuelStory], names: Sequence[str]) -> discord.File:
    """The duels' picture, named by its content."""
    inputs = [[s.row() for s in stories], list(names)]
    return PICTURES.file("wc-duels", inputs, None, lambda: duels_image(stories, names))


def _row(p: Painter, y: float, story: DuelStory, names: Sequence[str]) -> None:
    p.text((4, y, LABEL_W, y + ROW_H / 2), f"Round {story.round}", 11, fill=MUTED)
    p.text((4, y + ROW_H / 2 - 6, LABEL_W, y + ROW_H - 10), f"Duel {story.number}", 14, fill=TEXT)
    left = LABEL_W + 4
    mid = left + BOX_W
    right = mid + MID_W
    _side(p, (left, y, left + BOX_W, y + ROW_H), story.sides[0], story, names)
    p.text((mid, y + 8, right, y + 36), "vs", 14, fill=MUTED)
    p.text((mid, y + 40, right, y + 62), CRITERION[story.criterion], 13, fill=GOLD)
    p.text((mid, y + 62, right, y + 82), "decides", 11, fill=MUTED)
    _side(p, (right, y, right + BOX_W, y + ROW_H), story.sides[1], story, names)


def _side(p: Painter, box: Box, side: Side, story: DuelStory, names: Sequence[str]) -> None:
    x0, y0, x1, y1 = box
    won = story.winner == side.seat
    p.draw.rounded_rectangle(box, radius=8, fill=CARD_FACE, outline=GOLD if won else LOSER, width=3)
    p.text((x0 + 6, y0 + 4, x1 - 60, y0 + 22), names[side.seat], 13, fill=seat_colour(side.seat), align="l", floor=11)
    p.text((x1 - 60, y0 + 4, x1 - 6, y0 + 22), "wins" if won else "loses", 12, fill=GOLD if won else LOSER)
    name_box = (x0 + 6, y0 + 24, x1 - 80, y0 + 46)
    p.text(name_box, CARDS[side.card].name, 15, fill=TEXT, align="l")
    if story.decider == side.seat:  # its Magic power decided
        _mark(p, name_box)
    printed = CARDS[side.card].element.value
    element = side.element if side.element == printed else f"{printed} as {side.element}"
    pill = (x0 + 6, y0 + 52, x0 + 150, y1 - 8)
    colour = ELEMENT_COLOUR[side.element]
    p.draw.rounded_rectangle(pill, radius=6, fill=colour)
    p.text(pill, element, 13, fill=ink_on(colour))
    if story.criterion == "element":
        _mark(p, pill)
    value_box = (x1 - 70, y0 + 26, x1 - 6, y1 - 8)
    base = CARDS[side.card].value
    if side.value == base:
        p.text(value_box, str(base), 24, fill=TEXT)
    else:  # changed by a Dormant power: the printed Value small above the one that counted
        p.text((value_box[0], value_box[1] + 1, value_box[2], value_box[1] + 17), f"was {base}", 11, fill=MUTED)
        p.text((value_box[0], value_box[1] + 15, value_box[2], value_box[3]), str(side.value), 22, fill=GOLD)
    if story.criterion == "value":
        _mark(p, value_box)


def _mark(p: Painter, box: Box) -> None:
    """Gold frame on what decided the duel."""
    x0, y0, x1, y1 = box
    p.draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=6, outline=GOLD, width=2)


__all__ = ["duels_file", "duels_image", "duels_painter"]
