"""Arena's normal and hard levels search over scripts (rules.ai.arena_portfolio, issue 32): the
scripts' answers are the candidates, played out on the same samples; easy keeps the tree."""

from __future__ import annotations

import pytest

from bench.pool.arena import PLAYERS
from rules.ai import choose
from rules.ai.arena_portfolio import DEPTH, playout, proposals, samples_for, search
from rules.ai.arena_script import SCRIPTS
from rules.ai.ismcts import LEVELS, iterations_for
from rules.ai.ismcts import search as tree_search
from rules.arena import Move
from rules.arena.game import Phase
from tests.rules.arena.helpers import W1, W2, duel, state, to_action


def _rush_position():  # type: ignore[no-untyped-def]
    """Our Draconic Magus (seat 0) on E2 with 5 Health, in reach of a Blood Mage on E8 (Move 4 +
    Boiling Blood's range 3): the scripts disagree on what the Wizard does."""
    m = duel("draconic_magus", "blood_mage", pos={W1: "E2", "p1-m1": "J1", W2: "E8", "p2-m1": "A10"})
    state(m).models[W1].health = 5
    to_action(m, spell="arcane_rocket")
    return m


def _disagreeing():  # type: ignore[no-untyped-def]
    """The first decision of the rush position (or a later one of that turn) the scripts disagree on."""
    m = _rush_position()
    st = state(m)
    for _ in range(20):
        if len(proposals(st, 0)) > 1:
            return st
        m.apply(0, next(iter(proposals(st, 0))))
    raise AssertionError("the scripts never disagree")


def test_the_scripts_are_the_tune_half_and_the_ais_own_mixes() -> None:
    """The holdout half of the pool (issue 32: reported apart) is no script of the AI."""
    holdout = {p.name for p in PLAYERS if p.split == "holdout"}
    tune = {p.name for p in PLAYERS if p.split == "tune"}
    assert holdout.isdisjoint(SCRIPTS)
    assert tune <= set(SCRIPTS)
    assert list(SCRIPTS)[0] == "screen"  # ties and set-up


def test_levels_take_their_samples_from_their_iterations() -> None:
    assert samples_for(LEVELS["normal"]) == 8
    assert samples_for(LEVELS["hard"]) == 30


def test_agreeing_scripts_are_answered_at_once() -> None:
    m = _rush_position()
    st = state(m)
    for _ in range(30):
        found = proposals(st, 0)
        if len(found) == 1 and st.phase == Phase.ACTION and st.active == 0:
            result = search(st, 0, LEVELS["normal"], seed=5)
            assert result.action == next(iter(found))
            assert result.iterations == 0 and not result.stats
            return
        m.apply(0, next(iter(found)))
    raise AssertionError("the scripts never agree")


def test_disagreeing_scripts_are_played_out_on_the_same_samples() -> None:
    st = _disagreeing()
    found = proposals(st, 0)
    result = search(st, 0, LEVELS["normal"], seed=7)
    assert set(result.stats) == set(found)
    assert all(n == 8 for n, _ in result.stats.values())
    assert result.stats[result.action][1] == max(mean for _, mean in result.stats.values())
    assert result.value == result.stats[result.action][1]
    again = search(st, 0, LEVELS["normal"], seed=7)
    assert (again.action, again.value) == (result.action, result.value)  # deterministic
    # every answer is scored on the same samples: sample k of an answer is playout(k, seeds[k])
    action, style = next(iter(found.items()))
    import random

    seeds = [random.Random(7).getrandbits(63) for _ in range(1)]
    first = playout(st, 0, action, style, 0, seeds[0])
    assert 0.0 <= first <= 1.0
    assert state_unchanged(st)


def state_unchanged(st) -> bool:  # type: ignore[no-untyped-def]
    """A playout works on a copy: the table is as it was (the decision is still awaited)."""
    return st.active == 0 and not st.awaiting.is_terminal and 0 in st.awaiting.seats


def test_playouts_stop_at_the_start_of_the_seats_next_turn() -> None:
    st = _disagreeing()
    action, style = next(iter(proposals(st, 0).items()))
    # DEPTH player turns: the rest of ours, then the enemy's, scored when ours comes again
    assert DEPTH == 2
    assert 0.0 <= playout(st, 0, action, style, 1, 99) <= 1.0


