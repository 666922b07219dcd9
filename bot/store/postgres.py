"""The PostgreSQL backend: one database shared by every bot process, through a pool.

Opening. The URL is checked, the server reached and the login tried; every failure there
is one :class:`DatabaseRefused` line (unreachable, login refused, no such database, not a
Bonken database, a schema newer than this bot, a server that only reads). Then, holding
an advisory lock, the migrations not yet applied run, each in its own transaction, so bot
processes starting together upgrade the database once, one after the other. There is no
process lock: several bot processes sharing a database is what this backend is for (who
plays which table is the table claims' business, not the store's).

Concurrency. Each read, transaction and single write borrows a connection from an asyncpg
pool, so the processes' coroutines run side by side and PostgreSQL's locks order them. A
read is one ``REPEATABLE READ READ ONLY`` transaction (one snapshot, as SQLite's read
gives); a transaction is ``READ COMMITTED``; a single write is one statement in
autocommit, one round trip on a prepared statement asyncpg keeps (and none to hand the
connection back: see :func:`_leave_as_is`). Appends to one match
lock that match's row (in the triggers), so they run one after the other whichever
process writes them, and none slips past the match being finished or cancelled.

Durability. A commit returns once PostgreSQL has flushed its WAL (its default
``synchronous_commit``), so an acknowledged action survives even a power cut of the
database server.

Failures, as in :mod:`bot.store.sqlite`: a broken constraint or a trigger's refusal is
:class:`ConstraintFailed` (with the same ``kind`` SQLite's would have), anything else
:class:`StorageFailed` with the transaction rolled back. Nothing of asyncpg leaves here.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from functools import lru_cache
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # no stubs shipped

from .codec import now_ms
from .database import Database, Params, Row, Session
from .dialect import POSTGRES
from .errors import ConstraintFailed, DatabaseRefused, StorageFailed
from .liveness import OwnerLock
from .migrations import LATEST, MIGRATIONS
from .url import redacted, url_problem

log = logging.getLogger(__name__)

POOL_SIZE = 20
"""Connections per bot process: enough concurrent commits for the WAL flushes to group
(10 gave 1,338 actions/s on the bench, 30 gave 1,786); four processes stay within
PostgreSQL's default of 100 connections."""
CONNECT_SECONDS = 10.0
MIGRATION_LOCK = 0x426F6E6B656E  # "Bonken": the advisory lock key of migrating
CONSTRAINTS: dict[type[Exception], str] = {
    asyncpg.UniqueViolationError: "unique",
    asyncpg.NotNullViolationError: "not null",
    asyncpg.CheckViolationError: "check",
    asyncpg.ForeignKeyViolationError: "foreign key",
}
FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (none inside a quoted literal)."""
    parts = re.split(r"('(?:[^']|'')*')", sql)
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return "".join(
        part if index % 2 else re.sub(r"\?", number, part) for index, part in enumerate(parts)
    )


def _constraint_failed(error: asyncpg.IntegrityConstraintViolationError) -> ConstraintFailed:
    kind = next((k for cls, k in CONSTRAINTS.items() if isinstance(error, cls)), "refused")
    table = getattr(error, "table_name", None) or ""
    column = getattr(error, "column_name", None)
    where = f"{table}.{column}" if column else table
    return ConstraintFailed(str(getattr(error, "message", error)), kind, where)


@contextmanager
def _translated(label: str) -> Iterator[None]:
    """asyncpg's errors as the store's: a broken constraint, or a failure to read or write."""
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as error:
        raise _constraint_failed(error) from error
    except FAILURES as error:
        raise StorageFailed(f"the database {label} failed: {error}") from error


class PostgresSession(Session):
    """Statements on one borrowed connection, inside the read or transaction that holds it."""

    dialect = POSTGRES

    def __init__(self, conn: Any, label: str) -> None:
        self._conn = conn
        self._label = label

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        with _translated(self._label):
            rows: list[Row] = await self._conn.fetch(numbered(sql), *params)
        return rows

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        with _translated(self._label):
            return await self._conn.fetchval(numbered(sql), *params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        with _translated(self._label):
            await self._conn.executemany(numbered(sql), rows)

    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Params]) -> None:
        """``COPY ... FROM STDIN`` in PostgreSQL's binary format: one stream for all rows."""
        with _translated(self._label):
            await self._conn.copy_records_to_table(table, columns=list(columns), records=rows)

    async def ids_taken(self, table: str, column: str) -> None:
        """Move the column's identity sequence past the largest id (if it has one)."""
        sequence = await self.scalar("SELECT pg_get_serial_sequence(?, ?)", (table, column))
        if sequence is not None:
            await self.execute(
                f"SELECT setval(?, coalesce(max({column}), 0) + 1, false) FROM {table}",
                (sequence,),
            )

    async def engine_problems(self) -> list[str]:
        """None to look for: PostgreSQL checks every reference as it writes, and a damaged
        page is its own error at the read that meets it."""
        return []


