"""Computer players for every game: information-set Monte Carlo tree search (ISMCTS).

The shared interface (see docs/ai.md):

- :data:`Player`: ``(state, seat, rng) -> action`` for a seat the state awaits;
- :func:`choose`: the AI's action for ``seat`` at a level, deterministic for a seed;
- :func:`evaluate`: the action and the AI's estimated chance (0..1) that ``seat`` wins from here;
- :func:`ai_player`: a :data:`Player` that calls :func:`choose` with a seed drawn from its rng;
- :func:`random_player`: a uniformly random legal action (``state.sample_action``).

The AI is given the true state but reads it only through the game's determinizer
(:mod:`rules.ai.determinize`), which samples the hidden information from what ``seat`` knows.
Pure: no discord, database or asyncio.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from ..actions import ActionModel
from ..core import State
from .ismcts import LEVELS, Budget, search

Level = Literal["easy", "normal", "hard"]
Player = Callable[[State, int, random.Random], ActionModel]


def evaluate(
    state: State, seat: int, *, level: Level = "normal", seed: int, time_limit: float | None = None
) -> tuple[ActionModel, float]:
    """The action the AI plays for ``seat`` at ``level`` and its estimated chance (0..1) that
    ``seat`` wins from here. Deterministic for ``seed``; uses only what ``seat`` may know.
    ``time_limit`` (seconds) is an optional safety net: the search stops early when it is reached
    (the result then depends on the machine's speed; None, the default, never stops early)."""
    result = search(state, seat, LEVELS[level], seed=seed, time_limit=time_limit)
    return result.action, result.value


def choose(
    state: State, seat: int, *, level: Level = "normal", seed: int, time_limit: float | None = None
) -> ActionModel:
    """The action the AI plays for ``seat`` (awaited by ``state``) at ``level``; a decision
    with one legal action returns it at once. ``time_limit``: see :func:`evaluate`."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    return evaluate(state, seat, level=level, seed=seed, time_limit=time_limit)[0]


def ai_player(level: Level = "normal") -> Player:
    """A :data:`Player` at ``level`` whose seed for each decision comes from the rng it is given."""

    def play(state: State, seat: int, rng: random.Random) -> ActionModel:
        return choose(state, seat, level=level, seed=rng.getrandbits(63))

    play.__name__ = f"ai_{level}"
    return play


def random_player(state: State, seat: int, rng: random.Random) -> ActionModel:
    """A uniformly random legal action for ``seat``."""
    return state.sample_action(seat, rng)


__all__ = ["LEVELS", "Budget", "Level", "Player", "ai_player", "choose", "evaluate", "random_player"]
