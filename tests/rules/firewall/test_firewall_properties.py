"""Property tests over random legal Firewall matches (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.firewall import FirewallState
from rules.firewall.spells import DECK
from rules.match import Match

VARIANTS = st.sampled_from(["standard", "full_hand", "chosen_order"])


def check_invariants(m: Match) -> None:
    s = m.state
    assert isinstance(s, FirewallState)
    for p in s.players:
        assert 0 <= p.mana <= 50
        # every spell card in exactly one place: stock, hand, discard pile or in play
        where = Counter(p.cards())
        assert sorted(where) == list(DECK) and set(where.values()) == {1}
        assert p.hand.count(0) == 1  # the false card never leaves the hand
    assert 0 <= s.wall <= 18
    # docs/rulings/firewall.md#legal-turn (a bet of at least 1) and docs/rulings/firewall.md#out-of-mana (a player
    # at 0 casts nothing more): a seat asked for a turn always has mana to bet (the AI's opponent model relies on it).
    if s.phase.value == "turn" and not m.awaiting.is_terminal:
        assert all(s.players[seat].mana >= 1 for seat in m.awaiting.seats)
    if not m.awaiting.is_terminal:
        assert not s.is_broken(s.wall)
        w0, w1 = (p.wizard for p in s.players)
        assert w0 <= s.wall <= w1 and not s.is_broken(w0) and not s.is_broken(w1)
    assert s.round <= 7  # the bridge collapses: after round 7 at least one wizard has fallen


def random_turn(m: Match, seat: int, rng: random.Random) -> dict:
    """A random legal choice that plays fewer spells than uniform sampling (longer, richer games)."""
    s = m.state
    if (d := s.asked(seat)) is None or d.kind != "turn" or rng.random() < 0.3:
        return m.state.sample_action(seat, rng).to_json()
    p = s.players[seat]
    spells = [c for c in p.hand if rng.random() < 0.25]
    clone = None
    if 2 in spells:
        options = s.clone_options(seat)
        clone = rng.choice(options) if options else None
    bet = rng.randint(1, min(p.mana, rng.choice([3, 8, 15, 50])))
    return {"type": "turn", "bet": bet, "spells": spells, "clone": clone}


def play(seed: int, moves_seed: int, variant: str) -> Match:
    m = Match.new("firewall", {"variant": variant}, seed=seed, seats=["Ann", "Bob"])
    rng = random.Random(moves_seed)
    steps = 0
    while not m.awaiting.is_terminal:
        steps += 1
        assert steps < 2000, "the match must end"
        seat = rng.choice(sorted(m.awaiting.seats))
        m.act(seat, random_turn(m, seat, rng))
        check_invariants(m)
    return m


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), moves_seed=st.integers(0, 2**31), variant=VARIANTS)
def test_random_matches_keep_the_card_mana_and_bridge_invariants(seed, moves_seed, variant):
    # replay, determinism and termination in general: tests/rules/test_conformance.py
    m = play(seed, moves_seed, variant)
    assert m.outcome is not None and "game_end" in [e.kind for e in m.events]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31), moves_seed=st.integers(0, 2**31))
def test_a_pending_choice_never_shows_to_the_opponent_or_spectators(seed, moves_seed):
    m = Match.new("firewall", seed=seed)
    rng = random.Random(moves_seed)
    for _ in range(30):
        if m.awaiting.is_terminal:
            break
        seat = rng.choice(sorted(m.awaiting.seats))
        other = 1 - seat
        before = [json.dumps(m.state.view(v), sort_keys=True) for v in (None, other)]
        action = random_turn(m, seat, rng)
        events = m.act(seat, action)
        if m.state.resolution is None and m.state.players[seat].pending is not None:  # submitted, not yet revealed
            after = [m.state.view(v) for v in (None, other)]
            for v in after:
                v["players"][seat]["submitted"] = False
                v["players"][seat]["asked"] = "turn"
                v["awaiting"]["seats"] = sorted({*v["awaiting"]["seats"], seat})
            assert [json.dumps(v, sort_keys=True) for v in after] == before
            assert all(e.visible_to == frozenset({seat}) for e in events if e.kind != "submitted")


def random_action(rng: random.Random) -> dict:
    kind = rng.choice(["turn", "turn", "turn", "larceny", "recycle", "junk"])
    if kind == "turn":
        spells = [rng.randint(-1, 15) for _ in range(rng.randint(0, 3))]
        return {"type": "turn", "bet": rng.randint(-1, 55), "spells": spells, "clone": rng.choice([None, 7, 8])}
    if kind == "larceny":
        return {"type": "larceny", "apply": [rng.randint(0, 14)]}
    if kind == "recycle":
        return {"type": "recycle", "bet": rng.randint(0, 55)}
    return {"type": "junk"}


def is_legal(m: Match, seat: int, action: dict) -> bool:
    """An independent statement of legality of a random action."""
    s = m.state
    decision = s.asked(seat)
    asked = decision.kind if decision else None
    if seat not in m.awaiting.seats or action["type"] != asked:
        return False
    if asked == "turn":
        p = s.players[seat]
        spells = action["spells"]
        if not 1 <= action["bet"] <= p.mana or len(set(spells)) != len(spells):
            return False
        if any(c not in p.hand for c in spells):
            return False
        options = sorted({c for c in s.players[1 - seat].last_played if c != 2})
        if 2 in spells:
            return action["clone"] in options if options else action["clone"] is None
        return action["clone"] is None
    if asked == "recycle":
        bet, mana = s.resolution.bets[seat], s.players[seat].mana
        return max(1, bet - 5) <= action["bet"] <= min(mana, bet + 5)
    if asked == "larceny":
        return all(c in s.resolution.pending["stolen"] for c in action["apply"])
    return False


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31), rng_seed=st.integers(0, 2**31))
def test_no_illegal_action_is_ever_accepted_and_refusals_change_nothing(seed, rng_seed):
    rng = random.Random(rng_seed)
    m = Match.new("firewall", seed=seed)
    for _ in range(150):
        if m.awaiting.is_terminal:
            break
        seat = rng.choice([0, 1])
        action = random_action(rng)
        legal = is_legal(m, seat, action)
        before = (json.dumps(m.state.view(0)), json.dumps(m.state.view(1)), len(m.log))
        try:
            m.act(seat, action)
            accepted = True
        except RulesError:
            accepted = False
            assert (json.dumps(m.state.view(0)), json.dumps(m.state.view(1)), len(m.log)) == before
        assert accepted == legal, (action, m.state.asked(seat))
        if not accepted and seat in m.awaiting.seats:
            m.act(seat, random_turn(m, seat, rng))  # keep the match moving
