"""Small Pillow helpers shared by the games' pictures: fonts, seat colours, PNG attachments.

Pictures are drawn from the spectator view only (the same data the embeds use), so a picture can
never show more than the channel may see.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

import discord
from PIL import Image, ImageDraw, ImageFont

# Eight seat colours that stay apart for the common colour-vision deficiencies (Okabe-Ito + two).
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (0, 106, 168),  # blue (Okabe-Ito blue a shade darker: white text reads on it)
    (230, 159, 0),  # orange
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (86, 180, 233),  # sky blue
    (213, 94, 0),  # vermilion
    (240, 228, 66),  # yellow
    (160, 160, 160),  # grey
)
SEAT_EMOJI = ("🔵", "🟠", "🟢", "🟣", "🩵", "🔴", "🟡", "⚪")
BACKGROUND = (30, 31, 34)  # Discord's dark theme, so the picture sits well in an embed
TEXT = (235, 235, 235)
MUTED = (170, 170, 170)  # secondary text: 4.5:1 even on the card faces (52, 54, 62)
DARK_INK = (20, 20, 24)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    f = ImageFont.load_default(size=size)
    assert isinstance(f, ImageFont.FreeTypeFont), "Pillow needs FreeType for the pictures' fonts"
    return f


def text_with(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    *,
    fill: Colour,
    font: ImageFont.FreeTypeFont,
    anchor: str = "la",
    background: Colour | None = None,
) -> Box:
    """:func:`text` called like ``ImageDraw.text`` with a font of :func:`font`."""
    return text(draw, xy, s, int(font.size), fill, anchor=anchor, background=background)


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def readable(colour: tuple[int, int, int], on: tuple[int, int, int] = BACKGROUND) -> tuple[int, int, int]:
    """``colour`` lightened (on a dark ``on``) or darkened (on a light one) just enough to read at
    4.5:1 on ``on``: a seat's name in its colour."""
    toward = 255 if luminance(on) < 0.2 else 0
    c = colour
    for step in range(21):
        k = step / 20
        c = tuple(round(v + (toward - v) * k) for v in colour)  # type: ignore[assignment]
        if contrast(c, on) >= MIN_CONTRAST + 0.05:
            break
    return c


def seat_ink(seat: int, on: tuple[int, int, int] = BACKGROUND) -> tuple[int, int, int]:
    """A seat's colour for text on ``on`` (seat 1's blue lightened on the dark background)."""
    return readable(seat_colour(seat), on)


def ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dark or light text, whichever contrasts more with ``colour``."""
    return DARK_INK if contrast(DARK_INK, colour) > contrast(TEXT, colour) else TEXT


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), BACKGROUND)
    return img, ImageDraw.Draw(img)


# ------------------------------------------------------------------------------ legible text

MIN_TEXT_RATIO = 0.028
"""The smallest text a picture may draw, as a share of its width: Discord shows a picture about
360 px wide on a phone, where 2.8% is about 10 px."""
MIN_CONTRAST = 4.5
"""The lowest contrast ratio of a text against what it is drawn on (WCAG AA)."""

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]


def legible(width: int) -> int:
    """The smallest font size (px) a picture ``width`` pixels wide may use."""
    return math.ceil(width * MIN_TEXT_RATIO - 1e-9)


def luminance(colour: Colour) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@dataclass(frozen=True)
class TextRecord:
    """A text a picture drew: its font size, its colour and the colour under it, the picture's size."""

    text: str
    size: int
    fill: Colour
    background: Colour
    width: int
    height: int
    bbox: Box

    @property
    def ratio(self) -> float:
        return self.size / self.width

    @property
    def contrast(self) -> float:
        return contrast(self.fill, self.background)


_RECORDER: ContextVar[list[TextRecord] | None] = ContextVar("picture_texts", default=None)


@contextmanager
def recording() -> Iterator[list[TextRecord]]:
    """Every text drawn through :func:`text` inside the block (tests check their size and contrast)."""
    texts: list[TextRecord] = []
    token = _RECORDER.set(texts)
    try:
        yield texts
    finally:
        _RECORDER.reset(token)


def _rgb(colour: object) -> Colour:
    if isinstance(colour, int):
        return (colour, colour, colour)
    assert isinstance(colour, tuple | list), colour
    return (int(colour[0]), int(colour[1]), int(colour[2]))


