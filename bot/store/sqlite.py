"""The SQLite backend: refuse a bad file untouched, upgrade an old one, then serve.

Durability. The file runs in WAL mode with ``synchronous=NORMAL``: a commit appends the
transaction to the ``-wal`` file with ``write()`` before it returns, and fsyncs happen only
at checkpoints. Once ``write()`` has returned the bytes belong to the operating system, so
killing the bot (even with SIGKILL) loses no committed transaction: the next open replays
the WAL. Only an operating-system crash or power cut can lose the last few commits, and
never corrupts the file. That is the right trade for a game bot; ``synchronous=FULL``
would fsync every card.

Concurrency. One aiosqlite connection (one thread) serves the whole bot. Every
transaction runs alone on it, and reads run only beside other reads (:mod:`bot.store.
turns`), so one coroutine can never see, join or roll back another's half-done
transaction. The statements of the reads running at once go to the thread together, one
trip for all of them (:mod:`bot.store.sqlite_batch`). A single-statement write runs in
autocommit mode, which is one transaction and one trip to the database thread. One bot
process per file: :mod:`bot.store.lock` refuses a second one before it writes anything.

Failures. Nothing of sqlite3 leaves this module: a broken constraint becomes
:class:`ConstraintFailed` (which the store's modules turn into ``AlreadyStored`` or
``Conflict``), and every other failure (a full disk, an I/O error, a file gone read-only)
becomes :class:`StorageFailed`, whose transaction is rolled back and whose connection
stays usable, so the caller can refuse politely and try again later.

Reading only. The operator's tools open the file read-only, without the process lock and
without upgrading it, so they can inspect the database of a running bot and never
change a byte of it.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .database import Database, Params, Row, Session
from .dialect import SQLITE
from .errors import ConstraintFailed, DatabaseRefused, StorageFailed, StoreError
from .lock import ProcessLock
from .migrations import LATEST, migrate, schema_version
from .sqlite_batch import ReadBatch
from .turns import Turns

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"
MIN_SQLITE = (3, 35, 0)
"""RETURNING clauses need 3.35 (2021); Python's bundled SQLite is newer."""
BUSY_TIMEOUT_MS = 5000


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` for reading only, creating no file beside it.

    A file with a ``-wal`` beside it is in use (or was, by a bot that was killed): it is
    read through the WAL like any reader does. Without one, no process has it open, and
    ``immutable`` keeps SQLite from creating ``-wal`` and ``-shm`` files just to read.
    """
    immutable = "" if Path(f"{path}-wal").exists() else "&immutable=1"
    return f"{path.resolve().as_uri()}?mode=ro{immutable}"


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
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise DatabaseRefused(f"cannot read {path}: {error.strerror}") from None
    if not header:
        return 0
    if header != SQLITE_HEADER:
        raise DatabaseRefused(f"{path} is not a SQLite database (its header is {header[:16]!r})")
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True)
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


def prepare_file(path: Path) -> ProcessLock:
    """Check the file, lock it for this process, create it (and its folder) if missing,
    upgrade it to LATEST and make sure it can be written. Returns the lock, now held."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StoreError(
            f"SQLite {sqlite3.sqlite_version} is too old; the store needs "
            f"{'.'.join(map(str, MIN_SQLITE))} or newer"
        )
    inspect_file(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseRefused(
            f"cannot create the folder {path.parent} for the database: {error.strerror}; "
            "create it, or point BONKEN_DATABASE at a writable place"
        ) from None
    lock = ProcessLock.take(path)
    try:
        _upgrade(path)
    except BaseException:
        lock.release()
        raise
    return lock


def _upgrade(path: Path) -> None:
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise _cannot_write(path, error) from None
    try:
        (mode,) = conn.execute("PRAGMA journal_mode=WAL").fetchone()
        if mode != "wal":
            raise StoreError(f"{path}: the file system does not allow WAL mode ({mode})")
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn)
        _check_writable(conn)
    except sqlite3.Error as error:
        raise _cannot_write(path, error) from None
    finally:
        conn.close()


def _check_writable(conn: sqlite3.Connection) -> None:
    """Write one header field, unchanged, and roll it back.

    A file the bot may read but not write opens without complaint, and a current one needs
    no migration; without this the bot would start and then refuse the first card.
    """
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version = {int(version)}")
    finally:
        if conn.in_transaction:  # SQLite may have rolled it back itself
            conn.execute("ROLLBACK")


def _cannot_write(path: Path, error: sqlite3.Error) -> DatabaseRefused:
    """The operator's one line for a file the bot cannot open for writing."""
    name = getattr(error, "sqlite_errorname", "")
    if name == "SQLITE_FULL":
        hint = "free some disk space"
    elif name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")):
        hint = f"the bot must be able to write the file and create files in {path.parent}"
    else:
        hint = "see the SQLite message"
    return DatabaseRefused(f"cannot write the database {path}: {error}; {hint}")


@contextmanager
def _translated(path: Path) -> Iterator[None]:
    """sqlite3's errors as the store's: a broken constraint, or a failure to read or write."""
    try:
        yield
    except sqlite3.Error as error:
        raise _store_error(path, error) from error


def _store_error(path: Path, error: sqlite3.Error) -> StoreError:
    """A sqlite3 error as the store's."""
    if isinstance(error, sqlite3.IntegrityError):
        return _constraint_failed(str(error))
    return StorageFailed(f"the database {path} failed: {error}")


def _constraint_failed(message: str) -> ConstraintFailed:
    """SQLite names the kind of constraint, and its columns, at the start of the message:
    ``UNIQUE constraint failed: actions.match_id, actions.seq``; a trigger's message is
    its own."""
    for kind in ("UNIQUE", "NOT NULL", "CHECK", "FOREIGN KEY"):
        prefix = f"{kind} constraint failed"
        if message.startswith(prefix):
            return ConstraintFailed(message, kind.lower(), message[len(prefix) :].strip(": "))
    return ConstraintFailed(message, "refused")


class SqliteSession(Session):
    """Statements on the connection while the caller holds its turn (a write's, or a
    read's whose statements go one by one: the read-only file's, in one transaction)."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._path = path

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._rows(sql, params))

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        return next((row[0] for row in await self._rows(sql, params)), None)

    async def _rows(self, sql: str, params: Params) -> Iterable[sqlite3.Row]:
        with _translated(self._path):
            return await self._conn.execute_fetchall(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        with _translated(self._path):
            cursor = await self._conn.executemany(sql, rows)
            await cursor.close()

    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Params]) -> None:
        marks = ", ".join("?" * len(columns))
        await self.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    async def ids_taken(self, table: str, column: str) -> None:
        """Nothing to do: an INTEGER PRIMARY KEY's next id is always the largest plus one."""

    async def engine_problems(self) -> list[str]:
        found: list[str] = []
        checked = [
            row["integrity_check"] for row in await self.fetchall("PRAGMA integrity_check(20)")
        ]
        if checked != ["ok"]:
            found.extend(f"integrity: {line}" for line in checked)
        for row in await self.fetchall("PRAGMA foreign_key_check"):
            found.append(
                f"{row['table']} row {row['rowid']} refers to a missing {row['parent']} row"
            )
        return found


class BatchedSession(SqliteSession):
    """A read's statements, sent with those of the other reads running
    (:mod:`bot.store.sqlite_batch`)."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, batch: ReadBatch) -> None:
        super().__init__(conn, path)
        self._batch = batch

    async def _rows(self, sql: str, params: Params) -> Iterable[sqlite3.Row]:
        return await self._batch.fetchall(sql, params)


class SqliteDatabase(Database):
    """The one connection, its lock, and the ways to use it: read, a transaction, one write."""

    dialect = SQLITE

    def __init__(
        self, conn: aiosqlite.Connection, path: Path, process_lock: ProcessLock | None
    ) -> None:
        self._conn = conn
        self._path = path
        self.label = str(path)
        self._process_lock = process_lock
        self._turns = Turns()
        self._batch = ReadBatch(conn, lambda error: _store_error(path, error))

    @classmethod
    async def open(cls, path: Path) -> SqliteDatabase:
        """Open for the bot: refuse a bad file, lock it, create or upgrade it."""
        process_lock = await asyncio.to_thread(prepare_file, path)
        try:
            conn = await _connect(path, str(path), uri=False)
        except BaseException:
            process_lock.release()
            raise
        return cls(conn, path, process_lock)

    @classmethod
    async def open_read_only(cls, path: Path) -> SqliteDatabase:
        """Open for inspecting only: no lock, no upgrade, no write, even beside the file.

        Refuses (:class:`DatabaseRefused`) a missing, empty or old file, which only the
        bot (or ``check --upgrade``) may create or upgrade.
        """
        version = await asyncio.to_thread(inspect_file, path)
        if version is None:
            raise DatabaseRefused(f"there is no database at {path}")
        if version == 0:
            raise DatabaseRefused(
                f"{path} is empty: it holds no Bonken database yet (the bot creates one "
                "when it starts)"
            )
        if version < LATEST:
            raise DatabaseRefused(
                f"{path} has schema version {version}, older than this bot's ({LATEST}); the "
                "bot upgrades it when it starts, or run `python -m bot.store --database "
                f"{path} check --upgrade` while the bot is stopped"
            )
        return cls(await _connect(path, read_only_uri(path), uri=True), path, None)

    async def hold_owner(self, owner: int) -> None:
        """The file's process lock admits one bot, this one, so every claim is its own."""
        await self.write_one("UPDATE table_claims SET owner = ?", (owner,))

    async def alive(self, session: Session, owner: int) -> bool:
        """No other owner is: the bot that held a claim before has ended."""
        return False

    async def close(self) -> None:
        async with self._turns.write():
            try:
                with _translated(self._path):
                    await self._conn.close()
            finally:
                if self._process_lock is not None:
                    self._process_lock.release()

    def reading(self) -> AbstractAsyncContextManager[Session]:
        """A consistent set of reads.

        The bot's own connection is the file's only writer, and no write runs beside a
        read (:mod:`bot.store.turns`), so every statement of the reads running at once sees
        the same moment, and they are sent together (:mod:`bot.store.sqlite_batch`).
        Read-only, a running bot may write between two statements, so a read is alone on
        the connection, in one read transaction: one snapshot (a match's deals and actions
        from the same moment).
        """
        if self._process_lock is not None:
            return _BatchedRead(self._turns, BatchedSession(self._conn, self._path, self._batch))
        return self._reading_alone()

    @asynccontextmanager
    async def _reading_alone(self) -> AsyncIterator[Session]:
        """:meth:`reading` of a read-only file: alone, in one read transaction."""
        async with self._turns.write():
            with _translated(self._path):
                await self._conn.execute_fetchall("BEGIN")
            try:
                yield SqliteSession(self._conn, self._path)
            finally:
                await self._roll_back()

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        async with self._turns.write():
            await self._roll_back()  # a transaction an earlier failed rollback left open
            with _translated(self._path):
                await self._conn.execute_fetchall("BEGIN IMMEDIATE")
            try:
                yield SqliteSession(self._conn, self._path)
                with _translated(self._path):
                    await self._conn.commit()
            except BaseException:  # the body failed, or the commit did: undo either way
                await self._roll_back()
                raise

    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        """One statement as its own transaction, committed when this returns."""
        async with self._turns.write():
            return await SqliteSession(self._conn, self._path).fetchall(sql, params)

    async def _roll_back(self) -> None:
        """Undo the open transaction, if any: after a full disk or an I/O error SQLite may
        have rolled it back itself. A failed rollback is logged, and tried again before
        the next transaction begins."""
        if not self._conn.in_transaction:
            return
        try:
            await self._conn.rollback()
        except sqlite3.Error:
            log.exception("rolling back a transaction on %s failed", self._path)


