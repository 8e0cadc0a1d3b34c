"""Firewall's AI on constructed positions (issue 32): the bidding game's value table, the mana kept
against the opponent's leftover push, and no spell combination that harms its caster."""

from __future__ import annotations

from typing import Any

import pytest

from rules.ai import choose
from rules.ai import firewall_prune as fp
from rules.ai import firewall_value as fv
from rules.ai.ismcts import Budget, search
from rules.ai.policy import tuning
from rules.firewall import Turn
from tests.rules.firewall.helpers import arrange

SEEDS = range(4)


def _tree_turns(st: Any, seat: int = 0, seeds: range = SEEDS) -> list[Turn]:
    """The tree's picks (easy's search, at normal's iterations: a hand-made budget is no level)."""
    picks = [search(st, seat, Budget(400), seed=s).action for s in seeds]
    assert all(isinstance(t, Turn) and st.is_legal(seat, t) for t in picks)
    return picks  # type: ignore[return-value]


def _turns(st: Any, seat: int = 0, seeds: range = SEEDS) -> list[Turn]:
    """The level normal's picks (rules.ai.firewall_portfolio), then the tree's."""
    picks = [choose(st, seat, level="normal", seed=s) for s in seeds]
    assert all(isinstance(t, Turn) and st.is_legal(seat, t) for t in picks)
    return [t for t in picks if isinstance(t, Turn)] + _tree_turns(st, seat, seeds)


def _root_turns(st: Any, seat: int = 0) -> list[Turn]:
    """Every turn the search's root considers for ``seat`` (registered as the search does)."""
    tune = tuning("firewall")
    assert tune.prune is not None
    fp.mark_root(st, seat)
    return list(tune.prune(st, seat, st.legal_actions(seat)))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the value table
@pytest.mark.slow
def test_the_stored_table_matches_a_regenerated_slice() -> None:
    """bench/firewall_values.py regenerates the positions with at most 8 mana each (they never
    depend on more mana): the stored chances are the same (to the storage's rounding)."""
    pytest.importorskip("scipy")
    from bench.firewall_values import solve_round

    small = solve_round(8)
    worst = 0.0
    for m in range(9):
        for n in range(9):
            for k in range(1, 6):
                stored = fv.ends(m, n, k)
                worst = max(worst, *(abs(a - b) for a, b in zip(stored, small[m, n, k], strict=True)))
    assert worst < 1e-3


def test_the_value_reads_the_match() -> None:
    """A fair start is worth a half; more mana, the wall nearer the opponent, a round begun nearer
    the opponent's end are worth more; a position that loses the round on the last bridge loses."""
    assert fv.match_value(9, 0) == pytest.approx(0.5, abs=0.02)
    assert fv.value(9, 0, 30, 20, 3) > fv.value(9, 0, 20, 30, 3)
    assert fv.value(9, 0, 20, 20, 4) > fv.value(9, 0, 20, 20, 3) > fv.value(9, 0, 20, 20, 2)
    assert fv.match_value(10, 2) > fv.match_value(9, 2) > fv.match_value(8, 2)
    # Round 7 (6 flagstones broken each end): the wall must end on the opponent's side or I fall.
    assert fv.value(9, 6, 0, 10, 3) < 0.01
    mix = fv.equilibrium(9, 0, 50, 50, 3)
    assert sum(s for _, s in mix) == pytest.approx(1.0)
    assert len(mix) > 1  # a mixed bet: nothing for an opponent to read


# ---------------------------------------------------------------------------- mana over the round
@pytest.mark.slow
def test_never_spends_the_last_mana_while_the_opponent_can_push_the_wall_onto_it() -> None:
    """docs/rulings/firewall.md#running-out-of-mana (rule 21): at 0 mana the opponent's leftover
    mana pushes the wall one flagstone per point. With 5 mana against 20, the wall 3 from each
    wizard, betting all 5 lets the opponent (betting 1) push 19 flagstones: the AI bets less, and
    the pruning never offers the all-in at any node."""
    st = arrange(mana=(5, 20))
    assert all(t.bet < 5 for t in _turns(st))
    assert fp.safe_bets(5, 20, 3) == [1, 2, 3, 4]
    st1 = arrange(mana=(20, 4))  # seat 1 too
    assert all(t.bet < 4 for t in _turns(st1, seat=1))


@pytest.mark.slow
def test_the_last_mana_may_go_when_winning_the_turn_wins_the_round() -> None:
    """docs/rulings/firewall.md#running-out-of-mana: the wall one flagstone from the opponent's
    wizard, winning the turn ends the round before any leftover push: the all-in stays allowed."""
    assert fp.safe_bets(5, 20, 5) == [1, 2, 3, 4, 5]
    st = arrange(mana=(6, 5), wall=11, wizards=(6, 12), round_start_wall=9)  # my bet of 6 wins for sure
    assert all(t.bet == 6 for t in _turns(st))


