"""Per-game Discord presentation, one folder per game (the same names as ``rules/``), sharing the
machinery in ``base.py`` and ``pictures.py``. A game's UI is the ``ui`` part of its registry entry
(``rules/registry.py``): the list of UIs is the list of registered games."""

from __future__ import annotations

from rules.registry import entry, find, game_slugs, resolve

from .base import GameUI

_loaded: dict[str, GameUI] = {}


def get_ui(slug: str) -> GameUI:
    """The UI of the registered game ``slug`` (MalformedAction for a game not registered)."""
    path = entry(slug).ui
    found = _loaded.get(path)
    if found is None:
        value = resolve(path)
        if not isinstance(value, GameUI) or value.slug != slug:
            raise TypeError(f"{path} is not the GameUI of {slug!r}")
        found = _loaded[path] = value
    return found


def has_ui(slug: str) -> bool:
    return find(slug) is not None


def ui_slugs() -> list[str]:
    """The games with a UI: every registered game."""
    return game_slugs()


__all__ = ["GameUI", "get_ui", "has_ui", "ui_slugs"]
