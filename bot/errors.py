"""The storage errors the Discord layer answers in players' words, re-exported so that cogs/ never
import the database package (see the import contracts in pyproject.toml); and the bot's loggers
kept to one line per database outage.

While the database cannot be reached, every interaction is answered :data:`UNAVAILABLE_TEXT`
(cogs/errors.py) and the outage is logged once by the database (a warning at its first failure,
one line when it answers again). The loops and handlers that log their own failures (the timer
loops, the notifier) would add a traceback each time they run into it: :data:`QUIET_LOGGERS`
drop those records (:class:`db.base.QuietOutages`).
"""

from __future__ import annotations

import logging

from db.base import QuietOutages
from db.errors import DatabaseUnavailable

UNAVAILABLE_TEXT = "The database cannot be reached right now; nothing was changed. Please try again in a moment."
"""What a player reads for any interaction while the database cannot be reached."""

QUIET_LOGGERS = (
    "bot",
    "bot.client",
    "bot.matches",
    "bot.matches.store",
    "bot.tournaments",
    "bot.ratings",
    "bot.replays",
    "cogs",
    "cogs.matches",
    "cogs.notifier",
    "cogs.placement",
    "cogs.tournament_presenter",
)
"""The loggers of the code that calls the database (a filter applies to the records logged on its
own logger, not to those of its children: each is named)."""

_quiet = QuietOutages()


def quiet_outages(names: tuple[str, ...] = QUIET_LOGGERS) -> None:
    """Install the outage filter on these loggers (idempotent)."""
    for name in names:
        logger = logging.getLogger(name)
        if _quiet not in logger.filters:
            logger.addFilter(_quiet)


quiet_outages()

__all__ = ["QUIET_LOGGERS", "UNAVAILABLE_TEXT", "DatabaseUnavailable", "quiet_outages"]