class PostgresDatabase(Database):
    """The pool, and the ways to use it: read, a transaction, one write."""

    dialect = POSTGRES

    def __init__(self, pool: Any, label: str, url: str) -> None:
        self._pool = pool
        self.label = label
        self._url = url
        self._owner_lock: OwnerLock | None = None

    @classmethod
    async def open(cls, url: str, *, read_only: bool = False) -> PostgresDatabase:
        """Open for the bot (migrating first), or ``read_only`` for the operator's tools:
        then nothing is upgraded, every write is refused, and an old schema is refused."""
        label = redacted(url)
        problem = url_problem(url)
        if problem is not None:
            raise DatabaseRefused(f"BONKEN_DATABASE: {problem}")
        conn = await _connect(url, label)
        try:
            if read_only:
                await _check(conn, label, read_only=True)
            else:
                # A session-level lock, so each migration's transaction starts after the
                # previous holder's commit and sees its tables (a transaction that began
                # before that commit would still see the catalog as it was).
                await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
                await _check(conn, label, read_only=False)
                await migrate(conn)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
            raise DatabaseRefused(f"cannot prepare the database {label}: {error}") from None
        finally:
            await conn.close()  # which releases the lock
        settings = {"application_name": "bonken"}
        if read_only:
            settings["default_transaction_read_only"] = "on"
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                server_settings=settings,
                reset=_leave_as_is,
            )
        except FAILURES as error:
            raise DatabaseRefused(f"cannot open the database {label}: {error}") from None
        return cls(pool, label, url)

    async def hold_owner(self, owner: int) -> None:
        """Hold the advisory lock named ``owner`` for as long as the process runs, on a
        connection of its own (taken again if that connection is lost: see
        :mod:`bot.store.liveness`): the server drops it the moment the process ends
        (``kill -9`` included), and then :meth:`alive` says so everywhere."""
        lock = OwnerLock(lambda: self._owner_connection(owner), self.label)
        await lock.take()
        self._owner_lock = lock

    async def _owner_connection(self, owner: int) -> Any:
        conn = await _connect(self._url, self.label)
        try:
            await conn.execute("SELECT pg_advisory_lock($1)", owner)
        except FAILURES as error:
            await conn.close()
            raise DatabaseRefused(
                f"cannot take the process lock on {self.label}: {error}"
            ) from None
        return conn

    async def alive(self, session: Session, owner: int) -> bool:
        """Taking ``owner``'s advisory lock fails while its process holds it; taken, it is
        this transaction's until it ends, so a second process asking at the same moment
        also finds the owner alive and leaves the takeover to the first."""
        taken = await session.scalar("SELECT pg_try_advisory_xact_lock(?)", (owner,))
        return not taken

    async def close(self) -> None:
        with _translated(self.label):
            if self._owner_lock is not None:
                await self._owner_lock.release()
                self._owner_lock = None
            await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        with _translated(self.label):
            conn = await self._pool.acquire()
        try:
            yield conn
        finally:
            await self._pool.release(conn)

    @asynccontextmanager
    async def _transaction(self, **options: Any) -> AsyncIterator[Session]:
        async with self._connection() as conn:
            transaction = conn.transaction(**options)
            with _translated(self.label):
                await transaction.start()
            try:
                yield PostgresSession(conn, self.label)
                with _translated(self.label):
                    await transaction.commit()
            except BaseException as error:  # the body failed, or the commit did: undo
                try:
                    await transaction.rollback()
                except FAILURES:
                    # Cancelled mid-statement (the bot stopping), asyncpg refuses a rollback;
                    # the pool rolls the connection back as it takes it back.
                    if not isinstance(error, asyncio.CancelledError):
                        log.exception("rolling back a transaction on %s failed", self.label)
                raise

    def reading(self) -> AbstractAsyncContextManager[Session]:
        """One snapshot for every statement of the block, whatever other processes write."""
        return self._transaction(isolation="repeatable_read", readonly=True)

    def writing(self) -> AbstractAsyncContextManager[Session]:
        return self._transaction()

    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._connection() as conn:
            with _translated(self.label):
                rows: list[Row] = await conn.fetch(numbered(sql), *params)
        return rows


