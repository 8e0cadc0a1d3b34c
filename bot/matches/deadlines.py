"""Deadlines: the timer tick, reminders, time-outs and the abandonment rule.

Every awaited seat has ``deadline_at``. :meth:`Deadlines.tick` expires challenges, handles
time-outs, then sends reminders. On a time-out the referee plays the seat's ``Decision.default``
when the game has one; otherwise the timed-out seat forfeits (``Forfeit(reason="timeout")``),
unless nobody is around, in which case the match is abandoned.

"Nobody is around" means: every awaited seat has timed out, no player made a move of their own on
this step (since the earliest of those deadlines was set; moves the referee made for timed-out
seats do not count), and the last move by any other player (before the step) was not made by a
player who is now waiting on the others. So in simultaneous steps where nobody submitted, and at
the very start of a match, the match is abandoned; a player who goes silent while an opponent is
waiting on them forfeits (also when the silent player's own move opened the step, e.g. a trick
winner who drew and must now lead). ``LiveMatch.someone_present`` answers it from what the live
match keeps (no scan of the log).

Deadlines that passed while the bot was down are found by the first tick and handled once: each
time-out commits in the transaction that changes the deadlines.
"""

from __future__ import annotations

from db import Batch, MatchStatus
from db.live import LiveRepository
from rules.core import Forfeit
from rules.errors import RulesError

from .context import Context, log
from .errors import Conflict
from .lobby import Lobby
from .moves import Moves
from .notify import Delivery, Notice, ReminderArgs, TimeoutArgs
from .results import TickReport, TimeoutResult
from .store import LiveMatch, with_seats


