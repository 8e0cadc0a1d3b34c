"""The numbers in custom_ids, read in one place.

Every custom_id grammar (``ch:``, ``open:``, ``m:``, ``hint:``, ``end:``, ``review:``, ``rpl:``,
``replay:``, ``tournament:``, ``lb:``, ``hist:``, ``web:seat:``) captures each number loosely
(:data:`FIELD`: anything but a colon), so a malformed or oversized id still reaches the item that
owns its prefix, which answers it in one ephemeral line (:class:`BadCustomId`, a ValueError) instead
of leaving the click unanswered or failing on the database. The bot's own numbers (match,
tournament, seat, step, page) are at most :data:`MAX_ID` = 2^53 - 1, what Discord's clients and
JavaScript hold exactly; a Discord snowflake (a server's id) is at most :data:`MAX_SNOWFLAKE` =
2^63 - 1 (snowflakes are above 2^53; they fit 63 bits, as SQLite's integers). Ids the bot made are plain
decimal numbers, so every message already posted keeps working.

Reading never raises (``DynamicItem.from_custom_id`` must not: discord.py would log it and leave
the click unanswered): a bad number reads as :data:`BROKEN`, and the item's callback calls
:func:`require` first.
"""

from __future__ import annotations

#: The largest of the bot's own numbers in a custom_id (matches, tournaments, seats, steps, pages).
MAX_ID = 2**53 - 1
#: The largest Discord snowflake (a server's id) in a custom_id.
MAX_SNOWFLAKE = 2**63 - 1
#: A number's field in a custom_id template: anything but the separator (checked when read).
FIELD = r"[^:]{0,100}"
#: What a malformed or out-of-range number reads as.
BROKEN = -1
BROKEN_TEXT = (
    "That button is damaged or out of date, so it did nothing (nothing was changed). "
    "Use the newest message, or the slash commands."
)


class BadCustomId(ValueError):
    """A custom_id whose numbers are malformed or out of range (a forged or damaged message)."""


def read_id(text: object, *, most: int = MAX_ID) -> int:
    """``text`` as a number from 0 to ``most`` (plain decimal digits), else :data:`BROKEN`."""
    if not isinstance(text, str) or not text.isascii() or not text.isdigit() or len(text) > len(str(most)):
        return BROKEN
    value = int(text)
    return value if value <= most else BROKEN


def read_snowflake(text: object) -> int:
    """A Discord snowflake (a server's id) from a custom_id, else :data:`BROKEN`."""
    return read_id(text, most=MAX_SNOWFLAKE)


def require(*numbers: int) -> None:
    """Refuse (one line for the player, nothing done) when a number of the custom_id was bad."""
    if any(n < 0 for n in numbers):
        raise BadCustomId(BROKEN_TEXT)


__all__ = [
    "BROKEN",
    "BROKEN_TEXT",
    "FIELD",
    "MAX_ID",
    "MAX_SNOWFLAKE",
    "BadCustomId",
    "read_id",
    "read_snowflake",
    "require",
]
