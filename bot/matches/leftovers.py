"""Leftovers: the notices a crash (or a dead process) left in the outbox, delivered by the timer.

At start-up :meth:`Leftovers.load` reads what the outbox holds; with several processes every
timer run also claims the notices a dead process had claimed, once their lease has ended
(:meth:`Leftovers.claim_orphans`). :meth:`Leftovers.deliver` then hands each to the notifier in
order, its delivery computed from the match as it is now (:meth:`Leftovers.revive`: a prompt no
longer current is skipped). Each is marked ``redelivered``: it may have been delivered before, in
part, so the presentation edits the messages it recorded instead of posting them again (see
``notify.delivering``). A database outage leaves the rest for the next run.
"""

from __future__ import annotations

from typing import assert_never, cast

from db import DatabaseUnavailable, MatchRecord
from db.live import StoredNotice
from rules.core import Outcome

from .context import Context, log, prompt_of
from .notify import (
    NOTICE_ARGS,
    ChallengeExpiredArgs,
    EventsArgs,
    FinishedArgs,
    Notice,
    NoticeArgs,
    NoticeKind,
    PromptArgs,
    ReminderArgs,
    StartedArgs,
    TimeoutArgs,
)
from .results import TimeoutResult
from .store import LiveMatch


def redelivered(stored: StoredNotice) -> Notice[NoticeArgs]:
    """A notice read back from the outbox (its delivery is computed when it is delivered)."""
    kind = cast(NoticeKind, stored.kind)  # a kind this version does not know is skipped (args_of)
    return Notice(stored.match_id, kind, stored.payload, id=stored.id, redelivered=True)


class Leftovers:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.pending: list[Notice[NoticeArgs]] = []

    async def load(self) -> None:
        """Start-up: the notices the outbox holds (with several processes: those no live process
        holds, each claimed for this one)."""
        self.pending = [redelivered(n) for n in await self.ctx.store.repo.pending_notices()]

    async def claim_orphans(self) -> None:
        """Several processes: claim the notices a dead process had claimed, once their lease has
        ended (one cheap query a timer run, so a survivor delivers them within a lease and a
        timer period). This process's own delivered notices are deleted first: never taken for
        orphans."""
        store = self.ctx.store
        await store.flush()
        self.pending += [redelivered(n) for n in await store.repo.pending_notices()]

    async def deliver(self) -> int:
        """Deliver the pending notices in order; returns how many were due."""
        ctx = self.ctx
        leftovers, self.pending = self.pending, []
        for at, notice in enumerate(leftovers):
            try:
                async with ctx.session(notice.match_id) as delivery:
                    await self.revive(notice)
                    delivery.add(notice)
            except DatabaseUnavailable:  # an outage: this one and the rest wait for the next run
                self.pending = leftovers[at:] + self.pending
                break
            except Exception:
                ctx.store.delivered(notice.id)
                log.exception("Delivering notice %s of match %s failed", notice.id, notice.match_id)
        await ctx.store.flush()
        return len(leftovers)

    async def revive(self, notice: Notice[NoticeArgs]) -> None:
        """Compute a stored notice's delivery from the match as it is now (lock held)."""
        found = await self.ctx.store.live(notice.match_id, self.ctx.now())
        notice.record = found.record if isinstance(found, LiveMatch) else found
        notice.args = await self.args_of(notice, found)

    async def args_of(self, notice: Notice[NoticeArgs], found: LiveMatch | MatchRecord) -> NoticeArgs | None:
        """What a stored notice tells the notifier now, from its payload and the match ``found``
        as it is; None: nothing (a prompt no longer current, a kind this version does not know)."""
        ctx = self.ctx
        payload = notice.payload
        kind = notice.kind
        if kind not in NOTICE_ARGS:
            return None
        match kind:
            case "started" | "events":
                if isinstance(found, LiveMatch):
                    view = found.state.view(None)
                else:
                    view = (await ctx.store.rebuild(notice.match_id, ctx.now())).state.view(None)
                told = StartedArgs if kind == "started" else EventsArgs
                return told(notice.public_events(), view)
            case "prompt":
                seat = int(payload["seat"])
                if (
                    isinstance(found, LiveMatch)
                    and seat in found.awaited()
                    and found.seat_steps[seat] == payload["seat_step"]
                ):
                    return PromptArgs(prompt_of(found, seat, bool(payload["turn_passed"])))
                return None  # no longer current (the seat moved on, or the match is over): skipped
            case "reminder":
                return ReminderArgs(int(payload["seat"]), int(payload["deadline"]))
            case "timeout":
                return TimeoutArgs(int(payload["seat"]), TimeoutResult(payload["result"]))
            case "finished":
                return FinishedArgs(Outcome.from_json(payload["outcome"]))
            case "challenge_expired":
                return ChallengeExpiredArgs()
            case _:
                assert_never(kind)


__all__ = ["Leftovers", "redelivered"]
