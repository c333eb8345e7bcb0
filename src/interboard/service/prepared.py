"""The seats' hot statements, run on the database driver's own cursor.

SQLAlchemy runs a cached Core statement in about 100 µs of Python (an execution context, the
parameters' and the result's processing set up anew); the driver's own call takes about 15 µs on
SQLite. A seat's request runs one to four such statements, so that difference was the largest part
of a cached seat view. A :class:`Prepared` statement is compiled by SQLAlchemy once per dialect:
the SQL text, the order of its parameters and each type's conversions (JSON, dates, booleans). It is
then run on the cursor of the connection that SQLAlchemy checked out, inside the transaction that
SQLAlchemy began and will end: the same SQL, the same transaction, the same values. A driver's
error is raised as SQLAlchemy's own (``OperationalError`` for "database is locked", ...), as if
SQLAlchemy had run the statement.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

Convert = Callable[[Any], Any]
"""A value's conversion to or from what the driver takes and gives."""

SHARED_KEPT = 4096
"""The most values a shared conversion keeps (:func:`_converted_once`); past it, it starts again."""


def _converted_once(convert: Convert) -> Convert:
    """``convert``, made once for each value the driver gives and then shared: a JSON column or a
    date read as text is decoded at each read, though a game's settings and deadline change a few
    times a game, and the decoding (SQLAlchemy's processors and ``json.loads``) was a fifth of a
    warm read of a game's head. A value the driver gives decoded already (a dict, from
    PostgreSQL's driver) cannot be a key: it is converted each time."""
    kept: dict[Any, Any] = {}

    def convert_once(raw: Any) -> Any:
        try:
            return kept[raw]
        except KeyError:
            value = convert(raw)
            if len(kept) >= SHARED_KEPT:
                kept.clear()
            kept[raw] = value
            return value
        except TypeError:  # unhashable
            return convert(raw)

    return convert_once


@dataclass(frozen=True)
class _Compiled:
    """One statement compiled for one dialect."""

    sql: str
    order: tuple[str, ...] | None
    """The parameters' names in the order the SQL takes them; ``None``: by name (PostgreSQL)."""
    fixed: dict[str, Any]
    """Values written into the statement (``kind != 'bot'``), by parameter name."""
    binds: Mapping[str, Convert]
    """The parameters that have a conversion (JSON, dates, ...), by name."""
    width: int
    """The number of result columns."""
    converted: tuple[tuple[int, Convert], ...]
    """The result columns that have a conversion, by position (most have none)."""

    @classmethod
    def of(cls, statement: ClauseElement, dialect: Dialect, shared: bool = False) -> _Compiled:
        """``shared``: each result column's conversion is made once a value and shared
        (:func:`_converted_once`)."""
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        if compiled.escaped_bind_names:
            raise ValueError(
                f"parameter names the driver cannot take as they are: {compiled.escaped_bind_names}"
            )
        processors = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect)
            for name, bind in compiled.binds.items()
        }
        binds = {name: f for name, f in processors.items() if f is not None}
        fixed = {name: bind.value for name, bind in compiled.binds.items() if not bind.required}
        columns = getattr(statement, "selected_columns", ())
        results = [c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns]
        converted = tuple(
            (i, _converted_once(f) if shared else f) for i, f in enumerate(results) if f is not None
        )
        order = tuple(compiled.positiontup or ()) if compiled.positional else None
        return cls(str(compiled), order, fixed, binds, len(results), converted)

    def parameters(self, given: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        values = {**self.fixed, **given}
        for name, convert in self.binds.items():
            values[name] = convert(values[name])
        if self.order is None:
            return values
        return tuple(values[name] for name in self.order)

    def row(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        if len(raw) != self.width:
            raise ValueError(f"a row of {len(raw)} values for {self.width} columns")
        if not self.converted:
            return tuple(raw)
        values = list(raw)
        for i, convert in self.converted:
            if values[i] is not None:
                values[i] = convert(values[i])
        return tuple(values)


def _values(*values: Any) -> tuple[Any, ...]:
    return values


class Prepared:
    """A Core statement run on the driver's cursor; ``row``: what each result row is made into (a
    named tuple's class, say; by default a tuple). ``shared``: a column's converted value (a dict
    from JSON, a date) is made once for each value read and shared by every row that reads it, so
    the rows must be read, never changed (the games' heads: read at every seat's request)."""

    def __init__(
        self, statement: ClauseElement, row: Callable[..., Any] = _values, shared: bool = False
    ) -> None:
        self.statement = statement
        self._row = row
        self._shared = shared
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    def _execute(self, on: Connection | Session, params: Mapping[str, Any]) -> tuple[Any, _Compiled]:
        conn, compiled = self._compiled_on(on)
        return self._call(conn, compiled, compiled.parameters(params), many=False), compiled

    def _compiled_on(self, on: Connection | Session) -> tuple[Connection, _Compiled]:
        conn = on.connection() if isinstance(on, Session) else on
        dialect = conn.dialect
        key = (dialect.name, dialect.driver)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = _Compiled.of(self.statement, dialect, self._shared)
        return conn, compiled

    @staticmethod
    def _call(conn: Connection, compiled: _Compiled, parameters: Any, many: bool) -> Any:
        """The driver's cursor, having run the statement (once, or for each of ``parameters``)."""
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            (cursor.executemany if many else cursor.execute)(compiled.sql, parameters)
        except conn.dialect.loaded_dbapi.Error as exc:
            cursor.close()
            raise DBAPIError.instance(compiled.sql, parameters, exc, conn.dialect.loaded_dbapi.Error) from exc
        return cursor

    def all(self, on: Connection | Session, params: Mapping[str, Any]) -> list[Any]:
        cursor, compiled = self._execute(on, params)
        try:
            return [self._row(*compiled.row(raw)) for raw in cursor.fetchall()]
        finally:
            cursor.close()

    def first(self, on: Connection | Session, params: Mapping[str, Any]) -> Any:
        """The first row, made into ``row``; ``None`` if there is none."""
        values = self._first_values(on, params)
        return None if values is None else self._row(*values)

    def scalar(self, on: Connection | Session, params: Mapping[str, Any]) -> Any:
        """The first column of the first row; ``None`` if there is none."""
        values = self._first_values(on, params)
        return None if values is None else values[0]

    def _first_values(self, on: Connection | Session, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        cursor, compiled = self._execute(on, params)
        try:
            raw = cursor.fetchone()
        finally:
            cursor.close()
        return None if raw is None else compiled.row(raw)

    def run(self, on: Connection | Session, params: Mapping[str, Any]) -> int:
        """Run an INSERT, UPDATE or DELETE: the number of rows it wrote or matched."""
        cursor, _ = self._execute(on, params)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def run_many(self, on: Connection | Session, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run an INSERT or UPDATE once for each of ``rows``, in one call to the driver."""
        conn, compiled = self._compiled_on(on)
        self._call(conn, compiled, [compiled.parameters(row) for row in rows], many=True).close()
