"""What every game's Discord flow test shares: a bot on an SQLite file inside the fake Discord
(``make``), players in a guild channel, restart-proof snowflakes and prompt lookup.

Use in a test module::

    from tests.discord_flows import discord_harness, make, setup_players  # noqa: F401  (fixtures)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import build_bot
from bot.settings import Settings
from db import Database
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture, re-exported)

SEED = 20261121


@pytest.fixture
async def make(discord_harness):  # noqa: F811
    """``h, bot, db = await make(path, images=True)``: a bot on an SQLite file, inside the fake
    Discord, with a fixed seed so deals and dice are reproducible."""
    dbs: list[Database] = []

    async def factory(path: Path, *, images: bool = True):
        db = await Database.open(path)
        dbs.append(db)
        settings = Settings(discord_token="test-token", database_path=str(path), render_images=images)
        bot = build_bot(settings, db, run_timers=False)
        bot.service._seed_factory = lambda: SEED
        h = await discord_harness(bot)
        return h, bot, db

    yield factory
    for db in dbs:
        if not db.closed:
            await db.close()


class RecordingIds:
    """Wraps the fake server's snowflake source: records the ids it hands out, or replays them,
    so a second fake Discord after a "restart" has the same guild, channel and users."""

    def __init__(self, inner, replay=None):
        self.inner, self.replay, self.given = inner, list(replay or []), []

    def next(self) -> int:
        value = self.replay.pop(0) if self.replay else self.inner.next()
        self.given.append(value)
        return value


def setup_players(h, channel: str = "duels"):
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, channel)
    ann = h.add_member(guild, "ann")
    bob = h.add_member(guild, "bob")
    return guild, ch, ann, bob


def in_match(h, ch):
    """What players see of matches played from ``ch``: its messages and those of its threads (one
    thread per match), oldest first."""
    messages = list(h.messages_in(ch))
    for thread in h.threads(ch):
        messages.extend(h.messages_in(thread))
    return sorted(messages, key=lambda m: m.id)


V2 = 1 << 15


def is_card(m) -> bool:
    """Whether ``m`` is a match card (a components-v2 message headed "<game> · match #<id>: ...")."""
    return bool(m.flags & V2) and " · match #" in m.text().split("\n", 1)[0]


def gallery_urls(m) -> list[str]:
    """The pictures a components-v2 message shows in its media galleries (full width)."""
    return [item["media"]["url"] for c in m.walk_components() if c.get("type") == 12 for item in c.get("items") or []]


def board_message(h, ch):
    """The match card of the newest match played from ``ch``, else its end-of-match card (a post
    whose first embed is titled "... · match #...")."""
    for m in reversed(in_match(h, ch)):
        if is_card(m) or (m.embeds and " · match #" in (m.embeds[0].get("title") or "")):
            return m
    return None


def latest_prompt(messages):
    """The newest message with components that is still there."""
    live = [m for m in messages if m.components and not m.deleted]
    return live[-1] if live else None


async def forget_posted_messages(db) -> None:
    """After a "restart" into a new fake Discord: that fake has the same guild, channel and users
    (RecordingIds) but not the first process's messages, so the challenge message the bot would
    edit at the end of the match is gone here, and so are the match's thread, board and prompts
    (a real Discord keeps them: the restarted bot edits them)."""
    await db.execute("UPDATE matches SET message_id = NULL")
    await db.execute("DELETE FROM match_messages")