def test_choose_at_normal_goes_through_the_portfolio() -> None:
    """What the bot and the benchmark call (rules.ai.choose) plays the portfolio's answer."""
    st = _disagreeing()
    assert choose(st, 0, level="normal", seed=3) == search(st, 0, LEVELS["normal"], seed=3).action


def test_easy_keeps_the_tree() -> None:
    st = _disagreeing()
    result = tree_search(st, 0, LEVELS["easy"], seed=3)
    assert result.iterations == iterations_for(LEVELS["easy"], "arena")  # the tree's rounds, not samples
    assert sum(n for n, _ in result.stats.values()) == result.iterations


def test_a_given_answer_is_played_out_alone() -> None:
    """A review asks what a move played was worth: only that answer is played out (by the first
    script after it when no script proposes it)."""
    st = _disagreeing()
    moves = [a for a in st.legal_actions(0) if isinstance(a, Move)]
    target = moves[-1] if moves else st.legal_actions(0)[-1]
    result = tree_search(st, 0, LEVELS["normal"], seed=4, root_actions=[target])
    assert result.action == target and set(result.stats) == {target}
    assert result.stats[target][0] == 8


def test_the_discipline_is_the_one_whole_games_favour_most_against_every_tune_opponent() -> None:
    """A Discipline is chosen once and shapes the whole game: normal and hard take the one whose
    worst score against the pool's tune half, in the first script's hands, is highest
    (bench/arena_disciplines.py made the table; ruling 7: chosen at the same time, shown at once)."""
    from rules import Match
    from rules.ai.arena_portfolio import chosen_discipline, discipline_scores
    from rules.arena import DISCIPLINE_IDS, Arena, ChooseDiscipline

    scores = discipline_scores()
    assert set(scores) == set(DISCIPLINE_IDS)
    assert all(set(row) == {"rush", "screen"} for row in scores.values())
    pick = chosen_discipline()
    worst = {d: min(row.values()) for d, row in scores.items()}
    assert worst[pick.discipline] == max(worst.values())
    m = Match(Arena({}), 0, ["Ann", "Bob"])
    if m.state.awaiting.is_chance:
        m.resolve_chance()
    for seat in (0, 1):
        assert choose(m.state, seat, level="normal", seed=1) == pick
        assert choose(m.state, seat, level="hard", seed=2) == pick
    assert isinstance(pick, ChooseDiscipline)


@pytest.mark.slow
def test_the_discipline_table_is_what_the_generator_makes() -> None:
    """One entry of rules/ai/arena_disciplines.json regenerated (the same games, the same seeds):
    a change to the rules or the scripts that moves it means the table must be made again."""
    from bench.arena_disciplines import GAMES, score
    from rules.ai.arena_portfolio import chosen_discipline, discipline_scores

    pick = chosen_discipline().discipline
    assert round(score(pick, "screen", GAMES), 4) == discipline_scores()[pick]["screen"]


def test_the_ais_scripts_read_an_astral_warlocks_minions_sight() -> None:
    """docs/rulings/arena.md#action-phase, ruling 26: an Astral Warlock's Minion may strike any model
    its Wizard sees, whatever its range. The AI's scripts count that danger; the pool's rush and
    screen (measured as they are) count each Minion's own reach alone."""
    from rules.ai.arena_plan import Seen
    from rules.ai.arena_script import SCREEN
    from tests.rules.arena.helpers import sq

    m = duel("noble_scholar", "astral_warlock", pos={W1: "A1", "p1-m1": "A5", W2: "J1", "p2-m1": "J10"})
    st = state(m)
    here = sq("A1")  # 18 squares from the Void Born on J10 (Move 2 + Cosmic Volley 6), seen from J1
    assert SCRIPTS["screen"].weights.sight and not SCREEN.weights.sight
    ai, pool = Seen(st, 0, SCRIPTS["screen"].weights), Seen(st, 0, SCREEN.weights)
    volley = ai.threat_of(st.models["p2-m1"], st.eff_defence(st.models[W1])[0], False)[1]
    assert volley > 0
    assert ai.danger(here, True) == pool.danger(here, True) + volley
    st.terrain = [sq("E1")]  # the Warlock's Wizard no longer sees A1: only the reach counts
    ai, pool = Seen(st, 0, SCRIPTS["screen"].weights), Seen(st, 0, SCREEN.weights)
    assert ai.danger(here, True) == pool.danger(here, True)
