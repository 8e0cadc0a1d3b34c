"""/settings in Discord: an admin (Manage Server) sees and changes the server's settings, a plain
member is refused, bad values are refused with a clear message and change nothing, and the reply
says so when matches cannot get their own thread because the bot lacks the thread permissions.
Every request body is validated against Discord's schema by the harness."""

from __future__ import annotations

import discord
import pytest

from bot.servers import MAX_LEADERBOARD_MIN_GAMES, ServersService
from tests.cogs.settings_perms import THREAD_PERMS, USUAL
from tests.discord_flows import setup_players
from tests.discord_harness.records import HarnessError

MANAGE_GUILD = discord.Permissions(manage_guild=True)


async def with_settings(make, path):
    """The bot (it loads the /settings extension and syncs its commands at start-up)."""
    return await make(path)


def guild_where_the_bot_has(h, name, permissions: int):
    """A guild where the bot and everyone have ``permissions`` (and no one else owns it: an owner
    has every permission)."""
    guild = h.add_guild(
        name, owner=h.add_user(f"{name}-owner"), everyone_permissions=permissions, bot_permissions=permissions
    )
    assert guild.owner_id != guild.me.id
    return guild


def admin_of(h, guild, name="ann"):
    role = h.add_role(guild, "admins", permissions=MANAGE_GUILD)
    return h.add_member(guild, name, roles=[role])


def bot_channel_posts(h, *channels):
    return [m for c in channels for m in h.messages_in(c)]


def fields(result) -> dict[str, str]:
    return {f["name"]: f["value"] for f in result.embed["fields"]}