class Deadlines:
    def __init__(self, ctx: Context, moves: Moves, lobby: Lobby) -> None:
        self.ctx = ctx
        self.moves = moves
        self.lobby = lobby

    async def tick(self, now: float | None = None) -> TickReport:
        """Expire challenges, handle timed-out seats, send due reminders, then freeze the matches
        left idle. Idempotent; errors in one match are logged and do not stop the others."""
        ctx = self.ctx
        at = ctx.now(now)
        report = TickReport()
        report.expired = [r.id for r in await self.lobby.expire_due(at)]
        if ctx.store.shared:  # each timed-out seat is claimed by one process, for a lease
            due = sorted({m for m, _ in await ctx.db.seats.claim_timeouts(at, ctx.store.owner, at + ctx.store.lease)})
        else:
            due = sorted({s.match_id for s in await ctx.db.seats.due_timeouts(at)})
        for match_id in due:
            try:
                async with ctx.session(match_id) as delivery:
                    report.timeouts += await self.handle_timeouts(match_id, at, delivery)
            except Exception:
                log.exception("Handling time-outs in match %s failed", match_id)
        for seat in await ctx.db.seats.due_reminders(at, ctx.reminder_before):
            assert seat.deadline_at is not None
            try:
                lead = await ctx.reminder_lead(await ctx.store.record(seat.match_id))
                if lead is None or seat.deadline_at - at > lead:
                    continue  # reminders are off in this server, or not due yet for its turn time
                async with ctx.session(seat.match_id) as delivery:
                    if await self.remind(seat.match_id, seat.seat, seat.deadline_at, at, delivery):
                        report.reminders.append((seat.match_id, seat.seat))
            except Exception:
                log.exception("Reminder for match %s seat %s failed", seat.match_id, seat.seat)
        await ctx.store.flush()
        ctx.store.freeze_idle()  # idle matches keep a few KB in memory until touched again
        return report

    async def remind(self, match_id: int, seat: int, deadline: int, now: int, delivery: Delivery) -> bool:
        """Claim the reminder of this deadline and queue it, in one commit. False if it was sent
        already or the deadline changed meanwhile."""
        batch = Batch()
        LiveRepository.mark_reminded(batch, match_id, seat, deadline)
        notice = Notice.reminder(match_id, seat, deadline)
        if not await self.ctx.commit(batch, [notice], now):
            return False
        live = self.ctx.store.cached(match_id)
        record = await self.ctx.store.record(match_id)
        if live is not None:
            if live.record.version == record.version:
                live.record = record = with_seats(record, reminded={seat: True})
            else:  # another process moved it on: the cached copy is behind
                self.ctx.store.drop(match_id)
        Moves.ready(delivery, notice, record, ReminderArgs(seat, deadline))
        return True

    async def handle_timeouts(
        self, match_id: int, now: int, delivery: Delivery
    ) -> list[tuple[int, int, TimeoutResult]]:
        """Resolve every timed-out awaited seat of one match (lock held by the caller)."""
        ctx = self.ctx
        done: list[tuple[int, int, TimeoutResult]] = []
        defaulted: set[int] = set()
        for _ in range(64):  # each pass changes the state; the bound only guards against a bad game
            found = await ctx.load(match_id, delivery)
            if not isinstance(found, LiveMatch):
                break
            live = found
            awaited = live.awaited()
            seats = {s.seat: s for s in live.record.seats}
            timed_out = sorted(
                (s for s in awaited if (d := seats[s].deadline_at) is not None and d <= now),
                key=lambda s: (seats[s].deadline_at, s),
            )
            if not timed_out:
                break
            default = None
            for seat in timed_out:
                try:
                    decision = live.state.asked(seat)
                    action = decision.default if decision is not None else None
                except Exception:
                    log.exception("the time-out default failed in match %s", match_id)
                    action = None
                if action is not None:
                    default = (seat, action)
                    break
            if default is not None:
                seat, action = default
                try:
                    await self.moves.play(
                        live, seat, action, delivery, now=now, auto=True, timeout=TimeoutResult.ACTION_TAKEN
                    )
                    done.append((match_id, seat, TimeoutResult.ACTION_TAKEN))
                    defaulted.add(seat)
                    continue
                except Conflict:
                    continue  # another process moved the match first: reload and look again
                except RulesError:
                    log.exception("The default action for seat %s in match %s was refused", seat, match_id)
            since = min((seats[s].awaited_since or 0) for s in timed_out)
            if len(timed_out) == len(awaited) and not live.someone_present(since, timed_out, defaulted):
                if await self.abandon(live, timed_out[0], now, delivery):
                    done.append((match_id, timed_out[0], TimeoutResult.ABANDONED))
                    break
                continue  # another process moved or ended the match first: reload and look again
            seat = timed_out[0]
            try:
                await self.moves.play(
                    live, seat, Forfeit(reason="timeout"), delivery, now=now, auto=True, timeout=TimeoutResult.FORFEIT
                )
            except Conflict:
                continue
            done.append((match_id, seat, TimeoutResult.FORFEIT))
        return done

    async def abandon(self, live: LiveMatch, seat: int, now: int, delivery: Delivery) -> bool:
        """Nobody is around: the match is abandoned (not rated), in one commit with its notice.
        False if another process changed the match first (nothing written; the copy is dropped)."""
        ctx = self.ctx
        batch = Batch()
        LiveRepository.guard(batch, live.match_id, live.record.version)
        LiveRepository.finish(batch, live.match_id, MatchStatus.ABANDONED, outcome=None, summary=None, at=now)
        LiveRepository.drop_snapshot(batch, live.match_id)
        notice = Notice.timeout(live.match_id, seat, TimeoutResult.ABANDONED)
        if not await ctx.commit(batch, [notice], now):
            ctx.store.drop(live.match_id)  # no longer this version: someone else moved or finished it
            return False
        ctx.store.drop(live.match_id)
        record = await ctx.store.record(live.match_id)
        Moves.ready(delivery, notice, record, TimeoutArgs(seat, TimeoutResult.ABANDONED))
        return True


__all__ = ["Deadlines"]
