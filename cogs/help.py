"""/help and /howto (placeholder while the real module is written)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import RefereeBot


async def setup(bot: RefereeBot) -> None:
    """Nothing yet."""
