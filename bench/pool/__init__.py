"""The opponent pool (issue 32): rule-based players of clearly different styles, per game, that
the AI is measured against (``python -m bench ai``) without having been shaped on them.

Each game's module (``bench/pool/<module>.py``) defines ``PLAYERS``: a tuple of
:class:`PoolPlayer`, at least four, each a :data:`Player` (``(state, seat, rng) -> action``) that
reads only what its seat may know (``state.view(seat)``, ``state.legal_actions(seat)``, the rule
data files) and is deterministic for its rng. Every player's docstring says its strategy.

The pool is split in two halves (``split``): the AI may be tuned against the ``"tune"`` players
only; the ``"holdout"`` players are reported separately, so a target met only on the players the
AI was tuned on shows as such. The players are written from the rule texts
(``docs/rulings``, which say what part of each game's rules each ruling implements), never from the AI's code.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Literal

from rules.actions import ActionModel
from rules.core import State
from rules.registry import find, game_slugs

Player = Callable[[State, int, random.Random], ActionModel]
Split = Literal["tune", "holdout"]


@dataclass(frozen=True)
class PoolPlayer:
    """One rule-based player of the pool of the game ``slug``."""

    #: short name, unique in its game: "steady", "rush" (the JSON key of ``vs_pool``)
    name: str
    slug: str
    #: one line saying its strategy (the table's legend; the function's docstring says it whole)
    style: str
    split: Split
    play: Player


def pool_module(slug: str) -> ModuleType | None:
    """The module of the game ``slug``'s pool (the ``pool`` part of its registry entry,
    ``rules/registry.py``; it defines ``PLAYERS`` and ``HEURISTIC``), or None."""
    entry = find(slug)
    return None if entry is None or entry.pool is None else import_module(entry.pool)


def pool(slug: str) -> tuple[PoolPlayer, ...]:
    """The pool of the game ``slug`` (empty for a game without one)."""
    module = pool_module(slug)
    if module is None:
        return ()
    players = module.PLAYERS
    assert all(isinstance(p, PoolPlayer) and p.slug == slug for p in players)
    return tuple(players)


def pool_player(slug: str, name: str) -> PoolPlayer:
    """The pool player ``name`` of the game ``slug`` (KeyError if there is none)."""
    for p in pool(slug):
        if p.name == name:
            return p
    raise KeyError(f"{slug} has no pool player {name!r}")


def slugs() -> list[str]:
    """The registered games that have a pool."""
    return [slug for slug in game_slugs() if pool_module(slug) is not None]
