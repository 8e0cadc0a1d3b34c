"""Seasons and leagues through discord.py's real objects and the fake transport (issue 36;
docs/ratings.md#seasons): an admin starts a season and sets leagues, players see the season's
board and their season on /profile, the timer ends the season with a post and a picture, and
league roles go to the players (only roles the bot made). The running client's own season timer
does the same as the tick the first test calls."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.client as client_module
from bot.rating_time import DAY
from cogs.seasons import NO_MANAGE_ROLES, REFUSAL
from tests.cogs.stats_world import World
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.fakes import Clock
from tests.running_timer import running_bot

pytestmark = pytest.mark.usefixtures("toy_game")


def academy(world: World) -> tuple[Any, Any, Any, list[Any]]:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    role = h.add_role(guild, "admins", permissions=discord.Permissions(manage_guild=True))
    boss = h.add_member(guild, "boss", roles=[role])
    players = [h.add_member(guild, f"wiz{i}") for i in range(4)]
    world.bot.service._clock = lambda: world.clock.now  # the bot's timers on the world's clock
    return guild, ch, boss, players


def said(result: Any) -> str:
    msg = result.message
    return " ".join([msg.content or "", *[str(e.get("description") or "") for e in msg.embeds]])


async def test_a_season_from_start_to_its_end_post_and_league_roles(world: World) -> None:
    h = world.h
    guild, ch, boss, players = academy(world)
    h.grant_bot_permissions(guild, discord.Permissions(manage_roles=True))
    refused = await h.slash(players[0], ch, "season start", {"name": "Spring"})
    assert refused.ephemeral and REFUSAL in refused.content
    leagues = await h.slash(boss, ch, "season leagues", {"bands": "Apprentice, Archmage top 25%"})
    assert leagues.ephemeral and "Archmage**: the top 25% of the leaderboard" in leagues.content
    bad = await h.slash(boss, ch, "season leagues", {"bands": "Solo"})
    assert bad.ephemeral and "Give 2 to 6 leagues" in bad.content
    started = await h.slash(boss, ch, "season start", {"name": "Spring", "length": "2w"})
    assert not started.ephemeral and "**Spring** has started" in started.content
    again = await h.slash(boss, ch, "season start", {})
    assert again.ephemeral and "Spring is running" in again.content
    a, b, c, d = players
    for _ in range(2):
        await world.toy(guild, [a, b], winners=[0])
        await world.toy(guild, [c, d], winners=[0])
    await world.toy(guild, [a, c], winners=[0])
    board = await h.slash(c, ch, "leaderboard", {"season": "spring", "game": "toy-guess"})
    assert "Spring (running)" in board.message.embed["title"] and "wiz0" in said(board)
    profile = await h.slash(a, ch, "profile", {})
    seasons_field = [f for f in profile.messages[-1].embed["fields"] if f["name"] == "Seasons and leagues"]
    assert seasons_field and "Spring · Toy" in seasons_field[0]["value"] and "#1" in seasons_field[0]["value"]
    assert "League in Toy" in seasons_field[0]["value"] and "**Archmage**" in seasons_field[0]["value"]
    assert "· Archmage" in said(await h.slash(c, ch, "leaderboard", {"game": "toy-guess"}))  # the all-time board

    world.clock.now += 15 * DAY  # past its planned end: the timer's next run ends it
    await world.bot.tick_seasons()
    await h.settle()
    posts = [m for m in h.messages_in(ch) if m.embed and "Spring has ended" in (m.embed.get("title") or "")]
    assert len(posts) == 1 and posts[0].attachments and posts[0].embed["image"]["url"].startswith("attachment://")
    assert "wiz0" in str(posts[0].embed["fields"])
    archmage, apprentice = h.role_named(guild, "Archmage"), h.role_named(guild, "Apprentice")
    assert archmage is not None and apprentice is not None
    assert archmage.id in h.member_roles(guild, a) and apprentice.id in h.member_roles(guild, d)
    assert h.member_roles(guild, boss) == [r.id for r in guild_roles_of(h, guild, boss)]  # untouched
    await world.bot.tick_seasons()  # a second run posts nothing more
    await h.settle()
    assert len([m for m in h.messages_in(ch) if "Spring has ended" in str(m.embed)]) == 1
    listed = await h.slash(c, ch, "season list", {})
    assert "**Season 2** · running" in said(listed) and "**Spring** ·" in said(listed)
    final = await h.slash(c, ch, "leaderboard", {"season": "Spring"})
    assert "Spring (final standings)" in final.message.embed["title"] and "Archmage" in said(final)
    # a moderator's own role is never touched; the bot's roles move with the next season's end
    assert h.violations == []


def guild_roles_of(h: Any, guild: Any, member: Any) -> list[Any]:
    return [r for r in (h.role_named(guild, "admins"),) if r is not None and r.id in h.member_roles(guild, member)]


async def test_without_manage_roles_the_bot_says_so_and_changes_nothing(world: World) -> None:
    h = world.h
    guild, ch, boss, players = academy(world)
    await h.slash(boss, ch, "season leagues", {"bands": "Apprentice, Adept 1300"})
    await h.slash(boss, ch, "season start", {"length": "1d"})
    await world.toy(guild, players[:2], winners=[0])
    roles = await h.slash(boss, ch, "season roles", {})
    assert roles.ephemeral and roles.content == NO_MANAGE_ROLES
    ended = await h.slash(boss, ch, "season end", {})
    assert "Season 1** has ended" in ended.messages[-1].content
    await h.settle()
    (post,) = [m for m in h.messages_in(ch) if m.embed and "has ended" in (m.embed.get("title") or "")]
    assert "lack the Manage Roles permission" in post.embed["footer"]["text"]
    assert h.role_named(guild, "Adept") is None and h.member_roles(guild, players[0]) == []
    # another server's season is not found from here, in the words of a season that never was
    other = h.add_guild("Elsewhere")
    och = h.add_text_channel(other, "general")
    h.add_member(other, players[0])
    foreign = await h.slash(players[0], och, "leaderboard", {"season": "Season 1"})
    assert foreign.ephemeral and "no season called 'Season 1'" in foreign.content
    assert h.violations == []


async def test_the_running_clients_season_timer_ends_and_rolls_over(
    discord_harness: Any,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot, db = await running_bot(tmp_path)  # build_bot, timers on
    clock = Clock(1_900_000_000)
    bot.service._clock = lambda: clock.now
    h = await discord_harness(bot)
    # the client's own season loop, run again every 50 ms instead of every 30 s (the harness does
    # not wait for it: it never rests long enough to settle)
    monkeypatch.setattr(client_module, "SEASON_TICK_SECONDS", 0.05)
    assert bot._season_task is not None
    bot._season_task.cancel()
    bot._season_task = asyncio.create_task(bot._run_season_timers(), name="harness-ignore season timers")
    try:
        guild = h.add_guild("Academy")
        ch = h.add_text_channel(guild, "duels")
        role = h.add_role(guild, "admins", permissions=discord.Permissions(manage_guild=True))
        boss = h.add_member(guild, "boss", roles=[role])
        await h.slash(boss, ch, "season start", {"name": "Winter", "length": "1w"})
        clock.now += 8 * DAY
        for _ in range(100):  # the loop's own runs, not a call from here
            await asyncio.sleep(0.1)
            current = await bot.seasons.current(guild.id)
            if current is not None and current.number == 2:
                break
        assert current is not None and current.number == 2
        for _ in range(100):
            await asyncio.sleep(0.1)
            if any("Winter has ended" in str(m.embed) for m in h.messages_in(ch)):
                break
        assert any("Winter has ended" in str(m.embed) for m in h.messages_in(ch))
        assert h.violations == []
    finally:
        await bot.close()
        await db.close()
