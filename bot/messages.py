"""Where each match lives in Discord: its thread, its live board message and each seat's open
prompt, remembered in the database (``match_messages``) so that a restarted bot edits the same
board and prompts instead of posting new ones. Discord-free, like :mod:`bot.matches`; the Discord
layer (``cogs/placement.py``) decides what to post and tells this service where it went.

This is deliberately not part of the match service: a move is committed (and acknowledged) without
waiting for Discord, and where its story was told is the presentation's business.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from db import Database
from db.messages import NO_SEAT, MessageRef, MessagesRepository

#: A board message older than this is replaced by a fresh one instead of being edited again
#: (Discord limits edits of messages older than an hour: error 30046).
BOARD_MAX_AGE = 50 * 60


@dataclass
class MatchPlaces:
    """The stored places of one match."""

    thread: MessageRef | None = None
    board: MessageRef | None = None
    prompts: dict[int, MessageRef] = field(default_factory=dict)

    @property
    def channel_id(self) -> int | None:
        """Where the match's posts go: its thread, if it has one."""
        return self.thread.channel_id if self.thread is not None else None


class MessagesService:
    """Reads and remembers the places of matches; cached (the newest ``cache_size`` matches)."""

    def __init__(self, db: Database, cache_size: int = 5000) -> None:
        self._repo = MessagesRepository(db)
        self._cache: OrderedDict[int, MatchPlaces] = OrderedDict()
        self.cache_size = cache_size

    async def places(self, match_id: int) -> MatchPlaces:
        found = self._cache.get(match_id)
        if found is not None:
            self._cache.move_to_end(match_id)
            return found
        places = MatchPlaces()
        for ref in await self._repo.of_match(match_id):
            if ref.kind == "thread":
                places.thread = ref
            elif ref.kind == "board":
                places.board = ref
            else:
                places.prompts[ref.seat] = ref
        self._keep(match_id, places)
        return places

    def _keep(self, match_id: int, places: MatchPlaces) -> None:
        self._cache[match_id] = places
        self._cache.move_to_end(match_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def set_thread(self, match_id: int, thread_id: int, at: int) -> None:
        places = await self.places(match_id)
        places.thread = MessageRef("thread", NO_SEAT, thread_id, None, at)
        await self._repo.put(match_id, places.thread)

    async def set_board(self, match_id: int, channel_id: int, message_id: int, at: int) -> None:
        places = await self.places(match_id)
        places.board = MessageRef("board", NO_SEAT, channel_id, message_id, at)
        await self._repo.put(match_id, places.board)

    async def set_prompt(self, match_id: int, seat: int, channel_id: int, message_id: int, at: int) -> None:
        places = await self.places(match_id)
        places.prompts[seat] = MessageRef("prompt", seat, channel_id, message_id, at)
        await self._repo.put(match_id, places.prompts[seat])

    # -- each message once ------------------------------------------------------------------------
    async def delivery(self, notice_id: int, slot: str) -> tuple[int, int] | None:
        """Where the message ``slot`` of outbox notice ``notice_id`` went, if it was sent:
        (channel id, message id). Asked only when a notice is delivered again."""
        return await self._repo.delivery(notice_id, slot)

    async def delivered(self, notice_id: int, slot: str, channel_id: int, message_id: int) -> None:
        """Record that notice ``notice_id`` produced this message as ``slot`` (deleted with the
        notice once it is delivered)."""
        await self._repo.delivered(notice_id, slot, channel_id, message_id)

    async def answered(self, match_id: int, seat: int, message_id: int | None) -> None:
        """The seat's prompt ``message_id`` was answered (it became the record of the move), or
        closed: forget it (a newer prompt of the seat stays)."""
        places = await self.places(match_id)
        ref = places.prompts.get(seat)
        if ref is not None and ref.message_id == message_id:
            del places.prompts[seat]
            await self._repo.drop(match_id, "prompt", seat)


__all__ = ["BOARD_MAX_AGE", "MatchPlaces", "MessagesService"]
