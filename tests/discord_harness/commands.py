"""Slash commands and autocomplete, as a Discord client would send them.

The command comes from the bot's tree, checked against what the bot last synced for that scope;
the harness refuses what Discord's client would not let a user send: an unknown or missing
option, a value outside the choices or the range, a wrong channel type, a group without a
subcommand, a command the last sync left out, or a guild-only command used in a DM.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from .records import HarnessError, InteractionResult, SimChannel, SimGuild, SimUser
from .world import DM_APP_PERMISSIONS

if TYPE_CHECKING:
    from .harness import DiscordHarness

BOT_DM = 1  # interaction context type: the bot's DM


class Commands:
    def __init__(self, harness: DiscordHarness):
        self.harness = harness
        self.server = harness.server
        self.world = harness.world

    def tree(self) -> app_commands.CommandTree[Any]:
        bot = self.harness.bot
        tree = getattr(bot, "tree", None) or bot._connection._command_tree
        if tree is None:
            raise HarnessError("the bot has no app_commands.CommandTree")
        return tree

    def find(self, name: str, channel: SimChannel) -> tuple[Any, int | None]:
        """The chat-input command ``name`` offered in ``channel``, and its guild (None: global)."""
        tree, ctype = self.tree(), discord.AppCommandType.chat_input
        if channel.guild_id is not None:
            cmd = tree.get_command(name, guild=discord.Object(channel.guild_id), type=ctype)
            if cmd is not None:
                return cmd, channel.guild_id
        cmd = tree.get_command(name, type=ctype)
        if cmd is None:
            known = [c.name for c in tree.get_commands(type=ctype)]
            if channel.guild_id is not None:
                known += [c.name for c in tree.get_commands(guild=discord.Object(channel.guild_id), type=ctype)]
            raise HarnessError(f"no {ctype.name} command named {name!r}; the tree has {sorted(set(known))}")
        return cmd, None

    def command_id(self, guild_id: int | None, name: str, definition: dict[str, Any], channel: SimChannel) -> int:
        synced = self.server.commands.get(guild_id)
        if synced is not None:
            found = [c for c in synced if c["name"] == name and int(c.get("type", 1)) == 1]
            if not found:
                raise HarnessError(
                    f"command {name!r} is in the tree but was not in the last sync of "
                    f"{'guild ' + str(guild_id) if guild_id else 'global commands'}: Discord would not offer it"
                )
            definition = found[0]
        if channel.is_dm:
            contexts = definition.get("contexts")
            if definition.get("dm_permission") is False or (contexts is not None and BOT_DM not in contexts):
                raise HarnessError(f"/{name} is guild-only: Discord does not offer it in a DM")
        return self.server.command_ids.setdefault((guild_id, name, 1), self.server.new_id())

    def data(
        self,
        channel: SimChannel,
        command: str,
        options: dict[str, Any] | None,
        subcommand: str | None,
        *,
        focused: str | None = None,
        focused_value: Any = None,
    ) -> dict[str, Any]:
        """The interaction's ``data`` for ``command`` (the subcommand path may be in it)."""
        path = command.split() + (subcommand.split() if subcommand else [])
        root, guild_id = self.find(path[0], channel)
        definition = root.to_dict(self.tree())
        command_id = self.command_id(guild_id, path[0], definition, channel)
        target: Any = root
        defs = definition.get("options", [])
        wrappers: list[dict[str, Any]] = []
        for part in path[1:]:
            match = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
            if match is None:
                subs = [o["name"] for o in defs if o["type"] in (1, 2)]
                raise HarnessError(f"{' '.join(path)!r}: no subcommand {part!r}; choices are {subs}")
            wrappers.append({"type": match["type"], "name": part, "options": []})
            defs = match.get("options", [])
            target = target.get_command(part) if hasattr(target, "get_command") else target
        if any(o["type"] in (1, 2) for o in defs):
            subs = [o["name"] for o in defs if o["type"] in (1, 2)]
            raise HarnessError(f"{' '.join(path)!r} is a group: pick a subcommand from {subs}")
        aliases = {py_name: param.display_name for py_name, param in (getattr(target, "_params", None) or {}).items()}
        resolved: dict[str, dict[str, Any]] = {}
        guild = self.server.guilds.get(channel.guild_id) if channel.guild_id else None
        node_options = self.options(
            defs, dict(options or {}), aliases, guild, resolved, focused=focused, focused_value=focused_value
        )
        for wrapper in reversed(wrappers):
            wrapper["options"] = node_options
            node_options = [wrapper]
        data: dict[str, Any] = {"id": str(command_id), "name": path[0], "type": 1}
        if node_options:
            data["options"] = node_options
        if resolved:
            data["resolved"] = resolved
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    def options(
        self,
        defs: list[dict[str, Any]],
        given: dict[str, Any],
        aliases: dict[str, str],
        guild: SimGuild | None,
        resolved: dict[str, dict[str, Any]],
        *,
        focused: str | None,
        focused_value: Any,
    ) -> list[dict[str, Any]]:
        by_name = {d["name"]: d for d in defs}
        normalised: dict[str, Any] = {}
        for key, value in given.items():
            name = aliases.get(key, key)
            if name not in by_name:
                raise HarnessError(f"unknown option {key!r}; the command takes {list(by_name)}")
            normalised[name] = value
        if focused is not None:
            focused = aliases.get(focused, focused)
            if focused not in by_name:
                raise HarnessError(f"unknown focused option {focused!r}; the command takes {list(by_name)}")
            if not by_name[focused].get("autocomplete"):
                raise HarnessError(f"option {focused!r} has no autocomplete")
        out = []
        for definition in defs:
            name = definition["name"]
            if name == focused:
                out.append({"name": name, "type": definition["type"], "value": focused_value, "focused": True})
                continue
            if name not in normalised:
                if definition.get("required") and focused is None:
                    raise HarnessError(f"missing required option {name!r}")
                continue
            value = self.option_value(definition, normalised[name], guild, resolved)
            out.append({"name": name, "type": definition["type"], "value": value})
        return out

    def option_value(
        self, definition: dict[str, Any], value: Any, guild: SimGuild | None, resolved: dict[str, dict[str, Any]]
    ) -> Any:
        name, otype = definition["name"], definition["type"]
        if isinstance(value, app_commands.Choice):
            value = value.value
        if isinstance(value, enum.Enum):
            value = value.value
        choices = definition.get("choices")
        if choices:
            values = [c["value"] for c in choices]
            if value not in values:
                by_choice_name = {c["name"]: c["value"] for c in choices}
                if value not in by_choice_name:
                    raise HarnessError(f"{value!r} is not a choice of option {name!r}: {choices}")
                value = by_choice_name[value]
        if otype == 3:
            if not isinstance(value, str):
                raise HarnessError(f"option {name!r} takes a string, got {value!r}")
            if len(value) < definition.get("min_length", 0) or len(value) > definition.get("max_length", 6000):
                raise HarnessError(f"option {name!r}: length {len(value)} outside the allowed range")
            return value
        if otype in (4, 10):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or (otype == 4 and not isinstance(value, int))
            ):
                raise HarnessError(f"option {name!r} takes {'an integer' if otype == 4 else 'a number'}, got {value!r}")
            lo, hi = definition.get("min_value"), definition.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise HarnessError(f"option {name!r}: {value} outside [{lo}, {hi}]")
            return value
        if otype == 5:
            if not isinstance(value, bool):
                raise HarnessError(f"option {name!r} takes a boolean, got {value!r}")
            return value
        if otype == 6:
            user = self.world.user(value)
            self.resolve_user(user, guild, resolved)
            return str(user.id)
        if otype == 7:
            target = self.world.channel(value)
            allowed = definition.get("channel_types")
            if allowed and target.type not in allowed:
                raise HarnessError(f"option {name!r} accepts channel types {allowed}, not {target.type}")
            self.resolve_channel(target, guild, resolved)
            return str(target.id)
        raise HarnessError(f"option {name!r} has type {otype}, which the harness does not simulate (the bot uses none)")

    def resolve_user(self, user: SimUser, guild: SimGuild | None, resolved: dict[str, dict[str, Any]]) -> None:
        resolved.setdefault("users", {})[str(user.id)] = self.server.user_payload(user)
        if guild is not None and user.id in guild.members:
            resolved.setdefault("members", {})[str(user.id)] = self.server.member_payload(
                guild, user, with_user=False, with_permissions=True
            )

    def resolve_channel(self, target: SimChannel, guild: SimGuild | None, resolved: dict[str, dict[str, Any]]) -> None:
        data: dict[str, Any] = {
            k: target.payload[k]
            for k in ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")
            if k in target.payload
        }
        bot_id = self.harness.bot_user.id
        data["permissions"] = str(self.server.permissions(guild, bot_id) if guild else DM_APP_PERMISSIONS)
        resolved.setdefault("channels", {})[str(target.id)] = data

    # -- what a user does ----------------------------------------------------------------------------
    async def slash(
        self,
        user: Any,
        channel: Any,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        locale: str | None = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        sim_user, sim_channel = self.world.user(user), self.world.channel(channel)
        data = self.data(sim_channel, command, options, subcommand)
        payload = self.harness.base_interaction(2, sim_user, sim_channel, data, locale=locale)
        return await self.harness.dispatch_interaction(payload, wait=wait, expect_response=expect_response)

    async def autocomplete(
        self,
        user: Any,
        channel: Any,
        command: str,
        focused: str,
        value: Any = "",
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        sim_user, sim_channel = self.world.user(user), self.world.channel(channel)
        data = self.data(sim_channel, command, options, subcommand, focused=focused, focused_value=value)
        payload = self.harness.base_interaction(4, sim_user, sim_channel, data)
        return await self.harness.dispatch_interaction(payload, wait=wait, expect_response=expect_response)
