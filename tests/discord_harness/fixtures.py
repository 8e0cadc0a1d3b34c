"""Pytest fixtures for the Discord harness.

Import the fixture into a test module (or a conftest.py) to use it::

    from tests.discord_harness.fixtures import discord_harness  # noqa: F401

    async def test_something(discord_harness):
        harness = await discord_harness(make_bot())
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest_asyncio

from .harness import DiscordHarness


@pytest_asyncio.fixture
async def discord_harness() -> AsyncIterator[Callable[..., Awaitable[DiscordHarness]]]:
    """Factory fixture: ``harness = await discord_harness(bot, **options)``.

    Every harness it made is closed at teardown (closing the bot, cancelling leftover tasks and
    undoing the patches); violations or bot errors nobody reported yet fail the test there."""
    made: list[DiscordHarness] = []

    async def factory(bot: discord.Client, **options: Any) -> DiscordHarness:
        harness = await DiscordHarness.create(bot, **options)
        made.append(harness)
        return harness

    yield factory
    errors: list[BaseException] = []
    for harness in reversed(made):
        try:
            await harness.close()
        except BaseException as exc:  # noqa: BLE001 - report after closing every harness
            errors.append(exc)
    if errors:
        raise errors[0]
