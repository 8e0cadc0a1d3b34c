"""Ratings: placements from outcomes, openskill updates for win/loss/draw and multiplayer orders,
what counts (forfeits) and what does not (abandoned, declined), guild and global ladders, live
updates that survive a failure, the finish sequence (the rating order, numbered by the database;
a finish rates only its own match), the migration that numbers older finishes, and a rebuild from
the matches table with identical numbers."""

from __future__ import annotations

import asyncio
import io
import logging
import random
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot import ratings as ratings_mod
from bot.matches import MatchService
from bot.ratings import (
    INITIAL_DISPLAY,
    MODEL,
    Ladders,
    Placement,
    RatingService,
    compute,
    display_rating,
    placement,
)
from db import GLOBAL_SCOPE, Database, FinishedMatch, IntegrityError, MatchStatus, RatingsRepository, load_migrations
from tests.bot.ratings_env import (
    ANN,
    BOB,
    CY,
    DEE,
    GUILD_A,
    GUILD_B,
    T0,
    Env,
    finish_toy,
    make_env,
    play_toy,
    re_rates,
    snapshot,
    start_toy,
    two_processes,
)
from tests.conftest import DbTarget
from tests.fakes import Clock

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    made = await make_env(target.url)
    yield made
    await made.db.close()


def finished(
    match_id: int, users: Sequence[int], outcome: dict[str, Any] | None, at: int = T0, seq: int | None = None
) -> FinishedMatch:
    """A finished match in memory; its finish sequence number is its id unless given."""
    return FinishedMatch(match_id, "toy-guess", GUILD_A, at, tuple(users), outcome, match_id if seq is None else seq)