# ---------------------------------------------------------------------------- spells that harm
def _real(t: Turn) -> list[int]:
    return [c for c in t.spells if c != 0]


@pytest.mark.slow
def test_no_muteness_with_its_own_other_spells() -> None:
    """docs/rulings/firewall.md#the-spells (rule 10): Muteness silences every later spell of the
    turn, the caster's own Double Dose and Suction included."""
    st = arrange(hands=([1, 8, 14], [7]), mana=(40, 40))
    for t in _root_turns(st) + _turns(st):
        assert not (1 in t.spells and len(_real(t)) > 1), t


@pytest.mark.slow
def test_no_end_of_round_with_middle_nor_end_of_round_that_keeps_the_wall_on_its_side() -> None:
    """docs/rulings/firewall.md#the-spells (rules 13, 14): End of Round ends the round at once and
    every later spell (Middle) is lost; ending the round with the wall nearer one's own wizard
    than where it began fixes it there. Middle helps only when the wall is on one's own side."""
    st = arrange(hands=([4, 5], []), mana=(50, 50))  # the first turn of a round: the wall at the start
    for t in _root_turns(st) + _turns(st):
        assert not {4, 5} <= set(t.spells), t
        assert 5 not in t.spells  # the wall is where the round began: Middle cannot help
    # The wall 2 from my wizard but my mana 40 against 10: playing on wins the round; ending it
    # would fix the wall on my side.
    behind = arrange(hands=([4, 5], []), mana=(40, 10), wall=8, wizards=(6, 12), round_start_wall=9)
    for t in _root_turns(behind) + _turns(behind):
        assert 4 not in t.spells, t
    # The wall 2 from the opponent's wizard and my mana 10 against 40: ending the round keeps the gain.
    ahead = arrange(hands=([4], []), mana=(10, 40), wall=11, wizards=(6, 12), round_start_wall=9)
    assert any(4 in t.spells for t in _root_turns(ahead))


@pytest.mark.slow
def test_no_inferno_on_a_turn_it_may_lose_and_no_reserve_at_full_mana() -> None:
    """docs/rulings/firewall.md#the-spells (rules 17, 20): Inferno moves the wall two flagstones
    whichever way it goes, so it is cast with an attack the opponent's mana cannot beat (or with
    Resistance); Reserve Boost and Suction gain nothing at 50 mana; Winner Loses goes with bet 1."""
    st = arrange(hands=([9, 10, 13, 14], []), mana=(50, 30))
    for t in _root_turns(st) + _turns(st):
        assert not {13, 14} & set(t.spells), t
        if 10 in t.spells and 9 not in t.spells:
            assert t.bet > 30, t
        if 9 in t.spells:
            assert t.bet == 1, t
    muted = arrange(hands=([7, 8, 11], []), mana=(30, 30), muted=True)
    assert all(not _real(t) for t in _root_turns(muted) + _turns(muted))  # rule 10: every spell lost


@pytest.mark.slow
def test_the_root_bet_is_drawn_from_the_equilibrium_and_is_deterministic() -> None:
    """The tree's root bet is one of the equilibrium mix's bets, the same for a seed; the spells on top."""
    st = arrange(hands=([7, 11], [8]), mana=(50, 50))
    bets = {b for b, _ in fv.equilibrium(*fv.context(st, 0))}
    picks = _tree_turns(st)
    assert {t.bet for t in picks} <= bets
    assert picks == _tree_turns(st)


def test_the_opponent_model_lays_spells_at_the_rate_the_seat_has_shown() -> None:
    """The model's spells: as many per turn as the seat has shown (its discard pile over the turns
    revealed, one in two turns as a prior), not half its hand; every draw legal."""
    import random

    from rules.ai import firewall as fw
    from tests.rules.firewall.helpers import turn

    st = arrange(hands=([], [3, 6, 7, 8, 11, 12, 13, 14]))
    for _ in range(4):  # four plain turns: seat 1 showed no spell
        turn(st, (1, []), (1, []))
    rng = random.Random(2)
    draws = [fw.model(st, 1, rng) for _ in range(600)]
    assert all(d is not None and st.is_legal(1, d) for d in draws)
    spells = [len([c for c in d.spells if c]) for d in draws if isinstance(d, Turn)]
    # 1 / 6 spells a turn expected (plus the random surprises), far from the hand's half (4)
    assert sum(spells) / len(spells) < 1.2
