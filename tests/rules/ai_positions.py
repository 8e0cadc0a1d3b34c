"""Positions along seeded random games and states that look the same from a seat but hold other
hidden cards (tests/rules/test_ai.py and the AI portfolio tests): what the AI tests ask the AI about."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from rules.ai.determinize import determinize
from rules.core import CHANCE, State
from rules.match import Match


def new_state(slug: str, seats: int, seed: int) -> State:
    return Match.new(slug, seed=seed, seats=[f"P{i + 1}" for i in range(seats)]).state


def positions(slug: str, seats: int, seed: int, every: int = 1) -> Iterator[tuple[State, int]]:
    """(state, awaited seat) along a seeded random game, every ``every``-th decision; the state
    is the live one (copy it before changing it)."""
    state = new_state(slug, seats, seed)
    rng = random.Random(seed)
    k = 0
    while not state.awaiting.is_terminal:
        aw = state.awaiting
        if aw.is_chance:
            state.apply(CHANCE, state.sample_action(CHANCE, rng))
            continue
        for seat in sorted(aw.seats):
            if k % every == 0:
                yield state, seat
            k += 1
        seat = max(aw.seats)  # the later seat acts first: the other one then faces a committed secret
        state.apply(seat, state.sample_action(seat, rng))


def view_text(state: State, seat: int | None) -> str:
    return json.dumps(state.view(seat), sort_keys=True, default=str)


def hidden_text(state: State) -> str:
    """Everything, spectators' view plus every seat's view: differs when any hidden card does."""
    return "|".join(view_text(state, s) for s in range(state.num_seats))


def twin(state: State, seat: int) -> State | None:
    """A state that looks the same from ``seat`` but holds other hidden cards (or None)."""
    for k in range(20):
        other = determinize(state, seat, random.Random(1000 + k))
        if view_text(other, seat) == view_text(state, seat) and hidden_text(other) != hidden_text(state):
            return other
    return None