async def test_the_command_is_for_server_managers_in_servers_only(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    assert isinstance(bot.servers, ServersService)
    (sync,) = [r for r in h.requests_for("PUT") if any(c["name"] == "settings" for c in r.json)]
    (command,) = [c for c in sync.json if c["name"] == "settings"]
    assert int(command["default_member_permissions"]) == MANAGE_GUILD.value
    assert command["contexts"] == [0] and command["dm_permission"] is False  # servers only
    assert {o["name"] for o in command["options"]} == {
        "channel",
        "anywhere",
        "threads",
        "turn_time",
        "reminders",
        "pictures",
        "leaderboard_min_games",
        "leaderboard_window",
        "season_length",
        "ping_after",
        "web",
    }
    (ping_after,) = [o for o in command["options"] if o["name"] == "ping_after"]
    assert (
        ping_after["type"] == 3 and len(ping_after["description"]) <= 100 and "'default'" in ping_after["description"]
    )
    (minimum,) = [o for o in command["options"] if o["name"] == "leaderboard_min_games"]
    assert (minimum["type"], minimum["min_value"], minimum["max_value"]) == (4, 1, MAX_LEADERBOARD_MIN_GAMES)
    assert sync.schema is not None and not h.violations


async def test_an_admin_sees_the_defaults_then_changes_everything(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    guild, ch, _, bob = setup_players(h)
    boss = admin_of(h, guild, "boss")
    other = h.add_text_channel(guild, "arena")

    shown = await h.slash(boss, ch, "settings", {})
    assert shown.ephemeral and shown.embed["title"] == "Server settings"
    assert shown.content in (None, "")  # the bot may create threads everywhere: no warning
    f = fields(shown)
    assert f["Match channel"] == "wherever the challenge is made"
    assert f["Threads"].startswith("on")
    assert f["Default turn time"] == "1 hour (the bot's default)"  # MOVE_TIMEOUT_SECONDS = 3600
    assert f["Reminders"] == "on: 5 minutes before a move times out"
    assert f["Pictures"] == "on (the bot's default)"
    assert f["Ping after"] == "2 minutes without a click (the default)"
    assert "ping_after:" in shown.embed["footer"]["text"]
    assert "Last changed" not in f

    changed = await h.slash(
        boss,
        ch,
        "settings",
        {"channel": other, "threads": False, "turn_time": "30m", "reminders": False, "pictures": False},
    )
    assert changed.ephemeral and changed.embed["title"] == "Server settings updated"
    f = fields(changed)
    assert f["Match channel"] == f"<#{other.id}>"
    assert f["Threads"].startswith("off")
    assert f["Default turn time"] == "30 minutes"
    assert f["Reminders"] == "off" and f["Pictures"] == "off: text and emoji only"
    assert f["Last changed"].startswith(f"<@{boss.id}>")
    now = await bot.servers.get(guild.id)
    assert (now.channel_id, now.threads, now.turn_time_seconds, now.reminders, now.pictures) == (
        other.id,
        False,
        1800,
        False,
        False,
    )
    assert now.updated_by == boss.id
    # stored: a restarted bot (a fresh service on the same database) reads the same
    assert await ServersService(db, bot.settings).get(guild.id) == now

    back = await h.slash(boss, ch, "settings", {"anywhere": True, "turn_time": "default", "threads": True})
    f = fields(back)
    assert f["Match channel"] == "wherever the challenge is made"
    assert f["Default turn time"] == "1 hour (the bot's default)" and f["Threads"].startswith("on")
    assert f["Reminders"] == "off"  # untouched by this change
    assert not h.violations and not bot_channel_posts(h, ch, other)  # every reply was ephemeral


async def test_a_member_without_manage_server_is_refused(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    for args in ({}, {"threads": False}, {"turn_time": "2h", "channel": ch}):
        refused = await h.slash(bob, ch, "settings", args)
        assert refused.ephemeral and refused.embeds == []
        assert "Manage Server" in refused.content and "permission" in refused.content
    assert await bot.servers.get(guild.id) == bot.servers.defaults(guild.id)
    assert await db.fetchval("SELECT COUNT(*) FROM server_settings") == 0


async def test_bad_values_are_refused_clearly_and_change_nothing(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    guild, ch, _, _ = setup_players(h)
    boss = admin_of(h, guild, "boss")
    await h.slash(boss, ch, "settings", {"turn_time": "2h"})
    before = await bot.servers.get(guild.id)

    cases = {
        "soon": "'soon' is not a turn time",
        "30s": "between 1 minute and 7 days; 30 seconds is too short",
        "8d": "8 days is too long",
    }
    for text, message in cases.items():
        # a good value beside the bad one is not applied either
        r = await h.slash(boss, ch, "settings", {"turn_time": text, "reminders": False})
        assert r.ephemeral and message in r.content and "Nothing was changed" in r.content, r.content
    r = await h.slash(boss, ch, "settings", {"channel": ch, "anywhere": True})
    assert r.ephemeral and "either a `channel` or `anywhere: True`" in r.content
    assert await bot.servers.get(guild.id) == before
    assert await ServersService(db, bot.settings).get(guild.id) == before
    assert not h.violations


async def test_threads_reported_unavailable_when_the_bot_lacks_thread_permissions(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    no_threads = USUAL & ~THREAD_PERMS
    guild = guild_where_the_bot_has(h, "Strict", no_threads)
    ch = h.add_text_channel(guild, "duels")
    boss = admin_of(h, guild, "boss")

    shown = await h.slash(boss, ch, "settings", {})  # threads are on by default
    assert shown.embed["title"] == "Server settings"
    assert "matches will be played in the channel itself until" in shown.content
    assert "Create Public Threads" in shown.content and "Send Messages in Threads" in shown.content

    moved = await h.slash(boss, ch, "settings", {"channel": ch})
    assert f"in {ch.mention}: matches will be played in the channel itself until" in moved.content
    assert (await bot.servers.get(guild.id)).channel_id == ch.id  # the change itself was made

    off = await h.slash(boss, ch, "settings", {"threads": False})
    assert off.content in (None, "")  # threads off: nothing to warn about

    # only one of the two missing: the reply names it
    half_perms = USUAL & ~discord.Permissions(send_messages_in_threads=True).value
    guild2 = guild_where_the_bot_has(h, "Half", half_perms)
    ch2 = h.add_text_channel(guild2, "duels")
    boss2 = admin_of(h, guild2, "boss2")
    half = await h.slash(boss2, ch2, "settings", {})
    assert "I lack **Send Messages in Threads** on this server" in half.content

    # both given: no warning, with or without a match channel
    guild3 = guild_where_the_bot_has(h, "Open", USUAL)
    ch3 = h.add_text_channel(guild3, "duels")
    boss3 = admin_of(h, guild3, "boss3")
    for args in ({}, {"channel": ch3}):
        fine = await h.slash(boss3, ch3, "settings", args)
        assert fine.content in (None, "") and fields(fine)["Threads"].startswith("on")
    assert not h.violations


async def test_a_match_channel_the_bot_cannot_post_in_is_refused(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    mute = USUAL & ~discord.Permissions(send_messages=True).value
    guild = guild_where_the_bot_has(h, "Muted", mute)
    ch = h.add_text_channel(guild, "duels")
    boss = admin_of(h, guild, "boss")
    r = await h.slash(boss, ch, "settings", {"channel": ch, "threads": False})
    assert r.ephemeral and f"I cannot post in {ch.mention}" in r.content and "**Send Messages**" in r.content
    assert await db.fetchval("SELECT COUNT(*) FROM server_settings") == 0


async def test_an_admin_sets_the_leaderboards_minimum_number_of_games(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    boss = admin_of(h, guild, "boss")
    shown = await h.slash(boss, ch, "settings", {})
    assert fields(shown)["Leaderboard"] == "every rated player (the default)"

    changed = await h.slash(boss, ch, "settings", {"leaderboard_min_games": 5})
    assert changed.ephemeral and fields(changed)["Leaderboard"] == "players with at least 5 rated games"
    assert (await bot.servers.get(guild.id)).leaderboard_min_games == 5
    assert await db.fetchval("SELECT leaderboard_min_games FROM server_settings WHERE guild_id = ?", (guild.id,)) == 5
    assert (await ServersService(db, bot.settings).get(guild.id)).leaderboard_min_games == 5  # after a restart

    # a plain member cannot change it
    refused = await h.slash(bob, ch, "settings", {"leaderboard_min_games": 2})
    assert refused.ephemeral and "Manage Server" in refused.content
    # Discord's client keeps the value within the declared bounds; the fake refuses like it
    for bad in (0, MAX_LEADERBOARD_MIN_GAMES + 1, -3):
        with pytest.raises(HarnessError, match="outside"):
            await h.slash(boss, ch, "settings", {"leaderboard_min_games": bad})
    # a bad value beside it is refused and the minimum is not applied either
    r = await h.slash(boss, ch, "settings", {"leaderboard_min_games": 9, "turn_time": "soon"})
    assert r.ephemeral and "'soon' is not a turn time" in r.content and "Nothing was changed" in r.content
    assert (await bot.servers.get(guild.id)).leaderboard_min_games == 5
    back = await h.slash(boss, ch, "settings", {"leaderboard_min_games": 1})
    assert fields(back)["Leaderboard"] == "every rated player (the default)"
    assert not h.violations and not bot_channel_posts(h, ch)


async def test_an_admin_sets_how_long_a_player_may_be_quiet_before_a_ping(make, tmp_path):
    h, bot, db = await with_settings(make, tmp_path / "s.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    boss = admin_of(h, guild, "boss")
    assert (await bot.servers.get(guild.id)).ping_after_seconds == 120  # the default: 2 minutes

    def stored():
        return db.fetchval("SELECT ping_after_seconds FROM server_settings WHERE guild_id = ?", (guild.id,))

    changed = await h.slash(boss, ch, "settings", {"ping_after": "5m"})
    assert changed.ephemeral and changed.embed["title"] == "Server settings updated"
    assert fields(changed)["Ping after"] == "5 minutes without a click"
    assert (await bot.servers.get(guild.id)).ping_after_seconds == 300 and await stored() == 300
    assert (await ServersService(db, bot.settings).get(guild.id)).ping_after_seconds == 300  # after a restart

    always = await h.slash(boss, ch, "settings", {"ping_after": "0"})
    assert fields(always)["Ping after"] == "always: whenever the move passes to a player"
    assert (await bot.servers.get(guild.id)).ping_after_seconds == 0 and await stored() == 0

    back = await h.slash(boss, ch, "settings", {"ping_after": "default"})
    assert fields(back)["Ping after"] == "2 minutes without a click (the default)"
    got = await bot.servers.get(guild.id)
    assert (got.ping_after_seconds, got.ping_after_is_default) == (120, True) and await stored() is None

    await h.slash(boss, ch, "settings", {"ping_after": "30s"})
    before = await bot.servers.get(guild.id)
    cases = {
        "forever": "'forever' is not a time to wait before pinging",
        "-1": "'-1' is not a time to wait before pinging",
        "2 days": "between 0 (always ping) and 1 day; 2 days is too long",
    }
    for text, message in cases.items():
        # a good value beside the bad one is not applied either
        r = await h.slash(boss, ch, "settings", {"ping_after": text, "reminders": False})
        assert r.ephemeral and message in r.content and r.content.endswith("Nothing was changed."), r.content
    assert await bot.servers.get(guild.id) == before and before.ping_after_seconds == 30
    assert await ServersService(db, bot.settings).get(guild.id) == before

    # a plain member cannot change it
    refused = await h.slash(bob, ch, "settings", {"ping_after": "1m"})
    assert refused.ephemeral and "Manage Server" in refused.content
    assert (await bot.servers.get(guild.id)).ping_after_seconds == 30 and await stored() == 30
    assert not h.violations and not bot_channel_posts(h, ch)
