"""A game's /howto entry (its UI's ``howto``): the one-screen summary and the panels of its picture.

``cogs/help.py`` draws and posts it; each game writes its own in ``cogs/games/<game>/howto.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

#: draws a panel's picture into its box (left, top, right, bottom)
Painter = Callable[[Image.Image, ImageDraw.ImageDraw, tuple[float, float, float, float]], None]


@dataclass(frozen=True)
class Step:
    """One panel of a game's picture: an icon (a key of ``cogs.howto_art.ICONS``, or the game's own
    painter) and a short caption (``{name}`` fields filled by the HowTo's ``fill``)."""

    icon: str | Painter
    caption: str


@dataclass(frozen=True)
class HowTo:
    goal: str
    turn: str
    end: str
    steps: tuple[Step, ...]
    #: the numbers the captions name, looked up when the picture is drawn (None: captions as written)
    fill: Callable[[], Mapping[str, str]] | None = None

    def caption(self, step: Step) -> str:
        """``step``'s caption with the game's real numbers filled in."""
        return step.caption.format(**self.fill()) if self.fill is not None else step.caption


__all__ = ["HowTo", "Painter", "Step"]
