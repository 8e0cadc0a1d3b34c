"""Every game engine by slug. Adding a game: one line here."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .errors import MalformedAction

_GAMES: dict[str, str] = {
    "wizards-cup": "rules.wizards_cup:WizardsCup",
    "magic-duel": "rules.magic_duel:MagicDuel",
    "firewall": "rules.firewall:Firewall",
    "arena": "rules.arena:Arena",
}


def game_slugs() -> list[str]:
    return list(_GAMES)


def get_game(slug: str) -> Any:
    try:
        module_name, cls_name = _GAMES[slug].split(":")
    except KeyError:
        raise MalformedAction(f"Unknown game {slug!r}; the games are: {', '.join(_GAMES)}.") from None
    return getattr(import_module(module_name), cls_name)


def register(slug: str, path: str) -> None:
    _GAMES[slug] = path
