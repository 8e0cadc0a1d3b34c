"""The end of a match, Discord-free: everything its end-of-match card shows, and the rematch.

- :class:`Ending`: a match that is over (finished or abandoned) rebuilt from its log: every
  event (private ones included: the match is over, nothing is secret any more), each seat's final
  view (which reveals what the seat hid), the placements and the rating changes on the match's
  ladder (its server's, else the global one).
- Ratings are computed after the finish by the background :class:`~bot.matches.moves.Rater`:
  :meth:`Endings.get` waits for them, bounded (``wait`` seconds); ``Ending.ratings_pending`` says
  when they were not ready in time (the card says so, and is edited once when they are).
- :meth:`Endings.rematch`: the same game and options, the seats rotated by one (swapped, for two),
  posted as a new challenge that every other player must accept. Only the old match's players may
  ask; while a rematch of it is pending or being played, asking again is refused and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.ratings import placement
from db import GLOBAL_SCOPE, MatchRecord, MatchStatus, RatingChange, RatingsRepository
from rules.core import CHANCE, Event, Game
from rules.match import LogEntry, Match, MatchLog

from .context import Context
from .errors import InvalidChallenge, NotAPlayer, WrongStatus
from .moves import Rater

#: Endings kept in memory (a card is built once, its buttons read it again).
ENDING_CACHE = 64
OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)


@dataclass(frozen=True)
class Placed:
    """One seat's place: ``rank`` 1 = best (equal ranks are tied), of ``of`` players."""

    seat: int
    rank: int
    of: int
    tied: bool
    result: str  # 'win' | 'loss' | 'draw'


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Ending:
    """A match that is over, everything revealed."""

    record: MatchRecord
    game: Game[Any, Any, Any]
    log: MatchLog
    events: tuple[Event, ...]  # all of them, private included
    views: tuple[Mapping[str, Any], ...]  # each seat's final view
    public_view: Mapping[str, Any]
    changes: tuple[RatingChange, ...]  # on the match's ladder, by seat
    ratings_pending: bool  # rated matches whose rating was not ready in time

    @property
    def names(self) -> list[str]:
        return self.record.names

    @property
    def abandoned(self) -> bool:
        return self.record.status is MatchStatus.ABANDONED

    @property
    def rated(self) -> bool:
        """Whether the match counts for the ratings (finished, with an outcome they can use, and
        not a practice match: those are never rated)."""
        return self.record.status is MatchStatus.FINISHED and not self.record.practice and self.placements() is not None

    def placements(self) -> list[Placed] | None:
        """Each seat's place, by seat; None when the match has no outcome (abandoned)."""
        n = len(self.record.seats)
        found = placement(self.record.outcome, n)
        if found is None:
            return None
        return [Placed(s, found.ranks[s], n, found.ranks.count(found.ranks[s]) > 1, found.results[s]) for s in range(n)]

    def change(self, seat: int) -> RatingChange | None:
        return next((c for c in self.changes if c.seat == seat), None)

    def of_kind(self, *kinds: str) -> list[Event]:
        return [e for e in self.events if e.kind in kinds]

    def forfeits(self) -> dict[int, str]:
        """Seats that forfeited, with why ('resign', 'left', 'timeout')."""
        return {int(e.data["seat"]): str(e.data.get("reason", "resign")) for e in self.of_kind("forfeit")}

    def log_json(self) -> dict[str, Any]:
        """The match log ``python -m rules replay`` reads (with the outcome as recorded)."""
        return self.log.model_dump(mode="json")


def match_log(record: MatchRecord, rows: Sequence[Any]) -> MatchLog:
    """The replayable log of a started match from its stored action rows."""
    return MatchLog(
        game=record.game,
        options=record.options,
        seed=record.seed or 0,
        seats=record.names,
        actions=[LogEntry(seat=CHANCE if r.seat is None else r.seat, action=r.action) for r in rows],
        outcome=record.outcome if record.status is MatchStatus.FINISHED else None,
    )


def rotated(record: MatchRecord) -> list[tuple[int, str]]:
    """The seats of a rematch: each player one seat on (two players swap)."""
    seats = [(s.user_id, s.display_name) for s in record.seats]
    return seats[1:] + seats[:1]


def rotated_ai(record: MatchRecord) -> dict[int, str]:
    """The computer players' seats of a rematch (rotated as :func:`rotated`): seat -> level."""
    n = len(record.seats)
    return {(s.seat - 1) % n: s.ai for s in record.seats if s.ai is not None}


