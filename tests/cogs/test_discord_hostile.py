"""Hostile input to every command: every string option of every slash command gets 4,000-character
and odd Unicode values (right-to-left marks, zero-width joiners, combining marks, mentions,
markdown, a NUL), in a server and in a DM. The bot must answer every one (no "interaction failed"),
with replies Discord accepts (the fake Discord refuses content over 2,000 characters and embeds
over their limits, as Discord does), without errors on its side, and without pinging anybody.
Commands that need a server are declared guild-only (Discord then does not offer them in DMs; the
fake refuses such a use as Discord would); integer options carry bounds Discord enforces, inside
what SQLite and JavaScript clients can hold."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.cogs.hostile_commands import chat_commands, root_and_sub
from tests.discord_flows import setup_players

LONG = "W" * 4000
ODD = [
    LONG,
    "é" * 3999 + "\u0301",  # combining acute on the last one
    "\u202eevil\u202c" * 400,  # right-to-left override
    "🧙\u200d♂️" * 700,  # zero-width joiner sequences (surrogate pairs in JSON)
    "@everyone <@&1> <@1> **bold** `code` ||spoiler|| " * 60,
    "nul\x00byte",
    " \t\n ",
]
NEEDS_A_SERVER = re.compile(r"\b(needs?|only works|only in|use it in|not in) (a |this )?(server|dm)", re.I)
SAFE_INT = 2**53  # the largest integer JavaScript clients (and Discord's) hold exactly


def fill(cmd: app_commands.Command[Any, ..., Any], h: Any, channel: Any, user: Any) -> dict[str, Any]:
    """Ordinary values for every required option (the first choice, the channel, the user...)."""
    values: dict[str, Any] = {}
    for p in cmd.parameters:
        if not p.required:
            continue
        if p.choices:
            values[p.name] = p.choices[0].value
        elif p.type is discord.AppCommandOptionType.string:
            values[p.name] = "x" * max(1, int(p.min_value or 1))
        elif p.type in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
            values[p.name] = int(p.min_value) if p.min_value is not None else 1
        elif p.type is discord.AppCommandOptionType.boolean:
            values[p.name] = True
        elif p.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            values[p.name] = user
        elif p.type is discord.AppCommandOptionType.channel:
            values[p.name] = channel
        else:
            raise AssertionError(f"/{cmd.qualified_name}: option {p.name} of type {p.type} not covered")
    return values


def string_options(cmd: app_commands.Command[Any, ..., Any]) -> list[app_commands.Parameter]:
    return [p for p in cmd.parameters if p.type is discord.AppCommandOptionType.string and not p.choices]


def guild_only(cmd: app_commands.Command[Any, ..., Any]) -> bool:
    root = cmd.root_parent or cmd
    contexts = root.allowed_contexts
    if root.guild_only:
        return True
    return contexts is not None and not contexts.dm_channel and not contexts.private_channel


@pytest.mark.slow
async def test_every_string_option_survives_hostile_values(make, tmp_path) -> None:
    h, bot, _db = await make(tmp_path / "hostile.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    dm = h.dm_channel(ann)
    commands = chat_commands(bot.tree)
    assert len(commands) >= 8, [c.qualified_name for c in commands]
    tried = 0
    for cmd in commands:
        name, sub = root_and_sub(cmd)
        places = [ch] if guild_only(cmd) else [ch, dm]
        for option in string_options(cmd):
            for place in places:
                for value in ODD:
                    limit = int(option.max_value or 6000)  # a string's max_value is its max_length
                    options = fill(cmd, h, place if place is ch else ch, bob) | {option.name: value[:limit]}
                    before = len(h.bot_errors)
                    result = await h.slash(ann, place, name, options, subcommand=sub)
                    tried += 1
                    scene = "a DM" if place is dm else "a server"
                    where = f"/{cmd.qualified_name} {option.name}={value[:20]!r}… in {scene}"
                    assert result.responded, f"{where}: no answer (the player sees 'interaction failed')"
                    assert h.bot_errors[before:] == [], f"{where}: {h.bot_errors[before:]}"
                    for request in result.requests:
                        body = request.json if isinstance(request.json, dict) else {}
                        body = body.get("data", body) if isinstance(body.get("data"), dict) else body
                        if "@everyone" in str(body.get("content") or ""):
                            parse = (body.get("allowed_mentions") or {}).get("parse")
                            assert parse is not None and "everyone" not in parse, f"{where}: may ping everyone"
    assert tried > 50
    assert h.violations == [], h.violations


async def test_commands_that_need_a_server_are_guild_only(make, tmp_path) -> None:
    """Used in a DM, a command either works or is one Discord does not offer there (guild-only)."""
    h, bot, _db = await make(tmp_path / "dm.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    dm = h.dm_channel(ann)
    for cmd in chat_commands(bot.tree):
        if guild_only(cmd):
            continue
        name, sub = root_and_sub(cmd)
        before = len(h.bot_errors)
        result = await h.slash(ann, dm, name, fill(cmd, h, ch, bob), subcommand=sub)
        assert result.responded, f"/{cmd.qualified_name} in a DM: no answer"
        assert h.bot_errors[before:] == [], f"/{cmd.qualified_name} in a DM: {h.bot_errors[before:]}"
        text = result.content + " ".join(m.text() for m in result.messages)
        assert not NEEDS_A_SERVER.search(text), (
            f"/{cmd.qualified_name} says it needs a server: declare it guild-only ({text[:200]!r})"
        )
    assert h.violations == [], h.violations


async def test_integer_options_carry_bounds_that_fit_storage(make, tmp_path) -> None:
    h, bot, _db = await make(tmp_path / "ints.sqlite3")
    for cmd in chat_commands(bot.tree):
        for p in cmd.parameters:
            if p.type in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
                where = f"/{cmd.qualified_name} {p.name}"
                assert p.min_value is not None and p.max_value is not None, f"{where}: unbounded"
                assert -SAFE_INT <= p.min_value <= p.max_value <= SAFE_INT, f"{where}: {p.min_value}..{p.max_value}"


@pytest.mark.parametrize("value", ["W" * 4000, "\u202e" * 10 + "x"])
def test_error_replies_are_clipped(value: str) -> None:
    """An error that echoes what was typed still fits in one message."""
    from cogs.errors import error_text

    text = error_text(ValueError(f"There is nothing called {value!r}."))
    assert len(text) <= 2000 and text.startswith("⚠️ There is nothing called")
