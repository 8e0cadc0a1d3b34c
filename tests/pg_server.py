"""A throwaway PostgreSQL server for the tests, started by the test run itself.

The server is started lazily (the first test that asks for PostgreSQL), once per test session,
from the system's binaries (``PG_BINDIR``, else ``pg_config --bindir``, else
``/usr/lib/postgresql/*/bin``), in a temporary folder: data directory, log and its unix socket (no
TCP port is opened). It is stopped and the folder removed when the session ends, also after a
failure (and at interpreter exit if the session is killed before). Root may not run initdb, so as
root the folder is given to the ``postgres`` user and the server runs as that user (``runuser``).

Each test gets its own schema (empty; its migrations run when the test opens the database), dropped
after the test.

No binaries: :func:`server` fails the test (never skips it) with a message saying what to install.

The server itself (finding the binaries, starting, stopping, one schema per test) is
:mod:`bench.pgserver`, shared with ``python -m bench scale``.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from bench.pgserver import INSTALL_HINT, PORT, PgServer, find_bindir

__all__ = ["INSTALL_HINT", "PORT", "PgServer", "find_bindir", "query", "server", "shutdown"]

_server: PgServer | None = None
_lock = threading.Lock()


def server() -> PgServer:
    """The session's server, started on first use; fails the calling test if PostgreSQL cannot run."""
    global _server
    with _lock:
        if _server is None:
            bindir = find_bindir()
            if bindir is None:
                pytest.fail(INSTALL_HINT, pytrace=False)
            started = PgServer(bindir)
            try:
                started.start()
            except Exception as exc:
                started.stop()
                pytest.fail(f"The test PostgreSQL server did not start: {exc}", pytrace=False)
            _server = started
            atexit.register(shutdown)
        return _server


def shutdown() -> None:
    """Stop the server (if one was started) and remove its folder."""
    global _server
    with _lock:
        if _server is not None:
            _server.stop()
            _server = None


def query(url: str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Run one statement (SQLite's dialect: ``?`` placeholders) on a connection of its own and
    return its rows as tuples: what is committed, seen from outside. Blocks (runs in a thread)."""
    import asyncpg

    from db.dialect import to_postgres

    async def go() -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(url)
        try:
            return [tuple(r) for r in await conn.fetch(to_postgres(sql), *params)]
        finally:
            await conn.close()

    result: list[list[tuple[Any, ...]]] = []
    error: list[BaseException] = []

    def thread() -> None:
        try:
            result.append(asyncio.run(go()))
        except BaseException as exc:  # noqa: BLE001  (re-raised in the caller)
            error.append(exc)

    worker = threading.Thread(target=thread)
    worker.start()
    worker.join()
    if error:
        raise error[0]
    return result[0]
