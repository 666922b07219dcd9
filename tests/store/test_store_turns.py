"""The connection's turns (bot.store.turns): reads together, a write alone, neither
starved, and a cancelled wait hands its turn on."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager

from bot.store.turns import Turns


class Holder:
    """A task that takes a turn, notes when it has it, and keeps it until released."""

    def __init__(self, name: str, turn: AbstractAsyncContextManager[None], log: list[str]) -> None:
        self.name = name
        self.release = asyncio.Event()
        self.task = asyncio.create_task(self._hold(turn, log))

    async def _hold(self, turn: AbstractAsyncContextManager[None], log: list[str]) -> None:
        async with turn:
            log.append(self.name)
            await self.release.wait()

    async def done(self) -> None:
        self.release.set()
        await self.task


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_reads_run_together() -> None:
    turns, log = Turns(), []
    readers = [Holder(f"read {n}", turns.read(), log) for n in range(3)]
    await settle()
    assert log == ["read 0", "read 1", "read 2"]  # none waited for another
    for reader in readers:
        await reader.done()


async def test_a_write_waits_for_the_reads_running_and_runs_alone() -> None:
    turns, log = Turns(), []
    first, second = Holder("read 1", turns.read(), log), Holder("read 2", turns.read(), log)
    await settle()
    writer = Holder("write", turns.write(), log)
    await settle()
    assert log == ["read 1", "read 2"]
    await first.done()
    await settle()
    assert log == ["read 1", "read 2"]  # a read still runs
    await second.done()
    await settle()
    assert log == ["read 1", "read 2", "write"]
    late = Holder("late read", turns.read(), log)
    await settle()
    assert log[-1] == "write"  # no read beside a write
    await writer.done()
    await settle()
    assert log[-1] == "late read"
    await late.done()


async def test_a_read_that_comes_after_a_waiting_write_waits_behind_it() -> None:
    turns, log = Turns(), []
    reader = Holder("read 1", turns.read(), log)
    await settle()
    writer = Holder("write", turns.write(), log)
    await settle()
    late = Holder("read 2", turns.read(), log)  # reads run, but a write waits: not beside them
    await settle()
    assert log == ["read 1"]
    await reader.done()
    await settle()
    assert log == ["read 1", "write"]
    await writer.done()
    await settle()
    assert log == ["read 1", "write", "read 2"]
    await late.done()


async def test_after_a_write_every_waiting_read_goes_before_the_next_write() -> None:
    turns, log = Turns(), []
    first = Holder("write 1", turns.write(), log)
    await settle()
    reads = [Holder(f"read {n}", turns.read(), log) for n in range(2)]
    second = Holder("write 2", turns.write(), log)
    await settle()
    assert log == ["write 1"]
    await first.done()
    await settle()
    assert log == ["write 1", "read 0", "read 1"]  # together, before the second write
    for read in reads:
        await read.done()
    await settle()
    assert log[-1] == "write 2"
    await second.done()


async def test_writes_take_turns_one_at_a_time_in_order() -> None:
    turns, log = Turns(), []
    writers = [Holder(f"write {n}", turns.write(), log) for n in range(3)]
    for n, writer in enumerate(writers):
        await settle()
        assert log == [f"write {k}" for k in range(n + 1)]
        await writer.done()


async def test_a_write_cancelled_while_it_waits_lets_the_reads_behind_it_go() -> None:
    turns, log = Turns(), []
    reader = Holder("read 1", turns.read(), log)
    await settle()
    writer = Holder("write", turns.write(), log)
    await settle()
    late = Holder("read 2", turns.read(), log)
    await settle()
    assert log == ["read 1"]
    writer.task.cancel()
    await settle()
    assert log == ["read 1", "read 2"]  # beside the read still running
    assert writer.task.cancelled()
    await reader.done()
    await late.done()
    after = Holder("write after", turns.write(), log)
    await settle()
    assert log[-1] == "write after"  # nothing is left counted as running
    await after.done()


async def test_a_turn_given_to_a_cancelled_waiter_is_handed_on() -> None:
    turns, log = Turns(), []
    async with turns.write():
        second = Holder("write 2", turns.write(), log)
        third = Holder("write 3", turns.write(), log)
        await settle()
        assert log == []
    second.task.cancel()  # given the turn as the block ended, before it could run
    await settle()
    assert second.task.cancelled()
    assert log == ["write 3"]
    await third.done()
