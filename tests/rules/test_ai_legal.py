"""Property: the AI never makes an illegal move (issue 16, part 5). Thousands of positions per
game, reached by random legal play from seeded games (every awaited seat of a simultaneous step
is asked, chance sampled), each answered by the AI's search with a small budget and checked
against the true state, the state the AI never reads directly (it sees samples of what the
seat cannot see). The smallest search still builds a tree and plays out; the levels differ only
in how many iterations they run (tests/rules/test_ai.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.ai.ismcts import Budget, search
from rules.core import CHANCE
from rules.match import Match

#: game -> (options, seats per game: cycled, positions to check)
CASES: dict[str, tuple[dict[str, Any] | None, tuple[int, ...], int]] = {
    "wizards-cup": (None, (2,), 2000),
    "firewall": (None, (2,), 2000),
    "magic-duel": (None, (2, 3, 4, 5), 1500),
    "arena": ({"grid_size": 8, "terrain_count": 4}, (2,), 1000),
}
TINY = Budget(iterations=1)  # the game's minimum (8 iterations)


@pytest.mark.slow
@pytest.mark.parametrize("slug", list(CASES))
def test_the_ai_never_makes_an_illegal_move(slug: str) -> None:
    options, seat_counts, wanted = CASES[slug]
    rng = random.Random(f"legal:{slug}")
    checked = games = 0
    while checked < wanted:
        seats = seat_counts[games % len(seat_counts)]
        state = Match.new(slug, options, seed=rng.getrandbits(32), seats=[f"p{i}" for i in range(seats)]).state
        state = state.clone(narrate=False)
        games += 1
        while not state.awaiting.is_terminal and checked < wanted:
            if state.awaiting.is_chance:
                state.apply_trusted(CHANCE, state.sample_action(CHANCE, rng))
                continue
            for seat in sorted(state.awaiting.seats):  # every seat of a simultaneous step
                result = search(state, seat, TINY, seed=rng.getrandbits(31))
                assert state.is_legal(seat, result.action), (slug, games, checked, seat, result.action)
                assert 0.0 <= result.value <= 1.0
                checked += 1
            # then the game goes on by random legal play (positions the AI would not reach itself)
            seat = rng.choice(sorted(state.awaiting.seats))
            state.apply_trusted(seat, state.sample_action(seat, rng))
    assert checked >= wanted and games > 1
