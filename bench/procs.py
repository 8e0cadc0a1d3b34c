"""Service processes driven over a JSON-lines pipe: the protocol shared by ``python -m bench scale``
(:mod:`bench.scale`, :mod:`bench.scale_worker`) and the multi-process test
(``tests/bot/test_multiprocess.py``, ``tests/mp_worker.py``).

The parent starts a child (``python -m <module> ...``) with :meth:`Worker.spawn` and sends it
commands, one JSON object a line on its stdin: ``{"id": n, "op": ..., ...}``. The child
(:func:`serve_lines`) runs each command as its own task, so one process has many in flight at once,
and answers each on stdout: ``{"id": n, "ok": true, "result": ...}`` or ``{"id": n, "ok": false,
"error": "<exception class>", "message": ...}``. It first prints ``{"event": "ready"}``; any other
line without an ``id`` is an event the parent keeps in :attr:`Worker.events`. ``{"op": "quit"}`` (or
the end of stdin) ends the child once the commands in flight are answered.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

LINE_LIMIT = 1 << 22
"""The longest line either side reads (bytes)."""
CALL_TIMEOUT = 120.0
"""Seconds :meth:`Worker.call` waits for an answer."""


class WorkerDied(Exception):
    """The process ended before it answered (it failed, or was killed): the request's fate is unknown."""


class Worker:
    """One child process and its JSON-lines pipe: requests keyed by id, answered by a reader task."""

    def __init__(self, name: str, proc: asyncio.subprocess.Process) -> None:
        self.name = name
        self.proc = proc
        self.alive = True
        self.events: list[dict[str, Any]] = []  # lines without an id, but for "ready"
        self.in_flight: dict[int, str] = {}  # request id -> op, until answered
        self._next = 0
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def spawn(
        cls,
        name: str,
        module: str,
        args: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str] | None = None,
        ready_timeout: float = 120.0,
    ) -> Self:
        """Start ``python -m module *args`` in ``cwd`` (``env``: added to this process's environment)
        and wait until it is ready."""
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            module,
            *args,
            cwd=cwd,
            env=None if env is None else {**os.environ, **env},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
        )
        worker = cls(name, proc)
        await asyncio.wait_for(worker.ready, ready_timeout)
        return worker

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while True:
            try:
                line = await self.proc.stdout.readline()
            except ValueError:  # a line past the limit: the parent cannot go on with this process
                self.proc.kill()
                break
            if not line:
                break
            message = json.loads(line)
            if "id" in message:
                future = self._pending.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("event") == "ready":
                if not self.ready.done():
                    self.ready.set_result(None)
            else:
                self.events.append(message)
        self.alive = False
        for future in self._pending.values():
            if not future.done():
                future.set_exception(WorkerDied(self.name))
        self._pending.clear()
        if not self.ready.done():
            self.ready.set_exception(WorkerDied(self.name))

    async def call(self, op: str, **args: Any) -> dict[str, Any]:
        """Send one command and wait for its answer (raises :class:`WorkerDied` if the process ends
        first)."""
        if not self.alive:
            raise WorkerDied(self.name)
        self._next += 1
        key = self._next
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        self.in_flight[key] = op
        future.add_done_callback(lambda _: self.in_flight.pop(key, None))
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps({"id": key, "op": op, **args}) + "\n").encode())
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            self._pending.pop(key, None)
            self.in_flight.pop(key, None)
            raise WorkerDied(self.name) from exc
        return await asyncio.wait_for(future, CALL_TIMEOUT)

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to finish anything."""
        self.proc.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        """Ask the process to quit (killed if it has not after 30 s) and wait for the reader."""
        if self.alive and self.proc.stdin is not None:
            try:
                self.proc.stdin.write(b'{"op": "quit"}\n')
                await self.proc.stdin.drain()
                self.proc.stdin.close()
            except (BrokenPipeError, ConnectionResetError):
                pass
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        await asyncio.gather(self._reader, return_exceptions=True)


def emit(message: Mapping[str, Any]) -> None:
    """One line to the parent (an answer or an event)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def serve_lines(handle: Callable[[dict[str, Any]], Awaitable[Any]]) -> None:
    """The child's side: read commands from stdin until ``quit`` (or the end of stdin), each run as
    its own task by ``handle``, whose result (or exception, named) is the answer; return once every
    command in flight is answered."""
    tasks: set[asyncio.Task[None]] = set()

    async def run(command: dict[str, Any]) -> None:
        try:
            result = await handle(command)
        except Exception as exc:  # every failure or refusal goes back to the parent, named
            emit({"id": command["id"], "ok": False, "error": type(exc).__name__, "message": str(exc)})
        else:
            emit({"id": command["id"], "ok": True, "result": result})

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    emit({"event": "ready"})
    while line := await reader.readline():
        command = json.loads(line)
        if command.get("op") == "quit":
            break
        task = asyncio.create_task(run(command))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)
