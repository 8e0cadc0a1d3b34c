"""The board as a picture for link previews (issue 35, part 2: ``og:image``): Discord and other
sites unfurl a link with a PNG, not an SVG, so ``GET /m/<token>/board.png`` rasterizes the match
page's own SVG board with CairoSVG (which needs the system's cairo library: ``libcairo2``).

Drawn off the event loop (a worker thread), :data:`WIDTH` pixels wide, and kept for the match's
version (a few hundred boards): a board is drawn once however many previews ask for it. Without
cairo the page simply has no picture in its preview (one warning in the log).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

log = logging.getLogger(__name__)

WIDTH = 1200
KEPT = 256
_cairo: Any = None  # the module once imported; False when it cannot be
_kept: OrderedDict[tuple[int, int], bytes] = OrderedDict()


def rasterizer() -> Any:
    """CairoSVG's ``svg2png``, or None where the cairo library is missing."""
    global _cairo
    if _cairo is None:
        try:
            import cairosvg

            _cairo = cairosvg
        except (ImportError, OSError) as exc:
            log.warning("link previews have no board picture: CairoSVG cannot load cairo (%s)", exc)
            _cairo = False
    return _cairo.svg2png if _cairo else None


def png(svg: str) -> bytes | None:
    """``svg`` as a PNG :data:`WIDTH` pixels wide (None without cairo)."""
    draw = rasterizer()
    if draw is None:
        return None
    drawn: bytes = draw(bytestring=svg.encode(), output_width=WIDTH)
    return drawn


def kept(key: tuple[int, int]) -> bytes | None:
    found = _kept.get(key)
    if found is not None:
        _kept.move_to_end(key)
    return found


def keep(key: tuple[int, int], picture: bytes) -> None:
    _kept[key] = picture
    while len(_kept) > KEPT:
        _kept.popitem(last=False)


__all__ = ["WIDTH", "keep", "kept", "png", "rasterizer"]
