"""Drawing helpers of Wizards Cup's pictures: ``Painter`` fits every text into its box (smaller
type down to a floor, then an ellipsis) and records where each text went, so a test can check that
no text is cut at an edge; ``card`` draws a Wizard card (Element band, name, Value, power type)."""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from ..pictures import MUTED, TEXT, font, legible
from ..pictures import ink_on as _ink_on
from ..pictures import text as draw_text
from .cards import CARDS, POWER_LABEL

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Colour = tuple[int, int, int]

ELEMENT_COLOUR: dict[str, Colour] = {
    "Fire": (178, 58, 22),
    "Water": (40, 104, 192),
    "Nature": (64, 158, 74),
    "Light": (236, 214, 120),
    "Shadow": (96, 66, 128),
    "Void": (70, 70, 78),
}
CARD_FACE: Colour = (52, 54, 62)
GOLD: Colour = (240, 190, 40)
LOSER: Colour = (250, 130, 130)
DARK: Colour = (20, 20, 24)
MIN_SIZE = 9  # the smallest type a text shrinks to before it is ellipsized
PAD = 3  # a text keeps this far from its box's edges


def ink_on(colour: Colour) -> Colour:
    """Dark or light text, whichever reads better on ``colour``."""
    return _ink_on(colour)


@dataclass
class Painter:
    """A picture being drawn, with the box of every text placed (``placed``: text bbox, its box)."""

    image: Image.Image
    draw: ImageDraw.ImageDraw = field(init=False)
    placed: list[tuple[Box, Box, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self, box: Box, text: str, size: int, fill: Colour = TEXT, align: str = "m", floor: int = MIN_SIZE
    ) -> None:
        """``text`` fitted into ``box`` (centred, or left-aligned with ``align="l"``), its type no
        smaller than ``floor`` nor than the picture's legible size (then ellipsized)."""
        floor = max(floor, legible(self.image.width))
        size = max(size, floor)
        x0, y0, x1, y1 = box
        width, height = x1 - x0 - 2 * PAD, y1 - y0
        shown, size = fit(self.draw, text, width, height, size, floor)
        if not shown:
            return
        at = (x0 + PAD, (y0 + y1) / 2) if align == "l" else ((x0 + x1) / 2, (y0 + y1) / 2)
        anchor = "lm" if align == "l" else "mm"
        bbox = draw_text(self.draw, at, shown, size, fill, anchor=anchor)
        self.placed.append(((bbox[0], bbox[1], bbox[2], bbox[3]), box, shown))


def fit(
    draw: ImageDraw.ImageDraw, text: str, width: float, height: float, size: int, floor: int = MIN_SIZE
) -> tuple[str, int]:
    """(the text, its size) that fit ``width`` x ``height``: smaller type first (down to ``floor``),
    then an ellipsis."""

    def fits(t: str, s: int) -> bool:
        x0, y0, x1, y1 = draw.textbbox((0, 0), t, font=font(s), anchor="lm")
        return x1 - x0 <= width and y1 - y0 <= height

    while size > min(floor, size) and not fits(text, size):
        size -= 1
    if fits(text, size):
        return text, size
    for cut in range(len(text) - 1, 0, -1):
        shorter = text[:cut].rstrip() + "…"
        if fits(shorter, size):
            return shorter, size
    return "", size


def card(p: Painter, box: Box, card_id: str, *, frame: Colour | None = None, dim: bool = False) -> None:
    """A Wizard card in ``box``: its Element band, name, Value and power type; ``frame``: a
    coloured border (the random card, a winner); ``dim``: greyed (a card already ordered)."""
    c = CARDS[card_id]
    x0, y0, x1, y1 = box
    h = y1 - y0
    band = ELEMENT_COLOUR[c.element.value]
    face = tuple(v // 2 for v in CARD_FACE) if dim else CARD_FACE
    p.draw.rounded_rectangle(box, radius=8, fill=face)
    p.draw.rounded_rectangle((x0, y0, x1, y0 + h * 0.18), radius=8, fill=band)
    p.text((x0, y0, x1, y0 + h * 0.18), c.element.value, 15, fill=ink_on(band))
    ink = MUTED if dim else TEXT
    p.text((x0, y0 + h * 0.2, x1, y0 + h * 0.42), c.name, 15, fill=ink)
    p.text((x0, y0 + h * 0.42, x1, y0 + h * 0.78), str(c.value), 34, fill=ink)
    power = POWER_LABEL.get(c.power.value, "") if c.power else "No power"
    p.text((x0, y0 + h * 0.8, x1, y1 - 2), power, 15, fill=MUTED)
    if frame is not None:
        p.draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=10, outline=frame, width=3)


def empty_slot(p: Painter, box: Box, label: str) -> None:
    """A dashed-looking empty place for a card, with a label."""
    p.draw.rounded_rectangle(box, radius=8, outline=MUTED, width=2)
    p.text(box, label, 15, fill=MUTED)


__all__ = ["ELEMENT_COLOUR", "GOLD", "LOSER", "Painter", "card", "empty_slot", "fit", "ink_on"]
