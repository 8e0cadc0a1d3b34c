"""Each game's end of a match in words: its key figures and its secrets, per seat (``figures``,
``secrets``, and a ``NOTE`` under them), for both presentations: the Discord end card
(``cogs/ending.py``, through the game's UI) and the web table's match page (``web/pages.py``).
A game's module is its registry entry's ``ending`` part (``bot/endings/<game>.py``); nothing here
imports a presentation."""

from __future__ import annotations

from typing import Protocol

from bot.matches import Ending
from rules.registry import entry, resolve


class GameEnding(Protocol):
    """A game's ``ending`` module: its key figures and its secrets, per seat."""

    NOTE: str | None

    def figures(self, ending: Ending) -> dict[int, list[str]]: ...

    def secrets(self, ending: Ending) -> dict[int, list[str]]: ...


def ending_of(slug: str) -> GameEnding | None:
    """The ``ending`` module of game ``slug`` (None: the game has none)."""
    path = entry(slug).ending
    if path is None:
        return None
    found: GameEnding = resolve(path)
    return found


__all__ = ["GameEnding", "ending_of"]
