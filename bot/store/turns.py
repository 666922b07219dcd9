"""Turns on one connection: many reads at once, or one write alone.

The SQLite file's one connection serves every read and every transaction of the bot. A
transaction's statements go to it over several trips, and a read between two of them
would see what is not committed yet; so a write waits until no read runs, and runs alone.
Reads need not wait for each other: with the file held by this process alone
(:mod:`bot.store.lock`) nothing changes it while reads run, so every statement of every
read sees the same moment.

Neither side starves the other: once a write waits, reads that come later wait behind
it; when a write ends, every read that waited then goes before the next write.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager


class Turns:
    """The read and write turns of one connection (see the module)."""

    def __init__(self) -> None:
        self._reading = 0
        self._writing = False
        self._readers: list[asyncio.Future[None]] = []
        self._writers: deque[asyncio.Future[None]] = deque()

    def read(self) -> AbstractAsyncContextManager[None]:
        """A read's turn: beside other reads, never beside a write."""
        return _ReadTurn(self)

    async def take_read(self) -> None:
        """Wait for a read's turn and take it (:meth:`read`'s start)."""
        if self._writing or self._writers or self._readers:
            await self._wait(self._readers)
        else:
            self._reading += 1

    def end_read(self) -> None:
        """Give back a read's turn taken by :meth:`take_read`."""
        self._reading -= 1
        self._next(after_write=False)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[None]:
        """A write's turn: alone."""
        if self._writing or self._reading or self._writers or self._readers:
            await self._wait(self._writers)
        else:
            self._writing = True
        try:
            yield
        finally:
            self._writing = False
            self._next(after_write=True)

    async def _wait(self, queue: list[asyncio.Future[None]] | deque[asyncio.Future[None]]) -> None:
        """Wait in ``queue`` until :meth:`_next` gives the turn (and counts it as taken).
        Cancelled once given, the turn is handed on."""
        turn = asyncio.get_running_loop().create_future()
        queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given, then cancelled: hand it on
                if queue is self._readers:
                    self._reading -= 1
                else:
                    self._writing = False
            elif turn in queue:
                queue.remove(turn)
            self._next(after_write=queue is self._writers)
            raise

    def _next(self, *, after_write: bool) -> None:
        """Give the turn on: after a write, to every read waiting (they go before the next
        write); after the last read, to the write waiting first; reads that wait with no
        write before them join the reads running."""
        if self._writing:
            return
        if self._readers and (after_write or not self._writers):
            waiting, self._readers = self._readers, []
            for turn in waiting:
                if not turn.done():  # not cancelled while it waited
                    self._reading += 1
                    turn.set_result(None)
        if self._reading:
            return
        while self._writers:
            turn = self._writers.popleft()
            if not turn.done():
                self._writing = True
                turn.set_result(None)
                return
        if self._readers:
            self._next(after_write=True)


class _ReadTurn:
    """:meth:`Turns.read` as a plain context manager: a page's reads take some ten turns,
    and a generator's context manager costs several times as much to enter and leave."""

    __slots__ = ("_turns",)

    def __init__(self, turns: Turns) -> None:
        self._turns = turns

    async def __aenter__(self) -> None:
        await self._turns.take_read()

    async def __aexit__(self, *exc: object) -> None:
        self._turns.end_read()
