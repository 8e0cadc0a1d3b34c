"""Group commit: batches written while a commit is in flight share the next transaction.

:meth:`Database.write <db.base.Database.write>` outside a transaction hands its batch to the
database's :class:`GroupCommit`. If fewer than ``limit`` commits are in flight, a committer task
starts at once with the batches waiting (at first just this one); otherwise the batch waits, and
when a commit ends its committer takes every batch that arrived meanwhile into one transaction:
BEGIN, each batch inside its own savepoint, COMMIT. So the cost of a commit (SQLite: the sync of
its write-ahead log; PostgreSQL: the WAL flush and a round trip) is paid once per group, not per
batch, and the busier the database the larger the groups.

What each writer sees is unchanged:

- its ``write`` returns only after the transaction holding its batch has committed, with its own
  statements' inserted ids;
- a batch that fails (a refused guard, :class:`~db.base.StaleWrite`; a constraint) is rolled back
  to its savepoint alone and its writer gets the error; the other batches of the group commit;
- an error that ends the whole transaction (the database unreachable, the COMMIT refused) reaches
  every writer of the group, and none of their statements is stored;
- a writer cancelled before its batch is taken leaves nothing written (as when it was cancelled
  waiting for the database's lock before); once taken, the batch commits with its group.

The backend supplies one coroutine, ``commit(batches) -> [ids or the batch's error, ...]``,
which runs the group's transaction (:meth:`db.sqlite.SqliteDatabase._commit_group`,
:meth:`db.postgres.PostgresDatabase._commit_group`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Batch

log = logging.getLogger(__name__)

Ids = list[int | None]
Outcome = Ids | BaseException
Commit = Callable[[Sequence["Batch"]], Awaitable[list[Outcome]]]

MAX_GROUP = 256
"""The most batches one transaction takes (the rest wait for the next): a bound on how long the
first writer of a very large group waits for the others' statements."""


class GroupCommit:
    """The queue of batches waiting to commit, and the committer tasks that drain it."""

    def __init__(self, commit: Commit, *, limit: int = 1, max_group: int = MAX_GROUP) -> None:
        self._commit = commit
        #: commits in flight at most (SQLite: 1, its one writer; PostgreSQL: its pool size less one)
        self.limit = max(1, limit)
        self.max_group = max(1, max_group)
        self._waiting: list[tuple[Batch, asyncio.Future[Ids]]] = []
        #: committer tasks running (each leaves the set itself, in the same step as it sees the queue
        #: empty, so a batch queued after that step always starts a committer)
        self._committers: set[asyncio.Task[None]] = set()
        #: groups committed and batches in them (for tests and benchmarks)
        self.groups = 0
        self.batches = 0
        self.largest = 0

    async def write(self, batch: Batch) -> Ids:
        """Queue ``batch``; return its inserted ids once its group has committed (or raise its
        error)."""
        future: asyncio.Future[Ids] = asyncio.get_running_loop().create_future()
        self._waiting.append((batch, future))
        if len(self._committers) < self.limit:
            self._committers.add(asyncio.create_task(self._drain(), name="group-commit"))
        return await future

    async def _drain(self) -> None:
        """Commit the waiting batches, a group at a time, until none is left."""
        try:
            await self._groups()
        finally:
            task = asyncio.current_task()
            assert task is not None
            self._committers.discard(task)

    async def _groups(self) -> None:
        while self._waiting:
            taken = self._waiting[: self.max_group]
            del self._waiting[: self.max_group]
            group = [(batch, future) for batch, future in taken if not future.done()]  # (cancelled)
            if not group:
                continue
            try:
                outcomes = await self._commit([batch for batch, _ in group])
            except asyncio.CancelledError:
                for _, future in group:
                    future.cancel()
                self._cancel_waiting()
                raise
            except BaseException as exc:  # the whole transaction failed: every writer hears it
                for _, future in group:
                    if not future.done():
                        future.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            self.groups += 1
            self.batches += len(group)
            self.largest = max(self.largest, len(group))
            for (_, future), outcome in zip(group, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    def _cancel_waiting(self) -> None:
        if len(self._committers) <= 1:  # the last committer stops: nobody would take them
            for _, future in self._waiting:
                future.cancel()
            self._waiting.clear()

    @property
    def in_flight(self) -> int:
        return len(self._committers)


__all__ = ["MAX_GROUP", "GroupCommit"]
