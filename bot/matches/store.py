"""The live matches: an in-memory cache of each active match's state, a per-match lock, loading
(from a snapshot plus the actions after it), the one write a change makes, and the ordered
delivery of its notices after the commit.

A :class:`LiveMatch` keeps what the service asks on every move incrementally (each seat's step
count, who last moved on their own, the last referee moves), so no per-move cost grows with the
match; it holds the engine state and a short window of recent public events, never the whole log
(the log is in the database).

Memory: a match in play is kept as objects (hot). One left idle for ``idle_after`` seconds is
frozen by the timer tick: kept as its compressed pickle (a few KB) next to its record, and thawed
on its next touch (about a millisecond). Beyond ``cache_size`` matches in memory the longest idle
ones are dropped altogether and rebuilt from the database (snapshot and log) when touched.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import pickle
import secrets
import socket
import time
import weakref
import zlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import rules
from db import Batch, Database, MatchRecord, MatchStatus, NewAction
from db.live import LiveRepository, Loaded
from rules.core import CHANCE, Actor, AwaitKind, Event, State
from rules.match import Match, chance_rng
from rules.registry import get_game

from .errors import MatchNotFound, WrongStatus
from .notify import Delivery, Notice

log = logging.getLogger(__name__)

#: A snapshot of a live match is written with the move that makes its log this many entries longer
#: than the last one: a rebuild then replays at most this many actions.
SNAPSHOT_EVERY = 64


@cache
def engine_fingerprint() -> str:
    """A digest of the rules code and data: a snapshot is only used by the engine that wrote it."""
    digest = hashlib.sha256()
    root = Path(rules.__file__).resolve().parent
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass
class LiveMatch:
    """An active match in memory: its record (as committed), the engine state and what the service
    needs of the log, kept incrementally."""

    record: MatchRecord
    state: State
    seed: int
    length: int = 0  # log entries, chance included
    seat_steps: list[int] = field(default_factory=list)  # actions each seat has taken
    last_own: list[int] = field(default_factory=list)  # per seat: log index of its last own action (-1)
    last_auto: list[int] = field(default_factory=list)  # per seat: last action the referee made for it (-1)
    last_actor: int | None = None  # seat of the latest non-chance entry
    snapshot_upto: int = 0
    touched: float = field(default_factory=time.monotonic)  # last use (monotonic seconds)

    @classmethod
    def fresh(cls, record: MatchRecord, state: State, seed: int) -> LiveMatch:
        n = state.num_seats
        return cls(record, state, seed, seat_steps=[0] * n, last_own=[-1] * n, last_auto=[-1] * n)

    @property
    def match_id(self) -> int:
        return self.record.id

    def awaited(self) -> frozenset[int]:
        aw = self.state.awaiting
        return aw.seats if aw.kind is AwaitKind.SEATS else frozenset()

    def logged(self, seat: Actor, auto: bool = False) -> None:
        """Count one log entry just applied."""
        if seat != CHANCE:
            s = int(seat)
            self.seat_steps[s] += 1
            self.last_actor = s
            if auto:
                self.last_auto[s] = self.length
            else:
                self.last_own[s] = self.length
        self.length += 1

    def resolve_chance(self, entries: list[NewAction]) -> list[Event]:
        """Draw and apply chance while the state awaits it, seeded by (seed, log index) exactly as
        ``rules.match.Match`` does (a match replays the same whether it ran in one go or not)."""
        events: list[Event] = []
        state = self.state
        steps = 0
        while state.awaiting.is_chance:
            steps += 1
            if steps > 10_000:
                raise RuntimeError("chance loop did not end")
            action = state.sample_action(CHANCE, chance_rng(self.seed, self.length))
            events += state.apply_trusted(CHANCE, action)
            entries.append(NewAction(seat=None, action=action.to_json()))
            self.logged(CHANCE)
        return events

    def someone_present(self, since: int, timed_out: Sequence[int], defaulted: set[int]) -> bool:
        """Whether a player is demonstrably around on this step, ``since`` being the log index at
        which the earliest of the timed-out seats' deadlines was set: a player moved on their own
        since then; or else the last player to move on their own before it (the silent seats'
        own moves apart) is now waiting on the silent ones, not absent themselves. See
        ``deadlines``."""
        if any(i >= since for i in self.last_own):
            return True
        silent = set(timed_out)
        absent = silent | defaulted | {s for s, i in enumerate(self.last_auto) if i >= since}
        candidates = [(i, s) for s, i in enumerate(self.last_own) if s not in silent and i >= 0]
        if not candidates:
            return False
        return max(candidates)[1] not in absent

    # -- snapshots ------------------------------------------------------------------------
    def snapshot_due(self) -> bool:
        return self.length - self.snapshot_upto >= SNAPSHOT_EVERY

    def snapshot(self) -> bytes:
        """The state and the bookkeeping, pickled (read back only by the same engine version)."""
        data = {
            "state": self.state,
            "length": self.length,
            "seat_steps": self.seat_steps,
            "last_own": self.last_own,
            "last_auto": self.last_auto,
            "last_actor": self.last_actor,
        }
        return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def from_snapshot(cls, record: MatchRecord, seed: int, blob: bytes) -> LiveMatch:
        data = pickle.loads(blob)
        state = data["state"]
        if not isinstance(state, State):
            raise TypeError("not a snapshot of a game state")
        live = cls(record, state, seed, data["length"], list(data["seat_steps"]), list(data["last_own"]))
        live.last_auto = list(data["last_auto"])
        live.last_actor = data["last_actor"]
        live.snapshot_upto = live.length
        return live


@dataclass
class FrozenMatch:
    """An idle live match in memory: its record and the rest compressed."""

    record: MatchRecord
    blob: bytes

    @classmethod
    def freeze(cls, live: LiveMatch) -> FrozenMatch:
        record = live.record
        live.record = None  # type: ignore[assignment]  # kept apart, readable without thawing
        try:
            blob = zlib.compress(pickle.dumps(live, protocol=pickle.HIGHEST_PROTOCOL), 6)
        finally:
            live.record = record
        return cls(record, blob)

    def thaw(self) -> LiveMatch:
        live = pickle.loads(zlib.decompress(self.blob))
        if not isinstance(live, LiveMatch):
            raise TypeError("not a frozen live match")
        live.record = self.record
        live.touched = time.monotonic()
        return live


def process_name() -> str:
    """This process among those sharing the database (host, pid and a random tag: a pid is
    reused after a restart, a tag is not)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


