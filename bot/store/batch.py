"""Writes that wait together go together: one transaction for every request queued
while the one before was being written (a group commit).

A busy store spends most of a small write on its round trips (the transaction's begin,
its statements and its commit, each a trip to the database's thread or server), not on
the rows. When many people click at once, their writes queue behind each other anyway;
written as one transaction, the trips are paid once for all of them. Each request still
returns only once its rows are committed, and gets its own answer: a request the
transaction's reads refuse (a stale move, say) is refused alone while the others are
written. If the whole transaction fails (a full disk, a constraint only the database
saw), each of its requests is written again alone, in a transaction of its own, so
every request ends exactly as if it had been written on its own: stored, or refused
with nothing of it stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .database import Database, Session
from .errors import StoreError

Request = TypeVar("Request")

WriteTogether = Callable[[Session, Sequence[Request]], Awaitable[list[StoreError | None]]]
"""Writes the requests in the session's transaction; for each, None (written) or the
refusal it gets (nothing of that request written)."""


@dataclass
class _Waiting(Generic[Request]):
    request: Request
    answer: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Batched(Generic[Request]):
    """Requests written by ``write`` in one transaction per batch; call it with one."""

    def __init__(self, db: Database, write: WriteTogether[Request]) -> None:
        self._db = db
        self._write = write
        self._queue: list[_Waiting[Request]] = []
        self._writer: asyncio.Task[None] | None = None
        self.transactions = 0
        """Transactions written so far (a batch's, or a request's alone after a failed
        batch): how much the batching saved is requests over transactions."""

    async def __call__(self, request: Request) -> None:
        """Write ``request``, with whatever else is waiting; return once it is committed,
        or raise its refusal (a :class:`StoreError`), nothing of it stored."""
        waiting = _Waiting(request)
        self._queue.append(waiting)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await waiting.answer

    async def _write_queued(self) -> None:
        batch: list[_Waiting[Request]] = []
        try:
            while self._queue:
                batch = [w for w in self._queue if not w.answer.done()]  # a caller gone: skipped
                self._queue = []
                if batch:
                    for waiting, answer in zip(batch, await self._answers(batch), strict=True):
                        if waiting.answer.done():
                            continue
                        if answer is None:
                            waiting.answer.set_result(None)
                        else:
                            waiting.answer.set_exception(answer)
        except BaseException:  # cancelled with the loop: nobody is left waiting forever
            for waiting in [*batch, *self._queue]:
                waiting.answer.cancel()
            raise

    async def _answers(self, batch: Sequence[_Waiting[Request]]) -> list[Exception | None]:
        """Each request's answer: the batch in one transaction, or, if that fails, each
        request alone."""
        try:
            return list(await self._transaction(batch))
        except StoreError as error:
            if len(batch) == 1:
                return [error]
        except Exception as error:  # a mistake of ours: each caller sees it, none is lost
            return [error] * len(batch)
        return [await self._alone(waiting) for waiting in batch]

    async def _transaction(self, batch: Sequence[_Waiting[Request]]) -> list[StoreError | None]:
        self.transactions += 1
        async with self._db.writing() as session:
            return await self._write(session, [waiting.request for waiting in batch])

    async def _alone(self, waiting: _Waiting[Request]) -> Exception | None:
        try:
            [answer] = await self._transaction([waiting])
        except Exception as error:
            return error
        return answer
