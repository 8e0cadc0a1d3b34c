"""Deciding when the bot has "settled": no task is doing work that will finish on its own.

A pending task counts as *idle* (nothing to wait for) when it is parked on something only a new
outside event can release: ``asyncio.sleep`` of at least ``long_sleep`` seconds (or ``wait_for`` of
something idle with such a timeout), an Event, Condition,
Queue, Lock or Semaphore, ``View.wait()``, or ``Client.wait_for`` (a listener future).  A task that
is runnable, or waits on anything else (a future completed by a thread such as aiosqlite's, a short
sleep, another busy task) is *busy*.  Some discord.py housekeeping tasks are ignored outright.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from .records import HarnessError


class SettleTimeout(HarnessError):
    """Tasks were still busy when ``settle`` gave up."""


IGNORED_QUALNAMES = {
    "BaseView.__timeout_task_impl",  # discord.ui view timeout timers
    "Loop._loop",  # discord.ext.tasks loops
    "ConnectionState._delay_ready",
    "AutoShardedConnectionState._delay_ready",
    # the web table (web/): a browser keeps its connection open between requests and a live page
    # its event stream, and the watch polls while a page is open. None of it is the bot's Discord
    # work; a test waits for its own web answers before it settles.
    "RequestHandler.start",
    "MatchWatch._poll",
}
IGNORED_NAME_PREFIXES = ("pytest", "harness-ignore")

_IDLE_PRIMITIVES = {
    ("asyncio", "Event.wait"),
    ("asyncio", "Condition.wait"),
    ("asyncio", "Queue.get"),
    ("asyncio", "Lock.acquire"),
    ("asyncio", "Semaphore.acquire"),
    ("asyncio", "Barrier.wait"),
    ("discord", "BaseView.wait"),
}


def _module_of(code: Any) -> str:
    filename = code.co_filename.replace("\\", "/")
    if "/asyncio/" in filename:
        return "asyncio"
    if "/discord/" in filename:
        return "discord"
    return ""


def _frames(task: asyncio.Task[Any]) -> list[Any]:
    """The chain of coroutine/generator objects a task is suspended in, outermost first."""
    chain = []
    obj: Any = task.get_coro()
    seen = 0
    while obj is not None and seen < 200:
        seen += 1
        code = getattr(obj, "cr_code", None) or getattr(obj, "gi_code", None) or getattr(obj, "ag_code", None)
        if code is None:
            break
        chain.append(obj)
        obj = getattr(obj, "cr_await", None) or getattr(obj, "gi_yieldfrom", None) or getattr(obj, "ag_await", None)
    return chain


def _code(obj: Any) -> Any:
    return getattr(obj, "cr_code", None) or getattr(obj, "gi_code", None) or getattr(obj, "ag_code", None)


def _locals(obj: Any) -> dict[str, Any]:
    frame = getattr(obj, "cr_frame", None) or getattr(obj, "gi_frame", None) or getattr(obj, "ag_frame", None)
    return frame.f_locals if frame is not None else {}


def qualname(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    code = _code(coro) if coro is not None else None
    return getattr(code, "co_qualname", getattr(code, "co_name", "?")) if code else "?"


def describe(task: asyncio.Task[Any]) -> str:
    chain = " -> ".join(getattr(_code(f), "co_qualname", "?") for f in _frames(task))
    return f"{task.get_name()} [{chain or qualname(task)}]"


class TaskWatcher:
    def __init__(self, *, listener_futures: Callable[[], Iterable[asyncio.Future[Any]]] = lambda: ()):
        self.baseline: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet(asyncio.all_tasks())
        self.ignored: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        self.ignore_predicates: list[Callable[[asyncio.Task[Any]], bool]] = []
        self.listener_futures = listener_futures
        self.scan_seconds = 0.0  # time spent looking for busy tasks (the harness's, not the bot's)

    def is_ignored(self, task: asyncio.Task[Any]) -> bool:
        if task in self.baseline or task in self.ignored:
            return True
        if qualname(task) in IGNORED_QUALNAMES:
            return True
        if task.get_name().startswith(IGNORED_NAME_PREFIXES):
            return True
        return any(pred(task) for pred in self.ignore_predicates)

    def is_busy(self, task: asyncio.Task[Any], long_sleep: float, depth: int = 0) -> bool:
        if task.done():
            return False
        waiter = getattr(task, "_fut_waiter", None)
        if waiter is None or waiter.done():
            return True  # runnable
        if depth < 10:
            if isinstance(waiter, asyncio.Task):
                return self.is_busy(waiter, long_sleep, depth + 1)
            children = getattr(waiter, "_children", None)  # asyncio.gather
            if children is not None:
                return any(
                    (self.is_busy(c, long_sleep, depth + 1) if isinstance(c, asyncio.Task) else not c.done())
                    for c in children
                )
        listeners = set(map(id, self.listener_futures()))
        if id(waiter) in listeners:
            return False
        for frame in _frames(task):
            code = _code(frame)
            key = (_module_of(code), getattr(code, "co_qualname", code.co_name))
            if key in _IDLE_PRIMITIVES:
                return False
            if key == ("asyncio", "sleep"):
                delay = _locals(frame).get("delay", 0)
                return not (isinstance(delay, (int, float)) and delay >= long_sleep)
            if key == ("asyncio", "wait_for"):
                inner, timeout = _locals(frame).get("fut"), _locals(frame).get("timeout")
                if id(inner) in listeners:
                    return False
                if (  # a timed wait for something idle (a timer loop's "stop, or the next run")
                    isinstance(inner, asyncio.Task)
                    and (timeout is None or (isinstance(timeout, int | float) and timeout >= long_sleep))
                    and not self.is_busy(inner, long_sleep, depth + 1)
                ):
                    return False
        return True

    def busy_tasks(self, long_sleep: float) -> list[asyncio.Task[Any]]:
        current = asyncio.current_task()
        out = []
        for task in asyncio.all_tasks():
            if task is current or task.done() or self.is_ignored(task):
                continue
            if self.is_busy(task, long_sleep):
                out.append(task)
        return out

    def leftover_tasks(self) -> list[asyncio.Task[Any]]:
        current = asyncio.current_task()
        return [t for t in asyncio.all_tasks() if t is not current and not t.done() and t not in self.baseline]

    async def settle(self, timeout: float, long_sleep: float) -> None:
        """Run the loop until no task is busy three looks in a row; SettleTimeout after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet = 0
        while True:
            for _ in range(3):
                await asyncio.sleep(0)
            scan = time.perf_counter()
            busy = self.busy_tasks(long_sleep)
            self.scan_seconds += time.perf_counter() - scan
            if not busy:
                quiet += 1
                if quiet >= 3:
                    return
                continue
            quiet = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = "\n".join(f"  - {describe(t)}" for t in busy)
                raise SettleTimeout(
                    f"bot tasks still busy after settling:\n{names}\n"
                    "(pass a longer timeout, or harness.ignore_task(task) for background work)"
                )
            await asyncio.wait(busy, timeout=min(0.05, remaining), return_when=asyncio.FIRST_COMPLETED)
