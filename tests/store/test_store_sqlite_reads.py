"""The SQLite file's reads side by side (bot.store.sqlite_batch, bot.store.turns): the
statements of the reads running at once go to the connection's thread in one trip, each
gets its own rows or its own error, and no read sees a transaction that is not committed."""

from __future__ import annotations

import asyncio
from typing import Any

import aiosqlite
import pytest

from bot.store import StorageFailed, Store

pytestmark = pytest.mark.sqlite_only  # PostgreSQL's reads are a pool's connections


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each trip to the connection's thread from now on, as the number of statements it
    carries (1 for a statement sent alone)."""
    sent: list[int] = []
    real = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any) -> Any:
        batched = getattr(fn, "__module__", None) == "bot.store.sqlite_batch"
        sent.append(len(args[1]) if batched else 1)  # (the connection, the statements)
        return await real(self, fn, *args)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return sent


async def test_the_statements_of_reads_running_at_once_go_in_one_trip(
    store: Store, trips: list[int]
) -> None:
    async def read(n: int) -> list[int]:
        async with store.db.reading() as session:
            return [await session.scalar("SELECT ? * ?", (n, k)) for k in (1, 2, 3)]

    results = await asyncio.gather(*(read(n) for n in range(20)))
    assert results == [[n, 2 * n, 3 * n] for n in range(20)]  # each its own rows
    assert trips == [20, 20, 20]  # three statements each: three trips for all twenty


async def test_a_failing_statement_fails_its_own_read_alone(store: Store, trips: list[int]) -> None:
    async def read(sql: str) -> object:
        async with store.db.reading() as session:
            return await session.scalar(sql)

    outcomes = await asyncio.gather(
        read("SELECT 1"),
        read("SELECT x FROM no_such_table"),
        read("SELECT 3"),
        return_exceptions=True,
    )
    assert trips == [3]
    assert outcomes[0] == 1 and outcomes[2] == 3
    assert isinstance(outcomes[1], StorageFailed)
    assert "no such table" in str(outcomes[1])
    async with store.db.reading() as session:  # and the connection goes on
        assert await session.scalar("SELECT 4") == 4


async def test_a_cancelled_read_leaves_the_others_their_rows(store: Store) -> None:
    started = asyncio.Event()

    async def read(n: int) -> int:
        async with store.db.reading() as session:
            started.set()
            return int(await session.scalar("SELECT ?", (n,)))

    tasks = [asyncio.create_task(read(n)) for n in range(3)]
    await started.wait()
    tasks[1].cancel()
    assert await tasks[0] == 0 and await tasks[2] == 2
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    await store.db.write_one("CREATE TABLE after_cancel (x)")  # no turn is left taken


async def test_no_read_sees_a_transaction_before_its_commit(store: Store) -> None:
    await store.db.write_one("CREATE TABLE scratch (x)")
    inserted, go_on = asyncio.Event(), asyncio.Event()

    async def write() -> None:
        async with store.db.writing() as session:
            await session.execute("INSERT INTO scratch VALUES (1)")
            inserted.set()
            await go_on.wait()
            await session.execute("INSERT INTO scratch VALUES (2)")

    async def count() -> int:
        async with store.db.reading() as session:
            return int(await session.scalar("SELECT count(*) FROM scratch"))

    writer = asyncio.create_task(write())
    await inserted.wait()
    reader = asyncio.create_task(count())
    await asyncio.sleep(0.05)
    waited = not reader.done()  # it waits for the write's turn to end
    go_on.set()
    await writer
    assert waited
    assert await reader == 2  # both rows, committed together


async def test_a_write_waits_for_a_read_and_its_statements_see_one_moment(store: Store) -> None:
    await store.db.write_one("CREATE TABLE scratch (x)")
    first_read = asyncio.Event()
    seen: list[int] = []

    async def read() -> None:
        async with store.db.reading() as session:
            seen.append(await session.scalar("SELECT count(*) FROM scratch"))
            first_read.set()
            await asyncio.sleep(0.05)  # the write is asked for meanwhile
            seen.append(await session.scalar("SELECT count(*) FROM scratch"))

    reader = asyncio.create_task(read())
    await first_read.wait()
    await store.db.write_one("INSERT INTO scratch VALUES (1)")
    assert reader.done()  # the write waited for the read to end
    assert seen == [0, 0]
    async with store.db.reading() as session:
        assert await session.scalar("SELECT count(*) FROM scratch") == 1
