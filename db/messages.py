"""Where a match lives in Discord (table ``match_messages``, migration 0008): its thread, its live
board message and each seat's open prompt. Rows only; :mod:`bot.messages` caches and explains them.
Construct it where needed: ``MessagesRepository(db)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .repositories import _Repository

Kind = Literal["thread", "board", "prompt"]
NO_SEAT = -1


@dataclass(frozen=True)
class MessageRef:
    """One stored place: a thread (``message_id`` None), the board, or a seat's prompt."""

    kind: Kind
    seat: int  # NO_SEAT unless a prompt
    channel_id: int
    message_id: int | None
    posted_at: int


class MessagesRepository(_Repository):
    async def of_match(self, match_id: int) -> list[MessageRef]:
        """Every stored place of the match, in one round trip."""
        rows = await self.db.fetchall(
            "SELECT kind, seat, channel_id, message_id, posted_at FROM match_messages WHERE match_id = ?", (match_id,)
        )
        return [MessageRef(r["kind"], r["seat"], r["channel_id"], r["message_id"], r["posted_at"]) for r in rows]

    async def put(self, match_id: int, ref: MessageRef) -> None:
        """Store ``ref``, replacing the match's previous one of the same kind (and seat)."""
        await self.db.execute(
            "INSERT INTO match_messages (match_id, kind, seat, channel_id, message_id, posted_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, kind, seat) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id, posted_at = excluded.posted_at",
            (match_id, ref.kind, ref.seat, ref.channel_id, ref.message_id, ref.posted_at),
        )

    async def delivery(self, notice_id: int, slot: str) -> tuple[int, int] | None:
        """(channel id, message id) of the message ``slot`` of outbox notice ``notice_id`` sent
        (table ``deliveries``, migration 0015), or None."""
        row = await self.db.fetchone(
            "SELECT channel_id, message_id FROM deliveries WHERE notice_id = ? AND slot = ?", (notice_id, slot)
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def delivered(self, notice_id: int, slot: str, channel_id: int, message_id: int) -> None:
        """Record the message ``slot`` of notice ``notice_id`` produced (nothing if the notice is no
        longer in the outbox: delivered and deleted meanwhile, so it is never delivered again)."""
        await self.db.execute(
            "INSERT INTO deliveries (notice_id, slot, channel_id, message_id) SELECT ?, ?, ?, ?"
            " WHERE EXISTS (SELECT 1 FROM outbox WHERE id = ?) ON CONFLICT (notice_id, slot) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id",
            (notice_id, slot, channel_id, message_id, notice_id),
        )

    async def drop(self, match_id: int, kind: Kind, seat: int = NO_SEAT) -> None:
        await self.db.execute(
            "DELETE FROM match_messages WHERE match_id = ? AND kind = ? AND seat = ?", (match_id, kind, seat)
        )


__all__ = ["NO_SEAT", "Kind", "MessageRef", "MessagesRepository"]
