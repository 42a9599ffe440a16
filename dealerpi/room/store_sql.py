"""The two databases under :class:`dealerpi.room.store.Store`: SQLite (stdlib ``sqlite3``) for a room on a Pi,
PostgreSQL (psycopg 3, psycopg.org/psycopg3/docs) for a card room. The store writes its SQL once, with ``?``
placeholders and ``INSERT ... ON CONFLICT DO NOTHING`` / ``RETURNING`` (both in SQLite since 3.35); only the
table definitions differ (an identity column) and the order of insertion (SQLite's ``rowid``, PostgreSQL's
``n``). Both run in autocommit with explicit transactions where a write is more than one statement.

A column added after a room's database was made is added when the room opens it (:data:`ADDED`:
``ALTER TABLE ... ADD COLUMN``, in both); :class:`~dealerpi.room.store.Store` fills it in for the rows
already there.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

POSTGRESQL = ("postgresql://", "postgres://")

_TABLES = """
CREATE TABLE IF NOT EXISTS hands (tbl TEXT, session TEXT, seq INTEGER, number INTEGER, phh TEXT, stored_at TEXT,
                                  played_at BIGINT, PRIMARY KEY (tbl, session, seq));
CREATE TABLE IF NOT EXISTS plays (tbl TEXT, session TEXT, seq INTEGER, player TEXT, vpip INTEGER, pfr INTEGER,
                                  showdown INTEGER, won INTEGER, PRIMARY KEY (tbl, session, seq, player));
CREATE TABLE IF NOT EXISTS totals (player TEXT PRIMARY KEY, hands BIGINT, vpip BIGINT, pfr BIGINT,
                                   showdowns BIGINT, won BIGINT);
CREATE TABLE IF NOT EXISTS commands (id TEXT PRIMARY KEY, tbl TEXT, payload TEXT, sent_at TEXT, answer TEXT,
                                     waiting INTEGER{commands_order});
CREATE TABLE IF NOT EXISTS waiting (id {identity}, game TEXT, player TEXT, added_at TEXT);
CREATE TABLE IF NOT EXISTS tournament (id INTEGER PRIMARY KEY, state TEXT);
CREATE TABLE IF NOT EXISTS lost (tbl TEXT, session TEXT, from_seq INTEGER, to_seq INTEGER, noted_at TEXT,
                                 PRIMARY KEY (tbl, session, from_seq));
CREATE INDEX IF NOT EXISTS plays_player ON plays (player);
"""
# Columns added since the first schema (table, column, type): an older database gets them on opening.
# hands.played_at: when the hand began, seconds since the epoch (dealerpi/room/director/stats.py hand_time).
ADDED = (("hands", "played_at", "BIGINT"),)
# The hands whose played_at is still to fill, found at every opening without reading the whole table (a
# partial index: sqlite.org/partialindex.html, PostgreSQL's CREATE INDEX ... WHERE); empty once filled.
UNFILLED = "CREATE INDEX IF NOT EXISTS hands_unfilled ON hands (tbl) WHERE played_at IS NULL"
SQLITE_SCHEMA = _TABLES.format(commands_order="", identity="INTEGER PRIMARY KEY AUTOINCREMENT")
POSTGRESQL_SCHEMA = _TABLES.format(commands_order=", n BIGINT GENERATED ALWAYS AS IDENTITY",
                                   identity="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")


class StoreError(ValueError):
    """The database failed (cannot open, connection lost, disk full): the room says so in one line and stops;
    systemd starts it again and the re-sync asks the tables for what it missed (docs/room.md)."""


def is_postgresql(database: Path | str) -> bool:
    return isinstance(database, str) and database.startswith(POSTGRESQL)


class Rows(Protocol):
    """What a statement gives back in both drivers (a DB-API cursor)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Database(Protocol):
    order: str                   # the column that orders rows as inserted

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    def transaction(self) -> contextlib.AbstractContextManager[None]: ...

    def close(self) -> None: ...


class SqliteDatabase:
    """WAL, ``synchronous=NORMAL``: a commit is not fsync'd (the tables' journals are the durable copy)."""

    order = "rowid"

    def __init__(self, path: Path) -> None:
        self.errors = _errors(f"the SQLite database {path}", sqlite3.Error)
        with self.errors:
            self.db = sqlite3.connect(str(path), isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SQLITE_SCHEMA)
            for table, column, kind in ADDED:       # SQLite has no ADD COLUMN IF NOT EXISTS
                if column not in {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            self.db.execute(UNFILLED)

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        with self.errors:
            return self.db.execute(sql, args)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.errors:
            self.db.executemany(sql, rows)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        with self.errors:
            self.db.execute("BEGIN")
            try:
                yield
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()


class PostgresDatabase:
    """psycopg 3 in autocommit; ``synchronous_commit = off`` for the same reason as SQLite's NORMAL (a commit
    lost to a crash is asked from the table again by the re-sync). psycopg's placeholder is ``%s``."""

    order = "n"

    def __init__(self, url: str) -> None:
        try:
            import psycopg  # only a room with a PostgreSQL URL needs the driver
        except ImportError:
            raise StoreError("a PostgreSQL URL needs the psycopg driver: pip install 'dealerpi[postgresql]'") \
                from None
        self.errors = _errors(f"the PostgreSQL database {url}", psycopg.Error)
        with self.errors:
            self.db = psycopg.connect(url, autocommit=True)
            self.db.execute("SET synchronous_commit = off")
            with self.db.transaction():       # two rooms starting at once: CREATE IF NOT EXISTS is not atomic
                self.db.execute("SELECT pg_advisory_xact_lock(1505)")
                for statement in POSTGRESQL_SCHEMA.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                for table, column, kind in ADDED:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
                self.db.execute(UNFILLED)

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        with self.errors:
            return self.db.execute(sql.replace("?", "%s"), args)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.errors, self.db.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), rows)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        with self.errors, self.db.transaction():
            yield

    def close(self) -> None:
        self.db.close()


class _errors(contextlib.AbstractContextManager[None]):
    """The driver's errors as :class:`StoreError`, naming the database (one line, no traceback)."""

    def __init__(self, what: str, kind: type[Exception]) -> None:
        self.what, self.kind = what, kind

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is not None and isinstance(exc, self.kind):
            message = " ".join(str(exc).split())
            raise StoreError(f"{self.what}: {message}") from exc


def connect(database: Path | str) -> Database:
    """SQLite for a path, PostgreSQL for a ``postgresql://`` URL."""
    if is_postgresql(database):
        return PostgresDatabase(str(database))
    return SqliteDatabase(Path(database))
