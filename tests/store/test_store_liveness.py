"""The process lock's connection lost while the bot runs: taken again, however long the
server is away, and never after the bot let it go (PostgreSQL's real case is in
test_store_claims_postgres.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.store import liveness
from bot.store.errors import DatabaseRefused
from bot.store.liveness import OwnerLock


class Connection:
    """What OwnerLock uses of an asyncpg connection: its termination listener."""

    def __init__(self) -> None:
        self.closed = False
        self._listeners: list[Callable[[Any], None]] = []

    def add_termination_listener(self, listener: Callable[[Any], None]) -> None:
        self._listeners.append(listener)

    def is_closed(self) -> bool:
        return self.closed

    async def close(self) -> None:
        self.closed = True

    def drop(self) -> None:
        """The server ends the connection: asyncpg calls the listeners soon after."""
        self.closed = True
        loop = asyncio.get_running_loop()
        for listener in self._listeners:
            loop.call_soon(listener, self)


class Server:
    """Hands out locked connections, or refuses while it is "down"."""

    def __init__(self) -> None:
        self.down_for = 0  # refusals left
        self.connections: list[Connection] = []

    async def connect(self) -> Connection:
        if self.down_for:
            self.down_for -= 1
            raise DatabaseRefused("cannot reach the PostgreSQL server")
        self.connections.append(Connection())
        return self.connections[-1]


async def settle(condition: Callable[[], bool]) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never settled")


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(liveness, "RETRY_FIRST", 0.0)


async def test_a_refused_first_lock_stops_the_start() -> None:
    server = Server()
    server.down_for = 1
    with pytest.raises(DatabaseRefused):
        await OwnerLock(server.connect, "db").take()


async def test_a_dropped_lock_is_taken_again_once_the_server_answers() -> None:
    server = Server()
    lock = OwnerLock(server.connect, "db")
    await lock.take()
    server.down_for = 3  # the server restarts: three refused tries, then back
    server.connections[0].drop()
    await settle(lambda: len(server.connections) == 2)
    assert server.down_for == 0
    server.connections[1].drop()  # and again: each loss is noticed
    await settle(lambda: len(server.connections) == 3)
    await lock.release()
    assert server.connections[2].closed


async def test_a_released_lock_is_not_taken_again() -> None:
    server = Server()
    lock = OwnerLock(server.connect, "db")
    await lock.take()
    server.down_for = 10**6
    server.connections[0].drop()
    await asyncio.sleep(0.01)  # retrying while the server is away
    await lock.release()
    server.down_for = 0
    await asyncio.sleep(0.01)
    assert len(server.connections) == 1
