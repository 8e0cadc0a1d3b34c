"""Test doubles shared by the tests: a notifier that records what the match service tells it, and
a counter of database round trips."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.matches import SeatPrompt, TimeoutResult
from bot.matches.notify import NoticeKind
from db import Database, MatchRecord
from rules.core import Event, Outcome


class Clock:
    """A clock the tests move by hand (the service's and the database's ``clock``)."""

    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: int) -> int:
        self.now += seconds
        return self.now


@dataclass(frozen=True)
class HeardNotice:
    """One notification the service gave, as the fake notifier heard it (the service's own outbox
    notice is ``bot.matches.notify.Notice``)."""

    kind: NoticeKind
    record: MatchRecord
    seat: int | None = None
    events: tuple[Event, ...] = ()
    view: Mapping[str, Any] | None = None
    prompt: SeatPrompt | None = None
    deadline: int | None = None
    result: TimeoutResult | None = None
    outcome: Outcome | None = None

    @property
    def match_id(self) -> int:
        return self.record.id


class RecordingNotifier:
    """Records every notification. Kinds listed in ``fail`` raise after recording. ``dm_ok``:
    what on_prompt reports about DMs (None: no DM tried)."""

    def __init__(self, *, fail: Collection[NoticeKind] = (), dm_ok: bool | None = None) -> None:
        self.notices: list[HeardNotice] = []
        self.fail = set(fail)
        self.dm_ok = dm_ok

    def _add(self, notice: HeardNotice) -> None:
        self.notices.append(notice)
        if notice.kind in self.fail:
            raise RuntimeError(f"RecordingNotifier: simulated failure in {notice.kind}")

    async def on_started(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        self._add(HeardNotice("started", record, events=tuple(events), view=view))

    async def on_events(self, record: MatchRecord, events: Sequence[Event], view: Mapping[str, Any]) -> None:
        self._add(HeardNotice("events", record, events=tuple(events), view=view))

    async def on_prompt(self, record: MatchRecord, prompt: SeatPrompt) -> bool | None:
        self._add(HeardNotice("prompt", record, seat=prompt.seat, prompt=prompt))
        return self.dm_ok

    async def on_reminder(self, record: MatchRecord, seat: int, deadline: int) -> None:
        self._add(HeardNotice("reminder", record, seat=seat, deadline=deadline))

    async def on_timeout(self, record: MatchRecord, seat: int, result: TimeoutResult) -> None:
        self._add(HeardNotice("timeout", record, seat=seat, result=result))

    async def on_finished(self, record: MatchRecord, outcome: Outcome) -> None:
        self._add(HeardNotice("finished", record, outcome=outcome))

    async def on_challenge_expired(self, record: MatchRecord) -> None:
        self._add(HeardNotice("challenge_expired", record))

    def of(self, kind: NoticeKind, match_id: int | None = None) -> list[HeardNotice]:
        return [n for n in self.notices if n.kind == kind and (match_id is None or n.match_id == match_id)]

    def kinds(self, match_id: int | None = None) -> list[str]:
        return [n.kind for n in self.notices if match_id is None or n.match_id == match_id]

    def clear(self) -> None:
        self.notices.clear()


def count_round_trips(db: Database) -> Callable[[], int]:
    """Wrap ``db``'s connection so that every hop to the database thread is counted; returns a
    function giving the number of hops since the wrapper was installed.

    On PostgreSQL there is no database thread: each call of the database's API that reaches the
    server counts (a query, a statement, a batch written in one transaction, a BEGIN or COMMIT),
    which is what a hop is on SQLite."""
    if db.backend == "postgres":
        calls = [0]
        for name in ("execute", "executemany", "fetchone", "fetchall", "fetch_many", "write", "_plain"):
            method = getattr(db, name)

            def counted(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
                calls[0] += 1
                return _method(*args, **kwargs)

            setattr(db, name, counted)
        return lambda: calls[0]
    conn = db._conn
    original = conn._execute
    count = [0]

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return await original(fn, *args, **kwargs)

    conn._execute = counting  # type: ignore[method-assign]
    return lambda: count[0]
