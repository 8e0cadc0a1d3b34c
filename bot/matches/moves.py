"""Moves: submit, forfeit, what a seat is asked, what a seat sees.

One move is: take the match lock; apply it through the rules to the live state (an illegal move
raises and changes nothing); write its log entries, the seats' next deadlines, its notices (and the
finish, or a snapshot, when due) as one batch and commit it in one round trip; acknowledge; then,
outside the lock, hand the notices to the notifier. If the commit fails the live match is dropped
and rebuilt from the database on its next touch, so a move that was not saved never counts.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from bot.ratings import RatingService
from db import Batch, DatabaseUnavailable, MatchRecord, MatchStatus, NewAction, StaleWrite
from db.live import LiveRepository
from db.repositories import dump_json
from rules.core import ActionModel, Forfeit, Outcome, fill_names, public_events
from rules.errors import RulesError

from .context import Context, log, prompt_of
from .errors import Conflict, NotAPlayer, NotSaved, StalePrompt, WrongStatus
from .notify import ArgsT, Delivery, EventsArgs, FinishedArgs, Notice, PromptArgs, TimeoutArgs
from .results import MoveResult, SeatPrompt, TimeoutResult
from .store import LiveMatch, engine_fingerprint, with_seats

#: Times a move is tried against a fresh copy of its match when another process changed the match
#: first (each try reloads it; a duplicate submission is then refused as a stale prompt).
CONFLICT_RETRIES = 5

_CLOSED_TEXT = {
    MatchStatus.ACTIVE: "has already started",
    MatchStatus.FINISHED: "is over",
    MatchStatus.ABANDONED: "was abandoned",
    MatchStatus.DECLINED: "was declined",
    MatchStatus.EXPIRED: "has expired",
    MatchStatus.CANCELLED: "was withdrawn",
}


def closed_text(status: MatchStatus) -> str:
    return _CLOSED_TEXT[status]


def require_seat(record: MatchRecord, user_id: int) -> int:
    seat = record.seat_of(user_id)
    if seat is None:
        raise NotAPlayer(f"You are not a player in match #{record.id}.")
    return seat


def require_active(record: MatchRecord) -> None:
    if record.status is MatchStatus.PENDING:
        raise WrongStatus(f"Match #{record.id} has not started yet: not everyone has accepted.")
    if record.status is not MatchStatus.ACTIVE:
        raise WrongStatus(f"Match #{record.id} {_CLOSED_TEXT[record.status]}; no more moves are accepted.")


class Rater:
    """Rates finished matches in the background, one game at a time, in finish order: a finishing
    move commits its finish with the match in the rating queue (one write) and is acknowledged;
    its rating follows. A failure is logged and the match stays queued: the next finish of its
    game, the next start-up (:meth:`catch_up_all`) or ``python -m bot.ratings rebuild`` rates it."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._games: list[str] = []
        self._task: asyncio.Task[None] | None = None

    def schedule(self, game: str) -> None:
        if game not in self._games:
            self._games.append(game)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="ratings")

    async def _run(self) -> None:
        while self._games:
            game = self._games.pop(0)
            try:
                await RatingService(self.ctx.db).catch_up(game)
            except Exception:
                log.exception("Rating %s matches failed; they stay queued and are rated with the next one", game)

    async def catch_up_all(self) -> None:
        """Schedule every game that has matches waiting in the rating queue."""
        for _, game in await RatingService(self.ctx.db).repo.queued():
            self.schedule(game)

    async def settle(self) -> None:
        """Wait until every scheduled rating is done."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)


class Moves:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rater = Rater(ctx)

    # -- the public operations ----------------------------------------------------------------
    async def submit(
        self, match_id: int, user_id: int, action: Mapping[str, Any] | ActionModel, *, seat_step: int | None
    ) -> MoveResult:
        for attempt in range(CONFLICT_RETRIES):
            try:
                return await self._submit(match_id, user_id, action, seat_step)
            except Conflict:
                if attempt == CONFLICT_RETRIES - 1:
                    log.warning("A move in match %s lost %d races with other processes", match_id, CONFLICT_RETRIES)
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def _submit(
        self, match_id: int, user_id: int, action: Mapping[str, Any] | ActionModel, seat_step: int | None
    ) -> MoveResult:
        async with self.ctx.session(match_id) as delivery:
            # The cached copy is used unchecked: an accepted move's write is guarded by the match's
            # version (one round trip in all); a refusal is checked against it before it stands.
            live = await self.active_for(match_id, user_id, delivery, check=False)
            try:
                seat = require_seat(live.record, user_id)
                if seat_step is not None:
                    current = live.seat_steps[seat]
                    if seat_step != current:
                        raise StalePrompt(
                            "That prompt is out of date: "
                            + (
                                "you have already acted on it (or on a newer prompt)."
                                if seat_step < current
                                else "it does not match this match's moves."
                            )
                            + " Use your newest prompt."
                        )
                return await self.play(live, seat, action, delivery, now=self.ctx.now())
            except (RulesError, StalePrompt, NotAPlayer) as exc:
                if await self.ctx.store.behind(live):
                    raise Conflict(f"Match #{match_id} changed meanwhile; please try again.") from exc
                raise

    async def forfeit(self, match_id: int, user_id: int, reason: Literal["resign", "left"] = "resign") -> MoveResult:
        for attempt in range(CONFLICT_RETRIES):
            try:
                return await self._forfeit(match_id, user_id, reason)
            except Conflict:
                if attempt == CONFLICT_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def _forfeit(self, match_id: int, user_id: int, reason: Literal["resign", "left"]) -> MoveResult:
        async with self.ctx.session(match_id) as delivery:
            live = await self.active_for(match_id, user_id, delivery)
            seat = require_seat(live.record, user_id)
            return await self.play(live, seat, Forfeit(reason=reason), delivery, now=self.ctx.now())

    async def active_for(self, match_id: int, user_id: int, delivery: Delivery, *, check: bool = True) -> LiveMatch:
        """The live match for a player's request: NotAPlayer before WrongStatus, as players expect."""
        found = await self.ctx.load(match_id, delivery, check=check)
        if isinstance(found, LiveMatch):
            return found
        require_seat(found, user_id)
        require_active(found)
        raise WrongStatus(f"Match #{match_id} is not in play.")  # pragma: no cover

    async def prompt(self, match_id: int, seat: int) -> SeatPrompt:
        async with self.ctx.session(match_id) as delivery:
            found = await self.ctx.load(match_id, delivery)
            if not isinstance(found, LiveMatch):
                require_active(found)
                raise WrongStatus(f"Match #{match_id} is not in play.")  # pragma: no cover
            if not 0 <= seat < len(found.record.seats):
                raise NotAPlayer(f"Match #{match_id} has no seat {seat + 1}.")
            return prompt_of(found, seat)

    async def seat_step(self, match_id: int, seat: int) -> int:
        async with self.ctx.session(match_id) as delivery:
            found = await self.ctx.load(match_id, delivery)
            if isinstance(found, LiveMatch):
                return found.seat_steps[seat]
            return await self.ctx.db.actions.count_for_seat(match_id, seat)

    async def view(self, match_id: int, seat: int | None) -> Mapping[str, Any]:
        async with self.ctx.session(match_id) as delivery:
            found = await self.ctx.load(match_id, delivery)
            if isinstance(found, LiveMatch):
                return found.state.view(seat)
            if found.status is MatchStatus.PENDING or found.seed is None:
                raise WrongStatus(f"Match #{match_id} has not started yet.")
            return (await self.ctx.store.rebuild(match_id, self.ctx.now())).state.view(seat)

    # -- one move ---------------------------------------------------------------------------------
    async def play(
        self,
        live: LiveMatch,
        seat: int,
        action: Mapping[str, Any] | ActionModel,
        delivery: Delivery,
        *,
        now: int,
        auto: bool = False,
        timeout: TimeoutResult | None = None,
    ) -> MoveResult:
        """Apply, commit (one round trip) and queue the notices. Lock held by the caller."""
        ctx, store, state = self.ctx, self.ctx.store, live.state
        record = live.record
        parsed = state.game.parse_action(action)
        before = live.awaited()
        steps_before = list(live.seat_steps)
        start = live.length
        try:
            events = state.apply(seat, parsed)  # rules errors: nothing changed
        except RulesError:
            raise
        except BaseException:
            store.drop(record.id)  # an engine failure: rebuild from the log next time
            raise
        entries = [NewAction(seat=seat, action=parsed.to_json(), auto=auto)]
        live.logged(seat, auto)
        try:
            events += live.resolve_chance(entries)
        except BaseException:
            store.drop(record.id)
            raise
        outcome = state.outcome
        batch = Batch()
        LiveRepository.guard(batch, record.id, record.version)  # refused if another process moved first
        LiveRepository.add_actions(batch, record.id, start, entries, now)
        notices: list[tuple[Notice[Any], int]] = []

        def note(notice: Notice[ArgsT]) -> Notice[ArgsT]:
            notices.append((notice, ctx.queue(batch, notice, now)))
            return notice

        # the match's own rows first, then its notices: each kind of statement one run (one step of
        # a PostgreSQL batch function, whatever the number of seats and notices: issue 33)
        prompted: list[int] = []
        if outcome is not None:
            finished = self.finish_statements(batch, record, outcome, now)
        else:
            finished = None
            deadlines = self.reschedule(batch, live, before, steps_before, now, await ctx.turn_time(record))
            prompted = [s for s, d in deadlines.items() if d is not None]
            if live.snapshot_due():
                LiveRepository.save_snapshot(batch, record.id, live.length, engine_fingerprint(), live.snapshot(), now)
        timeout_notice = note(Notice.timeout(record.id, seat, timeout)) if timeout is not None else None
        moved = note(Notice.moved(record.id, seat, events))
        prompt_notices = [note(Notice.prompt(record.id, s, live.seat_steps[s], live.last_actor != s)) for s in prompted]
        finish_notice = note(Notice.finished(record.id, outcome)) if outcome is not None else None
        try:
            rowids = await store.write(batch)
        except BaseException as exc:
            store.drop(record.id)  # the live match is ahead of the database
            if isinstance(exc, StaleWrite):
                # another process changed the match since this copy was loaded: nothing written
                raise Conflict(f"Match #{record.id} changed meanwhile; please try again.") from exc
            if isinstance(exc, DatabaseUnavailable):
                # (the outage is logged once by the database, not once per move)
                raise NotSaved(
                    "The database cannot be reached right now, so your move did not count. Please try again."
                ) from exc
            if isinstance(exc, Exception):
                log.exception("Saving a move in match %s failed", record.id)
                raise NotSaved("Your move could not be saved, so it did not count. Please try again.") from exc
            raise
        ctx.written(notices, rowids)
        # the commit is done: bring the cached record up to date (no read after the write)
        if finished is not None:
            record = replace(finished, version=record.version + 1)
            store.drop(record.id)
            self.rate(record)
        else:
            record = with_seats(
                replace(record, version=record.version + 1),
                **deadlines_fields(live.record, deadlines, live.length),
            )
            live.record = record
            if live.snapshot_due():
                live.snapshot_upto = live.length
        if timeout_notice is not None:
            assert timeout is not None
            self.ready(delivery, timeout_notice, record, TimeoutArgs(seat, timeout))
        self.ready(delivery, moved, record, EventsArgs(public_events(events), state.view(None)))
        for s, notice in zip(prompted, prompt_notices, strict=True):
            self.ready(delivery, notice, record, PromptArgs(prompt_of(live, s)))
        if finish_notice is not None:
            assert outcome is not None
            self.ready(delivery, finish_notice, record, FinishedArgs(outcome))
        return MoveResult(record, seat, tuple(events), state.awaiting, outcome, tuple(prompted))

    def rate(self, record: MatchRecord) -> None:
        """Rate a finished match after its acknowledgement (it is in the rating queue since its
        commit): see :class:`Rater`."""
        self.rater.schedule(record.game)

    @staticmethod
    def ready(delivery: Delivery, notice: Notice[ArgsT], record: MatchRecord, args: ArgsT) -> None:
        """Queue ``notice`` for delivery after the commit, telling the notifier ``args``."""
        notice.ready(record, args)
        delivery.add(notice)

    def finish_statements(self, batch: Batch, record: MatchRecord, outcome: Outcome, now: int) -> MatchRecord:
        """The statements that finish the match; returns its record as it will then be."""
        stored = outcome.to_json(record.names)
        summary = fill_names(outcome.summary, record.names)
        LiveRepository.finish(batch, record.id, MatchStatus.FINISHED, outcome=stored, summary=summary, at=now)
        LiveRepository.drop_snapshot(batch, record.id)  # snapshots serve live matches only
        cleared = {s.seat: None for s in record.seats}
        done = with_seats(record, deadline_at=cleared, awaited_since=cleared, reminded=dict.fromkeys(cleared, False))
        return replace(
            done,
            status=MatchStatus.FINISHED,
            outcome=json.loads(dump_json(stored)),
            summary=summary,
            finished_at=now,
        )

    def reschedule(
        self,
        batch: Batch,
        live: LiveMatch,
        before: frozenset[int],
        steps_before: list[int] | None,
        now: int,
        turn_time: int,
    ) -> dict[int, int | None]:
        """Deadlines after a change: seats awaited now get a fresh deadline unless they were
        already awaited on the same step (awaited before, took no action); seats no longer awaited
        lose theirs. Returns the seats whose deadline changed: seat -> new deadline (None: cleared)."""
        after = live.awaited()
        since = live.length
        changed: dict[int, int | None] = {}
        for s in live.record.seats:
            if s.seat in after:
                same_step = (
                    s.seat in before
                    and steps_before is not None
                    and steps_before[s.seat] == live.seat_steps[s.seat]
                    and s.deadline_at is not None
                )
                if not same_step:
                    deadline = now + turn_time
                    LiveRepository.set_deadline(batch, live.match_id, s.seat, deadline, since)
                    changed[s.seat] = deadline
            elif s.deadline_at is not None:
                LiveRepository.clear_deadline(batch, live.match_id, s.seat)
                changed[s.seat] = None
        return changed


def deadlines_fields(record: MatchRecord, changed: dict[int, int | None], since: int) -> dict[str, dict[int, Any]]:
    """The seat fields a deadline change sets, for ``with_seats``."""
    return {
        "deadline_at": dict(changed),
        "awaited_since": {s: (since if d is not None else None) for s, d in changed.items()},
        "reminded": dict.fromkeys(changed, False),
    }


__all__ = ["Moves", "closed_text", "require_active", "require_seat"]
