"""A throwaway PostgreSQL server from the system's binaries, for the tests (``tests/pg_server.py``)
and the benchmarks (``python -m bench scale``).

The binaries are found in ``PG_BINDIR``, else ``pg_config --bindir``, else
``/usr/lib/postgresql/*/bin``. :class:`PgServer` makes a temporary folder for the data directory,
the log and the unix socket (no TCP port is opened) and starts the server there; :meth:`PgServer.stop`
stops it and removes the folder. Root may not run initdb, so as root the folder is given to the
``postgres`` user and the server runs as that user (``runuser``).

By default the server favours speed over durability (``fsync=off``, ``synchronous_commit=off``,
``full_page_writes=off``: :data:`SETTINGS`): it holds nothing worth keeping.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found: install them "
    "(Debian/Ubuntu: apt install postgresql) or set PG_BINDIR to the folder that holds them."
)
PORT = 5432  # only names the unix socket inside the server's private folder
_names = itertools.count(1)
SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "200"}
"""The server's settings (``settings=`` overrides them): fast, not durable."""


def find_bindir() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    candidates: list[str] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(os.environ["PG_BINDIR"])
    if shutil.which("pg_config"):
        try:
            out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10, check=False)
            candidates.append(out.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True)
    for initdb in filter(None, [shutil.which("initdb")]):
        candidates.append(str(Path(initdb).parent))
    for folder in candidates:
        path = Path(folder)
        if (path / "initdb").is_file() and (path / "pg_ctl").is_file() and (path / "postgres").is_file():
            return path
    return None


def _version_key(folder: str) -> tuple[int, ...]:
    parts = Path(folder).parent.name.split(".")
    return tuple(int(p) for p in parts if p.isdigit())


class PgServer:
    """One server (:meth:`start`, :meth:`stop`); :meth:`url` gives the address of a database on it."""

    def __init__(self, bindir: Path, *, prefix: str = "wr-pg-", settings: Mapping[str, str] | None = None) -> None:
        self.bindir = bindir
        self.settings = {**SETTINGS, **(settings or {})}
        self.folder = Path(tempfile.mkdtemp(prefix=prefix))
        self.data = self.folder / "data"
        self.user: str | None = None
        if os.geteuid() == 0:  # initdb refuses root: run the server as the postgres user
            try:
                entry = pwd.getpwnam("postgres")
            except KeyError as exc:
                raise RuntimeError("running as root, and there is no 'postgres' user to run PostgreSQL as") from exc
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self.user = "postgres"
        self.started = False

    def _run(self, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        if out.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:1])} failed ({out.returncode}): {out.stderr.strip()}\n{tail}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
        self.started = True
        self.resume()

    def pause(self) -> None:
        """Stop the server (fast shutdown: every connection is closed), keeping its data, as an
        outage would; :meth:`resume` starts it again on the same socket."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the (initialised) server, after :meth:`start`'s initdb or a :meth:`pause`."""
        options = f"-k {self.folder} -p {PORT} -c listen_addresses=''" + "".join(
            f" -c {name}={value}" for name, value in self.settings.items()
        )
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-o", options, "-l", log, "start")

    def stop(self) -> None:
        try:
            if self.started:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
                self.started = False
        except Exception:  # noqa: BLE001  (best effort: the folder goes anyway)
            pass
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, schema: str | None = None) -> str:
        """The server's database; with ``schema``, connections put that schema first on the
        search path (so the tables a test's migrations create land there)."""
        url = f"postgresql://postgres@/postgres?host={self.folder}&port={PORT}"
        return url if schema is None else f"{url}&search_path={schema}"

    # -- one schema per test (a CREATE DATABASE costs about 0.4 s, a schema almost nothing) ------
    async def create_schema(self, prefix: str = "t") -> str:
        """A new empty schema; returns its name."""
        import asyncpg

        name = f"{prefix}_{os.getpid()}_{next(_names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"CREATE SCHEMA {name}")
        finally:
            await conn.close()
        return name

    async def drop_schema(self, name: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        finally:
            await conn.close()
