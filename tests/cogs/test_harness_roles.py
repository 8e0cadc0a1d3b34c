"""The fake Discord's guild roles and members (tests/discord_harness/roles.py), driven through
discord.py's real objects: Guild.create_role / fetch_roles / fetch_member, Member.add_roles /
remove_roles, with Discord's checks (Manage Roles, the role hierarchy, unknown members and roles)."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from tests.discord_harness import DiscordHarness, HarnessError
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)

MANAGE_ROLES = discord.Permissions(manage_roles=True)


def tiny_bot(*, members: bool = False) -> commands.Bot:
    intents = discord.Intents.default()
    intents.members = members
    return commands.Bot(command_prefix=commands.when_mentioned, intents=intents)


async def make_world(factory, *, manage_roles: bool = True, members: bool = False):
    h: DiscordHarness = await factory(tiny_bot(members=members))
    guild = h.add_guild("Wizard Academy")
    alice = h.add_member(guild, "alice")
    if manage_roles:
        h.grant_bot_permissions(guild, MANAGE_ROLES)
    return h, guild, alice


def requests_to(h: DiscordHarness, method: str, route: str) -> list[int]:
    """The statuses of the bot's requests to ``method route`` (discord.py's template)."""
    return [r.status for r in h.requests if r.method == method and r.dpy_route == route]


async def test_granting_manage_roles_reaches_discord_py(discord_harness):  # noqa: F811
    h, guild, _alice = await make_world(discord_harness, manage_roles=False)
    assert not guild.me.guild_permissions.manage_roles
    h.grant_bot_permissions(guild, MANAGE_ROLES)
    assert guild.me.guild_permissions.manage_roles
    assert h.member_roles(guild, h.bot_user) == [h.sim_guild(guild).bot_role_id]


async def test_create_role_with_manage_roles(discord_harness):  # noqa: F811
    h, guild, _alice = await make_world(discord_harness)
    bot_role = h.sim_guild(guild).roles[h.sim_guild(guild).bot_role_id]
    role = await guild.create_role(name="Champion", reason="season winners")
    assert isinstance(role, discord.Role) and role.name == "Champion" and role.permissions.value == 0
    await h.settle()
    assert guild.get_role(role.id) is not None  # GUILD_ROLE_CREATE reached the cache
    sim = h.role_named(guild, "Champion")
    assert sim is not None and sim.id == role.id and sim.position == 1
    assert bot_role.position == 2 and guild.get_role(bot_role.id).position == 2  # moved up, GUILD_ROLE_UPDATE
    assert guild.get_role(role.id) < guild.me.top_role
    [req] = [r for r in h.requests if r.method == "POST" and r.dpy_route == "/guilds/{guild_id}/roles"]
    assert req.status == 200 and req.json["name"] == "Champion" and req.reason == "season winners"
    fetched = await guild.fetch_roles()
    assert {r.name for r in fetched} == {"@everyone", h.bot_user.name, "Champion"}
    assert h.role_named(guild, "nobody") is None
    assert h.violations == []


async def test_create_role_without_manage_roles_is_forbidden(discord_harness):  # noqa: F811
    h, guild, _alice = await make_world(discord_harness, manage_roles=False)
    with pytest.raises(discord.Forbidden) as caught:
        await guild.create_role(name="Champion")
    assert caught.value.code == 50013
    assert h.role_named(guild, "Champion") is None
    assert requests_to(h, "POST", "/guilds/{guild_id}/roles") == [403]
    assert h.violations == []  # the server's permissions are a fact the bot must handle


async def test_a_role_with_permissions_the_bot_lacks_is_forbidden(discord_harness):  # noqa: F811
    h, guild, _alice = await make_world(discord_harness)
    with pytest.raises(discord.Forbidden):
        await guild.create_role(name="Admins", permissions=discord.Permissions(administrator=True))
    role = await guild.create_role(name="Talkers", permissions=discord.Permissions(send_messages=True))
    assert role.permissions.send_messages
    assert h.violations == []


async def test_fetch_member_and_a_missing_member(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness)
    member = await guild.fetch_member(alice.id)
    assert isinstance(member, discord.Member) and member.id == alice.id and member.name == "alice"
    stranger = h.add_user("stranger")  # a user, not in the guild (or one who left)
    with pytest.raises(discord.NotFound) as caught:
        await guild.fetch_member(stranger.id)
    assert caught.value.code == 10007
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(123)  # nobody at all
    assert requests_to(h, "GET", "/guilds/{guild_id}/members/{member_id}") == [200, 404, 404]
    assert h.violations == []


async def test_add_and_remove_a_role(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness)
    role = await guild.create_role(name="Champion")
    member = await guild.fetch_member(alice.id)
    await member.add_roles(role, reason="won the cup")
    assert h.member_roles(guild, alice) == [role.id]
    await member.add_roles(role)  # again: nothing changes, still 204
    assert h.member_roles(guild, alice) == [role.id]
    assert [r.id for r in (await guild.fetch_member(alice.id)).roles if not r.is_default()] == [role.id]
    await member.remove_roles(role)
    assert h.member_roles(guild, alice) == []
    route = "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"
    assert requests_to(h, "PUT", route) == [204, 204] and requests_to(h, "DELETE", route) == [204]
    assert h.violations == []


async def test_member_roles_without_manage_roles_are_forbidden(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness)
    role = await guild.create_role(name="Champion")
    h.revoke_bot_permissions(guild, MANAGE_ROLES)
    assert not guild.me.guild_permissions.manage_roles
    member = await guild.fetch_member(alice.id)
    with pytest.raises(discord.Forbidden) as caught:
        await member.add_roles(role)
    assert caught.value.code == 50013
    h.give_role(guild, alice, h.role_named(guild, "Champion"))
    with pytest.raises(discord.Forbidden):
        await member.remove_roles(role)
    assert h.member_roles(guild, alice) == [role.id]
    assert h.violations == []


async def test_a_role_above_the_bots_top_role_is_forbidden(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness)
    moderators = h.add_role(guild, "Moderators")  # made in Discord's client: on top, above the bot's role
    assert moderators.position > guild.me.top_role.position
    member = await guild.fetch_member(alice.id)
    with pytest.raises(discord.Forbidden) as caught:
        await member.add_roles(guild.get_role(moderators.id))
    assert caught.value.code == 50013
    assert h.member_roles(guild, alice) == []
    h.give_role(guild, alice, moderators)
    with pytest.raises(discord.Forbidden):
        await member.remove_roles(discord.Object(moderators.id))
    assert h.member_roles(guild, alice) == [moderators.id]
    bot_role = guild.me.top_role  # its own role is not below itself either
    with pytest.raises(discord.Forbidden):
        await member.add_roles(bot_role)
    assert h.violations == []


async def test_unknown_roles_and_members(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness)
    role = await guild.create_role(name="Champion")
    member = await guild.fetch_member(alice.id)
    with pytest.raises(discord.NotFound) as caught:
        await member.add_roles(discord.Object(424242))
    assert caught.value.code == 10011
    with pytest.raises(discord.NotFound):
        await member.add_roles(guild.default_role)  # @everyone is no role to give
    stranger = h.add_user("stranger")
    with pytest.raises(discord.NotFound) as caught:
        await h.bot.http.add_role(guild.id, stranger.id, role.id)
    assert caught.value.code == 10007
    assert h.violations == []


async def test_the_cached_member_follows_with_the_members_intent(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness, members=True)
    role = await guild.create_role(name="Champion")
    cached = guild.get_member(alice.id)
    assert cached is not None and role not in cached.roles
    await cached.add_roles(role)
    await h.settle()  # GUILD_MEMBER_UPDATE
    assert guild.get_member(alice.id).get_role(role.id) is not None
    await cached.remove_roles(role)
    await h.settle()
    assert guild.get_member(alice.id).get_role(role.id) is None
    assert h.violations == []


async def test_without_the_members_intent_only_the_bots_own_member_follows(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness)
    role = await guild.create_role(name="Champion")
    await guild.me.add_roles(role)
    await h.settle()
    assert guild.me.get_role(role.id) is not None and h.member_roles(guild, h.bot_user)[-1] == role.id
    await (await guild.fetch_member(alice.id)).add_roles(role)
    await h.settle()
    assert guild.get_member(alice.id) is None  # never cached: no GUILD_MEMBER_UPDATE for others
    assert h.violations == []


async def test_harness_helpers(discord_harness):  # noqa: F811
    h, guild, alice = await make_world(discord_harness)
    staff = h.add_role(guild, "Staff")
    h.give_role(guild, alice, staff)
    h.give_role(guild, alice, staff.id)  # twice: once
    assert h.member_roles(guild, alice) == [staff.id]
    h.take_role(guild, alice, staff)
    assert h.member_roles(guild, alice) == []
    with pytest.raises(HarnessError):
        h.member_roles(guild, h.add_user("stranger"))
    with pytest.raises(HarnessError):
        h.give_role(guild, alice, 424242)
    h.grant_bot_permissions(guild, discord.Permissions(kick_members=True).value)
    assert guild.me.guild_permissions.kick_members and guild.me.guild_permissions.manage_roles
