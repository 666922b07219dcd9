"""Opening the database file: refuse a bad one untouched, upgrade an old one, then serve.

Durability. The file runs in WAL mode with ``synchronous=NORMAL``: a commit appends the
transaction to the ``-wal`` file with ``write()`` before it returns, and fsyncs happen only
at checkpoints. Once ``write()`` has returned the bytes belong to the operating system, so
killing the bot (even with SIGKILL) loses no committed transaction: the next open replays
the WAL. Only an operating-system crash or power cut can lose the last few commits, and
never corrupts the file. That is the right trade for a game bot; ``synchronous=FULL``
would fsync every card.

Concurrency. One aiosqlite connection (one thread) serves the whole bot. An ``asyncio``
lock makes every read and every transaction run alone on it, so one coroutine can never
see, join or roll back another's half-done transaction. A single-statement write runs in
autocommit mode, which is one transaction and one trip to the database thread.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .errors import DatabaseRefused, StoreError
from .migrations import LATEST, migrate, schema_version

SQLITE_HEADER = b"SQLite format 3\x00"
MIN_SQLITE = (3, 35, 0)
"""RETURNING clauses need 3.35 (2021); Python's bundled SQLite is newer."""
BUSY_TIMEOUT_MS = 5000

Row = tuple[Any, ...]
Params = Sequence[Any]


def inspect_file(path: Path) -> int | None:
    """The schema version of the file at ``path``; None if there is no file yet.

    Reads without writing: the file is opened read-only, and ``immutable`` when no WAL is
    beside it, so SQLite creates no ``-wal`` or ``-shm`` files. Raises
    :class:`DatabaseRefused` for a file that is corrupt, not SQLite, not a Bonken
    database, or from a newer version of the bot.
    """
    if not path.exists():
        return None
    if not path.is_file():
        raise DatabaseRefused(f"database path {path} exists but is not a file")
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if not header:
        return 0
    if header != SQLITE_HEADER:
        raise DatabaseRefused(f"{path} is not a SQLite database (its header is {header[:16]!r})")
    immutable = "" if Path(f"{path}-wal").exists() else "&immutable=1"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro{immutable}", uri=True)
    except sqlite3.Error as error:
        raise DatabaseRefused(f"cannot open {path}: {error}") from None
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise DatabaseRefused(f"{path} is corrupt: {'; '.join(problems)}")
        version = schema_version(conn)
        if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise DatabaseRefused(
                f"{path} is a SQLite database but not a Bonken one (it has no schema_version "
                "table); point BONKEN_DATABASE at another file"
            )
    except sqlite3.DatabaseError as error:
        raise DatabaseRefused(f"{path} is corrupt or not a database: {error}") from None
    finally:
        conn.close()
    if version > LATEST:
        raise DatabaseRefused(
            f"{path} has schema version {version}, newer than this bot knows ({LATEST}); "
            "run a newer bot or restore an older file"
        )
    return version


def prepare_file(path: Path) -> None:
    """Check the file, create it (and its folder) if missing, and upgrade it to LATEST."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StoreError(
            f"SQLite {sqlite3.sqlite_version} is too old; the store needs "
            f"{'.'.join(map(str, MIN_SQLITE))} or newer"
        )
    inspect_file(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        (mode,) = conn.execute("PRAGMA journal_mode=WAL").fetchone()
        if mode != "wal":
            raise StoreError(f"{path}: the file system does not allow WAL mode ({mode})")
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn)
    finally:
        conn.close()


class Session:
    """Statements on the connection while the caller holds the database lock."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in await self._conn.execute_fetchall(sql, params)]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row (for counts and single lookups), or None."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    async def execute(self, sql: str, params: Params = ()) -> None:
        await self._conn.execute_fetchall(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        cursor = await self._conn.executemany(sql, rows)
        await cursor.close()


class Database:
    """The one connection, its lock, and the ways to use it: read, a transaction, one write."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path) -> Database:
        await asyncio.to_thread(prepare_file, path)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            for pragma in (
                "PRAGMA foreign_keys=ON",
                "PRAGMA synchronous=NORMAL",
                f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
            ):
                await conn.execute_fetchall(pragma)
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Session]:
        """Hold the lock for a consistent set of reads (nothing writes meanwhile)."""
        async with self._lock:
            yield Session(self._conn)

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        async with self._lock:
            await self._conn.execute_fetchall("BEGIN IMMEDIATE")
            try:
                yield Session(self._conn)
                await self._conn.commit()
            except BaseException:  # the body failed, or the commit did: undo either way
                await self._conn.rollback()
                raise

    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        """One statement as its own transaction, committed when this returns."""
        async with self._lock:
            return await Session(self._conn).fetchall(sql, params)
