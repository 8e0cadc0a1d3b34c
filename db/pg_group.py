"""A group of batches as one call of ``wr_write_group`` (migration 0018, PostgreSQL): one round trip
to the server, however many statements and batches the group holds (issue 33, part 3).

Each statement is sent as text with its parameters; the server function runs it with
``EXECUTE ... USING`` and a JSON array holding the parameters as strings. So that it runs exactly
as it would have on its own, each ``$n`` of the statement becomes ``($1->>n-1)::type``, where the
type is what the server inferred for that parameter: learnt by preparing the statement once per
statement text and process (:class:`GroupStatements`; asyncpg caches the prepared statement, so
that costs one round trip the first time a statement is seen, none after). Values travel as
text: an integer in decimal, a float as Python's ``repr`` (which the server reads back to the same
double), bytes in hex, booleans as ``true``/``false``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import Batch, StaleWrite
from .dialect import _outside_literals, inserted_table, returns_rows, to_postgres
from .errors import IntegrityError

STALE = "WR001"
"""The SQLSTATE ``wr_write_batch`` raises when a guarded statement touches another number of rows."""
_PARAM = re.compile(r"\$(\d+)\b")
_TEXT_TYPES = frozenset({"text", "varchar", "bpchar", "name", "unknown"})

CALL = "SELECT wr_write_group($1::text[], $2::jsonb, $3::int[], $4::int[], $5::int[], $6::boolean)"
"""The one statement a group costs (prepared once per connection, like any other)."""


@dataclass(frozen=True)
class Prepared:
    """A statement as the group function runs it."""

    sql: str  # the parameters read from the JSON array $1
    returns: int  # 0: no rows; 1: the inserted id (RETURNING id); 2: other rows (ignored)
    types: tuple[str, ...]  # each parameter's type, as the server inferred it


def cast(index: int, type_name: str) -> str:
    """The expression reading parameter ``index`` (0-based) of the JSON array ``$1`` as ``type_name``."""
    value = f"($1->>{index})"
    if type_name in _TEXT_TYPES:
        return value
    if type_name == "bytea":
        return f"decode({value}, 'hex')"
    return f"{value}::{type_name}"


def rewrite(query: str, types: Sequence[str]) -> str:
    """``query`` (PostgreSQL's dialect, ``$1``, ``$2``, ...) reading its parameters from ``$1``."""
    out: list[str] = []
    for is_code, text in _outside_literals(query):
        out.append(
            _PARAM.sub(lambda m: cast(int(m.group(1)) - 1, types[int(m.group(1)) - 1]), text) if is_code else text
        )
    return "".join(out)


def encode(value: Any, type_name: str = "text") -> str | None:
    """A parameter as the text the server casts back to ``type_name``."""
    if value is None:
        return None
    if isinstance(value, bool):
        if type_name == "bool":
            return "true" if value else "false"
        return "1" if value else "0"  # a flag stored as an integer (SQLite's way)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    return str(value)


class GroupStatements:
    """Per database: each statement text as the group function runs it, learnt once."""

    def __init__(self, id_tables: frozenset[str]) -> None:
        self.id_tables = id_tables
        self._known: dict[str, Prepared] = {}

    async def prepared(self, conn: Any, sql: str) -> Prepared:
        found = self._known.get(sql)
        if found is not None:
            return found
        query = to_postgres(sql, self.id_tables)
        statement = await conn.prepare(query)
        types = [
            t.name if t.schema in ("pg_catalog", "") else f"{t.schema}.{t.name}" for t in statement.get_parameters()
        ]
        table = inserted_table(sql)
        if table is not None and table in self.id_tables and "RETURNING" not in sql.upper():
            returns = 1  # the RETURNING id the translation added: the writer gets it (lastrowid)
        else:
            returns = 2 if returns_rows(query) else 0
        found = self._known[sql] = Prepared(rewrite(query, types), returns, tuple(types))
        return found

    async def arguments(self, conn: Any, batches: Sequence[Batch]) -> tuple[Any, ...]:
        """The group function's arguments for ``batches`` (a statement of ``add_many`` once per row)."""
        sqls: list[str] = []
        args: list[list[str | None]] = []
        expect: list[int] = []
        returns: list[int] = []
        ends: list[int] = []
        for batch in batches:
            expected = batch.expect_rows or {}
            for i, (sql, params, many) in enumerate(batch.statements):
                prepared = await self.prepared(conn, sql)
                for row in params if many else [params]:
                    sqls.append(prepared.sql)
                    args.append([encode(v, t) for v, t in zip(row, prepared.types, strict=True)])
                    expect.append(-1 if many else expected.get(i, -1))
                    returns.append(0 if many else prepared.returns)
            ends.append(len(sqls))
        return sqls, json.dumps(args), expect, returns, ends, len(batches) == 1


def ids_of(batch: Batch, returned: Sequence[int | None]) -> list[int | None]:
    """The ids ``write`` answers for ``batch``: one per statement (None for ``add_many``), from the
    function's one per row."""
    out: list[int | None] = []
    at = 0
    for _, params, many in batch.statements:
        if many:
            at += len(params)
            out.append(None)
        else:
            out.append(returned[at])
            at += 1
    return out


def batch_error(sqlstate: str, message: str) -> BaseException:
    """A batch's error as its writer gets it, from the SQLSTATE and message the function caught."""
    if sqlstate == STALE:
        return StaleWrite(message)
    if sqlstate.startswith("23"):
        return IntegrityError(message, unique=sqlstate == "23505")
    import asyncpg

    error: BaseException = asyncpg.PostgresError.new({"C": sqlstate, "M": message})
    return error


def results(raw: Any) -> list[dict[str, Any]]:
    """The function's answer (jsonb, as text or decoded)."""
    decoded = json.loads(raw) if isinstance(raw, str | bytes) else raw
    return list(decoded)
