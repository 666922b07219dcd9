"""The statements of the reads running at once, sent to the SQLite connection's thread
together: one trip for all of them.

Each trip to aiosqlite's thread (a queue, the thread's wake-up, the loop's wake-up) costs
a core more than most of the store's statements do. Reads run side by side
(:mod:`bot.store.turns`), so while one trip is under way the statements of the other
reads gather, and go together on the next: a page of a busy web server, or the bot's
many small reads, then pay for a fraction of a trip per statement. The reads themselves
do not change: each statement still waits for its own rows, and sees what it would have
seen alone.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite

from .database import Params

Statement = tuple[str, Params]


class ReadBatch:
    """Sends the statements given to :meth:`fetchall` in trips of as many as are
    waiting (see the module). ``failed`` turns a statement's sqlite3 error into the
    store's."""

    def __init__(
        self, conn: aiosqlite.Connection, failed: Callable[[sqlite3.Error], Exception]
    ) -> None:
        self._conn = conn
        self._failed = failed
        self._waiting: list[tuple[Statement, asyncio.Future[list[sqlite3.Row]]]] = []
        self._trips: asyncio.Task[None] | None = None

    async def fetchall(self, sql: str, params: Params) -> list[sqlite3.Row]:
        """The statement's rows, from the next trip."""
        rows: asyncio.Future[list[sqlite3.Row]] = asyncio.get_running_loop().create_future()
        self._waiting.append(((sql, params), rows))
        if self._trips is None:
            self._trips = asyncio.create_task(self._send())
        return await rows

    async def _send(self) -> None:
        """Trips until no statement waits; started with the first statement that waits
        (after the others the loop runs now have joined it)."""
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    outcomes = await self._conn._execute(_run, self._conn, [s for s, _ in batch])
                except BaseException as error:  # the connection is closed, or the loop ends
                    batch, self._waiting = batch + self._waiting, []
                    for _, rows in batch:
                        _fail(rows, error)
                    if isinstance(error, Exception):
                        continue  # told to each reader: nothing left for this task
                    raise
                for (_, rows), outcome in zip(batch, outcomes, strict=True):
                    if rows.done():  # its reader was cancelled
                        continue
                    if isinstance(outcome, sqlite3.Error):
                        failure = self._failed(outcome)
                        failure.__cause__ = outcome
                        rows.set_exception(failure)
                    else:
                        rows.set_result(outcome)
        finally:
            self._trips = None


def _run(conn: aiosqlite.Connection, statements: Sequence[Statement]) -> list[Any]:
    """On the connection's thread: each statement's rows, or its error.

    aiosqlite runs a function on its thread only for itself (``_execute``, on its
    connection ``_conn``): these two private names are the whole of what this module
    takes from it."""
    outcomes: list[Any] = []
    for sql, params in statements:
        try:
            outcomes.append(conn._conn.execute(sql, params).fetchall())
        except sqlite3.Error as error:
            outcomes.append(error)
    return outcomes


def _fail(rows: asyncio.Future[list[sqlite3.Row]], error: BaseException) -> None:
    """A statement whose trip did not happen: it fails as the trip did."""
    if rows.done():
        return
    if isinstance(error, asyncio.CancelledError):
        rows.cancel()
    else:
        rows.set_exception(error)
