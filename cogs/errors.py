"""The one path from an error to a reply: domain errors (ValueError: rules and match errors) show
their message to the player, ephemerally; an unreachable database one clear line (the outage is
logged once by the database); anything else gets a generic apology and a log line."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.errors import UNAVAILABLE_TEXT, DatabaseUnavailable

log = logging.getLogger("cogs")
ERROR_CHARS = 1000  # an error reply stays short, whatever it echoes (Discord allows 2,000)


async def send_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one place that turns an error into an ephemeral reply. Domain errors (ValueError:
    rules and match errors) show their message; anything else a generic apology (and a log)."""
    text = error_text(error)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply")


def error_text(error: BaseException) -> str:
    """What the player reads: a domain error's message (clipped to one message: it may echo what
    they typed), or a generic apology for anything else (logged)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, DatabaseUnavailable) or isinstance(error.__cause__, DatabaseUnavailable):
        return f"⚠️ {UNAVAILABLE_TEXT}"  # not logged here: the database logs each outage once
    if isinstance(error, ValueError | app_commands.CheckFailure):
        text = f"⚠️ {error}"
        return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"
    log.exception("unexpected error in an interaction", exc_info=error)
    return "⚠️ Something went wrong on my side; nothing was changed. Please try again."


SelfT = TypeVar("SelfT")
Callback = Callable[[SelfT, "discord.Interaction[Any]"], Coroutine[Any, Any, None]]


def guarded(fn: Callback[SelfT]) -> Callback[SelfT]:
    """Component callbacks are not routed to the tree's error handler: route them here."""

    @functools.wraps(fn)
    async def wrapper(self: SelfT, interaction: discord.Interaction[Any]) -> None:
        try:
            await fn(self, interaction)
        except Exception as exc:  # noqa: BLE001 - every error becomes a reply
            await send_error(interaction, exc)

    return wrapper


__all__ = ["error_text", "guarded", "send_error"]
