"""A bot process's liveness on PostgreSQL: an advisory lock named after its owner id.

The lock lives on a connection of its own, outside the pool, so the server drops it the
moment that connection goes, however the process ended (``kill -9`` included), and
another process may then take its tables over (:mod:`bot.store.claims`).

A connection can also go while the process lives on: the server restarted, an operator
ended the backend, the network between them broke. The lock is gone with it, so the
process looks dead and its tables may be taken. The fenced writes keep that safe (the
old owner's next write is refused and it lets the table go), but a process that stayed
without its lock would lose every table it still drives to the next one that restarts.
So :class:`OwnerLock` notices the loss (asyncpg's termination listener) and takes the
lock again on a new connection, retrying with a growing pause while the server is away.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .errors import DatabaseRefused

log = logging.getLogger(__name__)

RETRY_FIRST = 0.5
RETRY_MOST = 30.0
"""The pause between two tries to take the lock again: doubling from the first to the
most, so a restarting server is found again within moments and a long outage costs one
connection attempt every half minute."""

Connect = Callable[[], Awaitable[Any]]


class OwnerLock:
    """Holds the process's advisory lock for as long as the process runs, taking it again
    on a new connection whenever its connection is lost, until :meth:`release`."""

    def __init__(self, connect: Connect, label: str) -> None:
        """``connect``: a new connection holding the lock, or :class:`DatabaseRefused`
        with the reason there is none."""
        self._connect = connect
        self._label = label
        self._conn: Any = None
        self._retaking: asyncio.Task[None] | None = None

    async def take(self) -> None:
        """Take the lock, or raise :class:`DatabaseRefused` (the bot cannot start)."""
        self._conn = await self._locked_connection()

    async def release(self) -> None:
        """Let the lock go (the bot is stopping): no taking it again after this."""
        if self._retaking is not None:
            self._retaking.cancel()
            self._retaking = None
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()

    async def _locked_connection(self) -> Any:
        conn = await self._connect()
        conn.add_termination_listener(self._lost)
        if conn.is_closed():  # lost before the listener was there to hear it
            raise DatabaseRefused(f"the process lock's connection to {self._label} closed")
        return conn

    def _lost(self, conn: Any) -> None:
        if conn is not self._conn:  # released, or an older connection
            return
        self._conn = None
        log.warning("lost the process lock on %s; taking it again", self._label)
        self._retaking = asyncio.get_running_loop().create_task(self._retake())

    async def _retake(self) -> None:
        pause = RETRY_FIRST
        while True:
            try:
                self._conn = await self._locked_connection()
            except DatabaseRefused as refusal:
                log.warning("%s; trying again in %.1f s", refusal, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)
                continue
            self._retaking = None
            log.warning("took the process lock on %s again", self._label)
            return