async def _connect(path: Path, target: str, *, uri: bool) -> aiosqlite.Connection:
    """The aiosqlite connection the store runs on, with its pragmas set."""
    try:
        conn = await aiosqlite.connect(target, uri=uri, isolation_level=None)
    except sqlite3.Error as error:
        raise DatabaseRefused(f"cannot open the database {path}: {error}") from None
    conn.row_factory = sqlite3.Row  # read by column name, as asyncpg's records are
    try:
        for pragma in (
            "PRAGMA foreign_keys=ON",
            "PRAGMA synchronous=NORMAL",
            f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
        ):
            await conn.execute_fetchall(pragma)
    except sqlite3.Error as error:
        await conn.close()
        raise DatabaseRefused(f"cannot open the database {path}: {error}") from None
    except BaseException:
        await conn.close()
        raise
    return conn


class _BatchedRead:
    """:meth:`SqliteDatabase.reading` of the file this process holds: the session, in a
    read's turn (a plain context manager, not a generator's: a page's reads take some
    ten)."""

    __slots__ = ("_session", "_turns")

    def __init__(self, turns: Turns, session: Session) -> None:
        self._turns = turns
        self._session = session

    async def __aenter__(self) -> Session:
        await self._turns.take_read()
        return self._session

    async def __aexit__(self, *exc: object) -> None:
        self._turns.end_read()
