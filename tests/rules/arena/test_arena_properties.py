"""Property tests over random legal Arena games (hypothesis): the Arena invariants.

The generic contract (random games end and replay, illegal input changes nothing, JSON round
trips, the decision API) is tests/rules/test_conformance.py's. Random play ends: the
``game_turn_limit`` option (default 30 game turns) makes a match without a knock-out a draw, and
the random policy here ends a turn with a fair chance at each decision."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.arena import Act, ArenaState, EndTurn, Move, SelectModel, line_of_sight
from rules.arena.board import label
from rules.errors import RulesError
from rules.match import Match

from .helpers import duel, to_action

DISCIPLINES = [
    "artful_trickster",
    "astral_warlock",
    "blood_mage",
    "draconic_magus",
    "flesh_transmuter",
    "green_witch",
    "luminous_sorcerer",
    "metallurgist",
    "mermancer",
    "necromancer",
    "noble_scholar",
]


def check_invariants(s: ArenaState) -> None:
    squares = [m.pos for m in s.models.values()]
    assert len(squares) == len(set(squares)), "two models on one square"
    for m in s.models.values():
        assert 0 <= m.health <= m.max_health, m
        assert m.pos not in s.terrain, "a model on terrain"
        assert 0 <= m.pos[0] < s.size and 0 <= m.pos[1] < s.size
        if not m.is_wizard:
            assert m.health > 0
    for seat in (0, 1):
        assert s.players[seat].favour >= 0
        if s.phase not in ("discipline", "terrain", "edge", "deploy"):
            assert len(s.minions(seat)) <= 3
    assert s.view(None) == s.view(0) == s.view(1)


def play(seed: int, moves: random.Random, options: dict | None = None, end_bias: float = 0.3) -> Match:
    m = Match.new("arena", options or {}, seed=seed, seats=["Ann", "Bob"])
    steps = 0
    while not m.awaiting.is_terminal:
        steps += 1
        assert steps < 20_000
        seat = min(m.awaiting.seats)
        legal = m.state.legal_actions(seat)
        ending = EndTurn() in legal and moves.random() < end_bias
        action = EndTurn() if ending else legal[moves.randrange(len(legal))]
        m.act(seat, action)
        check_invariants(m.state)  # type: ignore[arg-type]
    return m


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    moves_seed=st.integers(0, 2**31),
    size=st.integers(8, 12),
    count=st.integers(4, 8),
    setup=st.sampled_from(["player1", "random"]),
)
def test_random_games_keep_the_invariants(seed, moves_seed, size, count, setup):
    """(That random games end and replay identically is the conformance test's, for every game.)"""
    options = {"grid_size": size, "terrain_count": count, "terrain_setup": setup, "game_turn_limit": 12}
    m = play(seed, random.Random(moves_seed), options)
    assert m.outcome is not None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_uniformly_random_play_with_default_options_terminates(seed):
    m = play(seed, random.Random(seed), None, end_bias=0.0)
    assert m.outcome is not None and m.state.game_turn <= 30


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    d1=st.sampled_from(DISCIPLINES),
    d2=st.sampled_from(DISCIPLINES),
    rng_seed=st.integers(0, 2**31),
)
def test_exactly_the_legal_moves_and_targets_are_accepted(d1, d2, rng_seed):
    """Random move squares and targets are accepted iff legal_actions lists them; a refusal leaves
    the state unchanged."""
    rng = random.Random(rng_seed)
    m = duel(
        d1, d2, pos={"p1-wizard": "E3", "p2-wizard": "F8", "p1-m1": "D5", "p2-m1": "G6"}, terrain=("E5", "F5", "C7")
    )
    to_action(m, spell=rng.choice(["arcane_rocket", "shield", "dominate", "empower", "summon_minion"]))
    s = m.state
    assert isinstance(s, ArenaState)
    for _ in range(40):
        if m.awaiting.is_terminal or m.awaiting.is_chance or s.prompt is not None or s.active != 0:
            break
        legal = s.legal_actions(0)
        ids = list(s.models) + ["nobody"]
        kind = rng.choice(["select", "move", "act", "act_at", "legal"])
        if kind == "select":
            action = SelectModel(model=rng.choice(ids))
        elif kind == "move":
            action = Move(to=(rng.randrange(-1, 11), rng.randrange(-1, 11)))
        elif kind == "act":
            action = Act(target=rng.choice(ids))
        elif kind == "act_at":
            action = Act(at=(rng.randrange(10), rng.randrange(10)))
        else:
            action = legal[rng.randrange(len(legal))]
        before = (s.view(None), len(m.log))
        try:
            m.apply(0, action)
            accepted = True
        except RulesError as exc:
            accepted = False
            assert str(exc)
            assert (s.view(None), len(m.log)) == before
        assert accepted == (action in legal), (action, legal)
        if accepted:
            m.resolve_chance()
            check_invariants(s)


@settings(max_examples=150, deadline=None)
@given(
    a=st.tuples(st.integers(0, 11), st.integers(0, 11)),
    b=st.tuples(st.integers(0, 11), st.integers(0, 11)),
    terrain=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=8),
)
def test_line_of_sight_is_symmetric_and_ignores_terrain_off_the_segment(a, b, terrain):
    ter = [t for t in terrain if t not in (a, b)]
    assert line_of_sight(a, b, ter) == line_of_sight(b, a, ter)
    # terrain outside the bounding box of the two squares never blocks
    outside = [
        t
        for t in ter
        if not (min(a[0], b[0]) <= t[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= t[1] <= max(a[1], b[1]))
    ]
    assert line_of_sight(a, b, outside)
    # in a straight row or column every square between blocks
    if a[1] == b[1] and abs(a[0] - b[0]) > 1:
        mid = ((a[0] + b[0]) // 2, a[1])
        if mid not in (a, b):
            assert not line_of_sight(a, b, [mid]), label(mid)
