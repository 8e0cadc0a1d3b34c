"""Guild roles and members: the REST routes the bot calls to create and list roles, fetch a member
and give or take a member's role, and the harness methods a test reads and changes them with
(:class:`RoleHelpers`, mixed into :class:`~.harness.DiscordHarness`).

The checks are Discord's: creating a role, giving or taking one needs Manage Roles at guild level
(or Administrator, or owning the guild); a role can be given or taken only if it sits below the
bot's highest role; a role cannot be created with permissions the bot does not have. A refusal is
403 / 50013 and, like an unknown member (who may have left) or role, not a violation: these are
facts of the server the bot must handle.

Positions: a role the bot creates is put at the bottom (position 1, just above @everyone) and the
roles at or above it move up one (each a GUILD_ROLE_UPDATE), as on Discord. A role a test adds with
``harness.add_role`` goes on top, above the bot's own role: the bot cannot give it.

Gateway events: GUILD_ROLE_CREATE / GUILD_ROLE_UPDATE reach a bot with the guilds intent;
GUILD_MEMBER_UPDATE a bot with the members intent, or any bot when the member is itself.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import discord

from . import payloads as P
from .errors import ApiError, invalid_form, missing_permissions
from .records import HarnessError, RecordedRequest, SimGuild, SimRole, SimUser

if TYPE_CHECKING:
    from .server import FakeDiscord, Handler
    from .world import World

MANAGE_ROLES = 1 << 28
MAX_ROLES = 250


# -- checks ------------------------------------------------------------------------------------------
def guild_or_404(server: FakeDiscord, guild_id: int | str) -> SimGuild:
    guild = server.guilds.get(int(guild_id))
    if guild is None:
        raise ApiError(404, 10004, "Unknown Guild", violation=True)
    return guild


def top_position(guild: SimGuild, user_id: int) -> int:
    """The position of the member's highest role (0: only @everyone)."""
    roles = (guild.roles.get(r) for r in guild.members.get(user_id, {}).get("roles", []))
    return max((r.position for r in roles if r is not None), default=0)


def require_manage_roles(server: FakeDiscord, guild: SimGuild) -> None:
    if not server.bot_guild_permissions(guild) & MANAGE_ROLES:
        raise missing_permissions("Manage Roles")


def require_below_bot(server: FakeDiscord, guild: SimGuild, role: SimRole) -> None:
    """A role can be managed only below the bot's highest role (an owner manages every role)."""
    bot_id = server.bot_user.id
    if bot_id != guild.owner_id and role.position >= top_position(guild, bot_id):
        raise missing_permissions(f"role {role.name!r} is not below the bot's highest role")


# -- the routes --------------------------------------------------------------------------------------
def list_roles(server: FakeDiscord, req: RecordedRequest) -> list[dict[str, Any]]:
    guild = guild_or_404(server, req.params["guild_id"])
    return [copy.deepcopy(r.payload) for r in sorted(guild.roles.values(), key=lambda r: (r.position, r.id))]


def create_role(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    """A role at the bottom (position 1), the roles from there up moved up one."""
    guild = guild_or_404(server, req.params["guild_id"])
    require_manage_roles(server, guild)
    body = req.json or {}
    name = body.get("name")
    name = "new role" if name is None else name
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise invalid_form("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    try:
        permissions = int(body.get("permissions") or 0)  # discord.py sends a string
    except (TypeError, ValueError):
        raise invalid_form("permissions", "NUMBER_TYPE_COERCE", "Value is not int.") from None
    if permissions & ~server.bot_guild_permissions(guild):
        raise missing_permissions("a role with permissions the bot does not have")
    if len(guild.roles) >= MAX_ROLES:
        raise ApiError(400, 30005, f"Maximum number of guild roles reached ({MAX_ROLES})")
    for other in guild.roles.values():
        if other.id != guild.id and other.position >= 1:
            other.payload["position"] = other.position + 1
            server.echo("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": copy.deepcopy(other.payload)})
    rid = server.new_id()
    payload = P.role_payload(rid, name, permissions, position=1)
    colors = body.get("colors") or {}
    primary = int(colors.get("primary_color") or body.get("color") or 0)
    payload["color"] = primary
    payload["colors"] = {
        "primary_color": primary,
        "secondary_color": colors.get("secondary_color"),
        "tertiary_color": colors.get("tertiary_color"),
    }
    payload["hoist"] = bool(body.get("hoist"))
    payload["mentionable"] = bool(body.get("mentionable"))
    if body.get("unicode_emoji"):
        payload["unicode_emoji"] = body["unicode_emoji"]
    guild.roles[rid] = SimRole(rid, guild.id, name, permissions, payload)
    server.echo("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": copy.deepcopy(payload)})
    return copy.deepcopy(payload)


