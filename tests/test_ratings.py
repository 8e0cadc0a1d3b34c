"""Ratings: placements from outcomes, openskill updates for win/loss/draw and multiplayer orders,
what counts (forfeits) and what does not (abandoned, declined), guild and global ladders, live
updates that survive a failure, and a rebuild from the matches table with identical numbers."""

from __future__ import annotations

import asyncio
import io
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import tests.toy_game  # noqa: F401  (registers "toy-guess")
from bot import ratings as ratings_mod
from bot.matches import MatchService
from bot.ratings import (
    INITIAL_DISPLAY,
    MODEL,
    Ladders,
    RatingService,
    compute,
    display_rating,
    placement,
)
from db import GLOBAL_SCOPE, Database, FinishedMatch, MatchStatus, Migration, RatingsRepository, load_migrations

T0 = 1_700_000_000
GUILD_A, GUILD_B = 111, 222
ANN, BOB, CY, DEE = (1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")


class Clock:
    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Env:
    db: Database
    service: MatchService
    clock: Clock
    path: Path

    @property
    def repo(self) -> RatingsRepository:
        return RatingsRepository(self.db)


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    clock = Clock()
    path = tmp_path / "ratings.sqlite3"
    db = await Database.open(path, clock=clock)
    seeds = iter(range(1000, 100_000))
    service = MatchService(db, clock=clock, seed_factory=lambda: next(seeds))
    yield Env(db, service, clock, path)
    await db.close()


async def start_toy(env: Env, players: Sequence[tuple[int, str]], guild: int | None = GUILD_A) -> int:
    record = await env.service.create_challenge("toy-guess", {"high": 10}, guild, 5, players[0], list(players[1:]))
    for uid, _ in players[1:]:
        result = await env.service.accept(record.id, uid)
    assert result.started
    return record.id


async def secret_of(db: Database, match_id: int) -> int:
    rows = await db.actions.for_match(match_id)
    return [r.action["number"] for r in rows if r.seat is None][-1]


async def play_toy(
    env: Env, players: Sequence[tuple[int, str]], winners: Sequence[int] = (0,), guild: int | None = GUILD_A
) -> int:
    """A finished toy match: the seats in ``winners`` guess the secret, the others miss by far;
    no winners: everyone guesses the same (a draw). The clock moves on 60 s per match."""
    env.clock.now += 60
    match_id = await start_toy(env, players, guild)
    secret = await secret_of(env.db, match_id)
    far = 10 if secret <= 5 else 1
    for seat, (uid, _) in enumerate(players):
        number = secret if seat in winners else far
        await env.service.submit(match_id, uid, {"type": "guess", "number": number}, seat_step=None)
    record = await env.service.get(match_id)
    assert record.status is MatchStatus.FINISHED
    return match_id


def finished(match_id: int, users: Sequence[int], outcome: dict[str, Any] | None, at: int = T0) -> FinishedMatch:
    return FinishedMatch(match_id, "toy-guess", GUILD_A, at, tuple(users), outcome)


def outcome(*results: str, ranks: Sequence[int] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": "x", "seats": [{"result": r, "reason": "x"} for r in results]}
    if ranks is not None:
        out["ranks"] = list(ranks)
    return out


async def snapshot(env: Env) -> tuple[list[Any], list[Any], list[Any]]:
    rated = await env.db.fetchall("SELECT match_id, game, finished_at, counted FROM rated_matches ORDER BY match_id")
    return (
        await env.repo.all_changes(),
        await env.repo.all_standings(),
        [tuple(r) for r in rated],
    )


# -- placements --------------------------------------------------------------------------------


def test_placement_from_results_and_ranks() -> None:
    assert placement(outcome("win", "loss"), 2).ranks == (1, 2)
    p = placement(outcome("loss", "win"), 2)
    assert p.ranks == (2, 1) and p.results == ("loss", "win")
    draw = placement(outcome("draw", "draw"), 2)
    assert draw.ranks == (1, 1) and draw.results == ("draw", "draw")
    # a shared victory is a tie at the top, and counts as a draw for the tally
    shared = placement(outcome("win", "win", "loss"), 3)
    assert shared.ranks == (1, 1, 2) and shared.results == ("draw", "draw", "loss")
    both_won = placement(outcome("win", "win"), 2)
    assert both_won.ranks == (1, 1) and both_won.results == ("draw", "draw")
    # a multiplayer order given by the game wins over the results
    ffa = placement(outcome("loss", "win", "loss", "loss", ranks=[3, 1, 2, 4]), 4)
    assert ffa.ranks == (3, 1, 2, 4) and ffa.results == ("loss", "win", "loss", "loss")
    # ranks of the wrong length are ignored; unusable outcomes are not rated
    assert placement(outcome("win", "loss", ranks=[1]), 2).ranks == (1, 2)
    assert placement(None, 2) is None
    assert placement(outcome("win"), 2) is None
    assert placement(outcome("win", "maybe"), 2) is None
    assert placement(outcome("win"), 1) is None


# -- the arithmetic ----------------------------------------------------------------------------


def test_win_loss_and_draw_updates_match_openskill() -> None:
    fresh = MODEL.rating()
    expected = MODEL.rate([[fresh], [MODEL.rating()]], ranks=[1, 2])
    done = compute([finished(1, [10, 20], outcome("win", "loss"))])
    by = {(c.scope, c.user_id): c for c in done.changes}
    for scope in (GUILD_A, GLOBAL_SCOPE):
        win, loss = by[(scope, 10)], by[(scope, 20)]
        assert (win.mu_after, win.sigma_after) == (expected[0][0].mu, expected[0][0].sigma)
        assert (loss.mu_after, loss.sigma_after) == (expected[1][0].mu, expected[1][0].sigma)
        assert win.mu_before == loss.mu_before == 25.0
        assert (win.result, loss.result, win.rank, loss.rank) == ("win", "loss", 1, 2)
        assert (win.display_before, win.display_after, loss.display_after) == (INITIAL_DISPLAY, 1269, 1163)
    assert INITIAL_DISPLAY == 1200 and display_rating(25.0, 25 / 3) == 1200

    draw = compute([finished(1, [10, 20], outcome("draw", "draw"))])
    a, b = [c for c in draw.changes if c.scope == GLOBAL_SCOPE]
    assert a.mu_after == b.mu_after == 25.0 and a.sigma_after == b.sigma_after < 25 / 3
    assert a.result == b.result == "draw" and a.display_after == b.display_after == 1216

    standings = {(s.scope, s.user_id): s for s in done.standings}
    assert (standings[(GLOBAL_SCOPE, 10)].wins, standings[(GLOBAL_SCOPE, 10)].games) == (1, 1)
    assert (standings[(GLOBAL_SCOPE, 20)].losses, standings[(GLOBAL_SCOPE, 20)].display) == (1, 1163)


def test_multiplayer_order_and_ties() -> None:
    done = compute([finished(1, [1, 2, 3, 4], outcome("loss", "win", "loss", "loss", ranks=[3, 1, 2, 4]))])
    mu = {c.user_id: c.mu_after for c in done.changes if c.scope == GLOBAL_SCOPE}
    assert mu[2] > mu[3] > mu[1] > mu[4]  # the order given: 2, 3, 1, 4
    expected = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[3, 1, 2, 4])
    assert [mu[u] for u in (1, 2, 3, 4)] == [t[0].mu for t in expected]
    results = {c.user_id: c.result for c in done.changes if c.scope == GLOBAL_SCOPE}
    assert results == {1: "loss", 2: "win", 3: "loss", 4: "loss"}

    tied = compute([finished(1, [1, 2, 3], outcome("win", "win", "loss"))])
    mu = {c.user_id: c.mu_after for c in tied.changes if c.scope == GLOBAL_SCOPE}
    assert mu[1] == mu[2] > 25 > mu[3]


def test_rating_order_is_finish_time_then_id_and_later_games_build_on_earlier() -> None:
    a = finished(2, [10, 20], outcome("win", "loss"), at=T0 + 5)
    b = finished(1, [10, 20], outcome("loss", "win"), at=T0 + 9)
    c = finished(3, [10, 20], outcome("win", "loss"), at=T0 + 9)
    done = compute([c, b, a])
    assert [m.match_id for m in done.matches] == [2, 1, 3]
    chain = [ch for ch in done.changes if ch.scope == GLOBAL_SCOPE and ch.user_id == 10]
    assert [ch.match_id for ch in chain] == [2, 1, 3]
    for before, after in zip(chain, chain[1:], strict=False):
        assert (after.mu_before, after.sigma_before) == (before.mu_after, before.sigma_after)
    # no guild: the global ladder only
    solo = compute([FinishedMatch(9, "toy-guess", None, T0, (1, 2), outcome("win", "loss"))])
    assert {c.scope for c in solo.changes} == {GLOBAL_SCOPE}
    # the same start gives the same numbers
    assert compute([a, b, c]) == done


def test_ladders_start_from_stored_standings() -> None:
    first = compute([finished(1, [10, 20], outcome("win", "loss"), at=T0)])
    ladders = Ladders("toy-guess", {(s.scope, s.user_id): s for s in first.standings})
    second = compute([finished(2, [10, 20], outcome("win", "loss"), at=T0 + 1)], ladders)
    both = compute(
        [finished(1, [10, 20], outcome("win", "loss"), at=T0), finished(2, [10, 20], outcome("win", "loss"), at=T0 + 1)]
    )
    assert second.standings == tuple(s for s in both.standings)
    assert second.changes == both.changes[len(first.changes) :]


# -- live, through the match service -----------------------------------------------------------


async def test_finished_matches_are_rated_when_they_finish(env: Env) -> None:
    match_id = await play_toy(env, [ANN, BOB], winners=[0])
    changes = await env.repo.changes_for_match(match_id)
    assert {(c.scope, c.user_id, c.result) for c in changes} == {
        (GUILD_A, 1, "win"),
        (GUILD_A, 2, "loss"),
        (GLOBAL_SCOPE, 1, "win"),
        (GLOBAL_SCOPE, 2, "loss"),
    }
    ann = await env.repo.get(GUILD_A, "toy-guess", 1)
    assert ann is not None and (ann.display, ann.wins, ann.games, ann.display_name) == (1269, 1, 1, "Ann")
    assert ann.last_match_id == match_id and ann.updated_at == (await env.service.get(match_id)).finished_at
    # a draw: both move the same way, and the tally says draw
    draw_id = await play_toy(env, [ANN, BOB], winners=[])
    assert {c.result for c in await env.repo.changes_for_match(draw_id)} == {"draw"}
    bob = await env.repo.get(GLOBAL_SCOPE, "toy-guess", 2)
    assert (bob.wins, bob.losses, bob.draws, bob.games) == (0, 1, 1, 2)
    # a three-player match with two shared winners
    shared = await play_toy(env, [ANN, BOB, CY], winners=[0, 1])
    results = {c.user_id: (c.result, c.rank) for c in await env.repo.changes_for_match(shared)}
    assert results == {1: ("draw", 1), 2: ("draw", 1), 3: ("loss", 2)}


async def test_forfeits_count_and_abandoned_or_closed_matches_do_not(env: Env) -> None:
    forfeited = await start_toy(env, [ANN, BOB])
    await env.service.forfeit(forfeited, BOB[0])
    assert {(c.user_id, c.result) for c in await env.repo.changes_for_match(forfeited) if c.scope == 0} == {
        (1, "win"),
        (2, "loss"),
    }
    # nobody moves: abandoned on time-out, never rated
    abandoned = await start_toy(env, [ANN, CY])
    env.clock.now += 10 * 3600
    await env.service.tick()
    assert (await env.service.get(abandoned)).status is MatchStatus.ABANDONED
    declined = await env.service.create_challenge("toy-guess", None, GUILD_A, 5, ANN, [DEE])
    await env.service.decline(declined.id, DEE[0])
    cancelled = await env.service.create_challenge("toy-guess", None, GUILD_A, 5, ANN, [DEE])
    await env.service.cancel(cancelled.id, ANN[0])
    for match_id in (abandoned, declined.id, cancelled.id):
        assert await env.repo.changes_for_match(match_id) == []
    assert await env.repo.get(GLOBAL_SCOPE, "toy-guess", CY[0]) is None
    assert await env.repo.get(GLOBAL_SCOPE, "toy-guess", DEE[0]) is None
    await RatingService(env.db).rebuild()
    assert await env.repo.get(GLOBAL_SCOPE, "toy-guess", CY[0]) is None
    assert [r[0] for r in await env.db.fetchall("SELECT match_id FROM rated_matches")] == [forfeited]


async def test_guild_and_global_ladders(env: Env) -> None:
    await play_toy(env, [ANN, BOB], winners=[0], guild=GUILD_A)
    await play_toy(env, [ANN, CY], winners=[0], guild=GUILD_B)
    await play_toy(env, [BOB, CY], winners=[0], guild=None)  # a DM match: global only
    a = await env.repo.leaderboard(GUILD_A, "toy-guess")
    b = await env.repo.leaderboard(GUILD_B, "toy-guess")
    world = await env.repo.leaderboard(GLOBAL_SCOPE, "toy-guess")
    assert [s.user_id for s in a] == [1, 2] and [s.user_id for s in b] == [1, 3]
    assert a[0].display == b[0].display == 1269  # one win on each server's ladder
    assert [s.user_id for s in world][0] == 1 and world[0].games == 2 and world[0].display > 1269
    assert await env.repo.count(GLOBAL_SCOPE, "toy-guess") == 3
    assert [await env.repo.position(s) for s in world] == [1, 2, 3]
    assert await env.repo.games(GLOBAL_SCOPE) == [("toy-guess", 3)]


async def test_leaderboard_order_and_pages(env: Env) -> None:
    players = [(100 + i, f"P{i}") for i in range(12)]
    rng = random.Random(5)
    for _ in range(30):
        a, b = rng.sample(players, 2)
        await play_toy(env, [a, b], winners=[0] if a[0] < b[0] else [1])  # the lower id always wins
    board = await env.repo.leaderboard(GLOBAL_SCOPE, "toy-guess", limit=100)
    keys = [(s.ordinal, s.games, -s.user_id) for s in board]
    assert keys == sorted(keys, reverse=True)
    pages = [await env.repo.leaderboard(GLOBAL_SCOPE, "toy-guess", offset=o, limit=5) for o in (0, 5, 10)]
    assert [s.user_id for page in pages for s in page] == [s.user_id for s in board]
    assert [len(p) for p in pages] == [5, 5, len(board) - 10]
    assert board[0].user_id == min(s.user_id for s in board)  # skill shows through


# -- durability and rebuilds --------------------------------------------------------------------


async def test_rebuild_gives_identical_numbers(env: Env) -> None:
    rng = random.Random(11)
    people = [ANN, BOB, CY, DEE, (5, "Eve")]
    for i in range(40):
        n = rng.choice([2, 2, 3, 4])
        players = rng.sample(people, n)
        winners = rng.choice([[0], [1], [], [0, 1]]) if n > 2 else rng.choice([[0], [1], []])
        await play_toy(env, players, winners=winners, guild=rng.choice([GUILD_A, GUILD_B, None]))
        if i % 9 == 4:  # same finish second as the previous one
            env.clock.now -= 60
    forfeited = await start_toy(env, [ANN, BOB])
    await env.service.forfeit(forfeited, ANN[0])
    before = await snapshot(env)
    assert len(before[0]) > 100
    service = RatingService(env.db)
    assert await service.verify() == []
    report = await service.rebuild()
    assert report.matches == 41 and report.counted == 41 and report.changes == len(before[0])
    assert await snapshot(env) == before  # bit for bit: floats, displays, tallies, order
    await service.rebuild("toy-guess")
    assert await snapshot(env) == before

    # the command line does the same, and verify notices a tampered row
    await env.db.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = 1")
    assert await service.verify() != []
    await env.db.close()
    out = io.StringIO()
    assert await asyncio.to_thread(ratings_mod.main, ["verify", "--database", str(env.path)], stdout=out) == 1
    assert "difference" in out.getvalue()
    done = subprocess.run(
        [sys.executable, "-m", "bot.ratings", "rebuild", "--database", str(env.path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Rebuilt the ratings from 41 finished match(es) (41 rated)" in done.stdout
    out = io.StringIO()
    assert await asyncio.to_thread(ratings_mod.main, ["verify", "--database", str(env.path)], stdout=out) == 0
    assert "match a rebuild" in out.getvalue()
    env.db = await Database.open(env.path, clock=env.clock)
    assert await snapshot(env) == before


async def test_a_failed_rating_keeps_the_finish_and_is_caught_up_in_order(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await play_toy(env, [ANN, BOB], winners=[0])
    real = RatingService.catch_up

    async def broken(self: RatingService, game: str) -> list[Any]:
        await real(self, game)  # writes, then fails: the savepoint must undo the writes
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(RatingService, "catch_up", broken)
    lost = await play_toy(env, [ANN, BOB], winners=[1])
    assert (await env.service.get(lost)).status is MatchStatus.FINISHED  # the finish is kept
    assert await env.repo.changes_for_match(lost) == []
    assert (await env.repo.get(GLOBAL_SCOPE, "toy-guess", 1)).games == 1
    assert await env.repo.queued() == [(lost, "toy-guess")]  # kept for later
    monkeypatch.setattr(RatingService, "catch_up", real)
    third = await play_toy(env, [ANN, BOB], winners=[0])
    chain = await env.repo.changes_for_user(1, scope=GLOBAL_SCOPE)
    assert [c.match_id for c in reversed(chain)] == [first, lost, third]
    assert await env.repo.queued() == []
    assert await RatingService(env.db).verify() == []


async def test_matches_finished_before_the_ratings_existed_are_queued_and_rated(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    path = tmp_path / "old.sqlite3"
    ratings_migration = next(m for m in load_migrations() if m.name.endswith("_ratings"))
    older = [m for m in load_migrations() if m.name != ratings_migration.name]
    db = await Database.open(path, clock=clock, migrations=older)
    try:
        env = Env(db, MatchService(db, clock=clock, seed_factory=lambda: 3), clock, path)
        old = [await play_toy(env, [ANN, BOB], winners=[0]), await play_toy(env, [ANN, CY], winners=[1])]
        # no ratings tables yet: the rating failed (logged) and the finishes were kept
        assert "Queueing match" in caplog.text
        assert [(await env.service.get(m)).status for m in old] == [MatchStatus.FINISHED] * 2
        await db.migrate([Migration(99, ratings_migration.name, ratings_migration.sql)])
        assert [m for m, _ in await env.repo.queued()] == old
        newer = await play_toy(env, [BOB, CY], winners=[0])  # rates the backlog first, in order
        assert await env.repo.queued() == []
        assert [c.match_id for c in await env.repo.all_changes() if c.scope == GLOBAL_SCOPE][::2] == [*old, newer]
        assert await RatingService(db).verify() == []
    finally:
        await db.close()


async def test_a_match_finished_earlier_but_rated_later_re_rates_the_ones_after_it(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    # a (lower id) and b finish in the same second, b first: rating order is (finished_at, id)
    caplog.set_level("INFO", logger="bot.ratings")
    env.clock.now += 60
    a = await start_toy(env, [ANN, BOB])
    b = await start_toy(env, [ANN, CY])
    for match_id, other, ann_wins in ((b, CY, True), (a, BOB, False)):
        secret = await secret_of(env.db, match_id)
        far = 10 if secret <= 5 else 1
        await env.service.submit(
            match_id, ANN[0], {"type": "guess", "number": secret if ann_wins else far}, seat_step=None
        )
        await env.service.submit(
            match_id, other[0], {"type": "guess", "number": far if ann_wins else secret}, seat_step=None
        )
    assert "re-rating 1 toy-guess match(es)" in caplog.text
    chain = await env.repo.changes_for_user(ANN[0], scope=GLOBAL_SCOPE)
    assert [c.match_id for c in reversed(chain)] == [a, b]
    assert chain[0].mu_before == chain[1].mu_after  # b builds on a
    assert await RatingService(env.db).verify() == []
    cy = await env.repo.get(GLOBAL_SCOPE, "toy-guess", CY[0])
    assert (cy.losses, cy.games) == (1, 1)


async def test_stored_ranks_from_the_outcome_are_used(env: Env) -> None:
    """A free-for-all finished with an explicit order (as Magic Duel will store it)."""
    players = [ANN, BOB, CY, DEE]
    record = await env.db.matches.create(
        game="toy-guess", options={}, guild_id=GUILD_A, channel_id=5, seats=players, expires_at=None
    )
    await env.db.matches.start(record.id, seed=1)
    await env.db.matches.finish(
        record.id, MatchStatus.FINISHED, outcome=outcome("loss", "loss", "win", "loss", ranks=[2, 4, 1, 3])
    )
    changes = await RatingService(env.db).record_match(record.id)
    assert len(changes) == 8
    order = [s.user_id for s in await env.repo.leaderboard(GUILD_A, "toy-guess")]
    assert order == [3, 1, 4, 2]
    assert await RatingService(env.db).record_match(record.id) == []  # idempotent
