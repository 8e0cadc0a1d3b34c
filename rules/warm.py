"""Warm-up: every registered game loaded and exercised once, before the first player's move.

The games are imported on first use (:func:`rules.registry.get_game`), and each one fills its
caches (lookup tables, typed models, views) the first time it plays. A bot that has just restarted
would make the first player of each game wait for that: 60-140 ms where a move takes 2-3 ms.
:func:`warm_up` pays it at start-up instead: a short seeded game of each (its first ``steps``
decisions, the first choice each time), with each action parsed back from its JSON form and every
seat's view and each event's JSON made, as a move in the bot makes them. Nothing is stored, and a
game already warmed in this process is not played again.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from .match import Match
from .registry import game_slugs, get_game

STEPS = 8
"""Decisions each game's warm-up makes."""

_warmed: set[str] = set()


def warm_game(slug: str, steps: int = STEPS) -> None:
    """A short seeded game of ``slug`` (the fewest seats it allows), its views and events made."""
    seats = [f"Player {i + 1}" for i in range(get_game(slug).min_seats)]
    match = Match.new(slug, None, seed=0, seats=seats)
    state = match.state
    for _ in range(steps):
        decisions = state.decisions()
        if match.outcome is not None or not decisions:
            break
        decision = decisions[0]
        action = state.game.parse_action(decision.choices[0].to_json())
        match.act(decision.seat, action)
    for seat in [None, *range(len(seats))]:
        state.view(seat)
    for event in match.events:
        event.to_json(seats)


def warm_up(slugs: Iterable[str] | None = None, steps: int = STEPS) -> dict[str, float]:
    """Warm every registered game (or ``slugs``) not warmed yet in this process; returns the
    seconds each one took (0.0 for those already warm)."""
    took: dict[str, float] = {}
    for slug in game_slugs() if slugs is None else slugs:
        if slug in _warmed:
            took[slug] = 0.0
            continue
        start = time.perf_counter()
        warm_game(slug, steps)
        _warmed.add(slug)
        took[slug] = time.perf_counter() - start
    return took


__all__ = ["STEPS", "warm_game", "warm_up"]