def get_member(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    guild = guild_or_404(server, req.params["guild_id"])
    user = server.users.get(int(req.params["user_id"]))
    if user is None or user.id not in guild.members:
        raise ApiError(404, 10007, "Unknown Member")  # not a violation: members leave
    return server.member_payload(guild, user)


def _change_member_role(server: FakeDiscord, req: RecordedRequest, *, add: bool) -> None:
    guild = guild_or_404(server, req.params["guild_id"])
    require_manage_roles(server, guild)
    role = guild.roles.get(int(req.params["role_id"]))
    if role is None or role.id == guild.id:  # @everyone is no role a member is given
        raise ApiError(404, 10011, "Unknown Role")
    user = server.users.get(int(req.params["user_id"]))
    if user is None or user.id not in guild.members:
        raise ApiError(404, 10007, "Unknown Member")
    require_below_bot(server, guild, role)
    if set_member_role(guild, user.id, role.id, add=add):
        echo_member_update(server, guild, user)
    return None


def add_member_role(server: FakeDiscord, req: RecordedRequest) -> None:
    return _change_member_role(server, req, add=True)


def remove_member_role(server: FakeDiscord, req: RecordedRequest) -> None:
    return _change_member_role(server, req, add=False)


def set_member_role(guild: SimGuild, user_id: int, role_id: int, *, add: bool) -> bool:
    """Give (``add``) or take a role in the guild's member list; whether anything changed."""
    roles: list[int] = guild.members[user_id].setdefault("roles", [])
    if add == (role_id in roles):
        return False
    if add:
        roles.append(role_id)
    else:
        roles.remove(role_id)
    return True


def member_update(server: FakeDiscord, guild: SimGuild, user: SimUser) -> dict[str, Any]:
    """The GUILD_MEMBER_UPDATE payload of a member."""
    return {**server.member_payload(guild, user), "guild_id": str(guild.id)}


def echo_member_update(server: FakeDiscord, guild: SimGuild, user: SimUser) -> None:
    server.echo("GUILD_MEMBER_UPDATE", member_update(server, guild, user))


ROUTES: list[tuple[str, str, Handler]] = [
    ("GET", "/guilds/{guild_id}/roles", list_roles),
    ("POST", "/guilds/{guild_id}/roles", create_role),
    ("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
    ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", add_member_role),
    ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", remove_member_role),
]


# -- the harness's side ------------------------------------------------------------------------------
class RoleHelpers:
    """What a test reads and changes about roles, as ``harness.member_roles(...)`` and so on (a
    moderator's changes in Discord's client, not requests of the bot)."""

    if TYPE_CHECKING:
        bot: discord.Client
        bot_user: SimUser
        server: FakeDiscord
        world: World

        def dispatch_gateway(self, event: str, data: dict[str, Any]) -> None: ...

    def member_roles(self, guild: Any, user: Any) -> list[int]:
        """The ids of the member's roles in the fake world (without @everyone), in the order given."""
        sim_guild, sim_user = self.world.sim_guild(guild), self.world.user(user)
        if sim_user.id not in sim_guild.members:
            raise HarnessError(f"{sim_user.name} is not a member of {sim_guild.name}")
        return list(sim_guild.members[sim_user.id].get("roles", []))

    def role_named(self, guild: Any, name: str) -> SimRole | None:
        """The guild's role with this name (the oldest, if several have it), or None."""
        found = [r for r in self.world.sim_guild(guild).roles.values() if r.name == name]
        return min(found, key=lambda r: r.id) if found else None

    def give_role(self, guild: Any, user: Any, role: SimRole | int) -> None:
        """Give a member a role (as a moderator would); GUILD_MEMBER_UPDATE if the bot gets it."""
        self._set_role(guild, user, role, add=True)

    def take_role(self, guild: Any, user: Any, role: SimRole | int) -> None:
        """Take a role from a member (as a moderator would)."""
        self._set_role(guild, user, role, add=False)

    def grant_bot_permissions(self, guild: Any, permissions: int | discord.Permissions) -> None:
        """Add permissions to the bot's own role (GUILD_ROLE_UPDATE), e.g.
        ``discord.Permissions(manage_roles=True)``; its position (the bot's highest role) stays."""
        self._bot_permissions(guild, permissions, grant=True)

    def revoke_bot_permissions(self, guild: Any, permissions: int | discord.Permissions) -> None:
        """Take permissions from the bot's own role (GUILD_ROLE_UPDATE)."""
        self._bot_permissions(guild, permissions, grant=False)

    def _bot_permissions(self, guild: Any, permissions: int | discord.Permissions, *, grant: bool) -> None:
        sim_guild = self.world.sim_guild(guild)
        role = sim_guild.roles[sim_guild.bot_role_id]
        value = permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)
        role.permissions = role.permissions | value if grant else role.permissions & ~value
        role.payload["permissions"] = str(role.permissions)
        self.dispatch_gateway("GUILD_ROLE_UPDATE", {"guild_id": str(sim_guild.id), "role": copy.deepcopy(role.payload)})
        self.world.saved()

    def _set_role(self, guild: Any, user: Any, role: SimRole | int, *, add: bool) -> None:
        sim_guild, sim_user = self.world.sim_guild(guild), self.world.user(user)
        rid = role.id if isinstance(role, SimRole) else int(role)
        if rid not in sim_guild.roles or rid == sim_guild.id:
            raise HarnessError(f"{sim_guild.name} has no role {role!r} to give or take")
        if sim_user.id not in sim_guild.members:
            raise HarnessError(f"{sim_user.name} is not a member of {sim_guild.name}")
        if not set_member_role(sim_guild, sim_user.id, rid, add=add):
            return
        if self.bot.intents.members or sim_user.id == self.bot_user.id:
            self.dispatch_gateway("GUILD_MEMBER_UPDATE", member_update(self.server, sim_guild, sim_user))
        self.world.saved()
