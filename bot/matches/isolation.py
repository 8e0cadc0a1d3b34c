"""Servers are kept apart: a match is named only where it belongs.

Every interaction that names a match (a command's ``match`` option, a button's custom_id) resolves
it with :func:`match_here`, given the interaction's server (``guild_id``, None in a DM):

- in a server, only that server's matches exist: another server's match is refused with exactly
  the words an id nothing has gets (:class:`MatchNotFound`), so naming it reveals nothing;
- in a DM, only the user's own matches (a seat of theirs), of any server: a player's prompts come
  by DM, so their DM reaches their own seat and nothing else.

The ids a player types or sees stay as they are (global, sequential); what changes is where they
resolve. :func:`visible_here` is the same rule for a record already read (replays, lists).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from db import MatchRecord

from .errors import MatchNotFound

if TYPE_CHECKING:
    from . import MatchService

#: The largest match id anything may name (Discord's clients hold integers exactly up to it).
MAX_MATCH_ID = 2**53 - 1


def not_here(match_id: int, guild_id: int | None) -> MatchNotFound:
    """The refusal for a match that is not to be found here (missing, or another server's)."""
    if guild_id is None:
        return MatchNotFound(f"You have no match #{match_id}.")
    return MatchNotFound(f"There is no match #{match_id} in this server.")


def visible_here(record: MatchRecord, guild_id: int | None, user_id: int | None) -> bool:
    """Whether ``record`` may be named from ``guild_id`` (None: a DM of ``user_id``)."""
    if guild_id is not None:
        return record.guild_id == guild_id
    return user_id is not None and record.seat_of(user_id) is not None


async def match_here(service: MatchService, match_id: int, guild_id: int | None, user_id: int | None) -> MatchRecord:
    """The match ``match_id`` as seen from ``guild_id`` (None: ``user_id``'s DM), else
    :class:`MatchNotFound` with the words a missing id gets. Nothing is changed."""
    if not isinstance(match_id, int) or not 0 < match_id <= MAX_MATCH_ID:
        raise not_here(match_id, guild_id)
    try:
        record = await service.get(match_id)
    except MatchNotFound:
        raise not_here(match_id, guild_id) from None
    if not visible_here(record, guild_id, user_id):
        raise not_here(match_id, guild_id)
    return record


def only_here(records: Iterable[MatchRecord], guild_id: int | None, user_id: int | None) -> list[MatchRecord]:
    """The records that may be named from ``guild_id`` (a user's own list: in a DM, all of them)."""
    return [r for r in records if visible_here(r, guild_id, user_id)]


__all__ = ["MAX_MATCH_ID", "match_here", "not_here", "only_here", "visible_here"]
