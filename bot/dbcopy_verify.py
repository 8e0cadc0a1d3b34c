"""The verification of ``python -m bot db copy`` (:mod:`bot.dbcopy`), inside the target's
transaction once every row is copied: each table has the same row count and the same rows on both
sides (an order-free digest: the backends order text keys by different collations), and every
started match's log replays (the rules' :meth:`rules.match.Match.replay`, from the records the
repositories read) to the same state on the target as on the source."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TextIO

from bot.dbcopy_cli import CopyReport, TableReport
from bot.dbcopy_schema import CopyError, Table, read_chunks
from db import Database, MatchStatus
from db.copy import CopyRepository
from rules.match import Match

REPLAYED = (MatchStatus.ACTIVE, MatchStatus.FINISHED, MatchStatus.ABANDONED)
"""The statuses of matches that have a log to replay."""


# ---------------------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------------------


def _normal(value: Any) -> Any:
    """A value as both backends give it back (bytes for BLOB/BYTEA, floats by their bits)."""
    if isinstance(value, memoryview | bytearray):
        return ("b", bytes(value).hex())
    if isinstance(value, bytes):
        return ("b", value.hex())
    if isinstance(value, bool):
        return ("i", int(value))
    if isinstance(value, float):
        return ("f", value.hex())
    if isinstance(value, int):
        return ("i", value)
    return (type(value).__name__, value)


_DIGEST_MOD = 1 << 256


class RowsDigest:
    """An order-free fingerprint of a table's rows (a sum of each row's SHA-256): the two backends
    order text keys by different collations, so the same rows may come back in another order."""

    def __init__(self) -> None:
        self.rows = 0
        self.value = 0

    def add(self, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            text = repr(tuple(_normal(v) for v in row)).encode()
            self.value = (self.value + int.from_bytes(hashlib.sha256(text).digest(), "big")) % _DIGEST_MOD
        self.rows += len(rows)


async def count_rows(db: Database, table: Table) -> int:
    return await CopyRepository(db).count(table)


async def digest_of(db: Database, table: Table, columns: tuple[str, ...]) -> RowsDigest:
    """The digest of ``table`` with its columns in the order ``columns``."""
    ordered = Table(table.name, columns, table.key, table.parents, table.identity)
    digest = RowsDigest()
    async for rows in read_chunks(db, ordered):
        digest.add(rows)
    return digest


async def verify_tables(
    source: Database,
    target: Database,
    order: Sequence[Table],
    target_tables: Mapping[str, Table],
    copied: Mapping[str, RowsDigest],
    report: CopyReport,
) -> None:
    """Each table of ``order`` has as many rows on the source as were copied and as the target
    holds, and the target's rows are the ones copied (``copied``: each table's digest as read from
    the source); one :class:`TableReport` each on ``report``. :class:`CopyError` at the first that
    differs."""
    for table in order:
        source_count = await count_rows(source, table)
        target_count = await count_rows(target, table)
        digest = copied[table.name]
        target_digest = await digest_of(target, target_tables[table.name], table.columns)
        identical = source_count == digest.rows == target_count and target_digest.value == digest.value
        report.tables.append(TableReport(table.name, source_count, target_count, identical))
        if source_count != target_count:
            raise CopyError(
                f"the table {table.name} has {target_count} rows on the target, {source_count} on the source"
            )
        if not identical:
            raise CopyError(f"the rows of the table {table.name} differ between the source and the target")


# ---------------------------------------------------------------------------------------
# replays
# ---------------------------------------------------------------------------------------


async def replay_fingerprint(db: Database, match_id: int) -> str:
    """What replaying the match's stored log gives (through the repositories and the rules): the
    log as replayed, every seat's view and the spectator's, the outcome, the events; or the
    rules' refusal. One string, to compare between two databases."""
    from bot.matches.ending import match_log

    record = await db.matches.get(match_id)
    if record is None:
        return "missing"
    rows = await db.actions.for_match(match_id)
    log_ = match_log(record, rows)
    try:
        match = await asyncio.to_thread(Match.replay, log_)
    except Exception as exc:  # noqa: BLE001 - a log the current rules refuse: compared as such
        return f"refused: {type(exc).__name__}: {exc}"
    outcome = match.outcome
    state = {
        "log": match.to_log().model_dump(mode="json"),
        "views": [match.state.view(None)] + [match.state.view(s) for s in range(len(log_.seats))],
        "outcome": None if outcome is None else outcome.to_json(),
        "events": [e.to_json() for e in match.events],
        "status": record.status.value,
    }
    return json.dumps(state, sort_keys=True, default=str)


async def replayed_ids(db: Database) -> list[int]:
    """The started matches (:data:`REPLAYED`) with a seed, by id."""
    return await CopyRepository(db).match_ids([s.value for s in REPLAYED])


Fingerprint = Callable[[Database, int], Awaitable[str]]
"""What :func:`verify_replays` compares: :func:`replay_fingerprint` (or a stand-in)."""


async def verify_replays(
    source: Database,
    target: Database,
    report: CopyReport,
    progress: TextIO | None,
    fingerprint: Fingerprint = replay_fingerprint,
) -> None:
    """Every started match replays to the same ``fingerprint`` on both sides (counted on
    ``report``); :class:`CopyError` at the first that does not."""
    ids = await replayed_ids(source)
    if ids != await replayed_ids(target):
        raise CopyError("the target does not hold the same started matches as the source")
    for done, match_id in enumerate(ids, 1):
        theirs = await fingerprint(source, match_id)
        ours = await fingerprint(target, match_id)
        if theirs != ours:
            raise CopyError(f"match #{match_id} replays to another state on the target than on the source")
        if theirs.startswith("refused: "):
            report.replays_refused.append(match_id)
        report.replays_checked += 1
        if progress is not None and done % 500 == 0:
            print(f"replayed {done} of {len(ids)} matches", file=progress, flush=True)
