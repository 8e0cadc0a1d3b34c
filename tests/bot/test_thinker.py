"""What a computer's worker process computes (bot/thinker.py): hints that read nothing the seat
cannot see (the same hint from two states that look the same from the seat), a hint's account of
a move only when it does not depend on hidden cards (a Magic Duel draw is described by its split,
never by the sampled cards it would bring), and decisions fixed by their seed."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from bot.thinker import decision_seed, hint, think
from cogs.games import get_ui
from rules.ai.determinize import determinize
from rules.core import CHANCE, State
from rules.match import Match

HIDDEN = [("wizards-cup", 2), ("firewall", 2), ("magic-duel", 3)]


def view_text(state: State, seat: int | None) -> str:
    return json.dumps(state.view(seat), sort_keys=True, default=str)


def hidden_text(state: State) -> str:
    return "|".join(view_text(state, s) for s in range(state.num_seats))


def decisions(slug: str, seats: int, seed: int, every: int = 3):
    """(state, seat) at every ``every``-th decision of a seeded random game."""
    rng = random.Random(seed)
    state = Match.new(slug, seed=seed, seats=[f"P{i + 1}" for i in range(seats)]).state
    k = 0
    while not state.awaiting.is_terminal:
        if state.awaiting.is_chance:
            state.apply(CHANCE, state.sample_action(CHANCE, rng))
            continue
        seat = min(state.awaiting.seats)
        if k % every == 0:
            yield state, seat
        k += 1
        state.apply(seat, state.sample_action(seat, rng))


@pytest.mark.parametrize("slug, seats", HIDDEN)
def test_a_hint_is_the_same_from_states_that_look_the_same(slug: str, seats: int) -> None:
    compared = 0
    for state, seat in decisions(slug, seats, seed=5, every=1):
        if len(state.legal_actions(seat)) < 2:
            continue
        twin = next(
            (
                other
                for k in range(20)
                if view_text(other := determinize(state, seat, random.Random(900 + k)), seat) == view_text(state, seat)
                and hidden_text(other) != hidden_text(state)
            ),
            None,
        )
        if twin is None:
            continue
        twin.narrate = True
        assert hint(pickle.dumps(state), seat, "easy", 21) == hint(pickle.dumps(twin), seat, "easy", 21)
        compared += 1
        if compared == 3:
            break
    assert compared == 3


def test_a_draw_hint_names_the_split_not_the_sampled_cards() -> None:
    for state, seat in decisions("magic-duel", 3, seed=8, every=1):
        decision = state.asked(seat)
        if decision is not None and decision.kind == "draw" and len(decision.choices) > 1:
            break
    else:
        raise AssertionError("no draw with a choice in the game")
    result = hint(pickle.dumps(state), seat, "easy", 4)
    assert result.texts == ()  # what the draw brings depends on the sample: not told
    words = get_ui("magic-duel").describe(result.action)
    assert words.startswith(f"Draw {result.action['risk']} from the Deck of Risk")
    assert 0.0 <= result.chance <= 1.0


def test_a_firewall_hint_tells_the_turn_as_the_prompt_records_it() -> None:
    state, seat = next(decisions("firewall", 2, seed=3))
    result = hint(pickle.dumps(state), seat, "easy", 9)
    assert len(result.texts) == 1 and result.texts[0].startswith("You bet ")


def test_a_decision_is_fixed_by_its_seed() -> None:
    state, seat = next(decisions("wizards-cup", 2, seed=2))
    blob = pickle.dumps(state)
    seed = decision_seed(2, 7, seat)
    assert think(blob, seat, "easy", seed) == think(blob, seat, "easy", seed)
    assert decision_seed(2, 7, seat) != decision_seed(2, 8, seat) != decision_seed(2, 7, seat, "hint")


def test_a_time_limit_stops_the_search_inside_the_worker() -> None:
    """The service passes the worker a time cap below its own wait (bot.matches.computer): the
    search stops there with a legal action instead of running on after the service gave up."""
    from unittest.mock import patch

    from bot.matches.computer import _search_limit

    state, seat = next(decisions("firewall", 2, seed=9, every=1))
    blob = pickle.dumps(state)
    looks: list[float] = []

    def clock() -> float:  # a second passes at each look: the cap is over after the first playout
        looks.append(float(len(looks)))
        return looks[-1]

    with patch("rules.ai.ismcts.time.perf_counter", clock):
        capped = think(blob, seat, "hard", decision_seed(1, 0, seat), time_limit=0.05)
    assert state.is_legal(seat, capped)
    assert 2 <= len(looks) <= 3  # the deadline set, then one look after the first playout: stopped
    # the cap sits inside the wait, with room for the hop to the worker and back
    for wait in (0.5, 2.0, 20.0):
        assert 0.2 <= _search_limit(wait) < wait