def outcome(*results: str, ranks: Sequence[int] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": "x", "seats": [{"result": r, "reason": "x"} for r in results]}
    if ranks is not None:
        out["ranks"] = list(ranks)
    return out


async def change_ids(db: Database) -> dict[tuple[int, int, int], int]:
    """(match, scope, user) -> rating_changes row id. Rating a match again deletes its rows and
    inserts new ones, so a row id that changes or disappears is a re-rate."""
    rows = await db.fetchall("SELECT id, match_id, scope, user_id FROM rating_changes")
    return {(r["match_id"], r["scope"], r["user_id"]): r["id"] for r in rows}


async def finish_seqs(db: Database) -> dict[int, int | None]:
    return {r["id"]: r["finish_seq"] for r in await db.fetchall("SELECT id, finish_seq FROM matches ORDER BY id")}


# -- placements --------------------------------------------------------------------------------


def placed(result: dict[str, Any], seats: int) -> Placement:
    found = placement(result, seats)
    assert found is not None
    return found


def test_placement_from_results_and_ranks() -> None:
    assert placed(outcome("win", "loss"), 2).ranks == (1, 2)
    p = placed(outcome("loss", "win"), 2)
    assert p.ranks == (2, 1) and p.results == ("loss", "win")
    draw = placed(outcome("draw", "draw"), 2)
    assert draw.ranks == (1, 1) and draw.results == ("draw", "draw")
    # a shared victory is a tie at the top, and counts as a draw for the tally
    shared = placed(outcome("win", "win", "loss"), 3)
    assert shared.ranks == (1, 1, 2) and shared.results == ("draw", "draw", "loss")
    both_won = placed(outcome("win", "win"), 2)
    assert both_won.ranks == (1, 1) and both_won.results == ("draw", "draw")
    # a multiplayer order given by the game wins over the results
    ffa = placed(outcome("loss", "win", "loss", "loss", ranks=[3, 1, 2, 4]), 4)
    assert ffa.ranks == (3, 1, 2, 4) and ffa.results == ("loss", "win", "loss", "loss")
    # ranks of the wrong length are ignored; unusable outcomes are not rated
    assert placed(outcome("win", "loss", ranks=[1]), 2).ranks == (1, 2)
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


def test_rating_order_is_the_finish_sequence_and_later_games_build_on_earlier() -> None:
    # neither the finish second nor the id decides: match 3 finished (seq 2) before match 1 (seq 3)
    # in the same second
    a = finished(2, [10, 20], outcome("win", "loss"), at=T0 + 5, seq=1)
    b = finished(1, [10, 20], outcome("loss", "win"), at=T0 + 9, seq=3)
    c = finished(3, [10, 20], outcome("win", "loss"), at=T0 + 9, seq=2)
    done = compute([b, c, a])
    assert [m.match_id for m in done.matches] == [2, 3, 1]
    chain = [ch for ch in done.changes if ch.scope == GLOBAL_SCOPE and ch.user_id == 10]
    assert [ch.match_id for ch in chain] == [2, 3, 1]
    assert [ch.finish_seq for ch in chain] == [1, 2, 3]
    for before, after in zip(chain, chain[1:], strict=False):
        assert (after.mu_before, after.sigma_before) == (before.mu_after, before.sigma_after)
    # the order changes the numbers: (finished_at, id) would have rated 1 before 3
    by_time = compute([replace(m, finish_seq=m.finished_at * 10 + m.match_id) for m in (a, b, c)])
    assert [m.match_id for m in by_time.matches] == [2, 1, 3]
    assert by_time.standings != done.standings
    # no guild: the global ladder only
    solo = compute([FinishedMatch(9, "toy-guess", None, T0, (1, 2), outcome("win", "loss"), 1)])
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
    assert bob is not None and (bob.wins, bob.losses, bob.draws, bob.games) == (0, 1, 1, 2)
    # a three-player match with two shared winners
    shared = await play_toy(env, [ANN, BOB, CY], winners=[0, 1])
    results = {c.user_id: (c.result, c.rank) for c in await env.repo.changes_for_match(shared)}
    assert results == {1: ("draw", 1), 2: ("draw", 1), 3: ("loss", 2)}


async def test_forfeits_count_and_abandoned_or_closed_matches_do_not(env: Env) -> None:
    forfeited = await start_toy(env, [ANN, BOB])
    await env.service.forfeit(forfeited, BOB[0])
    await env.service.settle()
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


@pytest.mark.slow
async def test_rebuild_gives_identical_numbers(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.ratings")
    rng = random.Random(11)
    people = [ANN, BOB, CY, DEE, (5, "Eve")]

    def pick() -> tuple[list[tuple[int, str]], list[int], int | None]:
        n = rng.choice([2, 2, 3, 4])
        players = rng.sample(people, n)
        winners = rng.choice([[0], [1], [], [0, 1]]) if n > 2 else rng.choice([[0], [1], []])
        return players, winners, rng.choice([GUILD_A, GUILD_B, None])

    for i in range(40):
        players, winners, guild = pick()
        await play_toy(env, players, winners=winners, guild=guild)
        if i % 9 == 4:  # same finish second as the previous one
            env.clock.now -= 60
        if i % 8 == 3:  # a busy second: three matches started in turn finish in reverse order
            batch = []
            for _ in range(3):
                players, winners, guild = pick()
                batch.append((await start_toy(env, players, guild), players, winners))
            for match_id, players, winners in reversed(batch):
                await finish_toy(env, match_id, players, winners)
    forfeited = await start_toy(env, [ANN, BOB])
    await env.service.forfeit(forfeited, ANN[0])
    await env.service.settle()
    before = await snapshot(env)
    assert len(before[0]) > 100
    assert re_rates(caplog) == []  # every finish rated its own match only
    service = RatingService(env.db)
    assert await service.verify() == []
    report = await service.rebuild()
    assert report.matches == 56 and report.counted == 56 and report.changes == len(before[0])
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
    assert "Rebuilt the ratings from 56 finished match(es) (56 rated)" in done.stdout
    out = io.StringIO()
    assert await asyncio.to_thread(ratings_mod.main, ["verify", "--database", str(env.path)], stdout=out) == 0
    assert "match a rebuild" in out.getvalue()
    # a database that is not there is refused, not created empty (issue 34, item 6)
    missing = Path(tempfile.mkdtemp()) / "not-there.sqlite3"
    for command in ("verify", "rebuild"):
        done = subprocess.run(
            [sys.executable, "-m", "bot.ratings", command, "--database", str(missing)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (
            done.returncode == 1 and done.stderr == f"cannot open the database: there is no SQLite file at {missing}\n"
        )
        assert not missing.exists()
    env.db = await Database.open(env.path, clock=env.clock)
    assert await snapshot(env) == before


async def test_a_failed_rating_keeps_the_finish_and_is_caught_up_in_order(
    env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.ratings")
    first = await play_toy(env, [ANN, BOB], winners=[0])

    async def broken(self: RatingsRepository, *args: Any) -> None:
        raise RuntimeError("disk on fire")  # the rating's write fails (either path): nothing of it is stored

    monkeypatch.setattr(RatingsRepository, "save_checked", broken)
    monkeypatch.setattr(RatingsRepository, "save", broken)
    lost = await play_toy(env, [ANN, BOB], winners=[1])
    assert (await env.service.get(lost)).status is MatchStatus.FINISHED  # the finish is kept
    assert await env.repo.changes_for_match(lost) == []
    ann = await env.repo.get(GLOBAL_SCOPE, "toy-guess", 1)
    assert ann is not None and ann.games == 1
    assert await env.repo.queued() == [(lost, "toy-guess")]  # kept for later
    monkeypatch.undo()
    third = await play_toy(env, [ANN, BOB], winners=[0])
    chain = await env.repo.changes_for_user(1, scope=GLOBAL_SCOPE)
    assert [c.match_id for c in reversed(chain)] == [first, lost, third]
    assert await env.repo.queued() == []
    assert re_rates(caplog) == []  # the queued match comes before the new one: nothing to redo
    assert await RatingService(env.db).verify() == []


async def test_matches_finished_before_the_ratings_existed_are_queued_and_rated(target: DbTarget) -> None:
    clock = Clock(T0)
    path = target.url
    older = [m for m in load_migrations() if m.version < 4]  # before 0004_ratings
    db = await Database.open(path, clock=clock, migrations=older)
    try:
        old = []
        for players, results in (([ANN, BOB], ("win", "loss")), ([ANN, CY], ("loss", "win"))):
            clock.now += 60
            record = await db.matches.create(
                game="toy-guess", options={}, guild_id=GUILD_A, channel_id=5, seats=players, expires_at=None
            )
            await db.matches.start(record.id, seed=1)
            await db.matches.finish(record.id, MatchStatus.FINISHED, outcome=outcome(*results))
            old.append(record.id)
        assert await db.migrate(load_migrations()) == [m.version for m in load_migrations() if m.version >= 4]
        env = Env(db, MatchService(db, clock=clock, seed_factory=lambda: 3), clock, path)
        assert [m for m, _ in await env.repo.queued()] == old
        assert [(await finish_seqs(db))[m] for m in old] == [1, 2]
        newer = await play_toy(env, [BOB, CY], winners=[0])  # rates the backlog first, in order
        assert (await finish_seqs(db))[newer] == 3
        assert await env.repo.queued() == []
        assert [c.match_id for c in await env.repo.all_changes() if c.scope == GLOBAL_SCOPE][::2] == [*old, newer]
        assert await RatingService(db).verify() == []
    finally:
        await db.close()


# -- the finish sequence -------------------------------------------------------------------------


async def test_the_database_numbers_finishes_in_the_order_they_happen(env: Env) -> None:
    db = env.db

    async def new_match(status: str = "start") -> int:
        record = await db.matches.create(
            game="toy-guess", options={}, guild_id=GUILD_A, channel_id=5, seats=[ANN, BOB], expires_at=None
        )
        if status == "start":
            await db.matches.start(record.id, seed=1)
        return record.id

    a, b, c, d = [await new_match() for _ in range(4)]
    declined = await new_match(status="pending")
    won = outcome("win", "loss")
    # out of id order, two in one second, then the clock steps back: the number follows the finishes
    await db.matches.finish(c, MatchStatus.FINISHED, outcome=won, at=T0 + 50)
    await db.matches.finish(a, MatchStatus.FINISHED, outcome=won, at=T0 + 50)
    await db.matches.finish(b, MatchStatus.ABANDONED, at=T0 + 60)
    await db.matches.finish(d, MatchStatus.FINISHED, outcome=won, at=T0 + 10)
    await db.matches.close_challenge(declined, MatchStatus.DECLINED, at=T0 + 70)
    assert await finish_seqs(db) == {a: 2, b: None, c: 1, d: 3, declined: None}

    # any statement that makes a match finished numbers it: a plain UPDATE, or an INSERT
    e = await new_match()
    await db.execute("UPDATE matches SET status = 'finished', finished_at = ? WHERE id = ?", (T0, e))
    _, f = await db.execute(
        "INSERT INTO matches (game, status, challenger_id, created_at, finished_at) VALUES ('toy-guess', 'finished',"
        " ?, ?, ?)",
        (ANN[0], T0, T0),
    )
    # a finished match keeps its number when it is updated again
    await db.execute("UPDATE matches SET status = 'finished', summary = 'again' WHERE id = ?", (c,))
    assert {m: s for m, s in (await finish_seqs(db)).items() if m in (c, e, f)} == {c: 1, e: 4, f: 5}

    # the number is taken in the finishing transaction: a finish rolled back takes none
    g, h = await new_match(), await new_match()
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.matches.finish(g, MatchStatus.FINISHED, outcome=won)
            raise RuntimeError("the move was not saved")
    await db.matches.finish(h, MatchStatus.FINISHED, outcome=won)
    seqs = await finish_seqs(db)
    assert (seqs[g], seqs[h]) == (None, 6)
    # numbers are unique
    with pytest.raises(IntegrityError):
        await db.execute("UPDATE matches SET finish_seq = 1 WHERE id = ?", (h,))


async def test_matches_finished_in_the_same_second_are_rated_in_finish_order_without_re_rating(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.ratings")
    env.clock.now += 60
    a = await start_toy(env, [ANN, BOB])
    b = await start_toy(env, [ANN, CY])
    c = await start_toy(env, [ANN, DEE])
    # the clock does not move: c, b and a finish in the same second, in the reverse of their id order
    for match_id, other, ann_wins in ((c, DEE, True), (b, CY, True), (a, BOB, False)):
        before = await change_ids(env.db)
        await finish_toy(env, match_id, [ANN, other], winners=[0] if ann_wins else [1])
        after = await change_ids(env.db)
        assert before.items() <= after.items()  # no row of an earlier match was deleted or rewritten
        assert {key[0] for key in after.keys() - before.keys()} == {match_id}  # only this match was rated
    assert re_rates(caplog) == []
    assert len({(await env.service.get(m)).finished_at for m in (a, b, c)}) == 1
    seqs = await finish_seqs(env.db)
    assert 0 < (seqs[c] or 0) < (seqs[b] or 0) < (seqs[a] or 0)
    chain = await env.repo.changes_for_user(ANN[0], scope=GLOBAL_SCOPE)  # newest first: finish order
    assert [ch.match_id for ch in chain] == [a, b, c]
    assert chain[0].mu_before == chain[1].mu_after and chain[1].mu_before == chain[2].mu_after
    assert [ch.result for ch in chain] == ["loss", "win", "win"]
    service = RatingService(env.db)
    assert await service.verify() == []
    stored = await snapshot(env)
    await service.rebuild()
    assert await snapshot(env) == stored


async def test_a_rated_match_after_a_queued_one_is_rated_again(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    """Only if the rating tables lose a match that others were rated after (its queueing failed, or
    rows were edited by hand) do the later matches have to be taken out and rated again."""
    caplog.set_level(logging.INFO, logger="bot.ratings")
    first = await play_toy(env, [ANN, BOB], winners=[0])
    second = await play_toy(env, [ANN, CY], winners=[1])
    third = await play_toy(env, [BOB, CY], winners=[])
    want = await snapshot(env)
    await env.repo.forget("toy-guess", [first])
    service = RatingService(env.db)
    assert await service.verify() != []
    changes = await service.record_match(first)
    assert re_rates(caplog) == [f"re-rating 2 toy-guess match(es) finished after finish_seq {first}"]
    assert {ch.match_id for ch in changes} == {first, second, third}  # the two later ones again
    assert await snapshot(env) == want
    assert await service.verify() == []


async def store_as_0004(db: Database, done: Any) -> None:
    """Write computed ratings with the columns of migration 0004 (no finish_seq), as the code
    before the finish sequence did."""
    columns = [c for c in RATING_CHANGE_COLUMNS_0004]
    await db.executemany(
        "INSERT INTO rated_matches (match_id, game, finished_at, counted) VALUES (?, ?, ?, ?)",
        [(m.match_id, m.game, m.finished_at, int(done.counted[m.match_id])) for m in done.matches],
    )
    await db.executemany(
        f"INSERT INTO rating_changes ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
        [tuple(getattr(ch, name) for name in columns) for ch in done.changes],
    )
    fields = [
        "scope", "game", "user_id", "mu", "sigma", "ordinal", "display",
        "wins", "losses", "draws", "games", "last_match_id", "updated_at",
    ]  # fmt: skip
    await db.executemany(
        f"INSERT INTO ratings ({', '.join(fields)}) VALUES ({', '.join('?' for _ in fields)})",
        [tuple(getattr(s, name) for name in fields) for s in done.standings],
    )


RATING_CHANGE_COLUMNS_0004 = (
    "match_id", "scope", "game", "user_id", "seat", "rank", "result", "mu_before", "sigma_before",
    "mu_after", "sigma_after", "display_before", "display_after", "finished_at",
)  # fmt: skip


async def test_a_database_of_schema_0004_migrates_to_the_finish_sequence(
    target: DbTarget, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.ratings")
    clock = Clock(T0)
    upto_0004 = [m for m in load_migrations() if m.version <= 4]
    assert upto_0004[-1].name == "0004_ratings"
    db = await target.open(clock=clock, migrations=upto_0004)
    try:
        rng = random.Random(4)
        people = [ANN, BOB, CY, DEE, (5, "Eve")]
        ids: list[int] = []
        for _ in range(24):
            n = rng.choice([2, 2, 3])
            record = await db.matches.create(
                game="toy-guess",
                options={},
                guild_id=rng.choice([GUILD_A, GUILD_B, None]),
                channel_id=5,
                seats=rng.sample(people, n),
                expires_at=None,
            )
            await db.matches.start(record.id, seed=1)
            ids.append(record.id)
        # finishes in a handful of seconds, in an order of their own (many share a second)
        for match_id in rng.sample(ids, len(ids)):
            n = len((await db.matches.get(match_id)).seats)  # type: ignore[union-attr]
            results = rng.choice([["win"] + ["loss"] * (n - 1), ["draw"] * n, ["loss"] * (n - 1) + ["win"]])
            status = MatchStatus.ABANDONED if match_id == ids[5] else MatchStatus.FINISHED
            done_at = T0 + rng.choice([10, 20, 30, 40])
            await db.matches.finish(match_id, status, outcome=outcome(*results), at=done_at)
        still_pending = await db.matches.create(
            game="toy-guess", options={}, guild_id=GUILD_A, channel_id=5, seats=[ANN, BOB], expires_at=None
        )
        records = [await db.matches.get(m) for m in ids]
        old_order = sorted(
            (r for r in records if r is not None and r.status is MatchStatus.FINISHED),
            key=lambda r: (r.finished_at, r.id),
        )
        assert [r.id for r in old_order] != sorted(r.id for r in old_order)  # the seconds, not the ids, decide
        as_0004 = [
            FinishedMatch(r.id, r.game, r.guild_id, r.finished_at or 0, tuple(r.user_ids), r.outcome, seq)
            for seq, r in enumerate(old_order, 1)
        ]
        # what the 0004 code stored: every match rated in (finished_at, id) order but the last, still queued
        await store_as_0004(db, compute(as_0004[:-1]))
        await db.execute("INSERT INTO rating_queue (match_id) VALUES (?)", (as_0004[-1].match_id,))
        expected = compute(as_0004)

        await db.migrate(load_migrations())
        assert await db.schema_version() == load_migrations()[-1].version
        seqs = await finish_seqs(db)
        assert {m: seqs[m] for m in seqs if seqs[m] is not None} == {r.id: i for i, r in enumerate(old_order, 1)}
        assert seqs[ids[5]] is None and seqs[still_pending.id] is None  # abandoned, pending: no number
        unmatched = await db.fetchval(
            "SELECT COUNT(*) FROM rating_changes c JOIN matches m ON m.id = c.match_id"
            " WHERE c.finish_seq IS NOT m.finish_seq"
        )
        unmatched += await db.fetchval(
            "SELECT COUNT(*) FROM rated_matches r JOIN matches m ON m.id = r.match_id"
            " WHERE r.finish_seq IS NOT m.finish_seq"
        )
        assert unmatched == 0
        repo = RatingsRepository(db)

        def key(ch: Any) -> tuple[int, int, int]:
            return (ch.finish_seq, ch.scope, ch.seat)

        stored = await repo.all_changes()
        assert stored == sorted(expected.changes[: len(stored)], key=key)  # the old numbers, unchanged
        assert [m.match_id for m in await repo.unrated("toy-guess")] == [as_0004[-1].match_id]

        # the queued match is last in the sequence: rated on its own
        service = RatingService(db)
        await service.catch_up("toy-guess")
        assert re_rates(caplog) == []
        assert await repo.all_changes() == sorted(expected.changes, key=key)
        assert await service.verify() == []
        before = await snapshot(db)
        assert (await service.rebuild()).matches == len(old_order)
        assert await snapshot(db) == before  # a rebuild gives the numbers the old order gave

        # a finish after the upgrade, stamped with an earlier second than all of them, still comes last
        await db.matches.start(still_pending.id, seed=1)
        await db.matches.finish(still_pending.id, MatchStatus.FINISHED, outcome=outcome("loss", "win"), at=T0)
        assert (await finish_seqs(db))[still_pending.id] == len(old_order) + 1
        made = await service.record_match(still_pending.id)
        assert {ch.match_id for ch in made} == {still_pending.id}
        assert re_rates(caplog) == []
        assert await service.verify() == []
    finally:
        await db.close()


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


@pytest.mark.postgres
async def test_processes_rating_one_game_at_once_take_turns(pg_target: DbTarget) -> None:
    """Two processes (two connections) catch up the same game's rating queue at the same moment:
    one rates it, the other finds it empty; no update is lost and no match is rated twice."""
    async with two_processes(pg_target.url) as (env, other):
        db = env.db
        ids = [await play_toy(env, players, winners=[i % 2]) for i, players in enumerate([[ANN, BOB], [BOB, CY]] * 3)]
        before = await snapshot(db)
        await RatingsRepository(db).clear()
        for match_id in ids:
            assert await RatingsRepository(db).enqueue(match_id)
        rated = await asyncio.gather(
            RatingService(db).catch_up("toy-guess"), RatingService(other).catch_up("toy-guess")
        )
        assert sorted(len(changes) for changes in rated) == [0, len(before[0])]
        assert await snapshot(db) == before
        assert await RatingService(db).verify() == []
