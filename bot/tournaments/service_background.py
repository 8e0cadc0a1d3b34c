"""The tournament service's background: a round's work off the caller's path. One task per
tournament reconciles it with its matches (:meth:`Background.schedule`); the presentation is told
after each run (listeners) and before a round's matches start (announcers).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.tournaments")


class Background:
    """The background reconciles: ``run(tournament_id)`` is the reconcile (the facade's
    :meth:`~bot.tournaments.service.TournamentService.reconcile`)."""

    def __init__(self, run: Callable[[int], Awaitable[None]]) -> None:
        self.run = run
        #: the background reconcile of each tournament (at most one), and those asked again meanwhile
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._closing = False
        self._listeners: list[Callable[[int], Awaitable[None]]] = []
        self._announcers: list[Callable[[int], Awaitable[None]]] = []

    def schedule(self, tournament_id: int) -> None:
        """Reconcile the tournament in the background, soon. Nobody waits for it: not the player
        whose move ended a round (the next round's 32 matches open their threads at Discord's
        pace, 30 s and more), not the organizer who started the tournament. One task at a time per
        tournament: asked while it runs, it runs once more after (not once per ask). A failure is
        logged; nothing is lost, as everything is in the database and the timer's
        :meth:`~bot.tournaments.service.TournamentService.tick` (and the start-up's ``recover``)
        reconcile every running tournament again. :meth:`settle` waits for it."""
        if self._closing:
            return
        task = self._tasks.get(tournament_id)
        if task is not None and not task.done():
            self._again.add(tournament_id)
            return
        self._tasks[tournament_id] = asyncio.create_task(
            self._background(tournament_id), name=f"tournament {tournament_id}: reconcile"
        )

    def add_listener(self, listener: Callable[[int], Awaitable[None]]) -> None:
        """Call ``listener(tournament_id)`` after each background reconcile (the presentation
        delivers the events it wrote: the round's announcement, the tournament message)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[int], Awaitable[None]]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def add_announcer(self, announcer: Callable[[int], Awaitable[None]]) -> None:
        """Call ``announcer(tournament_id)`` when a round's matches are about to start, its
        ``round_started`` event written: the presentation posts the round's announcement first,
        so it comes before the matches' threads. Called with the tournament's lock held: it must
        not wait for the tournament (reading its events and view is fine)."""
        if announcer not in self._announcers:
            self._announcers.append(announcer)

    def remove_announcer(self, announcer: Callable[[int], Awaitable[None]]) -> None:
        if announcer in self._announcers:
            self._announcers.remove(announcer)

    async def announce(self, tournament_id: int) -> None:
        """The announcers, before a round's matches start (one that fails stops nothing: the
        announcement stays pending and goes out at the next delivery)."""
        for announcer in list(self._announcers):
            try:
                await announcer(tournament_id)
            except Exception:
                log.exception("Tournament %s: announcing the round failed", tournament_id)

    async def _background(self, tournament_id: int) -> None:
        try:
            while True:
                self._again.discard(tournament_id)
                try:
                    await self.run(tournament_id)
                except Exception:
                    # not retried at once (it would likely fail again): the timer's tick retries
                    log.exception("Tournament %s: reconciling in the background failed", tournament_id)
                    return
                for listener in list(self._listeners):
                    try:
                        await listener(tournament_id)
                    except Exception:
                        log.exception("Tournament %s: a listener failed", tournament_id)
                # no await between this check and the task's end: an ask meanwhile is never lost
                if tournament_id not in self._again or self._closing:
                    return
        finally:
            if self._tasks.get(tournament_id) is asyncio.current_task():
                del self._tasks[tournament_id]

    async def settle(self) -> None:
        """Wait until no tournament is being reconciled in the background (tests; shutdown)."""
        while True:
            pending = [task for task in self._tasks.values() if not task.done()]
            if not pending:
                return
            await asyncio.wait(pending)

    async def shutdown(self, grace: float = 5.0) -> None:
        """Stop scheduling, give the background work ``grace`` seconds to finish, then cancel
        what is left (safe: every step is its own commit, and the next start's ``recover``
        reconciles again)."""
        self._closing = True
        pending = [task for task in self._tasks.values() if not task.done()]
        if not pending:
            return
        _, late = await asyncio.wait(pending, timeout=max(grace, 0.0))
        for task in late:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


__all__ = ["Background"]
