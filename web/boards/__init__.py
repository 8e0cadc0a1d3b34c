"""The boards of the web table: each game's spectator view drawn as SVG (issue 35, part 2).

A game's board is its registry entry's ``web`` part (``web.boards.<game>:BOARD``, a
:data:`Board`: the view and the players' names in, SVG markup out); a game without one has a page
without a board. Every text is escaped (:func:`text`); colours and sizes are SVG attributes, never
``style`` (the pages' Content-Security-Policy allows no inline style). A board is drawn in a
viewBox at most :data:`WIDTH` units wide with no text under :data:`MIN_FONT` units, so on a 360 px
phone (about 340 px of board) no text is under 12 CSS px.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from rules.registry import entry, resolve

WIDTH = 640
MIN_FONT = 24
#: a board: (the view, the players' names, the links) -> SVG. The links map a value's JSON text
#: (a square's ``[x, y]``, a model's ``"p1-wizard"``) to the address of choosing it: a seat's page
#: (web/seat.py) makes the squares and models a player may choose clickable. A board that draws
#: nothing clickable ignores them.
Board = Callable[..., str]
Links = Mapping[str, str]


def board_of(slug: str) -> Board | None:
    """The board of game ``slug`` (None: its page has none)."""
    path = entry(slug).web
    if path is None:
        return None
    found = resolve(path)
    if not callable(found):
        raise TypeError(f"{path} is not a board")
    board: Board = found
    return board


def board_svg(slug: str, view: Mapping[str, Any], names: Sequence[str], *, links: Links | None = None) -> str | None:
    """``view`` (a spectator's, or a seat's on its own page) drawn by ``slug``'s board, or None;
    ``links``: what may be clicked (see :data:`Board`)."""
    board = board_of(slug)
    if board is None:
        return None
    drawn: str = board(view, names, links=links or {})
    return drawn


def link(href: str | None, inner: str, *, label: str) -> str:
    """``inner`` clickable (an ``<a>`` of the SVG) when ``href`` is given; as it is otherwise."""
    if href is None:
        return inner
    return f'<a href="{escape(href)}#decide" aria-label="{escape(label)}">{inner}</a>'


def text(x: float, y: float, words: str, *, size: int = MIN_FONT, anchor: str = "middle", **attrs: Any) -> str:
    """A ``<text>`` element (its words escaped)."""
    more = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{max(size, MIN_FONT)}" text-anchor="{anchor}"'
        f' font-family="system-ui, sans-serif"{more}>{escape(words)}</text>'
    )


def svg(width: float, height: float, parts: Sequence[str], *, title: str) -> str:
    """The SVG element: its viewBox, a title for screen readers, and its parts in order."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" role="img"'
        f' class="board" aria-label="{escape(title)}"><title>{escape(title)}</title>' + "".join(parts) + "</svg>"
    )


__all__ = ["MIN_FONT", "WIDTH", "Board", "Links", "board_of", "board_svg", "link", "svg", "text"]
