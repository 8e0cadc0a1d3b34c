"""The engines' memos are bounded (rules/memo.py; issue 33, part 5): a bot that runs for months
meets ever more hands, and a memo without a bound grows for as long as it lives."""

from __future__ import annotations

import random

import pytest

from rules import Match
from rules.memo import Memo, bounded, sizes


def test_a_memo_empties_itself_when_full_and_keeps_what_it_was_given() -> None:
    memo: Memo[int, str] = Memo("test.memo", 3)
    for k in range(3):
        assert memo.put(k, str(k)) == str(k)
    assert dict(memo) == {0: "0", 1: "1", 2: "2"}
    memo.put(3, "3")  # full: emptied first
    assert dict(memo) == {3: "3"}
    assert sizes()["test.memo"] == (1, 3)
    with pytest.raises(ValueError):
        Memo("test.empty", 0)


def test_a_bounded_function_keeps_at_most_its_limit() -> None:
    calls: list[int] = []

    @bounded(4)
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    assert [square(n) for n in range(10)] == [n * n for n in range(10)]
    assert square(9) == 81 and calls.count(9) == 1  # kept
    assert square(0) == 0 and calls.count(0) == 2  # pushed out
    name = f"{__name__}.test_a_bounded_function_keeps_at_most_its_limit.<locals>.square"
    assert sizes()[name] == (4, 4)


def _firewall_games(seeds: range) -> list[str]:
    from rules import CHANCE

    logs = []
    for seed in seeds:
        state = Match.new("firewall", seed=seed, seats=["A", "B"]).state
        rng = random.Random(seed)
        played = []
        while not state.awaiting.is_terminal:
            aw = state.awaiting
            seat = CHANCE if aw.is_chance else min(aw.seats)
            if seat != CHANCE:
                len(state.legal_actions(seat))  # the prompt's way: the turn layout of the hand
            action = state.sample_action(seat, rng)
            played.append(action.model_dump_json())
            state.apply(seat, action)
        logs.append("|".join(played))
    return logs


def test_firewall_plays_the_same_when_its_memos_are_emptied_all_the_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.firewall import choices, state

    memos = [choices._LAYOUTS, choices._LARCENY_CHOICES, state._SPELLS_INFO]
    for memo in memos:
        memo.clear()
    roomy = _firewall_games(range(6))
    for memo in memos:
        memo.clear()
        monkeypatch.setattr(memo, "limit", 2)
    tight = _firewall_games(range(6))
    assert tight == roomy
    assert all(len(memo) <= 2 for memo in memos)
    assert len(choices._LAYOUTS) >= 1  # used
