"""What the parts of the match service share: the database, the store of live matches, the
notifier, the clock and the timeouts - and the delivery of notices after a commit."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from db import Batch, Database, MatchRecord, StaleWrite
from db.live import LiveRepository

from .notify import Delivery, Notice, NoticeArgs, Notifier, PromptArgs, ReminderArgs, delivering, tell
from .results import SeatPrompt
from .store import LiveMatch, Store, with_seats

if TYPE_CHECKING:
    from bot.servers import ServersService

log = logging.getLogger("bot.matches")


@dataclass
class Context:
    db: Database
    store: Store
    notifier: Notifier
    clock: Callable[[], float]
    seed_factory: Callable[[], int]
    challenge_timeout: int
    move_timeout: int
    reminder_before: int
    servers: ServersService | None = None  # per-server settings (turn time, reminders)
    #: called instead of the notifier when a computer seat is prompted (see computer.py)
    on_computer: Callable[[MatchRecord, int], None] | None = None

    def now(self, now: float | None = None) -> int:
        return int(self.clock() if now is None else now)

    async def turn_time(self, record: MatchRecord) -> int:
        """Seconds a seat has for each move in this match: its own turn time (a tournament's),
        else its server's /settings, else the bot's MOVE_TIMEOUT_SECONDS."""
        if record.turn_time_seconds is not None:
            return record.turn_time_seconds
        if self.servers is not None and record.guild_id is not None:
            chosen = await self.servers.get(record.guild_id)
            if not chosen.turn_time_is_default:
                return chosen.turn_time_seconds
        return self.move_timeout

    async def reminder_lead(self, record: MatchRecord) -> int | None:
        """How long before a deadline this match's players are reminded (None: never, the server
        turned reminders off): the bot's lead, at most half the match's turn time (a 60 s turn is
        not reminded right after its prompt)."""
        guild_id = record.guild_id
        if self.servers is not None and guild_id is not None and not (await self.servers.get(guild_id)).reminders:
            return None
        return min(self.reminder_before, await self.turn_time(record) // 2)

    def session(self, match_id: int) -> AbstractAsyncContextManager[Delivery]:
        """``async with ctx.session(match_id) as delivery``: the match lock for the body, then
        the delivery of ``delivery``'s notices in commit order."""
        return self.store.session(match_id, self.deliver)

    async def load(self, match_id: int, delivery: Delivery, *, check: bool = True) -> LiveMatch | MatchRecord:
        """The live match (lock held by the caller), or the record of a match not in play. A match
        rebuilt from the database whose awaited seats lack a deadline (left by an older version)
        gets them now, with the prompts, in one commit. ``check=False``: a cached copy is used
        without checking its version (a move does: its write is guarded by the version anyway)."""
        cached = await self.store.current(match_id) if check else self.store.cached(match_id)
        if cached is not None:
            return cached
        found = await self.store.live(match_id, self.now())
        if isinstance(found, LiveMatch):
            await self._repair_deadlines(found, delivery)
        return found

    async def _repair_deadlines(self, live: LiveMatch, delivery: Delivery) -> None:
        missing = [s for s in sorted(live.awaited()) if live.record.seats[s].deadline_at is None]
        if not missing:
            return
        now = self.now()
        batch = Batch()
        LiveRepository.guard(batch, live.match_id, live.record.version)
        deadline = now + await self.turn_time(live.record)
        for s in missing:
            LiveRepository.set_deadline(batch, live.match_id, s, deadline, live.length)
        notices = [Notice.prompt(live.match_id, s, live.seat_steps[s], live.last_actor != s) for s in missing]
        if not await self.commit(batch, notices, now):
            self.store.drop(live.match_id)  # another process repaired (or moved) it first
            return
        live.record = with_seats(
            replace(live.record, version=live.record.version + 1),
            deadline_at=dict.fromkeys(missing, deadline),
            awaited_since=dict.fromkeys(missing, live.length),
            reminded=dict.fromkeys(missing, False),
        )
        for notice, seat in zip(notices, missing, strict=True):
            notice.ready(live.record, PromptArgs(prompt_of(live, seat)))
            delivery.add(notice)

    # -- notices --------------------------------------------------------------------------------
    def queue(self, batch: Batch, notice: Notice[Any], at: int) -> int:
        """Write ``notice`` to the outbox in ``batch`` (claimed for this process, which delivers it
        after the commit, when others share the database); returns its statement index."""
        return LiveRepository.add_notice(batch, notice.match_id, notice.kind, notice.payload, at, self.store.claim(at))

    async def commit(self, batch: Batch, notices: Sequence[Notice[Any]], now: int) -> bool:
        """Commit ``batch`` with ``notices`` written to the outbox (one round trip); False if a
        guarded statement found its precondition gone (StaleWrite: nothing was written)."""
        queued = [(notice, self.queue(batch, notice, now)) for notice in notices]
        try:
            rowids = await self.store.write(batch)
        except StaleWrite:
            return False
        self.written(queued, rowids)
        return True

    @staticmethod
    def written(notices: Sequence[tuple[Notice[Any], int]], rowids: list[int | None]) -> None:
        """Give each notice its outbox id once the batch that wrote it committed."""
        for notice, index in notices:
            notice.id = rowids[index]

    async def deliver(self, notice: Notice[Any]) -> None:
        """Hand one notice to the notifier (its args already computed); a failure is logged. The
        notice is marked delivered either way: a notifier that raised will not do better later.
        A process that hands its notices off (``Store.handoff``) leaves each in the outbox."""
        if self.store.handoff:
            return
        record = notice.record
        args: NoticeArgs | None = notice.args
        try:
            if record is None or args is None:
                return  # nothing to say any more (a stale prompt after a restart)
            if isinstance(args, PromptArgs | ReminderArgs) and record.is_ai(args.seat):
                if isinstance(args, PromptArgs) and self.on_computer is not None:
                    self.on_computer(record, args.seat)  # a computer gets no DM
                return
            token = delivering.set(notice)  # the messages it sends are keyed by this notice
            try:
                result = await tell(self.notifier, record, args)
            finally:
                delivering.reset(token)
            if isinstance(args, PromptArgs) and isinstance(result, bool):
                await self._learned_dm(record, args.prompt, result)
        except Exception:
            log.exception("Notifier on_%s failed for match %s", notice.kind, notice.match_id)
        finally:
            self.store.delivered(notice.id)

    async def _learned_dm(self, record: MatchRecord, prompt: SeatPrompt, ok: bool) -> None:
        """The notifier found out whether the player takes DMs: remember it for the seat."""
        seat = record.seats[prompt.seat]
        if seat.dm_ok is ok:
            return
        await self.db.seats.set_dm_ok(record.id, prompt.seat, ok)
        live = self.store.cached(record.id)
        if live is not None:
            live.record = with_seats(live.record, dm_ok={prompt.seat: ok})


def prompt_of(live: LiveMatch, seat: int, turn_passed: bool | None = None) -> SeatPrompt:
    """``seat``'s prompt as the match stands (lock held)."""
    state = live.state
    return SeatPrompt(
        match_id=live.match_id,
        seat=seat,
        seat_step=live.seat_steps[seat],
        awaited=seat in live.awaited(),
        deadline_at=live.record.seats[seat].deadline_at,
        decision=state.asked(seat),
        view=state.view(seat),
        turn_passed=live.last_actor != seat if turn_passed is None else turn_passed,
    )


__all__ = ["Context", "prompt_of"]
