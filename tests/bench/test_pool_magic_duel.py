"""The Magic Duel opponent pool (bench/pool/magic_duel.py): legal at 2 and 4 seats, games end
(no tie recast forever, ruling 20), deterministic, reads only its own seat's information, and
clearly stronger than random players."""

from __future__ import annotations

import json
import random

import pytest

from bench.ai_play import Player, play
from bench.heuristics import random_player
from bench.pool import pool
from rules.actions import ActionModel
from rules.core import CHANCE, State
from rules.magic_duel.state import MagicDuelState
from rules.match import Match

SLUG = "magic-duel"
SHORT = {"points_to_win": 1}
PLAYERS = pool(SLUG)
NAMES = [p.name for p in PLAYERS]


def test_pool_has_four_documented_players_split_in_halves() -> None:
    assert len(PLAYERS) >= 4
    assert len(set(NAMES)) == len(NAMES)
    assert [p.split for p in PLAYERS[:2]] == ["tune", "tune"]
    assert [p.split for p in PLAYERS[-2:]] == ["holdout", "holdout"]
    for p in PLAYERS:
        assert p.play.__doc__ and len(p.play.__doc__) > 80 and p.style


@pytest.mark.parametrize("name", NAMES)
def test_plays_whole_games_legally_with_two_seats(name: str) -> None:
    """Every action is applied checked (an illegal one raises); every pairing, the same player
    on both sides included, finishes (to 3 points, the default)."""
    me = next(p for p in PLAYERS if p.name == name)
    for i, other in enumerate(PLAYERS):
        result = play(SLUG, [me.play, other.play] if i % 2 == 0 else [other.play, me.play], seed=60 + i)
        assert not result.unfinished


def test_plays_whole_games_legally_with_four_seats() -> None:
    """The whole pool at one 4-seat table, the seats rotated, and each player with three randoms."""
    for k in range(4):
        players = [p.play for p in PLAYERS[k:] + PLAYERS[:k]][:4]
        assert not play(SLUG, players, seed=80 + k).unfinished
        mixed: list[Player] = [random_player] * 4
        mixed[k] = PLAYERS[k].play
        assert not play(SLUG, mixed, seed=90 + k, options=SHORT).unfinished


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_for_a_seed(name: str) -> None:
    me = next(p for p in PLAYERS if p.name == name)
    logs: list[list[ActionModel]] = [[], []]
    for k in (0, 1):

        def rec(state: State, seat: int, rng: random.Random, k: int = k) -> ActionModel:
            action = me.play(state, seat, rng)
            logs[k].append(action)
            return action

        play(SLUG, [rec, random_player, me.play], seed=11, options=SHORT)
    assert logs[0] == logs[1] and logs[0]


def _view(state: State, seat: int) -> str:
    return json.dumps(state.view(seat), sort_keys=True, default=str)


@pytest.mark.parametrize("seats", [2, 4])
def test_reads_only_its_own_information(seats: int) -> None:
    """An opponent's hand card traded with one of the Deck of Advantage (hidden from the seat):
    the seat's view is unchanged, and so is every pool player's choice."""
    checked = 0
    for seed in range(4):
        state = Match.new(SLUG, seed=seed, seats=[f"P{i + 1}" for i in range(seats)], options=SHORT).state
        rng = random.Random(seed)
        while not state.awaiting.is_terminal:
            aw = state.awaiting
            if aw.is_chance:
                state.apply(CHANCE, state.sample_action(CHANCE, rng))
                continue
            seat = min(aw.seats)
            other = state.clone()
            assert isinstance(other, MagicDuelState)
            opp = (seat + 1) % seats
            if other.hands[opp] and other.advantage:
                i = rng.randrange(len(other.hands[opp]))
                other.hands[opp][i], other.advantage[-1] = other.advantage[-1], other.hands[opp][i]
                if "CURSE" not in other.hands[opp] and _view(other, seat) == _view(state, seat):
                    for p in PLAYERS:
                        assert p.play(state, seat, random.Random(5)) == p.play(other, seat, random.Random(5))
                    checked += 1
            state.apply(seat, state.sample_action(seat, rng))
    assert checked >= 10


@pytest.mark.parametrize("name", NAMES)
def test_beats_random_clearly_two_seats(name: str) -> None:
    """At least 80 % of 20 games (to 1 point) against a random player, seats alternated."""
    me = next(p for p in PLAYERS if p.name == name)
    score = 0.0
    for g in range(20):
        if g % 2 == 0:
            score += play(SLUG, [me.play, random_player], seed=g, options=SHORT).scores[0]
        else:
            score += play(SLUG, [random_player, me.play], seed=g, options=SHORT).scores[1]
    assert score / 20 >= 0.8


@pytest.mark.parametrize("name", NAMES)
def test_beats_three_randoms_at_a_four_seat_table(name: str) -> None:
    """Well above the fair share (25 %) at a table of four, three of them random, seat rotated."""
    me = next(p for p in PLAYERS if p.name == name)
    score = 0.0
    for g in range(20):
        players: list[Player] = [random_player] * 4
        players[g % 4] = me.play
        score += play(SLUG, players, seed=200 + g, options=SHORT).scores[g % 4]
    assert score / 20 >= 0.5
