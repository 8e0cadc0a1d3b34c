"""Firewall's opponent pool (bench/pool/firewall.py, issue 32): legal, deterministic, blind to the
opponent's secrets, and clearly stronger than a uniformly random player."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bench.ai import play
from bench.heuristics import random_player
from bench.pool import Player, pool, pool_player
from bench.pool.firewall import PLAYERS
from rules.actions import ActionModel
from rules.core import CHANCE, State
from rules.firewall import FirewallState
from rules.match import Match

NAMES = [p.name for p in PLAYERS]
VARIANTS = ["standard", "full_hand", "chosen_order"]


def test_the_pool_has_four_styles_split_in_tune_and_holdout() -> None:
    assert NAMES == ["steady", "mirror", "opener", "spells"]
    assert pool("firewall") == PLAYERS
    assert {p.name: p.split for p in PLAYERS} == {
        "steady": "tune",
        "mirror": "tune",
        "opener": "holdout",
        "spells": "holdout",
    }
    for p in PLAYERS:
        assert pool_player("firewall", p.name) is p
        assert p.style and p.play.__doc__ and len(p.play.__doc__) > 200  # its strategy, said whole


class Recorder:
    """Wraps a player: checks each action is legal for the state it was given and records the
    decision kinds it answered and the actions it took."""

    def __init__(self, player: Player):
        self.player = player
        self.kinds: Counter[str] = Counter()
        self.actions: list[str] = []

    def __call__(self, state: State, seat: int, rng: random.Random) -> ActionModel:
        action = self.player(state, seat, rng)
        assert state.is_legal(seat, action), action
        self.kinds[str(state.view(seat)["you"]["asked"])] += 1
        self.actions.append(json.dumps(action.to_json(), sort_keys=True))
        return action


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_player_answers_every_decision_legally(variant: str) -> None:
    """Whole seeded games against random and against each other player: every decision kind the
    variant asks (turn, Larceny, Recycle, the stock order) is met and answered legally."""
    kinds: Counter[str] = Counter()
    for i, p in enumerate(PLAYERS):
        for j, opponent in enumerate([random_player, *(q.play for q in PLAYERS)]):
            for seed in range(2):
                me = Recorder(p.play)
                seats: list[Player] = [me, opponent] if seed % 2 == 0 else [opponent, me]
                result = play("firewall", seats, 100 * i + 10 * j + seed, {"variant": variant})
                assert not result.unfinished
                kinds += me.kinds
    assert kinds["turn"] > 0 and kinds["larceny"] > 0 and kinds["recycle"] > 0
    assert (kinds["order"] > 0) == (variant == "chosen_order")


@pytest.mark.parametrize("name", NAMES)
def test_a_player_is_deterministic_for_its_seed(name: str) -> None:
    runs = []
    for _ in range(2):
        me = Recorder(pool_player("firewall", name).play)
        other = Recorder(pool_player("firewall", "spells" if name != "spells" else "steady").play)
        result = play("firewall", [me, other], 7)
        runs.append((result.scores, me.actions, other.actions))
    assert runs[0] == runs[1]
    assert len(runs[0][1]) > 5


def _positions(seed: int) -> list[tuple[FirewallState, int]]:
    """Turn decisions (state copy, seat) along a seeded game between two pool players."""
    state = Match.new("firewall", seed=seed, seats=["A", "B"]).state
    assert isinstance(state, FirewallState)
    chance, rng = random.Random(seed), random.Random(seed + 1)
    out: list[tuple[FirewallState, int]] = []
    players = [PLAYERS[seed % 4].play, PLAYERS[(seed + 1) % 4].play]
    while not state.awaiting.is_terminal:
        aw = state.awaiting
        if aw.is_chance:
            state.apply(CHANCE, state.sample_action(CHANCE, rng=chance))
            continue
        picks = [(seat, players[seat](state, seat, rng)) for seat in sorted(aw.seats)]
        if state.view(0)["you"]["asked"] == "turn":
            out.append((state.clone(), picks[0][0]))
        for seat, action in picks:
            state.apply(seat, action)
    return out


def _secret_twin(state: FirewallState, seat: int, rng: random.Random) -> FirewallState:
    """``state`` with the opponent's hidden hand swapped for other cards of its hidden stock and a
    different secret turn submitted by it: the same for ``seat``'s eyes."""
    twin = state.clone()
    opp = twin.players[1 - seat]
    hand = [c for c in opp.hand if c != 0]
    if hand and opp.stock:
        k = min(len(hand), len(opp.stock))
        out, into = rng.sample(hand, k), rng.sample(opp.stock, k)
        opp.hand = sorted([c for c in opp.hand if c not in out] + into)
        opp.stock = [c for c in opp.stock if c not in into] + out
    twin.apply(1 - seat, twin.sample_action(1 - seat, rng))
    return twin


@pytest.mark.parametrize("name", NAMES)
def test_a_player_reads_only_what_its_seat_may_know(name: str) -> None:
    """Two states that differ only in the opponent's hidden hand and secret turn give the same
    action (with the same rng)."""
    player = pool_player("firewall", name).play
    compared = differing = 0
    for seed in range(3):
        for k, (state, seat) in enumerate(_positions(seed)):
            rng = random.Random(k)
            a, b = _secret_twin(state, seat, rng), _secret_twin(state, seat, rng)
            assert json.dumps(a.view(seat), sort_keys=True) == json.dumps(b.view(seat), sort_keys=True)
            hidden_a = [json.dumps(a.view(s), sort_keys=True, default=str) for s in (0, 1)]
            hidden_b = [json.dumps(b.view(s), sort_keys=True, default=str) for s in (0, 1)]
            differing += hidden_a != hidden_b or a.players[1 - seat].pending != b.players[1 - seat].pending
            assert player(a, seat, random.Random(k)) == player(b, seat, random.Random(k))
            compared += 1
    assert compared > 20 and differing > compared // 2


@pytest.mark.parametrize("name", NAMES)
def test_a_player_beats_random_clearly(name: str) -> None:
    """At least 18 of 20 games against a uniformly random player, seats alternated."""
    player = pool_player("firewall", name).play
    score = 0.0
    for seed in range(20):
        if seed % 2 == 0:
            score += play("firewall", [player, random_player], 5000 + seed).scores[0]
        else:
            score += play("firewall", [random_player, player], 5000 + seed).scores[1]
    assert score >= 18


def test_styles_differ() -> None:
    """The four styles lay different turns from the same positions (not one player four times)."""
    laid: dict[str, list[Any]] = {p.name: [] for p in PLAYERS}
    for state, seat in _positions(4)[:30]:
        for p in PLAYERS:
            action = p.play(state, seat, random.Random(0))
            laid[p.name].append(action.to_json())
    values = list(laid.values())
    assert all(values[i] != values[j] for i in range(4) for j in range(i + 1, 4))
