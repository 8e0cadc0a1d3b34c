"""Rating-over-time charts (Pillow) for /profile: one panel per game, the rating after each rated
match, with round-number axis ticks (:func:`nice_ticks`).

A game with fewer than :data:`MIN_HISTORY` rated matches gets no panel: /profile says so in words
instead (:func:`history_statement`). Pictures are cached by what they show (the shared
:data:`cogs.games.pictures.PICTURES` cache) and drawn off the event loop by the caller.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import discord
from PIL import Image, ImageDraw

from rules.text import plural

from .games.pictures import PICTURES, clipped, font, text_with

WIDTH = 560  # its smallest text (16 px) is 2.8% of the width: legible on a phone
PANEL_HEIGHT = 240
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 54, 18, 38, 58
BACKGROUND = (47, 49, 54)
GRID = (74, 77, 84)
TEXT = (220, 221, 222)
MUTED = (172, 174, 180)
LINE = (88, 101, 242)
WIN, LOSS, DRAW = (67, 181, 129), (240, 71, 71), (250, 166, 26)
MAX_POINTS = 200
MIN_HISTORY = 3
"""Rated matches a game needs before its chart is drawn (fewer: a plain statement)."""
MIN_SPAN = 40
"""The smallest rating range a panel shows, so that small changes do not look dramatic."""
TITLE_CHARS = 48


@dataclass(frozen=True)
class Panel:
    """One game's rating series: ``points[0]`` is the rating before the first match drawn, then
    one point (and one result: 'win' / 'loss' / 'draw') per match, oldest first."""

    title: str
    points: tuple[int, ...]
    results: tuple[str, ...]

    @property
    def matches(self) -> int:
        return len(self.points) - 1


def enough_history(matches: int) -> bool:
    return matches >= MIN_HISTORY


def history_statement(matches: int) -> str:
    """What /profile says instead of a chart for a game with too little history."""
    played = "no rated match" if matches == 0 else plural(matches, "rated match")
    return f"Too little history for a chart: {played} so far; the chart appears after {MIN_HISTORY}."


def nice_step(span: float, count: int) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``count`` intervals over ``span``."""
    raw = max(span, 1e-9) / max(count, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= factor * power:
            return factor * power
    return 10.0 * power


def nice_ticks(low: float, high: float, count: int = 5, *, integer: bool = True) -> list[float]:
    """Round tick values covering ``[low, high]`` (the first at or below ``low``, the last at or
    above ``high``), about ``count`` intervals apart; whole numbers when ``integer``."""
    if high < low:
        low, high = high, low
    step = nice_step(high - low, count)
    if integer:
        step = max(1.0, float(round(step))) if step >= 1 else 1.0
    first = math.floor(low / step) * step
    ticks = [first]
    while ticks[-1] < high - 1e-9:
        ticks.append(ticks[-1] + step)
    return ticks


def y_range(points: Sequence[int]) -> list[float]:
    """The y ticks of a panel: round numbers around the points, spanning at least MIN_SPAN."""
    low, high = float(min(points)), float(max(points))
    if high - low < MIN_SPAN:
        mid = (high + low) / 2
        low, high = mid - MIN_SPAN / 2, mid + MIN_SPAN / 2
    return nice_ticks(low, high, 4)


def x_ticks(matches: int) -> list[int]:
    """Match numbers to label on the x axis (0: before the first match drawn)."""
    return [int(t) for t in nice_ticks(0, matches, min(matches, 6)) if t <= matches]


def _label(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


def _panel(draw: ImageDraw.ImageDraw, panel: Panel, top: int) -> None:
    points = list(panel.points)[-MAX_POINTS - 1 :]
    results = list(panel.results)[-(len(points) - 1) :]
    small, big = font(16), font(19)
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    y_top, y_bottom = top + MARGIN_TOP, top + PANEL_HEIGHT - MARGIN_BOTTOM
    yt = y_range(points)
    low, high = yt[0], yt[-1]
    n = len(points) - 1

    def y_of(value: float) -> float:
        return y_bottom - (value - low) / (high - low) * (y_bottom - y_top)

    def x_of(index: int) -> float:
        return left + index / max(n, 1) * (right - left)

    for value in yt:
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        text_with(draw, (left - 6, y), _label(value), fill=TEXT, font=small, anchor="rm")
    for index in x_ticks(n):
        x = x_of(index)
        draw.line([(x, y_bottom), (x, y_bottom + 4)], fill=MUTED, width=1)
        text_with(draw, (x, y_bottom + 6), str(index), fill=TEXT, font=small, anchor="mt")
    text_with(draw, (right, top + PANEL_HEIGHT - 6), "rated matches", fill=MUTED, font=small, anchor="rb")
    x = float(left)
    for word, colour in (("win", WIN), ("loss", LOSS), ("draw", DRAW)):  # the dots' legend
        base = top + PANEL_HEIGHT - 14
        draw.ellipse([x, base - 5, x + 10, base + 5], fill=colour)
        text_with(draw, (x + 14, base), word, fill=MUTED, font=small, anchor="lm")
        x += 26 + draw.textlength(word, font=small)
    title = panel.title if len(panel.title) <= TITLE_CHARS else panel.title[: TITLE_CHARS - 1] + "…"
    title = clipped(title, right - left - 110, int(big.size))
    text_with(draw, (left, top + 8), title, fill=TEXT, font=big)
    text_with(draw, (right, top + 10), f"now {points[-1]}", fill=TEXT, font=small, anchor="ra")
    xy = [(x_of(i), y_of(v)) for i, v in enumerate(points)]
    draw.line(xy, fill=LINE, width=3, joint="curve")
    colours = {"win": WIN, "loss": LOSS, "draw": DRAW}
    r = 4 if len(xy) <= 60 else 2
    for i, (x, y) in enumerate(xy):
        colour = colours.get(results[i - 1], LINE) if 0 < i <= len(results) else LINE
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def chart_image(panels: Sequence[Panel]) -> Image.Image:
    """The panels stacked, one per game. Every panel needs :data:`MIN_HISTORY` matches."""
    if not panels:
        raise ValueError("no panel to draw")
    short = [p.title for p in panels if not enough_history(p.matches)]
    if short:
        raise ValueError(f"too little history to draw: {short}")
    image = Image.new("RGB", (WIDTH, PANEL_HEIGHT * len(panels)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, panel in enumerate(panels):
        if i:
            draw.line([(0, PANEL_HEIGHT * i), (WIDTH, PANEL_HEIGHT * i)], fill=GRID, width=2)
        _panel(draw, panel, PANEL_HEIGHT * i)
    return image


def rating_chart_file(panels: Sequence[Panel], filename: str = "rating.png") -> discord.File:
    """The chart as an attachment, drawn once per content (call it in a thread)."""
    inputs = [[p.title, list(p.points), list(p.results)] for p in panels]
    return PICTURES.file("rating-chart", inputs, filename, lambda: chart_image(panels))


__all__ = [
    "MIN_HISTORY",
    "Panel",
    "chart_image",
    "enough_history",
    "history_statement",
    "nice_ticks",
    "rating_chart_file",
    "x_ticks",
    "y_range",
]
