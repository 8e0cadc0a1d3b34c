"""Wizards Cup's normal and hard levels play candidates out with scripts
(rules.ai.wizards_cup_portfolio, issue 32): the scripts' answers and drawn legal ones, on the same
samples of what the seat cannot see; easy keeps the tree."""

from __future__ import annotations

import random

import pytest

from bench.pool.wizards_cup import PLAYERS
from rules.ai import choose, evaluate
from rules.ai.ismcts import LEVELS, Budget
from rules.ai.ismcts import search as tree_search
from rules.ai.wizards_cup_portfolio import EXTRA, candidates, playout, samples_for, search
from rules.ai.wizards_cup_script import SCRIPTS
from tests.rules.ai_positions import positions, twin


def _decisions(n: int = 3):  # type: ignore[no-untyped-def]
    """Seeded Wizards Cup positions where the seat has a choice to make."""
    found = []
    for state, seat in positions("wizards-cup", 2, 6, every=5):
        if len(state.legal_actions(seat)) > 1:
            found.append((state, seat))
        if len(found) == n:
            break
    assert found
    return found


def test_the_scripts_are_the_tune_half() -> None:
    """The holdout half of the pool (issue 32: reported apart) is no script of the AI."""
    assert set(SCRIPTS) == {p.name for p in PLAYERS if p.split == "tune"}
    assert {p.name for p in PLAYERS if p.split == "holdout"}.isdisjoint(SCRIPTS)


def test_levels_take_their_samples_from_their_iterations() -> None:
    assert samples_for(LEVELS["normal"]) == 20
    assert samples_for(LEVELS["hard"]) == 36
    assert samples_for(Budget(iterations=400)) == 13  # a budget made by hand: normal's share of 640


@pytest.mark.slow
def test_hard_weighs_more_drawn_candidates_than_normal() -> None:
    state, seat = _decisions(1)[0]
    legal = state.legal_actions(seat)
    assert len(legal) > EXTRA["hard"] > EXTRA["normal"]
    normal = search(state, seat, LEVELS["normal"], seed=3)
    hard = search(state, seat, LEVELS["hard"], seed=3)
    assert EXTRA["normal"] <= len(normal.stats) < len(hard.stats)
    assert len(hard.stats) >= EXTRA["hard"]
    assert {n for n, _ in hard.stats.values()} == {36}


def test_candidates_are_the_scripts_answers_and_drawn_legal_ones() -> None:
    for state, seat in _decisions():
        found = candidates(state, seat, random.Random(1))
        legal = state.legal_actions(seat)
        answers = {s(state, seat, random.Random(0)) for s in SCRIPTS.values()}
        assert answers <= set(found)
        assert all(state.is_legal(seat, a) for a in found)
        assert len(found) >= min(len(legal), EXTRA["normal"])


@pytest.mark.slow
def test_every_candidate_is_played_out_on_the_same_samples_and_the_best_mean_wins() -> None:
    state, seat = _decisions(1)[0]
    result = search(state, seat, LEVELS["normal"], seed=5)
    assert all(n == 20 for n, _ in result.stats.values())
    best = max(mean for _, mean in result.stats.values())
    assert result.stats[result.action][1] == best == result.value
    again = search(state, seat, LEVELS["normal"], seed=5)
    assert (again.action, again.value, again.stats) == (result.action, result.value, result.stats)
    assert 0.0 <= playout(state, seat, result.action, 0, 0, 123) <= 1.0
    assert choose(state, seat, level="normal", seed=5) == result.action  # what the bot plays


@pytest.mark.slow
def test_same_decision_from_states_that_look_the_same() -> None:
    """The samples are drawn from what the seat knows: another hidden deal it cannot tell apart
    gives the same answer and estimate."""
    tried = 0
    for state, seat in positions("wizards-cup", 2, 2):
        if len(state.legal_actions(seat)) < 2:
            continue
        other = twin(state, seat)
        if other is None:
            continue
        assert evaluate(state, seat, level="normal", seed=11) == evaluate(other, seat, level="normal", seed=11)
        tried += 1
        if tried == 2:
            break
    assert tried == 2


def test_a_given_answer_is_played_out_alone_and_easy_keeps_the_tree() -> None:
    state, seat = _decisions(1)[0]
    target = state.legal_actions(seat)[-1]
    result = tree_search(state, seat, LEVELS["normal"], seed=4, root_actions=[target])
    assert result.action == target and set(result.stats) == {target} and result.stats[target][0] == 20
    easy = tree_search(state, seat, LEVELS["easy"], seed=4)
    assert sum(n for n, _ in easy.stats.values()) == easy.iterations  # the tree's rounds
