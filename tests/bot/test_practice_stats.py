"""The practice record of a profile (issue 16: matches against computer players, never rated) on
a real SQLite database: counts and results per game and computer level (the highest at the
table), a 4-seat Magic Duel table counted as the ratings count places, abandoned matches apart,
rated matches not mixed in; computer players are never opponents or newcomers; the guild's
history marks practice matches."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence

import pytest

from bot.matches import MatchService
from bot.stats import MatchStatus, PracticeRecord, StatsService
from db import Database
from tests.bot.stats_env import ANN, BOB, GUILD_A, T0, Env
from tests.conftest import DbTarget
from tests.fakes import Clock

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

MERLIN, MORGANA, NIMUE = (-1, "Merlin (AI, easy)"), (-2, "Morgana (AI, normal)"), (-3, "Nimue (AI, hard)")


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    clock = Clock(T0)
    db = await Database.open(target.memory_url, clock=clock)
    seeds = iter(range(4242, 100_000))
    yield Env(db, MatchService(db, clock=clock, seed_factory=lambda: next(seeds)), StatsService(db), clock)
    await db.close()


def outcome(results: Sequence[str], ranks: Sequence[int] | None = None) -> dict[str, object]:
    out: dict[str, object] = {"seats": [{"result": r} for r in results]}
    if ranks is not None:
        out["ranks"] = list(ranks)
    return out


async def practice_match(
    env: Env,
    game: str,
    seats: Sequence[tuple[int, str]],
    ai: Mapping[int, str],
    results: Sequence[str] | None,
    ranks: Sequence[int] | None = None,
    guild: int | None = GUILD_A,
) -> int:
    """A practice match written straight to the tables: finished with ``results`` per seat, or
    abandoned (``results`` None)."""
    env.clock.now += 60
    record = await env.db.matches.create(
        game=game, options={}, guild_id=guild, channel_id=5, seats=list(seats), expires_at=None, ai=dict(ai)
    )
    assert record.practice and sorted(record.ai_seats) == sorted(ai)
    assert await env.db.matches.start(record.id, seed=1)
    env.clock.now += 60
    if results is None:
        assert await env.db.matches.finish(record.id, MatchStatus.ABANDONED)
    else:
        done = await env.db.matches.finish(
            record.id, MatchStatus.FINISHED, outcome=outcome(results, ranks), summary="Practice over."
        )
        assert done
    return record.id


async def test_the_practice_record_counts_results_per_game_and_level(env: Env) -> None:
    for results in (["win", "loss"], ["win", "loss"], ["loss", "win"], ["draw", "draw"]):
        await practice_match(env, "firewall", [ANN, MORGANA], {1: "normal"}, results)
    # ann in the second seat: her own seat's result counts
    await practice_match(env, "firewall", [MERLIN, ANN], {0: "easy"}, ["loss", "win"])
    await practice_match(env, "firewall", [MERLIN, ANN], {0: "easy"}, None)  # abandoned: apart
    await practice_match(env, "firewall", [ANN, NIMUE], {1: "hard"}, None)  # only abandoned at hard
    # another player's practice and a match ann is not in do not count for her
    await practice_match(env, "firewall", [BOB, MORGANA], {1: "normal"}, ["win", "loss"])
    await practice_match(env, "wizards-cup", [ANN, NIMUE], {1: "hard"}, ["loss", "win"])

    record = await env.stats.practice(ANN[0])
    assert record == (
        PracticeRecord("firewall", "easy", wins=1, losses=0, draws=0, abandoned=1),
        PracticeRecord("firewall", "normal", wins=2, losses=1, draws=1, abandoned=0),
        PracticeRecord("firewall", "hard", wins=0, losses=0, draws=0, abandoned=1),
        PracticeRecord("wizards-cup", "hard", wins=0, losses=1, draws=0, abandoned=0),
    )
    assert [r.played for r in record] == [1, 4, 0, 1]
    assert await env.stats.practice(BOB[0]) == (PracticeRecord("firewall", "normal", wins=1),)
    # the profile carries it, even without a rated match
    profile = await env.stats.profile(ANN[0], GUILD_A)
    assert not profile.rated and profile.practice == record
    # a computer player has no practice record of its own (its seats are the computer's)
    assert await env.stats.practice(MORGANA[0]) == ()


async def test_a_magic_duel_table_counts_places_at_the_highest_level(env: Env) -> None:
    four = [ANN, MERLIN, MORGANA, NIMUE]
    levels = {1: "easy", 2: "normal", 3: "easy"}  # the table's level: its strongest computer
    await practice_match(env, "magic-duel", four, levels, ["win", "loss", "loss", "loss"], [1, 3, 2, 4])
    await practice_match(env, "magic-duel", four, levels, ["loss", "win", "loss", "loss"], [2, 1, 3, 4])
    await practice_match(env, "magic-duel", four, levels, ["loss", "loss", "win", "loss"], [4, 2, 1, 3])
    # two people and two computers; a shared first place is "=1st", never a draw or a loss
    table = [ANN, BOB, MERLIN, NIMUE]
    await practice_match(env, "magic-duel", table, {2: "easy", 3: "hard"}, ["win", "win", "loss", "loss"], [1, 1, 3, 4])
    await practice_match(
        env, "magic-duel", table, {2: "easy", 3: "hard"}, ["loss", "loss", "win", "loss"], [2, 3, 1, 4]
    )

    # tables of four: placements ("1st ×1 · 2nd ×1 · 4th ×1"), never wins, losses or draws
    assert await env.stats.practice(ANN[0]) == (
        PracticeRecord("magic-duel", "normal", places={(1, False): 1, (2, False): 1, (4, False): 1}),
        PracticeRecord("magic-duel", "hard", places={(1, True): 1, (2, False): 1}),
    )
    assert await env.stats.practice(BOB[0]) == (
        PracticeRecord("magic-duel", "hard", places={(1, True): 1, (3, False): 1}),
    )
    (normal, hard) = await env.stats.practice(ANN[0])
    assert normal.played == 3 and normal.record.firsts == 1 and hard.record.placed() == [(1, True, 1), (2, False, 1)]


async def test_rated_matches_stay_out_of_the_practice_record_and_computers_out_of_the_rest(env: Env) -> None:
    rated = await env.toy([ANN, BOB], winners=[0])
    await practice_match(env, "toy-guess", [ANN, MERLIN], {1: "easy"}, ["loss", "win"])
    await practice_match(env, "toy-guess", [ANN, MERLIN], {1: "easy"}, ["loss", "win"])
    await practice_match(env, "toy-guess", [ANN, MORGANA], {1: "normal"}, ["win", "loss"])
    await env.service.settle()

    profile = await env.stats.profile(ANN[0], GUILD_A)
    (game,) = profile.games
    assert game.widest.wins == 1 and game.widest.games == 1  # the rated match only
    assert [c.match_id for c in profile.recent] == [rated]
    assert profile.practice == (
        PracticeRecord("toy-guess", "easy", losses=2),
        PracticeRecord("toy-guess", "normal", wins=1),
    )
    # the computers are not her opponents (she met Merlin more often than Bob), nor on a ladder
    assert [o.user_id for o in profile.opponents] == [BOB[0]]
    assert [o.user_id for o in await env.stats.opponents(ANN[0])] == [BOB[0]]
    board = await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    assert sorted(s.user_id for s in board.standings) == [ANN[0], BOB[0]]


async def test_computers_are_never_newcomers_and_practice_counts_as_having_played(env: Env) -> None:
    first = await practice_match(env, "firewall", [ANN, MERLIN], {1: "easy"}, ["win", "loss"])
    assert await env.stats.newcomers("firewall", [ANN[0], MERLIN[0]], match_id=first) == {ANN[0]}
    assert await env.stats.newcomers("firewall", [ANN[0], MERLIN[0], BOB[0]]) == {BOB[0]}


async def test_history_lists_practice_matches_marked(env: Env) -> None:
    rated = await env.toy([ANN, BOB], winners=[0])
    practice = await practice_match(env, "firewall", [ANN, MORGANA], {1: "normal"}, ["win", "loss"])
    abandoned = await practice_match(env, "firewall", [ANN, MORGANA], {1: "normal"}, None)
    page = await env.stats.history(GUILD_A, None, 0, size=10)
    assert [(r.id, r.practice) for r in page.records] == [(practice, True), (rated, False)]
    assert abandoned not in [r.id for r in page.records]
    only = await env.stats.history(GUILD_A, "firewall", 0, size=10)
    assert [r.id for r in only.records] == [practice] and only.records[0].seats[1].ai == "normal"