#: Seconds a claim (a timed-out seat, an outbox notice) keeps other processes away: long enough to
#: handle it, short enough that a killed process's claims are soon taken over.
CLAIM_LEASE = 60


class Store:
    """The cache of live matches, their locks, loading and the write of a change.

    Several processes (PostgreSQL): the cache is checked on each touch against the match's
    committed version (:meth:`current`, one cheap query) and reloaded when another process has
    moved the match on; every write that changes a match's game is guarded by that version
    (``LiveRepository.guard``), so a write from a copy that fell behind in between is refused as a
    whole and retried by the caller. The in-process locks only save this process from racing with
    itself. On SQLite (one process per file) the cache is the truth and is not checked."""

    def __init__(
        self,
        db: Database,
        *,
        cache_size: int = 20_000,
        idle_after: float = 300.0,
        shared: bool | None = None,
        owner: str | None = None,
        lease: int = CLAIM_LEASE,
        handoff: bool = False,
    ) -> None:
        self.db = db
        #: a process that delivers nothing (``python -m bot web``): the notices of its moves are
        #: written unclaimed and left in the outbox, for a bot process's timer to claim and deliver
        self.handoff = handoff
        self.repo = LiveRepository(db)
        #: other processes may write the database: check versions on touch and claim work
        self.shared = db.backend == "postgres" if shared is None else shared
        self.owner = owner or process_name()
        self.lease = lease
        if self.shared:
            self.repo.claims = (self.owner, lease)
        self.cache_size = cache_size
        self.idle_after = idle_after
        self._live: OrderedDict[int, LiveMatch] = OrderedDict()  # hot, least recently used first
        self._frozen: OrderedDict[int, FrozenMatch] = OrderedDict()  # idle, least recently used first
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._delivery: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._delivered: list[int] = []  # outbox ids delivered, deleted by the next flush (the timer)

    # -- locking ------------------------------------------------------------------------------
    def _lock_of(self, table: weakref.WeakValueDictionary[int, asyncio.Lock], match_id: int) -> asyncio.Lock:
        lock = table.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            table[match_id] = lock
        return lock

    @asynccontextmanager
    async def session(self, match_id: int, deliver: Callable[[Notice[Any]], Any]) -> AsyncIterator[Delivery]:
        """Hold the match lock for the body; then deliver the notices it committed, in order,
        outside the match lock (the next change of the match may already go ahead) but before any
        later change's notices (the delivery lock is taken before the match lock is released)."""
        lock = self._lock_of(self._locks, match_id)
        outbox = self._lock_of(self._delivery, match_id)
        delivery = Delivery()
        await lock.acquire()
        try:
            yield delivery  # the body may raise after committing: its notices go out all the same
        finally:
            try:
                await outbox.acquire()
            finally:
                lock.release()
            try:
                for notice in delivery.notices:
                    await deliver(notice)
            finally:
                outbox.release()

    # -- the cache ------------------------------------------------------------------------------
    def cached(self, match_id: int) -> LiveMatch | None:
        live = self._live.get(match_id)
        if live is not None:
            self._live.move_to_end(match_id)
            live.touched = time.monotonic()
            return live
        frozen = self._frozen.pop(match_id, None)
        if frozen is None:
            return None
        try:
            live = frozen.thaw()
        except Exception:
            log.warning("match %s did not thaw; it is rebuilt from the database", match_id, exc_info=True)
            return None
        self._live[match_id] = live
        return live

    def keep(self, live: LiveMatch) -> None:
        self._frozen.pop(live.match_id, None)
        self._live[live.match_id] = live
        self._live.move_to_end(live.match_id)
        live.touched = time.monotonic()
        self._trim()

    def drop(self, match_id: int) -> None:
        """Forget the cached match (it is rebuilt from the database on the next touch)."""
        self._live.pop(match_id, None)
        self._frozen.pop(match_id, None)

    def freeze_idle(self, now: float | None = None) -> int:
        """Freeze the hot matches idle for ``idle_after`` seconds (not in use); returns how many."""
        limit = (time.monotonic() if now is None else now) - self.idle_after
        idle = [
            live
            for live in self._live.values()
            if live.touched <= limit and not self._lock_of(self._locks, live.match_id).locked()
        ]
        for live in idle:
            self._live.pop(live.match_id)
            self._frozen[live.match_id] = FrozenMatch.freeze(live)
        self._trim()
        return len(idle)

    def _trim(self) -> None:
        """Beyond ``cache_size`` matches in memory, drop the longest idle frozen ones, then hot ones
        not in use (the database has them)."""
        while len(self._live) + len(self._frozen) > self.cache_size and self._frozen:
            self._frozen.popitem(last=False)
        while len(self._live) > self.cache_size:
            oldest = next(iter(self._live))
            if self._lock_of(self._locks, oldest).locked():
                break  # in use: keep it for now
            self._live.pop(oldest)

    def __len__(self) -> int:
        return len(self._live) + len(self._frozen)

    @property
    def hot(self) -> int:
        return len(self._live)

    def set_lease(self, seconds: int) -> None:
        self.lease = seconds
        if self.shared:
            self.repo.claims = (self.owner, seconds)

    def claim(self, now: int) -> tuple[str, int] | None:
        """The claim a notice written now carries (this process, until its lease ends), or None
        on one process and in a process that hands its notices off."""
        return (self.owner, now + self.lease) if self.shared and not self.handoff else None

    async def current(self, match_id: int) -> LiveMatch | None:
        """The cached live match if it is the committed one: with other processes about, its
        version is checked (one query) and a copy that fell behind is dropped (None)."""
        live = self.cached(match_id)
        if live is None or not self.shared:
            return live
        version = await self.repo.version(match_id)
        if version == live.record.version:
            return live
        log.info(
            "match %s moved on in another process (version %s, cached %s); reloading",
            match_id,
            version,
            live.record.version,
        )
        self.drop(match_id)
        return None

    async def behind(self, live: LiveMatch) -> bool:
        """Whether another process has moved the match on since ``live`` was loaded (then it is
        dropped); always False on one process. A request refused by a copy that may be old asks
        this before it answers (one query, only when refusing)."""
        if not self.shared:
            return False
        if await self.repo.version(live.match_id) == live.record.version:
            return False
        self.drop(live.match_id)
        return True

    # -- records --------------------------------------------------------------------------------
    async def record(self, match_id: int) -> MatchRecord:
        if self.shared:  # another process may have changed it: the database answers
            found = await self.repo.record(match_id)
            if found is None:
                raise MatchNotFound(f"There is no match #{match_id}.")
            return found
        live = self._live.get(match_id)
        if live is not None:
            return live.record
        frozen = self._frozen.get(match_id)
        if frozen is not None:
            return frozen.record
        record = await self.repo.record(match_id)
        if record is None:
            raise MatchNotFound(f"There is no match #{match_id}.")
        return record

    # -- loading --------------------------------------------------------------------------------
    async def live(self, match_id: int, now: int) -> LiveMatch | MatchRecord:
        """The cached live match, or one rebuilt from the database; a match that is not active
        (pending or over) comes back as its record. Lock held by the caller."""
        live = await self.current(match_id)
        if live is not None:
            return live
        loaded = await self.repo.load(match_id, engine_fingerprint())
        if loaded is None:
            raise MatchNotFound(f"There is no match #{match_id}.")
        if loaded.record.status is not MatchStatus.ACTIVE:
            return loaded.record
        live = await self._rebuild(loaded, now)
        self.keep(live)
        return live

    async def rebuild(self, match_id: int, now: int) -> LiveMatch:
        """A started match rebuilt from the database whatever its status (not cached)."""
        loaded = await self.repo.load(match_id, engine_fingerprint())
        if loaded is None:
            raise MatchNotFound(f"There is no match #{match_id}.")
        return await self._rebuild(loaded, now)

    async def _rebuild(self, loaded: Loaded, now: int) -> LiveMatch:
        record = loaded.record
        if record.seed is None:
            raise WrongStatus(f"Match #{record.id} has not started yet.")
        live: LiveMatch | None = None
        if loaded.snapshot is not None:
            try:
                live = LiveMatch.from_snapshot(record, record.seed, loaded.snapshot.state)
            except Exception:
                log.warning("the snapshot of match %s does not load; replaying its log", record.id, exc_info=True)
        if live is None:
            if loaded.snapshot is not None:
                loaded = await self.repo.load(record.id, engine_fingerprint(), use_snapshot=False) or loaded
            game = get_game(record.game)(game_options(record), num_seats=len(record.seats))
            live = LiveMatch.fresh(record, game.new_state(), record.seed)
        state = live.state
        for row in loaded.actions:
            if row.idx != live.length:
                raise RuntimeError(f"match {record.id}: log entry {row.idx} found where {live.length} was expected")
            seat: Actor = CHANCE if row.seat is None else row.seat
            # checked: a stored log that no longer replays fails here
            state.apply(seat, state.game.parse_action(row.action))
            live.logged(seat, row.auto)
        extra: list[NewAction] = []
        live.resolve_chance(extra)  # chance a stored log leaves out (not written by this service)
        if extra:
            batch = Batch()
            LiveRepository.guard(batch, record.id, record.version)
            LiveRepository.add_actions(batch, record.id, live.length - len(extra), extra, now)
            await self.db.write(batch)
            live.record = replace(record, version=record.version + 1)
        return live

    # -- writing --------------------------------------------------------------------------------
    async def write(self, batch: Batch) -> list[int | None]:
        """Commit ``batch`` in one round trip. (The notices delivered meanwhile are deleted by the
        timer, :meth:`flush`: a move's batch keeps its few statements, issue 33.)"""
        return await self.db.write(batch)

    def delivered(self, notice_id: int | None) -> None:
        if notice_id is not None:
            self._delivered.append(notice_id)

    async def flush(self) -> None:
        """Delete the delivered notices now (one round trip, if any; none once the database is
        closed: they are delivered again at the next start-up, which is harmless)."""
        if not self._delivered or self.db.closed:
            return
        done, self._delivered = self._delivered, []
        batch = Batch()
        LiveRepository.delete_notices(batch, done)
        try:
            await self.db.write(batch)
        except BaseException:
            self._delivered = done + self._delivered
            raise


