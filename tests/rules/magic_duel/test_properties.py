"""Property tests over random legal Magic Duel games with 2 to 8 players (hypothesis)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import Forfeit
from rules.errors import RulesError
from rules.magic_duel import Phase, classify
from rules.match import Match

from .helpers import accounting

PRIVATE_KINDS = {"hand_dealt", "play_private", "risk_private", "draw_private"}
MAX_STEPS = 3000


def strings(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(strings(v) for v in obj)) if obj else set()
    return set()


def check_secrets(m: Match) -> None:
    """Face-down spells and hands never show in the spectator view or public events."""
    s = m.state
    spectator = s.view(None)
    assert "you" not in spectator
    if s.trick is not None:
        shown = strings(s.last_trick) if s.last_trick else set()
        hidden = {c for p in s.trick.plays if not p.face_up for c in p.cards} - shown
        assert not hidden & strings(spectator)
        for p in spectator["trick"]["plays"]:
            assert (p["cards"] is None) == (not p["face_up"])
    for seat in range(s.num_seats):
        assert sorted(s.view(seat)["you"]["hand"]) == sorted(s.hands[seat])


def check_events(m: Match, start: int) -> None:
    for e in m.events[start:]:
        if e.kind in PRIVATE_KINDS:
            assert e.visible_to is not None and len(e.visible_to) == 1
        if e.kind == "play_face_down":
            assert "cards" not in e.data
        json.dumps(e.to_json())


def play(n: int, seed: int, rng: random.Random, points: int, forfeit_rate: float = 0.0) -> Match:
    m = Match.new("magic-duel", {"points_to_win": points}, seed=seed, seats=[f"P{i}" for i in range(n)])
    steps = 0
    while not m.awaiting.is_terminal:
        steps += 1
        assert steps < MAX_STEPS, "random play did not end"
        before = len(m.events)
        if forfeit_rate and rng.random() < forfeit_rate:
            seat = rng.choice(m.state.active)
            m.act(seat, Forfeit(reason=rng.choice(["resign", "timeout", "left"])))
        else:
            seat = min(m.awaiting.seats)
            m.act(seat, m.state.sample_action(seat, rng))
        accounting(m.state)
        assert all(len(h) <= 8 for h in m.state.hands)
        assert all(not m.state.hands[s] for s in m.state.removed)
        check_events(m, before)
        check_secrets(m)
        if not m.awaiting.is_terminal:
            assert not (m.awaiting.seats & set(m.state.removed))
    return m


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), seed=st.integers(0, 2**31), moves=st.integers(0, 2**31), points=st.integers(1, 2))
def test_random_games_account_for_every_card_and_keep_secrets(n, seed, moves, points):
    m = play(n, seed, random.Random(moves), points)
    out = m.outcome
    assert out is not None and out.winners
    best = max(m.state.points)
    assert best >= points and sorted(out.winners) == [s for s in range(n) if m.state.points[s] == best]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), seed=st.integers(0, 2**31), moves=st.integers(0, 2**31))
def test_random_forfeits_remove_seats_and_rank_them_last(n, seed, moves):
    m = play(n, seed, random.Random(moves), points=2, forfeit_rate=0.04)
    out = m.outcome
    removed = m.state.removed
    active = m.state.active
    assert out is not None
    assert all(out.ranks[r] > out.ranks[a] for r in removed for a in active)
    ranks_removed = [out.ranks[s] for s in reversed(removed)]
    assert ranks_removed == sorted(ranks_removed) and len(set(ranks_removed)) == len(ranks_removed)
    assert set(out.winners) <= set(active)
    if len(active) == 1:
        assert out.winners == active
    for s in range(n):
        m.state.view(s)


def random_action(m: Match, seat: int, rng: random.Random) -> dict:
    hand = list(m.state.hands[seat]) or ["AS"]
    pool = hand + ["KC", "JK1", "5D#2", "ZZ"]
    kind = rng.choice(["play", "play", "play", "draw", "junk"])
    if kind == "play":
        k = rng.choice([1, 1, 2, 2, 3, 4])
        cards = [rng.choice(pool) for _ in range(k)]
        risk = rng.choice([None, None, rng.choice(pool)])
        return {"type": "play", "cards": cards, "risk": risk}
    if kind == "draw":
        a = {"type": "draw", "risk": rng.randint(0, 4)}
        if rng.random() < 0.3:
            a["advantage"] = rng.randint(0, 4)
        return a
    return {"type": "junk"}


def is_legal(m: Match, seat: int, a: dict) -> bool:
    s = m.state
    if seat not in m.awaiting.seats:
        return False
    if s.phase is Phase.TRICK:
        if a["type"] != "play":
            return False
        named = a["cards"] + ([a["risk"]] if a["risk"] is not None else [])
        hand = s.hands[seat]
        return len(set(named)) == len(named) and all(c in hand for c in named) and classify(a["cards"]) is not None
    if s.phase is Phase.DRAW:
        if a["type"] != "draw":
            return False
        need = 7 - len(s.hands[seat])
        adv = a.get("advantage")
        return a["risk"] <= need and a["risk"] <= len(s.risk) and (adv is None or adv == need - a["risk"])
    return False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), seed=st.integers(0, 2**31), rng_seed=st.integers(0, 2**31))
def test_no_illegal_action_is_ever_accepted(n, seed, rng_seed):
    rng = random.Random(rng_seed)
    m = Match.new("magic-duel", {"points_to_win": 1}, seed=seed, seats=[f"P{i}" for i in range(n)])
    for _ in range(150):
        if m.awaiting.is_terminal:
            break
        seat = rng.randrange(n)
        action = random_action(m, seat, rng)
        legal = is_legal(m, seat, action)
        before = ([m.state.view(s) for s in range(n)], len(m.log))
        try:
            m.act(seat, action)
            accepted = True
        except RulesError as exc:
            accepted = False
            assert str(exc)
            assert ([m.state.view(s) for s in range(n)], len(m.log)) == before
        assert accepted == legal, (action, m.state.phase)
        if not accepted and m.awaiting.seats:
            s = min(m.awaiting.seats)
            m.act(s, m.state.sample_action(s, rng))  # keep the game moving
