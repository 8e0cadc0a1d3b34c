"""What the tournament service reads when a round ends (issue 34 item 2): the reconcile that
records the round's results, pairs the next round and starts its matches is one locked operation
that reads the tournament's row once (then carries it along, each write bringing it up to date),
and reads of a finished match only its record (the stored outcome gives the placements) and the
log entries that may be a forfeit by time, never the whole log. Before, that path read the row
7 times and each finished match's whole log (twice for Wizards Cup).

The reads are counted by statement on the database (``fetchone``, ``fetchall``, ``fetch_many``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.matches import MatchStatus
from db import Database
from db.tournaments import TournamentStatus
from tests.bot.tournament_env import ORG, Env, live_links, move_once, open_env
from tests.conftest import DbTarget

ROW = "FROM tournaments WHERE id = ?"
WHOLE_LOG = "SELECT * FROM actions WHERE match_id = ?"
TIMEOUTS = "SELECT seat, action FROM actions WHERE match_id = ?"


def _kind(sql: str) -> str:
    text = " ".join(sql.split())
    for name in (ROW, WHOLE_LOG, TIMEOUTS):
        if name in text:
            return name
    return text


@contextmanager
def counting(db: Database) -> Iterator[Counter[str]]:
    """The statements read on ``db`` while the block runs, counted by kind."""
    counts: Counter[str] = Counter()
    real_one, real_all, real_many = db.fetchone, db.fetchall, db.fetch_many

    async def fetchone(sql: str, params: Any = ()) -> Any:
        counts[_kind(sql)] += 1
        return await real_one(sql, params)

    async def fetchall(sql: str, params: Any = ()) -> Any:
        counts[_kind(sql)] += 1
        return await real_all(sql, params)

    async def fetch_many(queries: Any) -> Any:
        counts.update(_kind(sql) for sql, _ in queries)
        return await real_many(queries)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(db, "fetchone", fetchone)
        mp.setattr(db, "fetchall", fetchall)
        mp.setattr(db, "fetch_many", fetch_many)
        yield counts


@pytest.fixture
async def lite(tmp_path: Path) -> AsyncIterator[Env]:
    found = await open_env(DbTarget("sqlite", str(tmp_path / "bot.sqlite3")))
    yield found
    await found.close()


async def play_out(env: Env, match_id: int, rng: random.Random) -> None:
    while await move_once(env, match_id, rng):
        pass


async def test_the_last_match_of_a_round_reads_the_row_once_and_no_log(lite: Env) -> None:
    """The round's last move: its match ends, the tournament records it, pairs round 2 and starts
    its 4 matches in the background. The tournament row is read once, no match's log."""
    env = lite
    tid = await env.make("firewall", "swiss", 8, rounds=2)
    await env.service.start(tid, ORG)
    await env.service.settle()
    rng = random.Random(4)
    first = await live_links(env, tid)
    assert len(first) == 4
    for mid in first[:-1]:
        await play_out(env, mid, rng)
    await env.matches.settle()
    await env.service.settle()
    last = first[-1]
    window: Counter[str] = Counter()
    while (await env.matches.get(last)).status is MatchStatus.ACTIVE:
        with counting(env.db) as counts:
            assert await move_once(env, last, rng)
            await env.service.settle()
        window = counts
    view = await env.service.view(tid)
    assert view.tournament is not None and view.tournament.current_round is not None
    assert view.tournament.current_round.number == 2 and len(await live_links(env, tid)) == 4
    assert window[ROW] == 1, window
    assert window[WHOLE_LOG] == 0, window
    assert window[TIMEOUTS] == 1, window  # the one finished match: who of it timed out


async def test_recovery_records_a_round_reading_the_row_once(lite: Env) -> None:
    """The same, counted: one reconcile records the 4 results and pairs and starts round 2."""
    env = lite
    tid = await env.make("firewall", "swiss", 8, rounds=2)
    await env.service.start(tid, ORG)
    await env.service.settle()
    env.service.close()
    rng = random.Random(6)
    played = await live_links(env, tid)
    for mid in played:
        await play_out(env, mid, rng)
    await env.matches.settle()
    # the restart, the recovery's reconcile counted
    await env.matches.close()
    await env.db.close()
    await env.open()
    await env.matches.recover()
    with counting(env.db) as counts:
        await env.service.recover()
        await env.service.settle()
    view = await env.service.view(tid)
    t = view.tournament
    assert t is not None and t.current_round is not None and t.current_round.number == 2
    assert all(m.result is not None for m in t.rounds[0].matches)
    assert counts[ROW] == 1, counts
    assert counts[WHOLE_LOG] == 0, counts
    assert counts[TIMEOUTS] == len(played) == 4, counts


async def test_a_scored_game_reads_its_score_from_the_shared_ending(lite: Env) -> None:
    """Wizards Cup counts its duels (its tournament profile's ``score_event``), which only the match's events tell: they
    come from the match's ending, the one the end-of-match card builds, so a finished match whose
    card was shown has its log read by nobody else; the row is read once."""
    env = lite
    tid = await env.make("wizards-cup", "swiss", 4, rounds=1)
    await env.service.start(tid, ORG)
    await env.service.settle()
    env.service.close()
    rng = random.Random(7)
    played = await live_links(env, tid)
    for mid in played:
        await play_out(env, mid, rng)
    await env.matches.settle()
    await env.matches.close()
    await env.db.close()
    await env.open()
    await env.matches.recover()
    for mid in played:
        if (await env.matches.get(mid)).status is MatchStatus.FINISHED:
            await env.matches.ending(mid)  # the end-of-match card, as the Discord notifier shows it
    with counting(env.db) as counts:
        await env.service.recover()
        await env.service.settle()
    view = await env.service.view(tid)
    assert view.status is TournamentStatus.FINISHED and view.tournament is not None
    assert any(m.result is not None and m.result.games for m in view.tournament.rounds[0].matches)
    assert counts[ROW] == 1, counts
    assert counts[WHOLE_LOG] == 0, counts
