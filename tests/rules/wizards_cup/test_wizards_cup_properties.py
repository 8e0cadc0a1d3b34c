"""Property tests over random legal Wizards Cup games (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.match import Match
from rules.wizards_cup import Phase, Step, load_card_set

CARDS = load_card_set().ids


def check_accounting(m: Match) -> None:
    """Every player's six cards are in exactly one place: Deck, Waiting, Duel zone or discard."""
    for p in m.state.players:
        if m.state.phase is Phase.DUELS or (m.state.phase is Phase.PREPARE and p.step is Step.DONE):
            where = Counter(p.cards_in_play())
            assert sorted(where) == sorted(p.team) and all(n == 1 for n in where.values())
        if p.team:
            assert len(p.team) in (1, 6) and len(set(p.team)) == len(p.team)


def play(seed: int, moves: random.Random) -> Match:
    m = Match.new("wizards-cup", seed=seed, seats=["Ann", "Bob"])
    while not m.awaiting.is_terminal:
        seat = moves.choice(sorted(m.awaiting.seats))
        m.act(seat, m.state.sample_action(seat, moves))
        check_accounting(m)
        assert m.state.round <= 3
    return m


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), moves_seed=st.integers(0, 2**31))
def test_random_games_keep_every_card_and_end_within_three_rounds(seed, moves_seed):
    # docs/rulings/wizards-cup.md#three-rounds-at-most: a game ends within three rounds
    m = play(seed, random.Random(moves_seed))
    assert m.outcome is not None


def random_action(rng: random.Random) -> dict:
    kind = rng.choice(["choose_deck", "plan", "swap", "botanist", "junk"])
    cards = lambda k: [rng.choice(CARDS + ["ghost"]) for _ in range(k)]  # noqa: E731
    if kind == "choose_deck":
        return {"type": kind, "cards": cards(rng.choice([4, 5, 5, 5]))}
    if kind == "plan":
        return {"type": kind, "order": cards(5), "waiting": rng.choice(CARDS)}
    if kind == "swap":
        return (
            {"type": kind, "remove": rng.choice(CARDS), "add": rng.choice(CARDS)}
            if rng.random() < 0.8
            else {"type": kind}
        )
    if kind == "botanist":
        return {"type": kind, "discard": rng.random() < 0.5}
    return {"type": "junk"}


def is_legal(m: Match, seat: int, action: dict) -> bool:
    """An independent statement of legality for the random action."""
    st_ = m.state
    if seat not in m.awaiting.seats:
        return False
    decision = st_.asked(seat)
    assert decision is not None
    step = decision.kind
    p = st_.players[seat]
    if action["type"] != {"choose_deck": "choose_deck", "plan": "plan", "swap": "swap", "botanist": "botanist"}.get(
        step
    ):
        return False
    if step == "choose_deck":
        c = action["cards"]
        return len(c) == 5 and len(set(c)) == 5 and all(x in CARDS for x in c) and p.random_pick not in c
    if step == "plan":
        return sorted([*action["order"], action["waiting"]]) == sorted(p.team)
    if step == "swap":
        if "remove" not in action:
            return True
        return action["remove"] in p.team and action["add"] in CARDS and action["add"] not in p.team
    return True


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**31), rng_seed=st.integers(0, 2**31))
def test_no_illegal_action_is_ever_accepted(seed, rng_seed):
    rng = random.Random(rng_seed)
    m = Match.new("wizards-cup", seed=seed, seats=["Ann", "Bob"])
    for _ in range(200):
        if m.awaiting.is_terminal:
            break
        seat = rng.choice([0, 1])
        action = random_action(rng)
        legal = is_legal(m, seat, action)
        before = (m.state.view(0), m.state.view(1), len(m.log))
        try:
            m.act(seat, action)
            accepted = True
        except RulesError:
            accepted = False
            assert (m.state.view(0), m.state.view(1), len(m.log)) == before
        assert accepted == legal, (action, m.state.asked(seat))
        if not accepted and rng.random() < 0.5 and seat in m.awaiting.seats:
            m.act(seat, m.state.sample_action(seat, rng))  # keep the game moving