def _under(draw: ImageDraw.ImageDraw, bbox: Box) -> Colour:
    """The most common colour of the picture under ``bbox`` (before the text is drawn)."""
    image: Image.Image = draw._image
    x0, y0 = max(0, int(bbox[0])), max(0, int(bbox[1]))
    x1, y1 = min(image.width, math.ceil(bbox[2])), min(image.height, math.ceil(bbox[3]))
    if x1 <= x0 or y1 <= y0:
        return BACKGROUND
    colours = image.crop((x0, y0, x1, y1)).convert("RGB").getcolors(maxcolors=1 << 20) or []
    return _rgb(max(colours, key=lambda c: c[0])[1]) if colours else BACKGROUND


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Colour = TEXT,
    *,
    anchor: str = "la",
    background: Colour | None = None,
) -> Box:
    """Draw ``s`` at ``xy`` in the default font of ``size`` px: every picture's texts go through
    here, so a test can record each one's size, colour and the colour under it (``background``, or
    the most common colour under the text's box before it is drawn). Returns the text's box."""
    f = font(size)
    bbox = draw.textbbox(xy, s, font=f, anchor=anchor)
    texts = _RECORDER.get()
    if texts is not None and s.strip():
        image = draw._image
        under = background if background is not None else _under(draw, bbox)
        texts.append(TextRecord(s, size, _rgb(fill), _rgb(under), image.width, image.height, bbox))
    draw.text(xy, s, font=f, fill=fill, anchor=anchor)
    return bbox


def clipped(s: str, width: float, size: int) -> str:
    """``s`` shortened with "…" to at most ``width`` pixels in the font of ``size`` px."""
    f = font(size)
    if f.getlength(s) <= width:
        return s
    while s and f.getlength(s + "…") > width:
        s = s[:-1]
    return s.rstrip() + "…"


def text_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill=TEXT) -> None:
    text(draw, xy, s, size, fill, anchor="mm")


#: Colours a picture keeps: the pictures are flat drawings (boards, cards, text), which 64
#: colours show as they are drawn while the PNG shrinks to about a third (an Arena board: 36 KB
#: to 12 KB), so a match costs its players' data plans a fraction.
PALETTE = 64


def png_bytes(img: Image.Image, colours: int = PALETTE) -> bytes:
    """The picture as a PNG of at most ``colours`` colours (octree quantisation, no dithering:
    about 5 ms for a board), at zlib's level 9 (another 15 ms, 14% fewer bytes)."""
    buf = io.BytesIO()
    if img.mode in ("RGB", "RGBA"):
        img = img.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    img.save(buf, format="PNG", compress_level=9)
    return buf.getvalue()


def png_file(img: Image.Image, filename: str) -> discord.File:
    return discord.File(io.BytesIO(png_bytes(img)), filename=filename)


class PictureCache:
    """PNG pictures by what they show: the same board, hand or trick is drawn once. Bounded (by
    count and bytes, least recently used out) and safe to use from the rendering threads."""

    def __init__(self, max_items: int = 512, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_items, self.max_bytes = max_items, max_bytes
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def file(
        self,
        kind: str,
        inputs: object,
        filename: str | None,
        draw: Callable[[], Image.Image],
        *,
        colours: int = PALETTE,
    ) -> discord.File:
        """A fresh File of the picture ``draw()`` makes of ``inputs`` (JSON-able), drawn only if
        no picture of the same ``kind`` and inputs is cached. ``filename`` None: named by its
        content (:func:`content_name`), so a message that already shows it can keep it."""
        key = kind + ":" + json.dumps(inputs, sort_keys=True, separators=(",", ":"), default=str)
        with self._lock:
            data = self._items.get(key)
            if data is not None:
                self._items.move_to_end(key)
                self.hits += 1
        if data is None:
            data = png_bytes(draw(), colours)
            with self._lock:
                self.misses += 1
                if key not in self._items:
                    self._items[key] = data
                    self._bytes += len(data)
                while self._items and (len(self._items) > self.max_items or self._bytes > self.max_bytes):
                    _, old = self._items.popitem(last=False)
                    self._bytes -= len(old)
        return discord.File(io.BytesIO(data), filename=filename or content_name(kind, data))


CONTENT_NAMED = re.compile(r"[a-z0-9-]+-[0-9a-f]{16}\.png")
"""The file names :func:`content_name` gives: the same name is the same picture."""


def content_name(kind: str, data: bytes) -> str:
    """A picture's file name from what it is and its bytes (``firewall-bridge-<16 hex>.png``)."""
    return f"{kind}-{hashlib.sha256(data).hexdigest()[:16]}.png"


#: The pictures of every game (prompts and channel posts).
PICTURES = PictureCache()


def bar(value: int, maximum: int, width: int = 10, full: str = "🟦", empty: str = "⬛") -> str:
    """An emoji gauge, e.g. mana 30 of 50 → 6 full of 10."""
    filled = 0 if maximum <= 0 else round(width * max(0, min(value, maximum)) / maximum)
    return full * filled + empty * (width - filled)


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill) -> None:
    """A five-pointed star centred on (cx, cy) with outer radius r."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    draw.polygon(points, fill=fill)
