"""Every game, registered once: adding a game is one :func:`register` call here.

A game's entry names each of its parts, one per layer, as ``"module:attribute"`` paths:

- ``game``: its :class:`~rules.core.Game` (``rules/<game>/``), typed by its options and its views;
  the Game also says how its matches are told and its tournament profile
  (:attr:`~rules.core.Game.tournament`);
- ``ai``: its AI kit (:class:`rules.ai.kit.AIKit`: the search's tuning, the determinizer, the
  opponent model), in ``rules/ai/<game>.py``;
- ``ui``: its Discord UI (``cogs.games.base.GameUI``: prompts, posts, pictures, end card, /howto),
  in ``cogs/games/<game>/``;
- ``pool``: the module of the rule-based players the AI is measured against
  (``bench/pool/<game>.py``), or None;
- ``web``: its board on the web table (``web.boards.<game>:BOARD``, the spectator view drawn as
  SVG), or None: its page has no board yet.

Each layer imports only the parts of its own layer (this module imports none of them: the paths
are names, resolved by :mod:`rules.ai.kit`, ``cogs.games``, ``bench.pool`` and ``web.boards``), and every list
of games anywhere (the /challenge choices, /help, tournaments, the AI, the benchmarks) is
:func:`game_slugs`. ``tests/rules/test_registry.py`` checks that every registered game supplies
every part, and registers a toy game to find it in every layer.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import MalformedAction

if TYPE_CHECKING:
    from .core import Game


@dataclass(frozen=True)
class GameEntry:
    """One game's parts, one per layer (``"module:attribute"``; ``pool``: a module)."""

    slug: str
    game: str
    ai: str
    ui: str
    pool: str | None = None
    web: str | None = None
    ending: str | None = None

    @classmethod
    def of(cls, slug: str, package: str, game_class: str, *, board: bool = True) -> GameEntry:
        """The entry of a game laid out as the project's are: ``rules/<package>/`` with the Game
        class, ``rules/ai/<package>.py`` with ``KIT``, ``cogs/games/<package>/ui.py`` with ``UI``,
        ``bench/pool/<package>.py``, ``bot/endings/<package>.py`` (the end of a match in words) and
        (``board``) ``web/boards/<package>.py`` with ``BOARD``."""
        return cls(
            slug,
            game=f"rules.{package}:{game_class}",
            ai=f"rules.ai.{package}:KIT",
            ui=f"cogs.games.{package}.ui:UI",
            pool=f"bench.pool.{package}",
            web=f"web.boards.{package}:BOARD" if board else None,
            ending=f"bot.endings.{package}",
        )


_GAMES: dict[str, GameEntry] = {}
_classes: dict[str, type[Game[Any, Any, Any]]] = {}


def register(entry: GameEntry) -> None:
    """Register (or replace) a game."""
    _GAMES[entry.slug] = entry
    _classes.pop(entry.slug, None)


def unregister(slug: str) -> None:
    _GAMES.pop(slug, None)
    _classes.pop(slug, None)


@contextmanager
def registered(entry: GameEntry) -> Iterator[GameEntry]:
    """``with registered(entry):`` the game is registered for the block only."""
    before = _GAMES.get(entry.slug)
    register(entry)
    try:
        yield entry
    finally:
        if before is None:
            unregister(entry.slug)
        else:
            register(before)


register(GameEntry.of("wizards-cup", "wizards_cup", "WizardsCup"))
register(GameEntry.of("firewall", "firewall", "Firewall"))
register(GameEntry.of("magic-duel", "magic_duel", "MagicDuel"))
register(GameEntry.of("arena", "arena", "Arena"))

#: Games kept outside this list: ``EXTRA_GAMES="package.module:ENTRY,..."`` names GameEntry objects
#: registered after the four above, in every process that imports the registry (the bot, its
#: benchmarks' worker processes, the offline table).
EXTRA_GAMES_VARIABLE = "EXTRA_GAMES"


def register_extra(value: str | None = None) -> list[str]:
    """Register the entries ``value`` (default: the ``EXTRA_GAMES`` variable) names; their slugs."""
    text = os.environ.get(EXTRA_GAMES_VARIABLE, "") if value is None else value
    added = []
    for path in filter(None, (part.strip() for part in text.split(","))):
        found = resolve(path)
        if not isinstance(found, GameEntry):
            raise TypeError(f"{EXTRA_GAMES_VARIABLE}: {path} is not a GameEntry")
        register(found)
        added.append(found.slug)
    return added


def game_slugs() -> list[str]:
    """Every registered game, in registration order."""
    return list(_GAMES)


def entries() -> list[GameEntry]:
    return list(_GAMES.values())


def find(slug: str) -> GameEntry | None:
    """The entry of the game ``slug``, or None."""
    return _GAMES.get(slug)


def entry(slug: str) -> GameEntry:
    """The entry of the game ``slug`` (MalformedAction naming the games if there is none)."""
    try:
        return _GAMES[slug]
    except KeyError:
        raise MalformedAction(f"Unknown game {slug!r}; the games are: {', '.join(_GAMES)}.") from None


def resolve(path: str) -> Any:
    """The object a ``"module:attribute"`` path names (a module for a path without ``:``)."""
    module_name, _, attribute = path.partition(":")
    module = import_module(module_name)
    return getattr(module, attribute) if attribute else module


def game_class(slug: str) -> type[Game[Any, Any, Any]]:
    """The Game class of ``slug``, typed."""
    found = _classes.get(slug)
    if found is None:
        found = _classes[slug] = resolve(entry(slug).game)
    return found


def get_game(slug: str) -> Any:
    """The Game class of ``slug`` (untyped, for callers that pick their own game's methods)."""
    return game_class(slug)


register_extra()

__all__ = [
    "EXTRA_GAMES_VARIABLE",
    "GameEntry",
    "entries",
    "entry",
    "find",
    "game_class",
    "game_slugs",
    "get_game",
    "register",
    "register_extra",
    "registered",
    "resolve",
    "unregister",
]
