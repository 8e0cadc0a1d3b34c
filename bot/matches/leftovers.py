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

from db import DatabaseUnavailable
from db.live import StoredNotice
from rules.core import Outcome

from .context import Context, log, prompt_of
from .notify import Notice
from .results import TimeoutResult
from .store import LiveMatch


def redelivered(stored: StoredNotice) -> Notice:
    """A notice read back from the outbox (its delivery is computed when it is delivered)."""
    return Notice(stored.match_id, stored.kind, stored.payload, id=stored.id, redelivered=True)  # type: ignore[arg-type]


class Leftovers:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.pending: list[Notice] = []

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

    async def revive(self, notice: Notice) -> None:
        """Compute a stored notice's delivery from the match as it is now (lock held)."""
        ctx = self.ctx
        found = await ctx.store.live(notice.match_id, ctx.now())
        record = found.record if isinstance(found, LiveMatch) else found
        payload = notice.payload
        notice.record = record
        if notice.kind in ("started", "events"):
            if isinstance(found, LiveMatch):
                view = found.state.view(None)
            else:
                view = (await ctx.store.rebuild(notice.match_id, ctx.now())).state.view(None)
            notice.args = (notice.public_events(), view)
        elif notice.kind == "prompt":
            seat = int(payload["seat"])
            notice.args = None  # no longer current (the seat moved on, or the match is over): skipped
            if (
                isinstance(found, LiveMatch)
                and seat in found.awaited()
                and found.seat_steps[seat] == payload["seat_step"]
            ):
                notice.args = (prompt_of(found, seat, bool(payload["turn_passed"])),)
        elif notice.kind == "reminder":
            notice.args = (int(payload["seat"]), int(payload["deadline"]))
        elif notice.kind == "timeout":
            notice.args = (int(payload["seat"]), TimeoutResult(payload["result"]))
        elif notice.kind == "finished":
            notice.args = (Outcome.from_json(payload["outcome"]),)
        elif notice.kind == "challenge_expired":
            notice.args = ()


__all__ = ["Leftovers", "redelivered"]
