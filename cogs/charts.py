"""A small rating-over-time chart (Pillow), drawn in memory as PNG bytes for /profile."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from .games.pictures import font

WIDTH, HEIGHT = 640, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 16, 34, 30
BACKGROUND = (47, 49, 54)
GRID = (74, 77, 84)
TEXT = (220, 221, 222)
LINE = (88, 101, 242)
WIN, LOSS, DRAW = (67, 181, 129), (240, 71, 71), (250, 166, 26)
MAX_POINTS = 200


def rating_chart(points: Sequence[int], results: Sequence[str] = (), *, title: str = "") -> bytes:
    """A line chart of ratings, oldest first. ``points[0]`` is the rating before the first match,
    then one point per match; ``results`` (one per match: 'win' / 'loss' / 'draw') colour the dots."""
    if not points:
        raise ValueError("no points to draw")
    points = list(points)[-MAX_POINTS:]
    results = list(results)[-(len(points) - 1) :] if len(points) > 1 else []
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, big = font(12), font(15)
    low, high = float(min(points)), float(max(points))
    if high - low < 40:  # keep small changes readable without making them look dramatic
        mid = (high + low) / 2
        low, high = mid - 20, mid + 20
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    def x_of(index: int) -> float:
        return left if len(points) == 1 else left + index / (len(points) - 1) * (right - left)

    for i in range(5):
        value = low + (high - low) * i / 4
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw.text((left - 6, y), f"{round(value)}", fill=TEXT, font=small, anchor="rm")
    if title:
        draw.text((left, 8), title, fill=TEXT, font=big)
    draw.text((right, HEIGHT - 8), f"{len(points) - 1} match(es)", fill=TEXT, font=small, anchor="rb")
    xy = [(x_of(i), y_of(v)) for i, v in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=3, joint="curve")
    colours = {"win": WIN, "loss": LOSS, "draw": DRAW}
    for i, (x, y) in enumerate(xy):
        colour = colours.get(results[i - 1], LINE) if i > 0 and i - 1 < len(results) else LINE
        r = 4 if len(xy) <= 60 else 2
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


__all__ = ["rating_chart"]
