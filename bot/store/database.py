"""The store's one way to the database, whichever it is: a session of statements, and the
database that hands out sessions (a consistent read, a transaction, one write).

Two implementations: :mod:`bot.store.sqlite` (one file, one connection, one bot process)
and :mod:`bot.store.postgres` (a server shared by several bot processes, a connection
pool). The store's modules see only these classes and the session's :class:`Dialect`.

Both keep the same promises. Every acknowledged action is one committed transaction before
the call returns. A broken constraint (a key, a check, a trigger's refusal) raises
:class:`~bot.store.errors.ConstraintFailed`; any other failure of the database raises
:class:`~bot.store.errors.StorageFailed`, after which nothing of the failed call is stored
and the database stays usable. Nothing of the database driver leaves this layer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from .dialect import Dialect
from .rows import Row

Params = Sequence[Any]
"""A statement's parameters, or the values of one row to insert, in column order."""


class Session(ABC):
    """Statements with ``?`` placeholders, inside a read or a transaction of a database.

    Rows come back read by column name (:class:`~bot.store.rows.Row`); a query names
    every column it reads (``AS`` for an expression).
    """

    dialect: Dialect

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    @abstractmethod
    async def scalar(self, sql: str, params: Params = ()) -> Any:
        """The one column of the first row (for counts and single lookups), or None."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...

    @abstractmethod
    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Params]) -> None:
        """Insert many rows at once, the fastest way the database has (bulk loads only)."""

    @abstractmethod
    async def ids_taken(self, table: str, column: str) -> None:
        """Rows were inserted with explicit ids: let the next generated id follow them."""

    @abstractmethod
    async def engine_problems(self) -> list[str]:
        """What the database's own checks find wrong (damaged pages, dangling keys)."""

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> None:
        await self.fetchall(sql, params)


class Database(ABC):
    """An open database: consistent reads, transactions, single writes; closed at the end."""

    dialect: Dialect
    label: str
    """What to call it in messages (a path, or a URL without its password)."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Session]:
        """A consistent set of reads: every statement sees the same moment."""

    @abstractmethod
    def writing(self) -> AbstractAsyncContextManager[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        """One statement as its own transaction, committed when this returns."""

    @abstractmethod
    async def hold_owner(self, owner: int) -> None:
        """Make this process the living owner ``owner`` of table claims until it closes
        (:mod:`bot.store.claims`), so :meth:`alive` answers for it in every process."""

    @abstractmethod
    async def alive(self, session: Session, owner: int) -> bool:
        """Whether the process that holds claims as ``owner`` still runs."""

    @abstractmethod
    async def close(self) -> None: ...
