"""The bot's slash commands as the hostile-input and server-isolation tests walk them
(tests/cogs/test_discord_hostile.py, tests/cogs/test_server_isolation.py): every chat-input command,
subcommands included, and its root and subcommand names."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands


def chat_commands(tree: app_commands.CommandTree[Any]) -> list[app_commands.Command[Any, ..., Any]]:
    """Every chat-input command, subcommands included (global: the bot syncs them globally)."""
    out: list[Any] = []
    for cmd in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(cmd, app_commands.Group):
            out.extend(c for c in cmd.walk_commands() if isinstance(c, app_commands.Command))
        else:
            out.append(cmd)
    return out


def root_and_sub(cmd: app_commands.Command[Any, ..., Any]) -> tuple[str, str | None]:
    if cmd.parent is None:
        return cmd.name, None
    return cmd.parent.name, cmd.name
