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

A group of one batch (every move when the server is not saturated) takes a faster way: the batch's
statements, in order, are one shape, and each shape gets a function of its own on the server
(:func:`batch_function`, kept by the server, named by a hash of its text so every process and
restart finds the same one; a process lists the schema's functions once, then creates a shape's
function the first time it meets a shape not among them), with the statements as
static SQL, called by its name (:func:`call_of`: one prepared statement per shape and connection,
mostly one connection, the database's home one). PL/pgSQL plans static SQL once per connection and
keeps the plan; ``EXECUTE`` parses and plans its text on every call, which is why the call no
longer goes through ``wr_call_batch`` (migration 0019, one statement for every shape, whose
``EXECUTE`` of the call cost a move about 0.1 ms on the server, more than JSON). The function
checks the guarded row counts and returns the inserted ids like ``wr_write_batch``. A batch it
cannot take (a statement returning other rows) goes the general way. A run of the same statement
(consecutive in the batch: a move's notices, its seats' deadlines) and an ``add_many`` of several
rows are one step, a loop over a JSON array of rows, so the number of shapes (and of functions to
create, each costing a round trip and its first call a plan) does not grow with the number of
seats, notices or ids.
"""

from __future__ import annotations

import hashlib
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


def call_of(name: str) -> str:
    """The statement a batch alone costs: a call of its shape's function ``name`` (a name
    :func:`function_name` made), prepared once per connection and shape."""
    return f"SELECT {name}($1::jsonb)"


@dataclass(frozen=True)
class Prepared:
    """A statement as the group function runs it."""

    sql: str  # the parameters read from the JSON array $1
    returns: int  # 0: no rows; 1: the inserted id (RETURNING id); 2: other rows (ignored)
    types: tuple[str, ...]  # each parameter's type, as the server inferred it
    query: str = ""  # the statement in PostgreSQL's dialect ($1, $2, ...)


#: one step of a batch's shape: (query, parameter types, returns, expected row count or -1, loop);
#: ``returns`` as :attr:`Prepared.returns`, or :data:`UNREPORTED` for an ``add_many`` row's id
#: (its statement reports None); ``loop``: the step runs once per row of a JSON array (a run of the
#: same statement, consecutive in the batch, or an ``add_many`` of several rows), so a batch's shape
#: does not depend on how many notices, seats or log entries a move writes
Step = tuple[str, tuple[str, ...], int, int, bool]
UNREPORTED = 3


def cast(index: int, type_name: str, source: str = "$1") -> str:
    """The expression reading parameter ``index`` (0-based) of the JSON array ``source`` as ``type_name``."""
    value = f"({source}->>{index})"
    if type_name in _TEXT_TYPES:
        return value
    if type_name == "bytea":
        return f"decode({value}, 'hex')"
    return f"{value}::{type_name}"


def rewrite(query: str, types: Sequence[str], source: str = "$1") -> str:
    """``query`` (PostgreSQL's dialect, ``$1``, ``$2``, ...) reading its parameters from the JSON
    array ``source``."""
    out: list[str] = []
    for is_code, text in _outside_literals(query):
        out.append(
            _PARAM.sub(lambda m: cast(int(m.group(1)) - 1, types[int(m.group(1)) - 1], source), text)
            if is_code
            else text
        )
    return "".join(out)


def function_name(shape: Sequence[Step]) -> str:
    """The server function of a batch shape: the same name in every process, for the same text."""
    return "wr_batch_" + hashlib.sha256(repr(tuple(shape)).encode()).hexdigest()[:24]


def batch_function(name: str, shape: Sequence[Step]) -> str:
    """``CREATE FUNCTION name(p_args JSONB)``: the steps of ``shape`` as static SQL, step ``i``
    reading its parameters from ``p_args->i`` (a loop step: from each element of that array in
    turn); a guarded statement that touches another number of rows raises WR001; returns the id
    each row inserted (null for the others), in order."""
    declare = ["v_count BIGINT;", "v_id BIGINT;", "v_row JSONB;", "v_ids JSONB := '[]'::jsonb;"]
    body: list[str] = []
    for i, (query, types, returns, expect, loop) in enumerate(shape):
        sql = rewrite(query, types, "v_row" if loop else f"(p_args->{i})")
        lines = [sql + (" INTO v_id;" if returns in (1, UNREPORTED) else ";")]
        if expect >= 0:
            lines.append(
                f"GET DIAGNOSTICS v_count = ROW_COUNT; IF v_count <> {expect} THEN "
                f"RAISE EXCEPTION 'stale write: % rows, {expect} expected: statement {i + 1}', v_count "
                "USING ERRCODE = 'WR001'; END IF;"
            )
        lines.append(f"v_ids := v_ids || jsonb_build_array({'v_id' if returns == 1 else 'NULL::BIGINT'});")
        if loop:
            body.append(f"FOR v_row IN SELECT value FROM jsonb_array_elements(p_args->{i}) LOOP")
            body += ["    " + line for line in lines]
            body.append("END LOOP;")
        else:
            body += lines
    return (
        f"CREATE FUNCTION {name}(p_args JSONB) RETURNS JSONB LANGUAGE plpgsql AS $wr$\nDECLARE\n    "
        + "\n    ".join(declare)
        + "\nBEGIN\n    "
        + "\n    ".join(body)
        + "\n    RETURN v_ids;\nEND\n$wr$"
    )


def encode(value: Any, type_name: str = "text") -> str | None:
    """A parameter as the text the server casts back to ``type_name``."""
    if type(value) is str:
        return value
    if value is None:
        return None
    if type(value) is int:
        return str(value)
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
        self._functions: dict[tuple[Step, ...], str] = {}  # shapes whose function the server has
        self._on_server: set[str] | None = None  # the batch functions the schema held when first asked

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
        found = self._known[sql] = Prepared(rewrite(query, types), returns, tuple(types), query)
        return found

    def forget(self, name: str) -> None:
        """The function ``name`` is gone from the server (an operator dropped it): make it again
        when its shape is next met."""
        for key in [k for k, v in self._functions.items() if v == name]:
            del self._functions[key]
        if self._on_server is not None:
            self._on_server.discard(name)

    async def single(self, conn: Any, batch: Batch) -> tuple[str, str] | None:
        """A group of ``batch`` alone as a call of its shape's function (:func:`call_of`): its
        arguments, the function's name and its parameters (the function created on the server
        first if this process has not met the shape); None for a batch only the general way takes."""
        shape: list[Step] = []
        args: list[Any] = []
        expected = batch.expect_rows or {}
        for i, (sql, params, many) in enumerate(batch.statements):
            prepared = self._known.get(sql) or await self.prepared(conn, sql)
            if prepared.returns == 2:
                return None
            returns = UNREPORTED if many and prepared.returns else 0 if many else prepared.returns
            step = (prepared.query, prepared.types, returns, -1 if many else expected.get(i, -1))
            rows = [
                [encode(v, t) for v, t in zip(row, prepared.types, strict=True)]
                for row in (params if many else [params])
            ]
            if shape and shape[-1][:4] == step:  # the same statement again: one loop over its rows
                if not shape[-1][4]:
                    shape[-1], args[-1] = (*step, True), [args[-1]]
                args[-1] += rows
            elif len(rows) == 1:
                shape.append((*step, False))
                args.append(rows[0])
            else:
                shape.append((*step, True))
                args.append(rows)
        key = tuple(shape)
        name = self._functions.get(key)
        if name is None:
            if self._on_server is None:  # one query per process: the functions earlier runs made
                self._on_server = {str(r[0]) for r in await conn.fetch(_LIST)}
            name = function_name(key)
            if name not in self._on_server:
                await create_function(conn, name, key)
                self._on_server.add(name)
            self._functions[key] = name
        return name, json.dumps(args)

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


_LIST = "SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname LIKE 'wr_batch_%'"
_EXISTS = "SELECT to_regprocedure(quote_ident(current_schema()) || '.' || $1 || '(jsonb)') IS NOT NULL"
#: another process creating the same function at the same moment: it exists once either has
_CREATED_MEANWHILE = frozenset({"42723", "23505", "XX000"})


async def create_function(conn: Any, name: str, shape: tuple[Step, ...]) -> None:
    """Create ``shape``'s function ``name`` in the current schema (one round trip); another process
    that made it meanwhile is no error."""
    import asyncpg

    try:
        await conn.execute(batch_function(name, shape))
    except asyncpg.PostgresError as exc:
        if getattr(exc, "sqlstate", None) not in _CREATED_MEANWHILE or not await conn.fetchval(_EXISTS, name):
            raise


def returned_ids(raw: Any) -> list[int | None]:
    """A batch function's answer (jsonb, as text or decoded): each statement's id or None."""
    decoded = json.loads(raw) if isinstance(raw, str | bytes) else raw
    return [None if v is None else int(v) for v in decoded]


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
