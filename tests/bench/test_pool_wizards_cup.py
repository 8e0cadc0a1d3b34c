"""The Wizards Cup opponent pool (bench/pool/wizards_cup.py): legal, deterministic, reads only
its own seat's information, and clearly stronger than a random player."""

from __future__ import annotations

import json
import random

import pytest

from bench.ai_play import play
from bench.heuristics import random_player
from bench.pool import PoolPlayer, pool
from rules.actions import ActionModel
from rules.core import CHANCE, State
from rules.match import Match
from rules.wizards_cup.state import WizardsCupState

SLUG = "wizards-cup"
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
def test_plays_whole_games_legally_against_every_other(name: str) -> None:
    """``play`` applies every action checked (an illegal one raises); every pairing finishes."""
    me = next(p for p in PLAYERS if p.name == name)
    for i, other in enumerate([*PLAYERS, None]):
        opp = random_player if other is None else other.play
        result = play(SLUG, [me.play, opp] if i % 2 == 0 else [opp, me.play], seed=40 + i)
        assert not result.unfinished
        assert sorted(result.scores) in ([0.0, 1.0], [0.5, 0.5])


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_for_a_seed(name: str) -> None:
    me = next(p for p in PLAYERS if p.name == name)
    log: list[list[ActionModel]] = [[], []]

    def recorder(k: int) -> PoolPlayer:
        def rec(state: State, seat: int, rng: random.Random) -> ActionModel:
            action = me.play(state, seat, rng)
            log[k].append(action)
            return action

        return PoolPlayer(me.name, SLUG, me.style, me.split, rec)

    for k in (0, 1):
        play(SLUG, [recorder(k).play, random_player], seed=7)
    assert log[0] == log[1] and log[0]


def _view(state: State, seat: int) -> str:
    return json.dumps(state.view(seat), sort_keys=True, default=str)


def test_reads_only_its_own_information() -> None:
    """The opponent's hidden order (its Deck during a round, its Waiting card) changed: the seat's
    view is the same, and so is every pool player's choice."""
    checked = 0
    for seed in range(6):
        state = Match.new(SLUG, seed=seed, seats=["P1", "P2"]).state
        rng = random.Random(seed)
        while not state.awaiting.is_terminal:
            aw = state.awaiting
            if aw.is_chance:
                state.apply(CHANCE, state.sample_action(CHANCE, rng))
                continue
            for seat in sorted(aw.seats):
                other = state.clone()
                assert isinstance(other, WizardsCupState)
                opp = other.players[1 - seat]
                if len(opp.pile) >= 2:
                    opp.pile = list(reversed(opp.pile))
                    if _view(other, seat) == _view(state, seat):
                        for p in PLAYERS:
                            assert p.play(state, seat, random.Random(3)) == p.play(other, seat, random.Random(3))
                        checked += 1
                state.apply(seat, state.sample_action(seat, rng))
    assert checked >= 5


@pytest.mark.parametrize("name", NAMES)
def test_beats_random_clearly(name: str) -> None:
    """At least 80 % of 20 games against a random player, seats alternated."""
    me = next(p for p in PLAYERS if p.name == name)
    score = 0.0
    for g in range(20):
        if g % 2 == 0:
            score += play(SLUG, [me.play, random_player], seed=g).scores[0]
        else:
            score += play(SLUG, [random_player, me.play], seed=g).scores[1]
    assert score / 20 >= 0.8