class Endings:
    """Builds :class:`Ending` s (cached) and makes rematches."""

    def __init__(self, ctx: Context, rater: Rater) -> None:
        self.ctx = ctx
        self.rater = rater
        self._cache: OrderedDict[int, Ending] = OrderedDict()
        self._rematch_locks: dict[int, asyncio.Lock] = {}

    async def over(self, match_id: int) -> MatchRecord:
        record = await self.ctx.store.record(match_id)
        if record.status not in OVER or record.seed is None:
            raise WrongStatus(f"Match #{match_id} is not over: nothing of it is revealed before its end.")
        return record

    async def get(self, match_id: int, *, wait: float = 0.0) -> Ending:
        """The ending of a match that is over (WrongStatus otherwise); waits up to ``wait``
        seconds for its rating."""
        cached = self._cache.get(match_id)
        if cached is not None and not cached.ratings_pending:
            self._cache.move_to_end(match_id)
            return cached
        record = await self.over(match_id)
        if record.status is MatchStatus.FINISHED and not record.practice and wait > 0:
            await self.settled(wait)
        changes = await self.changes(record)
        if cached is not None:
            ending = replace(cached, changes=changes, ratings_pending=not changes and cached.rated)
        else:
            ending = await self.build(record, changes)
        self._cache[match_id] = ending
        while len(self._cache) > ENDING_CACHE:
            self._cache.popitem(last=False)
        return ending

    async def settled(self, wait: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.rater.settle()), wait)

    async def changes(self, record: MatchRecord) -> tuple[RatingChange, ...]:
        scope = record.guild_id or GLOBAL_SCOPE
        found = await RatingsRepository(self.ctx.db).changes_for_match(record.id)
        return tuple(sorted((c for c in found if c.scope == scope), key=lambda c: c.seat))

    async def build(self, record: MatchRecord, changes: tuple[RatingChange, ...]) -> Ending:
        log = match_log(record, await self.ctx.db.actions.for_match(record.id))
        match = await asyncio.to_thread(Match.replay, log)
        state = match.state
        views = tuple(state.view(s) for s in range(len(record.seats)))
        ending = Ending(record, match.game, log, tuple(match.events), views, state.view(None), changes, False)
        return replace(ending, ratings_pending=ending.rated and not changes)

    async def log_of(self, match_id: int) -> dict[str, Any]:
        """The match log of a match that is over (the Download log button)."""
        return (await self.get(match_id)).log_json()

    # -- rematch ------------------------------------------------------------------------------
    async def rematch(self, match_id: int, user_id: int) -> MatchRecord:
        """A new challenge: same game, options, server and channel; seats rotated; only the asker
        has accepted (and the computer players, if any). Refused (nothing changes) for anyone who
        did not play, for a match not over, and while a rematch of it is pending or being played."""
        lock = self._rematch_locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            record = await self.ctx.store.record(match_id)
            if record.seat_of(user_id) is None:
                raise NotAPlayer(f"Only the players of match #{match_id} can ask for its rematch.")
            await self.over(match_id)
            return await self._rematch(record, user_id)

    async def _rematch(self, record: MatchRecord, user_id: int) -> MatchRecord:
        """Check for a pending rematch and create one in one transaction that first writes the
        old match's row: with several processes on one database (PostgreSQL) the row lock makes
        two rematch requests for the same match run one after the other, so the second sees the
        first's rematch (the asyncio lock only orders the requests of one process)."""
        match_id = record.id
        db = self.ctx.db
        async with db.transaction():
            await db.matches.bump_version(match_id)
            seats = rotated(record)
            earlier = await db.matches.rematches_of(record)
            waiting = [r for r in earlier if r.status in (MatchStatus.PENDING, MatchStatus.ACTIVE)]
            if waiting:
                r = waiting[0]
                state = "is waiting to be accepted" if r.status is MatchStatus.PENDING else "is being played"
                raise InvalidChallenge(f"A rematch of match #{match_id} (match #{r.id}) {state}.")
            now = self.ctx.now()
            asker = next(i for i, (uid, _) in enumerate(seats) if uid == user_id)
            return await db.matches.create(
                game=record.game,
                options=record.options,
                guild_id=record.guild_id,
                channel_id=record.channel_id,
                seats=seats,
                expires_at=now + self.ctx.challenge_timeout,
                created_at=now,
                accepted_seat=asker,
                challenger_id=user_id,
                ai=rotated_ai(record),
            )


__all__ = ["Ending", "Endings", "OVER", "Placed", "match_log", "ordinal", "rotated", "rotated_ai"]
