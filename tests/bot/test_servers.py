"""bot.servers.ServersService on a real SQLite database (in memory): a server's defaults come from
the bot's settings, changes are stored and read back, every bad value is refused with a readable
message and changes nothing, the in-memory cache is dropped by a change (also when a read
overlaps it), and direct messages get the defaults. Plus the turn-time parser and the repository."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.servers import (
    DEFAULT_PING_AFTER_SECONDS,
    MAX_LEADERBOARD_MIN_GAMES,
    MAX_PING_AFTER_SECONDS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    SETTING_NAMES,
    ServerSettings,
    ServerSettingsError,
    ServersService,
    format_duration,
    parse_ping_after,
    parse_turn_time,
)
from bot.settings import Settings
from db import Database, IntegrityError
from db.servers import ServersRepository
from tests.conftest import DbTarget
from tests.fakes import Clock

T0 = 1_750_000_000
GUILD, OTHER = 111, 222
ADMIN, ADMIN2 = 7, 8


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[tuple[ServersService, Database, Clock]]:
    clock = Clock(T0)
    db = await Database.open(target.memory_url, clock=clock)
    # deliberately not the defaults of Settings, so the test sees where each default comes from
    settings = Settings(discord_token="t", move_timeout_seconds=1800, reminder_before_seconds=120, render_images=False)
    yield ServersService(db, settings), db, clock
    await db.close()


async def stored(db: Database, guild_id: int = GUILD) -> dict[str, Any] | None:
    row = await db.fetchone("SELECT * FROM server_settings WHERE guild_id = ?", (guild_id,))
    return None if row is None else dict(row)


# ------------------------------------------------------------------------------ defaults


async def test_a_server_that_changed_nothing_gets_the_bots_defaults(env):
    servers, db, _ = env
    got = await servers.get(GUILD)
    assert got == ServerSettings(
        guild_id=GUILD,
        channel_id=None,
        threads=True,
        turn_time_seconds=1800,  # MOVE_TIMEOUT_SECONDS
        reminders=True,
        pictures=False,  # RENDER_IMAGES
        turn_time_is_default=True,
        pictures_is_default=True,
        updated_at=None,
        updated_by=None,
    )
    assert await stored(db) is None  # reading writes nothing


async def test_direct_messages_get_the_defaults_and_cannot_be_changed(env):
    servers, db, _ = env
    dm = await servers.get(None)
    assert dm == servers.defaults(None) and dm.guild_id is None and dm.turn_time_seconds == 1800
    with pytest.raises(ServerSettingsError, match="belong to a server"):
        await servers.update(None, ADMIN, threads=False)
    assert await db.fetchval("SELECT COUNT(*) FROM server_settings") == 0


# ------------------------------------------------------------------------------ changes


async def test_an_update_is_stored_and_returned(env):
    servers, db, clock = env
    clock.now = T0 + 50
    got = await servers.update(
        GUILD,
        ADMIN,
        channel_id=555,
        threads=False,
        turn_time_seconds=7200,
        reminders=False,
        pictures=True,
        leaderboard_min_games=5,
    )
    assert (got.channel_id, got.threads, got.turn_time_seconds, got.reminders, got.pictures) == (
        555,
        False,
        7200,
        False,
        True,
    )
    assert not got.turn_time_is_default and not got.pictures_is_default and got.leaderboard_min_games == 5
    assert (got.updated_at, got.updated_by) == (T0 + 50, ADMIN)
    assert await stored(db) == {
        "guild_id": GUILD,
        "channel_id": 555,
        "threads": 0,
        "turn_time_seconds": 7200,
        "reminders": 0,
        "pictures": 1,
        "updated_at": T0 + 50,
        "updated_by": ADMIN,
        "leaderboard_min_games": 5,
        "ping_after_seconds": None,
        "web": None,
        "leaderboard_window_days": None,
        "season_days": None,
        "leagues": None,
    }
    # a new service (a restart) reads the same from the database
    again = await ServersService(db, servers.settings).get(GUILD)
    assert again == got
    assert await servers.get(OTHER) == servers.defaults(OTHER)  # other servers are untouched


async def test_a_change_keeps_the_other_settings_and_none_goes_back_to_the_default(env):
    servers, db, clock = env
    await servers.update(GUILD, ADMIN, channel_id=555, turn_time_seconds=600)
    clock.now = T0 + 9
    got = await servers.update(GUILD, ADMIN2, reminders=False)
    assert (got.channel_id, got.turn_time_seconds, got.reminders, got.threads) == (555, 600, False, True)
    assert (got.updated_at, got.updated_by) == (T0 + 9, ADMIN2)
    got = await servers.update(GUILD, ADMIN, channel_id=None, turn_time_seconds=None)
    assert got.channel_id is None and got.turn_time_seconds == 1800 and got.turn_time_is_default
    assert got.reminders is False  # still as set
    assert got.pictures is False and got.pictures_is_default  # never set: follows RENDER_IMAGES


async def test_an_update_with_no_changes_writes_nothing(env):
    servers, db, _ = env
    assert await servers.update(GUILD, ADMIN) == servers.defaults(GUILD)
    assert await stored(db) is None


async def test_the_leaderboard_minimum_defaults_to_one_game_and_goes_back_to_it(env):
    servers, db, _ = env
    assert (await servers.get(GUILD)).leaderboard_min_games == 1  # never set: everyone rated appears
    got = await servers.update(GUILD, ADMIN, leaderboard_min_games=MAX_LEADERBOARD_MIN_GAMES)
    assert got.leaderboard_min_games == MAX_LEADERBOARD_MIN_GAMES
    assert (await servers.update(GUILD, ADMIN, leaderboard_min_games=1)).leaderboard_min_games == 1
    got = await servers.update(GUILD, ADMIN, leaderboard_min_games=None)
    assert got.leaderboard_min_games == 1 and (await stored(db))["leaderboard_min_games"] is None


async def test_ping_after_defaults_to_two_minutes_and_is_set_and_stored(env):
    servers, db, clock = env
    got = await servers.get(GUILD)
    assert DEFAULT_PING_AFTER_SECONDS == 120
    assert (got.ping_after_seconds, got.ping_after_is_default) == (120, True)
    assert "ping_after_seconds" in SETTING_NAMES
    clock.now = T0 + 5
    got = await servers.update(GUILD, ADMIN, ping_after_seconds=300)  # 5m
    assert (got.ping_after_seconds, got.ping_after_is_default) == (300, False)
    assert (await stored(db))["ping_after_seconds"] == 300
    # stored: a restart (a new service on the same database) reads the same
    assert (await ServersService(db, servers.settings).get(GUILD)).ping_after_seconds == 300
    got = await servers.update(GUILD, ADMIN, ping_after_seconds=0)  # always ping
    assert (got.ping_after_seconds, got.ping_after_is_default) == (0, False)
    assert (await stored(db))["ping_after_seconds"] == 0
    assert (await ServersService(db, servers.settings).get(GUILD)).ping_after_seconds == 0
    got = await servers.update(GUILD, ADMIN, ping_after_seconds=MAX_PING_AFTER_SECONDS)
    assert got.ping_after_seconds == MAX_PING_AFTER_SECONDS
    got = await servers.update(GUILD, ADMIN, ping_after_seconds=None)  # back to the default
    assert (got.ping_after_seconds, got.ping_after_is_default) == (120, True)
    assert (await stored(db))["ping_after_seconds"] is None
    # the other settings are untouched by it, and it by them
    await servers.update(GUILD, ADMIN, ping_after_seconds=45)
    got = await servers.update(GUILD, ADMIN2, reminders=False)
    assert got.ping_after_seconds == 45 and got.reminders is False and got.turn_time_is_default


@pytest.mark.parametrize("seconds", [MIN_TURN_SECONDS, MAX_TURN_SECONDS])
async def test_the_turn_time_limits_are_allowed(env, seconds):
    servers, _, _ = env
    assert (await servers.update(GUILD, ADMIN, turn_time_seconds=seconds)).turn_time_seconds == seconds


# ------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"turn_time_seconds": 59}, "between 1 minute and 7 days; 59 seconds is too short"),
        ({"turn_time_seconds": MAX_TURN_SECONDS + 1}, "7 days 1 second is too long"),
        ({"turn_time_seconds": 0}, "0 seconds is too short"),
        ({"turn_time_seconds": -60}, "-60 seconds is too short"),
        ({"turn_time_seconds": "1h"}, "whole number of seconds, not '1h'"),
        ({"turn_time_seconds": 90.0}, "whole number of seconds"),
        ({"turn_time_seconds": True}, "whole number of seconds"),
        ({"channel_id": "general"}, "must be a channel of this server, not 'general'"),
        ({"channel_id": 0}, "must be a channel"),
        ({"channel_id": True}, "must be a channel"),
        ({"threads": 1}, "Threads must be on or off"),
        ({"reminders": "yes"}, "Reminders must be on or off (True or False), not 'yes'"),
        ({"pictures": None}, "Pictures must be on or off"),
        ({"colour": "red"}, "There is no setting 'colour'; the settings are channel_id, threads"),
        ({"leaderboard_min_games": 0}, "between 1 and 1000; 0 is too small"),
        ({"leaderboard_min_games": 1001}, "between 1 and 1000; 1001 is too large"),
        ({"leaderboard_min_games": -5}, "-5 is too small"),
        ({"leaderboard_min_games": "3"}, "minimum number of games must be a whole number, not '3'"),
        ({"leaderboard_min_games": True}, "must be a whole number"),
        ({"ping_after_seconds": -1}, "must be 0 (always ping) or more; -1 seconds is too short"),
        ({"ping_after_seconds": 2 * 86400}, "between 0 (always ping) and 1 day; 2 days is too long"),
        ({"ping_after_seconds": MAX_PING_AFTER_SECONDS + 1}, "1 day 1 second is too long"),
        ({"ping_after_seconds": "forever"}, "time before a ping must be a whole number of seconds, not 'forever'"),
        ({"ping_after_seconds": 2.5}, "whole number of seconds"),
        ({"ping_after_seconds": False}, "whole number of seconds"),
    ],
)
async def test_a_bad_value_is_refused_with_a_readable_message_and_changes_nothing(env, changes, message):
    servers, db, _ = env
    before = await servers.update(GUILD, ADMIN, channel_id=555, turn_time_seconds=600, threads=True)
    row_before = await stored(db)
    with pytest.raises(ServerSettingsError) as caught:
        # a good change beside the bad one is not applied either
        await servers.update(GUILD, ADMIN2, **{"pictures": True, **changes})
    assert isinstance(caught.value, ValueError)  # the Discord layer shows ValueErrors' messages
    assert message in str(caught.value) and str(caught.value).endswith("Nothing was changed.")
    assert await stored(db) == row_before
    assert await servers.get(GUILD) == before
    assert await ServersService(db, servers.settings).get(GUILD) == before  # not just the cache


async def test_every_problem_is_named_at_once(env):
    servers, db, _ = env
    with pytest.raises(ServerSettingsError) as caught:
        await servers.update(GUILD, ADMIN, turn_time_seconds=5, threads="on", channel_id=-1)
    text = str(caught.value)
    assert "too short" in text and "Threads must be on or off" in text and "must be a channel" in text
    assert await stored(db) is None


# ------------------------------------------------------------------------------ the cache


async def test_reads_are_cached_and_an_update_drops_the_cached_value(env):
    servers, db, _ = env
    assert (await servers.get(GUILD)).reminders is True
    # written behind the service's back: the cached value is still served...
    await ServersRepository(db).upsert(GUILD, {"reminders": False, "pictures": True}, updated_by=ADMIN2)
    assert (await servers.get(GUILD)).reminders is True
    # ...until a change through the service, which reads the whole row afresh
    got = await servers.update(GUILD, ADMIN, threads=False)
    assert (got.threads, got.reminders, got.pictures) == (False, False, True)
    assert await servers.get(GUILD) == got


async def test_a_read_overlapping_an_update_does_not_cache_the_old_value(env):
    servers, db, _ = env
    repo = servers._repo
    real_get = repo.get
    read_done, release = asyncio.Event(), asyncio.Event()

    async def slow_get(guild_id: int):
        record = await real_get(guild_id)  # reads the row as it is before the update
        read_done.set()
        await release.wait()
        return record

    repo.get = slow_get  # type: ignore[method-assign]
    reader = asyncio.create_task(servers.get(GUILD))
    await read_done.wait()
    repo.get = real_get  # type: ignore[method-assign]
    updated = await servers.update(GUILD, ADMIN, reminders=False)
    release.set()
    old = await reader
    assert old.reminders is True  # it started before the change: it may return the old value...
    assert (await servers.get(GUILD)) == updated  # ...but must not leave it in the cache
    assert updated.reminders is False


# ------------------------------------------------------------------------------ turn times as typed


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90", 90),
        ("90s", 90),
        ("30m", 1800),
        ("30 min", 1800),
        ("2h", 7200),
        ("2 hours", 7200),
        ("1d", 86400),
        ("7 days", 604800),
        ("1h30m", 5400),
        ("1.5h", 5400),
        (" 10M ", 600),
        ("default", None),
        ("Default", None),
    ],
)
def test_turn_times_are_read_from_seconds_or_units(text, seconds):
    assert parse_turn_time(text) == seconds


@pytest.mark.parametrize("text", ["", "abc", "1x", "h", "-5", "1h-5m", "5 parsecs"])
def test_a_turn_time_that_is_not_one_is_refused(text):
    with pytest.raises(ServerSettingsError, match="is not a turn time.*like 90, 30m, 2h, 1d"):
        parse_turn_time(text)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("2m", 120),
        ("30s", 30),
        ("0", 0),
        ("always", 0),
        ("90", 90),
        ("1h", 3600),
        ("2 days", 172800),  # read; the range is checked by the service
        ("default", None),
        (" Default ", None),
    ],
)
def test_ping_after_is_read_from_seconds_or_units(text, seconds):
    assert parse_ping_after(text) == seconds


@pytest.mark.parametrize("text", ["forever", "-1", "never", "", "2x"])
def test_a_ping_after_that_is_not_a_duration_is_refused(text):
    with pytest.raises(ServerSettingsError) as caught:
        parse_ping_after(text)
    message = str(caught.value)
    assert "is not a time to wait before pinging" in message and "0 to always ping" in message
    assert message.endswith("Nothing was changed.")


def test_durations_read_naturally():
    assert format_duration(60) == "1 minute"
    assert format_duration(5400) == "1 hour 30 minutes"
    assert format_duration(604800) == "7 days"
    assert format_duration(90061) == "1 day 1 hour 1 minute 1 second"


# ------------------------------------------------------------------------------ storage


async def test_the_table_refuses_what_can_never_be_right(env):
    _, db, _ = env
    for column, value in (
        ("threads", 2),
        ("reminders", -1),
        ("pictures", 5),
        ("turn_time_seconds", 0),
        ("leaderboard_min_games", 0),
        ("ping_after_seconds", -1),
    ):
        with pytest.raises(IntegrityError):
            await db.execute(
                f"INSERT INTO server_settings (guild_id, {column}, updated_at, updated_by) VALUES (1, ?, 0, 0)",
                (value,),
            )
    with pytest.raises(KeyError):
        await ServersRepository(db).upsert(GUILD, {"colour": 1}, updated_by=ADMIN)
    assert await db.fetchval("SELECT COUNT(*) FROM server_settings") == 0