async def _leave_as_is(conn: Any) -> None:
    """A connection goes back to the pool as it is, without asyncpg's reset query (one more
    round trip after every write). The store leaves nothing on a pooled connection to
    reset: no SET, LISTEN, cursor or advisory lock, and asyncpg still rolls back a
    transaction left open. Whoever adds session state to pooled connections must reset it.
    """


async def _connect(url: str, label: str) -> Any:
    """One connection, or the operator's one line for why there is none."""
    try:
        return await asyncpg.connect(url, timeout=CONNECT_SECONDS)
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as e:
        raise DatabaseRefused(
            f"PostgreSQL refused the login to {label}: {e}; check the user and password"
        ) from None
    except asyncpg.InvalidCatalogNameError as error:
        raise DatabaseRefused(
            f"{label}: {error}; create it (createdb) or point BONKEN_DATABASE at another one"
        ) from None
    except (TimeoutError, OSError) as error:
        raise DatabaseRefused(
            f"cannot reach the PostgreSQL server of {label}: {error or 'timed out'}; "
            "is it running, and are the host and port right?"
        ) from None
    except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise DatabaseRefused(f"cannot open the database {label}: {error}") from None


async def schema_version(conn: Any) -> int:
    """The highest migration applied; 0 for a database with no schema yet."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def _check(conn: Any, label: str, *, read_only: bool) -> None:
    """Refuse, before writing anything, a database that is not ours, or not this bot's."""
    version = await schema_version(conn)
    if version == 0 and await conn.fetchval(
        "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
    ):
        raise DatabaseRefused(
            f"{label} holds tables but is not a Bonken database (it has no schema_version "
            "table); point BONKEN_DATABASE at another database"
        )
    if version > LATEST:
        raise DatabaseRefused(
            f"{label} has schema version {version}, newer than this bot knows ({LATEST}); "
            "run a newer bot or restore an older database"
        )
    if read_only and version < LATEST:
        state = "empty" if version == 0 else f"at schema version {version}, older than {LATEST}"
        raise DatabaseRefused(f"{label} is {state}; the bot creates or upgrades it when it starts")
    if not read_only and await conn.fetchval("SHOW transaction_read_only") == "on":
        raise DatabaseRefused(
            f"{label} only allows reading (a standby server?); point BONKEN_DATABASE at the primary"
        )


async def migrate(conn: Any, target: int = LATEST) -> list[int]:
    """Apply the migrations after the database's version up to ``target``; their numbers.

    Each runs in its own transaction with the row that records it. The caller holds the
    advisory lock of migrating, so a process that waited for another's migration finds it
    applied and does not run it twice.
    """
    applied: list[int] = []
    while True:
        async with conn.transaction():
            current = await schema_version(conn)
            pending = [m for m in MIGRATIONS if current < m.version <= target]
            if not pending:
                return applied
            migration = pending[0]
            for statement in migration.postgres_statements:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)",
                migration.version,
                now_ms(),
            )
        applied.append(migration.version)
