"""The duels of a Wizards Cup channel post as a picture: one row per duel, the two Wizards side by
side (owner, name, Element and Value as they counted), the deciding criterion named between them
and marked in gold on what decided (the Element, the Value, or the Magic power's card), the
winner's card framed in gold and a loser's in red."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from PIL import Image

from ..pictures import BACKGROUND, MUTED, PICTURES, TEXT, seat_ink
from .cards import CARDS
from .draw import CARD_FACE, ELEMENT_COLOUR, GOLD, LOSER, Box, Painter, ink_on
from .story import CRITERION, DuelStory, Side

ROW_W, ROW_H, ROW_GAP, TOP = 534, 96, 8, 8
LABEL_W, BOX_W, MID_W = 62, 196, 72
"""534 px wide: the smallest text (15 px) is 2.8% of the width, legible on a phone."""


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
    p.text((0, y + 8, LABEL_W + 2, y + ROW_H / 2), f"Round {story.round}", 15, fill=MUTED)
    p.text((0, y + ROW_H / 2, LABEL_W + 2, y + ROW_H - 8), f"Duel {story.number}", 16, fill=TEXT)
    left = LABEL_W + 4
    mid = left + BOX_W
    right = mid + MID_W
    _side(p, (left, y, left + BOX_W, y + ROW_H), story.sides[0], story, names)
    p.text((mid, y + 8, right, y + 36), "vs", 18, fill=MUTED)
    p.text((mid - 2, y + 42, right + 2, y + 64), CRITERION[story.criterion], 15, fill=GOLD)
    p.text((mid - 2, y + 64, right + 2, y + 86), "decides", 15, fill=MUTED)
    _side(p, (right, y, right + BOX_W, y + ROW_H), story.sides[1], story, names)


def _side(p: Painter, box: Box, side: Side, story: DuelStory, names: Sequence[str]) -> None:
    x0, y0, x1, y1 = box
    won = story.winner == side.seat
    p.draw.rounded_rectangle(box, radius=8, fill=CARD_FACE, outline=GOLD if won else LOSER, width=3)
    p.text((x0 + 4, y0 + 4, x1 - 52, y0 + 26), names[side.seat], 16, fill=seat_ink(side.seat, CARD_FACE), align="l")
    p.text((x1 - 54, y0 + 4, x1 - 4, y0 + 26), "wins" if won else "loses", 15, fill=GOLD if won else LOSER)
    name_box = (x0 + 4, y0 + 28, x1 - 62, y0 + 52)
    p.text(name_box, CARDS[side.card].name, 16, fill=TEXT, align="l")
    if story.decider == side.seat:  # its Magic power decided
        _mark(p, name_box)
    printed = CARDS[side.card].element.value
    element = side.element if side.element == printed else f"{printed} as {side.element}"
    pill = (x0 + 6, y0 + 58, x1 - 62, y1 - 8)
    colour = ELEMENT_COLOUR[side.element]
    p.draw.rounded_rectangle(pill, radius=6, fill=colour)
    p.text(pill, element, 15, fill=ink_on(colour))
    if story.criterion == "element":
        _mark(p, pill)
    value_box = (x1 - 56, y0 + 30, x1 - 6, y1 - 8)
    base = CARDS[side.card].value
    if side.value == base:
        p.text(value_box, str(base), 26, fill=TEXT)
    else:  # changed by a Dormant power: the printed Value above the one that counted
        p.text((value_box[0] - 4, value_box[1], value_box[2] + 4, value_box[1] + 22), f"was {base}", 15, fill=TEXT)
        p.text((value_box[0], value_box[1] + 22, value_box[2], value_box[3]), str(side.value), 24, fill=GOLD)
    if story.criterion == "value":  # equal Values: both lose, the Value marked as the losers'
        _mark(p, value_box, GOLD if story.winner is not None else LOSER)


def _mark(p: Painter, box: Box, colour: tuple[int, int, int] = GOLD) -> None:
    """A frame (gold) on what decided the duel."""
    x0, y0, x1, y1 = box
    p.draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=6, outline=colour, width=2)


__all__ = ["duels_file", "duels_image", "duels_painter"]
