"""Pacing the bot's own bursts to Discord's per-channel windows, before Discord has to refuse them.

Discord allows 5 thread starts per 5 s in a channel. A tournament round starts all its matches at
once (32 for 64 players), each in its own thread of the tournament's channel: sent as they come,
the 6th and every 5th after it are answered ``429 Too Many Requests`` and waited out by discord.py
(a global stall for that route, retried blindly). A :class:`Pacer` keeps at most ``requests`` of
them in any ``per`` seconds for each key (the channel), waiting its turn before sending instead:
the round's threads open at Discord's pace, in order, and nothing is refused.

The window is a sliding one, stricter than Discord's fixed windows (whose start the bot cannot see),
and each request's time is taken when its answer came back, so the waits are never too short.
``clock`` and ``sleep`` are attributes so that a test transport with its own clock (the fake
Discord's, where 429s are waited out without sleeping) can pace the bot on it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager

#: Keys (channels) remembered at most; the ones idle for a whole window are forgotten first.
MAX_KEYS = 1000


class Pacer:
    """At most ``requests`` requests per ``per`` seconds for each key, in the order they asked."""

    def __init__(self, requests: int, per: float, *, margin: float = 0.05) -> None:
        if requests < 1 or per <= 0:
            raise ValueError("a pacer needs at least one request per a positive number of seconds")
        self.requests, self.per, self.margin = requests, per, margin
        self.clock: Callable[[], float] = time.monotonic
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self.waited = 0.0  # seconds spent waiting, in all (for the curious: tests, benchmarks)
        self._sent: dict[Hashable, deque[float]] = {}
        self._locks: dict[Hashable, asyncio.Lock] = {}

    @asynccontextmanager
    async def slot(self, key: Hashable) -> AsyncIterator[None]:
        """Wait until one more request for ``key`` fits in the window, then send it (the body of
        the ``async with``); requests for one key go one at a time, in order."""
        lock = self._locks.get(key)
        if lock is None:
            self._forget_idle()
            lock = self._locks[key] = asyncio.Lock()
        async with lock:
            sent = self._sent.setdefault(key, deque(maxlen=self.requests))
            if len(sent) == self.requests:
                wait = sent[0] + self.per + self.margin - self.clock()
                if wait > 0:
                    self.waited += wait
                    await self.sleep(wait)
            try:
                yield
            finally:
                sent.append(self.clock())

    def _forget_idle(self) -> None:
        if len(self._locks) < MAX_KEYS:
            return
        now = self.clock()
        for key in [k for k, lock in self._locks.items() if not lock.locked()]:
            sent = self._sent.get(key)
            if not sent or sent[-1] + self.per < now:
                self._locks.pop(key, None)
                self._sent.pop(key, None)


__all__ = ["Pacer"]
