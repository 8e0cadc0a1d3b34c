"""Seasons (issue 36, parts 1, 2 and 4; docs/ratings.md#seasons): a season's ladders beside the
all-time ones, started from a soft reset; its matches by the finish sequence (a rebuild gives the
same numbers); its end and rollover once, with two processes; its archive; idle ratings settling
lazily on read. On both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.rating_time import DAY, WEEK, soft_reset
from bot.ratings import RatingService
from bot.seasons import SeasonError, SeasonService
from bot.servers import ServersService
from bot.settings import Settings
from bot.stats import StatsService
from db import Database
from db.ratings import season_scope
from tests.bot.ratings_env import ANN, BOB, CY, GUILD_A, GUILD_B, Env, make_env, play_toy
from tests.conftest import DbTarget

pytestmark = pytest.mark.usefixtures("toy_game")


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    made = await make_env(target.url)
    yield made
    await made.db.close()


def seasons_of(db: Database, env: Env) -> SeasonService:
    return SeasonService(db, ServersService(db, Settings(discord_token="t")), clock=env.clock)


async def test_a_season_starts_from_a_soft_reset_and_counts_only_its_matches(env: Env) -> None:
    seasons = seasons_of(env.db, env)
    before = await play_toy(env, [ANN, BOB], winners=[0])  # before the season: all-time only
    server = await env.repo.get(GUILD_A, "toy-guess", ANN[0])
    assert server is not None
    season = await seasons.start(GUILD_A, 9, name="Spring")
    assert (season.number, season.name, season.running, season.ends_at) == (1, "Spring", True, env.clock.now + 91 * DAY)
    assert await env.repo.changes_for_match(before) and not await env.repo.get(season.scope, "toy-guess", ANN[0])
    played = await play_toy(env, [ANN, BOB], winners=[1])
    changes = {(c.scope, c.user_id): c for c in await env.repo.changes_for_match(played)}
    assert set(changes) == {(s, u) for s in (GUILD_A, season.scope, 0) for u in (ANN[0], BOB[0])}
    # the season's first match starts from the server rating pulled halfway toward a newcomer's
    start = changes[(season.scope, ANN[0])]
    assert (start.mu_before, start.sigma_before) == pytest.approx(soft_reset(server.mu, server.sigma))
    # a match on another server is not in this server's season
    other = await play_toy(env, [ANN, CY], winners=[0], guild=GUILD_B)
    assert {c.scope for c in await env.repo.changes_for_match(other)} == {GUILD_B, 0}
    # everything is what a rebuild gives
    assert await RatingService(env.db).verify() == []


async def test_the_timer_ends_a_season_once_and_rolls_over_with_two_processes(env: Env, target: DbTarget) -> None:
    other_db = await Database.open(target.url, clock=env.clock)
    try:
        mine, theirs = seasons_of(env.db, env), seasons_of(other_db, env)
        season = await mine.start(GUILD_A, 9, length="2w")
        await play_toy(env, [ANN, BOB], winners=[0])
        with pytest.raises(SeasonError, match="running"):
            await theirs.start(GUILD_A, 9)
        env.clock.now = season.started_at + 14 * DAY + 5  # past its planned end
        ended = await asyncio.gather(mine.tick(), theirs.tick())
        assert sum(len(e) for e in ended) == 1  # ended once, whichever process got there first
        listed = await mine.seasons(GUILD_A)
        assert [(s.number, s.running) for s in listed] == [(2, True), (1, False)]
        second, first = listed
        assert first.ended_at == season.ends_at and first.archived and first.ended_by == 0
        assert (second.started_at, second.ends_at, second.name) == (
            season.ends_at,
            season.ends_at + 14 * DAY,
            "Season 2",
        )
        # a match now belongs to the new season; the ended one's final standings are kept
        await play_toy(env, [ANN, BOB], winners=[1])
        assert await env.repo.get(second.scope, "toy-guess", ANN[0]) is not None
        board = await mine.board(first, "toy-guess", 0, size=10)
        assert [r.user_id for r in board.rows] == [ANN[0], BOB[0]] and board.rows[0].place == 1
        assert (await mine.player(ANN[0], GUILD_A)).past[0].season_name == "Season 1"
        # a bot down for several planned ends catches up, one season at a time
        env.clock.now += 60 * DAY
        assert len(await theirs.tick()) == 4 and (await mine.current(GUILD_A)).number == 6  # type: ignore[union-attr]
        assert await RatingService(env.db).verify() == []
    finally:
        await other_db.close()


async def test_an_admin_ends_a_season_and_names_are_checked(env: Env) -> None:
    seasons = seasons_of(env.db, env)
    with pytest.raises(SeasonError, match="No season is running"):
        await seasons.end(GUILD_A, 9)
    first = await seasons.start(GUILD_A, 9, length="none")
    assert first.ends_at is None and not first.rollover
    await play_toy(env, [ANN, BOB], winners=[0])
    done = await seasons.end(GUILD_A, 9)
    assert not done.running and done.ended_by == 9 and await seasons.current(GUILD_A) is None
    assert (await seasons.find(GUILD_A, "1")).id == first.id and (
        await seasons.find(GUILD_A, "season 1")
    ).id == first.id
    for name, words in (
        ("Season 1", "already had"),
        ("x" * 41, "40 characters"),
        ("@everyone", "without"),
        ("7", "number"),
    ):
        with pytest.raises(SeasonError, match=words):
            await seasons.start(GUILD_A, 9, name=name)
    for length in ("ten days", "0d", "99y"):
        with pytest.raises(SeasonError, match="length|lasts"):
            await seasons.start(GUILD_A, 9, length=length)
    with pytest.raises(SeasonError, match="no season called"):
        await seasons.find(GUILD_B, "Season 1")  # another server's seasons are not this one's
    assert [s.name for s in await seasons.seasons(GUILD_A)] == ["Season 1"]


async def test_idle_ratings_settle_when_read_and_leave_the_window(env: Env) -> None:
    servers = ServersService(env.db, Settings(discord_token="t"))
    stats = StatsService(env.db, clock=env.clock)
    for _ in range(3):
        await play_toy(env, [ANN, BOB], winners=[0])
    await play_toy(env, [CY, BOB], winners=[0])
    await servers.update(GUILD_A, 9, leaderboard_window_days=30)
    fresh = {s.user_id: s.display for s in (await stats.leaderboard("toy-guess", GUILD_A, 0, size=10)).standings}
    assert set(fresh) == {ANN[0], BOB[0], CY[0]}
    writes = await env.db.fetchval("SELECT COUNT(*) FROM ratings WHERE settle_at <= ?", (env.clock.now,))
    assert writes == 0  # nothing due: a read writes nothing
    env.clock.now += 2 * WEEK + 60
    board = await stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    later = {s.user_id: s.display for s in board.standings}
    assert all(later[u] < fresh[u] for u in fresh)  # the conservative rating drops while away
    # the stored facts are unchanged: only what time settles moved
    ann = await env.repo.get(GUILD_A, "toy-guess", ANN[0])
    assert ann is not None and ann.sigma < ann.mu and ann.settle_at == ann.updated_at + 4 * WEEK
    env.clock.now += 30 * DAY
    gone = await stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    assert (gone.standings, gone.hidden, gone.window_days) == ((), 3, 30)
    assert (await stats.leaderboard("toy-guess", 0, 0, size=10)).total == 3  # the global ladder has no window
    # a returning player is listed again, and their first match moves them more than before the break
    await play_toy(env, [ANN, CY], winners=[0])
    back = await stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    assert {s.user_id for s in back.standings} == {ANN[0], CY[0]}
    assert await RatingService(env.db).verify() == []


async def test_season_scopes_are_negative_and_every_ladder_read_settles_first(env: Env) -> None:
    seasons = seasons_of(env.db, env)
    season = await seasons.start(GUILD_A, 9)
    assert season.scope == season_scope(season.id) < 0
    await play_toy(env, [ANN, BOB], winners=[0])
    board = await seasons.board(season, None, 0, size=10)
    assert board.game == "toy-guess" and [r.place for r in board.rows] == [1, 2]
    assert all(r.provisional for r in board.rows)  # one game each: not sure of them yet
    mine = await seasons.player(ANN[0], GUILD_A)
    assert mine.current == season and mine.standings[0][1] == 1 and mine.past == ()


async def test_an_end_left_half_done_by_a_crash_is_finished_and_posted_once(env: Env, target: DbTarget) -> None:
    """A process that ended a season and died before archiving it, or while posting its end: the
    next timer run (any process) archives it; its end is claimed by one process at a time, and
    taken over after the lease."""
    seasons = seasons_of(env.db, env)
    season = await seasons.start(GUILD_A, 9, length="1w")
    await play_toy(env, [ANN, BOB], winners=[0])
    done = await seasons.repo.end(season, at=env.clock.now, by=9)  # the end committed, then the crash
    assert done is not None and not done[0].archived
    other_db = await Database.open(target.url, clock=env.clock)
    try:
        restarted, beside = seasons_of(other_db, env), seasons_of(env.db, env)
        assert await restarted.tick() == []  # nothing more to end, but the archive is written
        archived = await restarted.repo.get(season.id)
        assert archived is not None and archived.archived and not archived.announced
        first, second = await asyncio.gather(restarted.to_announce(lease=300), beside.to_announce(lease=300))
        assert len(first) + len(second) == 1  # claimed once
        (end,) = first or second
        assert [r.user_id for r in end.top["toy-guess"]] == [ANN[0], BOB[0]] and len(end.results) == 2
        assert await beside.to_announce(lease=300) == []  # still claimed: the poster may be working
        env.clock.now += 301  # the poster died: after the lease another process posts it
        (again,) = await beside.to_announce(lease=300)
        await beside.announced(again.season.id)
        env.clock.now += 301
        assert await restarted.to_announce(lease=300) == []
    finally:
        await other_db.close()


async def test_a_process_posts_only_the_ends_of_the_servers_it_serves(env: Env) -> None:
    """Sharded processes: a season's end is left to the process whose shard has its server."""
    seasons = seasons_of(env.db, env)
    await seasons.start(GUILD_A, 9)
    await seasons.end(GUILD_A, 9)
    assert await seasons.to_announce(serves=lambda guild: guild == GUILD_B) == []
    (end,) = await seasons.to_announce(serves=lambda guild: guild == GUILD_A)
    assert end.season.guild_id == GUILD_A and end.top == {}


async def test_a_season_of_one_game_takes_only_that_games_matches(env: Env) -> None:
    seasons = seasons_of(env.db, env)
    season = await seasons.start(GUILD_A, 9, name="Guessing", game="toy-guess")
    assert season.game == "toy-guess"
    played = await play_toy(env, [ANN, BOB], winners=[0])
    assert season.scope in {c.scope for c in await env.repo.changes_for_match(played)}
    other = await seasons.start(GUILD_B, 9, game="some-other-game")  # another game's season
    elsewhere = await play_toy(env, [ANN, BOB], winners=[0], guild=GUILD_B)
    assert other.scope not in {c.scope for c in await env.repo.changes_for_match(elsewhere)}
    assert await RatingService(env.db).verify() == []
