"""The Arena opponent pool (issue 32, ``bench/pool/arena.py``): four rule-based styles that always
answer legally, decide the same way for the same seed, beat a random player clearly and play their
styles on constructed positions."""

from __future__ import annotations

import random

import pytest

from bench.ai import play
from bench.heuristics import Player, random_player
from bench.pool import pool, pool_player
from bench.pool.arena import PLAYERS
from rules import Match
from rules.actions import ActionModel
from rules.arena import ArenaState, manhattan
from rules.arena.actions import ChooseSpell, Move, SpendFavour
from rules.core import CHANCE, State

SMALL = {"grid_size": 8, "terrain_count": 4}
NAMES = [p.name for p in PLAYERS]


def _checked(player: Player, log: list[ActionModel]) -> Player:
    """``player``, asserting each answer is among the seat's legal actions, and logging it."""

    def play_checked(state: State, seat: int, rng: random.Random) -> ActionModel:
        action = player(state, seat, rng)
        assert state.is_legal(seat, action), action
        legal = state.legal_actions(seat)
        assert any(a == action for a in legal) or action.to_json()["type"] == "choose_discipline"
        log.append(action)
        return action

    return play_checked


def test_the_pool_has_four_documented_styles_split_in_halves() -> None:
    assert pool("arena") == PLAYERS
    assert NAMES == ["rush", "screen", "kite", "crowd"]
    assert [p.split for p in PLAYERS] == ["tune", "tune", "holdout", "holdout"]
    for p in PLAYERS:
        assert pool_player("arena", p.name) is p
        assert p.slug == "arena" and p.style
        assert p.play.__doc__ is not None and len(p.play.__doc__) > 200


@pytest.mark.parametrize("name", NAMES)
def test_every_decision_is_legal_and_deterministic(name: str) -> None:
    me = pool_player("arena", name).play
    for seed, other in ((11, random_player), (12, PLAYERS[(NAMES.index(name) + 1) % 4].play)):
        logs: list[list[ActionModel]] = [[], []]
        for log in logs:
            played = play("arena", [_checked(me, log), other], seed, SMALL)
            assert not played.unfinished
        assert logs[0] == logs[1] and len(logs[0]) > 10


@pytest.mark.parametrize("name", NAMES)
def test_beats_a_random_player(name: str) -> None:
    me = pool_player("arena", name).play
    score = 0.0
    for g in range(10):
        seats: list[Player] = [me, random_player] if g % 2 == 0 else [random_player, me]
        score += play("arena", seats, 300 + g, SMALL).scores[g % 2]
    assert score >= 8, score


# ------------------------------------------------------------------ constructed positions
def _to_spell_prompt(seed: int, names: tuple[str, str]) -> tuple[ArenaState, int]:
    """A small game played by the pool players named until a seat is asked for its first spell."""
    state = Match.new("arena", seed=seed, seats=["A", "B"], options=dict(SMALL)).state
    assert isinstance(state, ArenaState)
    players = [pool_player("arena", n).play for n in names]
    chance, rng = random.Random(seed), random.Random(seed)
    while True:
        aw = state.awaiting
        if aw.is_chance:
            state.apply(CHANCE, state.sample_action(CHANCE, chance))
            continue
        seat = sorted(aw.seats)[0]
        if state.prompt is not None and state.prompt.kind == "spell":
            return state, seat
        state.apply(seat, players[seat](state, seat, rng))


def _place(state: ArenaState, seat: int, wizard: tuple[int, int], enemy_wizard: tuple[int, int]) -> None:
    """Move both Wizards to the squares given and the Minions out of the way (a constructed position)."""
    state.terrain = []
    for m in list(state.models.values()):
        if not m.is_wizard:
            del state.models[m.id]
    state.models[f"p{seat + 1}-wizard"].pos = wizard
    state.models[f"p{2 - seat}-wizard"].pos = enemy_wizard


def test_the_rush_casts_boiling_blood_at_the_enemy_wizard_in_reach() -> None:
    state, seat = _to_spell_prompt(5, ("rush", "rush"))
    _place(state, seat, (1, 1), (1, 6))  # 5 squares: a Move and Boiling Blood's range 3 reach it
    assert state.spell is not None
    state.spell.options = ["summon_minion", "boiling_blood", "arcane_rocket"]
    rush = pool_player("arena", "rush").play
    assert rush(state, seat, random.Random(0)) == ChooseSpell(spell="boiling_blood")
    state.apply(seat, ChooseSpell(spell="boiling_blood"))
    state.apply(seat, rush(state, seat, random.Random(0)))  # the Wizard is selected
    step = rush(state, seat, random.Random(0))
    assert isinstance(step, Move) and manhattan(step.to, (1, 6)) <= 3


def test_the_kite_shoots_then_steps_out_of_a_blood_mage_s_reach() -> None:
    state, seat = _to_spell_prompt(7, ("kite", "rush"))
    if state.players[1 - seat].discipline != "blood_mage":
        state, seat = _to_spell_prompt(7, ("rush", "kite"))
    assert state.players[1 - seat].discipline == "blood_mage"
    _place(state, seat, (3, 2), (3, 7))  # 5 squares: in Mental Torment's range 6, in a rush's reach
    kite = pool_player("arena", "kite").play
    assert state.spell is not None
    state.spell.options = ["mental_torment", "arcane_rocket"]
    assert kite(state, seat, random.Random(0)) == ChooseSpell(spell="mental_torment")
    state.apply(seat, ChooseSpell(spell="mental_torment"))
    cast_by = []
    for _ in range(12):  # play the kite's turn until it ends
        if state.awaiting.is_chance:
            events = state.apply(CHANCE, state.sample_action(CHANCE, random.Random(1)))
        elif state.active != seat or seat not in state.awaiting.seats:
            break
        else:
            events = state.apply(seat, kite(state, seat, random.Random(0)))
        cast_by += [e.data["actor"] for e in events if e.kind == "action"]
    assert f"p{seat + 1}-wizard" in cast_by  # it shot first
    wiz = state.models[f"p{seat + 1}-wizard"]
    enemy = state.models[f"p{2 - seat}-wizard"]
    assert manhattan(wiz.pos, enemy.pos) > 7  # out of a Move (4) and Boiling Blood (3)


def test_the_crowd_farmer_cashes_favour_for_crystal_shards() -> None:
    state, seat = _to_spell_prompt(9, ("crowd", "screen"))
    from rules.arena.records import Prompt

    state.prompt = Prompt(seat=seat, kind="crowd")
    crowd = pool_player("arena", "crowd").play
    enemy = state.models[f"p{2 - seat}-wizard"]
    enemy.health = 15
    state.players[seat].favour = 0
    assert crowd(state, seat, random.Random(0)) == SpendFavour(points=0)
    state.players[seat].favour = 1
    assert crowd(state, seat, random.Random(0)) == SpendFavour(points=1)  # a shard one time in six
    state.players[seat].favour = 9
    assert crowd(state, seat, random.Random(0)) == SpendFavour(points=6)  # a sure shard, no point wasted
    enemy.health = 4
    state.players[seat].favour = 6  # a sure shard knocks it out half the time
    assert crowd(state, seat, random.Random(0)) == SpendFavour(points=6)
