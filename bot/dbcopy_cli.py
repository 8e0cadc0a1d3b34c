"""The command line of ``python -m bot db`` (:mod:`bot.dbcopy`) and the report a copy prints."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from bot.dbcopy_schema import CopyError, one_line

EXIT_OK = 0
EXIT_FAILURE = 1


@dataclass
class TableReport:
    name: str
    source_rows: int
    target_rows: int
    identical: bool


@dataclass
class CopyReport:
    """What a copy did and verified."""

    source: str  # redacted
    target: str  # redacted
    schema_version: int
    tables: list[TableReport] = field(default_factory=list)
    replays_checked: int = 0
    #: matches whose log the current rules refuse: the same refusal on both sides
    replays_refused: list[int] = field(default_factory=list)

    @property
    def total_rows(self) -> int:
        return sum(t.target_rows for t in self.tables)

    def lines(self) -> list[str]:
        """The table printed after a copy."""
        width = max([len("table")] + [len(t.name) for t in self.tables])
        out = [
            f"copied {self.source} -> {self.target} (schema version {self.schema_version})",
            "",
            f"{'table':<{width}}  {'source':>9}  {'target':>9}",
            f"{'-' * width}  {'-' * 9}  {'-' * 9}",
        ]
        for t in self.tables:
            out.append(f"{t.name:<{width}}  {t.source_rows:>9}  {t.target_rows:>9}")
        out.append(f"{'-' * width}  {'-' * 9}  {'-' * 9}")
        total_source = sum(t.source_rows for t in self.tables)
        out.append(f"{'total':<{width}}  {total_source:>9}  {self.total_rows:>9}")
        out.append("")
        verified = (
            f"verified: {len(self.tables)} tables with the same row counts and rows; "
            f"{self.replays_checked} match logs replay to the same state"
        )
        if self.replays_refused:
            shown = ", ".join(f"#{m}" for m in self.replays_refused[:10])
            more = "" if len(self.replays_refused) <= 10 else f" and {len(self.replays_refused) - 10} more"
            verified += f" ({len(self.replays_refused)} refused by the current rules on both sides: {shown}{more})"
        out.append(verified)
        return out


# ---------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m bot db",
        description="Database operations (run them with the bot stopped).",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    copy = commands.add_parser(
        "copy",
        help="copy the database to a new, empty one (SQLite to PostgreSQL or back)",
        description=(
            "Copy every table of the source into the target, in one transaction, and verify row counts,"
            " rows and match replays. The target is migrated first and must hold no row."
        ),
    )
    copy.add_argument("--from", dest="source", required=True, metavar="URL", help="the database to copy (not changed)")
    copy.add_argument("--to", dest="target", required=True, metavar="URL", help="a new or empty database")
    copy.add_argument("--quiet", action="store_true", help="print no progress lines (stderr)")
    return top


class Copy(Protocol):
    """:func:`bot.dbcopy.copy_database`, as the command line calls it."""

    def __call__(
        self, source_url: str, target_url: str, *, progress: TextIO | None = None
    ) -> Coroutine[Any, Any, CopyReport]: ...


def run(copy: Copy, argv: Sequence[str], *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """``python -m bot db ...`` with ``copy`` doing the copy; returns the exit code."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    args = parser().parse_args(list(argv))
    if args.command != "copy":  # pragma: no cover - argparse allows only the commands above
        return EXIT_FAILURE
    try:
        report = asyncio.run(copy(args.source, args.target, progress=None if args.quiet else err))
    except CopyError as exc:
        print(f"db copy: {exc}", file=err)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("db copy: interrupted (nothing was committed to the target)", file=err)
        return EXIT_FAILURE
    except Exception as exc:  # noqa: BLE001 - every failure is one line (the transaction was rolled back)
        print(f"db copy failed (nothing was committed to the target): {one_line(exc)}", file=err)
        return EXIT_FAILURE
    for line in report.lines():
        print(line, file=out)
    return EXIT_OK
