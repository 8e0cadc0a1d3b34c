"""Matches being watched (the web table's live pages, issue 35): each watched match's version and
status, read for all of them at once every :data:`POLL_SECONDS` (one query per period, however
many matches and watchers), and handed to every watcher of a match that changed.

Reading the database, not this process's own moves, is what lets a page follow a match whatever
process plays it: with several bot processes on one PostgreSQL server, and with the web table in
a process of its own. A match's version changes with every write of it (its log, deadlines, start,
end: ``LiveRepository.guard``), so a watcher is told of every move within one period.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from db import Database

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1
"""How often the watched matches are read (a move reaches its watchers within this, plus a read)."""


@dataclass
class Watched:
    """One watched match as last read: its version, whether it is still live, and the signal its
    watchers wait on (set, then replaced, at each change)."""

    match_id: int
    version: int
    status: str
    watchers: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def live(self) -> bool:
        return self.status in ("active", "pending")

    async def wait(self, version: int, timeout: float) -> bool:
        """Whether the match moved past ``version`` (at once if it already has), else False after
        ``timeout`` seconds."""
        if self.version != version or not self.live:
            return True
        signal = self.changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(signal.wait(), timeout)
        return self.version != version or not self.live


class MatchWatch:
    """The hub of one process's watchers."""

    def __init__(self, db: Database, *, every: float = POLL_SECONDS) -> None:
        self.db = db
        self.every = every
        self.reads = 0  # how many times the watched matches were read (one query per 500 matches)
        self._watched: dict[int, Watched] = {}
        self._task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def watching(self, match_id: int) -> AsyncIterator[Watched]:
        """Watch ``match_id`` while inside: the :class:`Watched` to wait on. Raises LookupError
        for a match that does not exist."""
        found = self._watched.get(match_id)
        if found is None:
            versions = await self.db.matches.versions([match_id])
            if match_id not in versions:
                raise LookupError(match_id)
            found = self._watched.setdefault(match_id, Watched(match_id, *versions[match_id]))
        found.watchers += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._poll(), name="match watch")
        try:
            yield found
        finally:
            found.watchers -= 1
            if found.watchers <= 0 and self._watched.get(match_id) is found:
                del self._watched[match_id]

    @property
    def watched(self) -> int:
        return len(self._watched)

    async def _poll(self) -> None:
        while self._watched:
            await asyncio.sleep(self.every)
            try:
                await self.read()
            except Exception:  # noqa: BLE001 - a lost connection: the next period tries again
                log.warning("reading the watched matches failed", exc_info=True)

    async def read(self) -> None:
        """Read every watched match once and wake the watchers of those that changed."""
        ids = list(self._watched)
        if not ids:
            return
        versions = await self.db.matches.versions(ids)
        self.reads += 1
        for match_id in ids:
            watched = self._watched.get(match_id)
            if watched is None:
                continue
            version, status = versions.get(match_id, (watched.version, "gone"))
            if (version, status) != (watched.version, watched.status):
                watched.version, watched.status = version, status
                signal, watched.changed = watched.changed, asyncio.Event()
                signal.set()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