def game_options(record: MatchRecord) -> Any:
    """A stored match's options as its game reads them (older rows get the legacy values)."""
    return get_game(record.game).options_model.upgrade_stored(record.options)


def new_match(record: MatchRecord, seed: int) -> tuple[LiveMatch, list[Event], list[NewAction]]:
    """A match starting now: its live form, the opening events and the opening log (chance)."""
    match = Match.new(record.game, record.options, seed=seed, seats=record.names)
    live = LiveMatch.fresh(record, match.state, seed)
    entries = []
    for entry in match.log:
        entries.append(NewAction(seat=None if entry.seat == CHANCE else int(entry.seat), action=entry.action))
        live.logged(entry.seat)
    return live, list(match.events), entries


def with_seats(record: MatchRecord, **changes: dict[int, Any]) -> MatchRecord:
    """``record`` with seat fields changed: ``with_seats(r, deadline_at={0: 5})``."""
    seats = []
    for s in record.seats:
        fields = {name: values[s.seat] for name, values in changes.items() if s.seat in values}
        seats.append(replace(s, **fields) if fields else s)
    return replace(record, seats=tuple(seats))


__all__ = [
    "CLAIM_LEASE",
    "LiveMatch",
    "SNAPSHOT_EVERY",
    "Store",
    "engine_fingerprint",
    "game_options",
    "new_match",
    "process_name",
    "with_seats",
]
