"""The channel permissions a bot is usually given and the two thread permissions
(tests/cogs/test_discord_settings.py, tests/cogs/test_discord_threads.py)."""

from __future__ import annotations

import discord

#: What a bot is usually given (as the README asks), plus the two thread permissions.
USUAL = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_application_commands=True,
    create_public_threads=True,
    send_messages_in_threads=True,
).value
THREAD_PERMS = discord.Permissions(create_public_threads=True, send_messages_in_threads=True).value
