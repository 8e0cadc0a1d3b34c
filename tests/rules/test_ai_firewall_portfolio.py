"""Firewall's normal and hard levels play candidate turns out with scripts
(rules.ai.firewall_portfolio, issue 32): the scripts' answers, the equilibrium's bets and turns the
tree would consider, on the same samples of what the seat cannot see; easy keeps the tree."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.pool.firewall import PLAYERS
from rules.ai import choose
from rules.ai import firewall_prune as fp
from rules.ai import firewall_value as fv
from rules.ai.firewall_portfolio import ENEMIES, EXTRA, candidates, playout, samples_for, search
from rules.ai.firewall_script import SCRIPTS
from rules.ai.ismcts import LEVELS
from rules.firewall import Turn
from tests.rules.ai_positions import positions, twin
from tests.rules.firewall.helpers import arrange


def _decisions(n: int = 3) -> list[tuple[Any, int]]:
    """Seeded Firewall positions where the seat has a choice to make."""
    found = []
    for state, seat in positions("firewall", 2, 6, every=3):
        if len(state.legal_actions(seat)) > 1:
            found.append((state.clone(), seat))
        if len(found) == n:
            break
    assert found
    return found


def test_the_scripts_are_the_tune_half() -> None:
    """The holdout half of the pool (issue 32: reported apart) is no script of the AI, nor an enemy
    of its playouts."""
    assert set(SCRIPTS) == {p.name for p in PLAYERS if p.split == "tune"}
    holdout = {p.play for p in PLAYERS if p.split == "holdout"}
    assert holdout.isdisjoint(SCRIPTS.values()) and holdout.isdisjoint(ENEMIES)


def test_levels_take_their_samples_from_their_iterations() -> None:
    assert samples_for(LEVELS["hard"]) > samples_for(LEVELS["normal"]) >= 2


def test_candidates_are_legal_and_kept_by_the_pruning() -> None:
    for state, seat in _decisions():
        found = candidates(state, seat, random.Random(1))
        assert all(state.is_legal(seat, a) for a in found)
        assert all(fp.allowed(state, seat, a) for a in found)
        assert len(found) >= min(len(state.legal_actions(seat)), EXTRA)
        mix = fv.equilibrium(*fv.context(state, seat), fp.exposed(state, seat))
        assert {b for b, _ in mix} <= {a.bet for a in found if isinstance(a, Turn) and not a.spells}


@pytest.mark.slow
def test_every_candidate_is_played_out_on_the_same_samples_and_the_best_mean_wins() -> None:
    state, seat = _decisions(1)[0]
    n = samples_for(LEVELS["normal"])
    result = search(state, seat, LEVELS["normal"], seed=5)
    assert all(k == n for k, _ in result.stats.values())
    best = max(mean for _, mean in result.stats.values())
    assert result.stats[result.action][1] == best == result.value
    again = search(state, seat, LEVELS["normal"], seed=5)
    assert (again.action, again.value, again.stats) == (result.action, result.value, result.stats)
    assert 0.0 <= playout(state, seat, result.action, 0, 0, 123) <= 1.0
    assert choose(state, seat, level="normal", seed=5) == result.action  # what the bot's computer seat plays


def test_a_given_answer_is_played_out_alone() -> None:
    """``root_actions`` (the review's "what was that move worth") plays out exactly those."""
    state, seat = _decisions(1)[0]
    target = state.legal_actions(seat)[-1]
    result = search(state, seat, LEVELS["normal"], seed=4, root_actions=[target])
    assert result.action == target and set(result.stats) == {target}
    assert result.stats[target][0] == samples_for(LEVELS["normal"])


@pytest.mark.slow
def test_same_decision_from_states_that_look_the_same() -> None:
    """The samples are drawn from what the seat knows: another hidden deal it cannot tell apart
    (the opponent's hand and stock, its own stock's order) gives the same answer and estimate."""
    tried = 0
    for state, seat in positions("firewall", 2, 2, every=2):
        if len(state.legal_actions(seat)) < 2:
            continue
        other = twin(state, seat)
        if other is None:
            continue
        a = search(state, seat, LEVELS["normal"], seed=11)
        b = search(other, seat, LEVELS["normal"], seed=11)
        assert (a.action, a.value) == (b.action, b.value)
        tried += 1
        if tried == 2:
            break
    assert tried == 2


def test_it_finishes_the_round_with_the_sure_bet() -> None:
    """docs/rulings/firewall.md#a-turn (rules 8-9: the wall moves toward the lower bet after the
    spells, and a push onto a wizard ends the round). The wall one flagstone from the opponent's
    wizard and 30 mana against 10: a bet of 11 wins the turn and the round whatever the opponent
    bets (the opponent holds no spell: its hand is the false card alone), so the search plays a
    winning bet."""
    st = arrange(hands=([], []), mana=(30, 10), wall=11, wizards=(6, 12), round_start_wall=9)
    for seed in range(3):
        t = search(st, 0, LEVELS["normal"], seed=seed).action
        assert isinstance(t, Turn) and t.bet >= 11, t


def test_it_keeps_its_last_mana_while_the_opponent_can_push_the_wall_onto_it() -> None:
    """docs/rulings/firewall.md#running-out-of-mana (rule 21): with 5 mana against 20 the all-in
    hands the opponent the round: no candidate spends it."""
    st = arrange(mana=(5, 20))
    for seed in range(3):
        assert all(a.bet < 5 for a in candidates(st, 0, random.Random(seed)) if isinstance(a, Turn))
        t = search(st, 0, LEVELS["normal"], seed=seed).action
        assert isinstance(t, Turn) and t.bet < 5
