"""The PostgreSQL copies the store's tests run on: a copy given back is used again only
as the template was (no row, sequences from the start), and one whose schema its test
changed is never handed out again (``tests/postgres_server.py``)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.store import open_store
from tests.postgres_server import PostgresServer, TemplateCopies

_templates = (f"copies_test_{n}" for n in itertools.count())


async def _migrate(url: str) -> None:
    await (await open_store(url)).close()


@pytest.fixture
async def copies(postgres_server: PostgresServer) -> AsyncIterator[TemplateCopies]:
    made = TemplateCopies(postgres_server, next(_templates), _migrate, ahead=1)
    yield made
    await asyncio.to_thread(made.close)


async def _take(copies: TemplateCopies) -> str:
    return await asyncio.to_thread(copies.take)


async def _season(url: str, guild: int) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(
            await conn.fetchval(
                "INSERT INTO seasons (guild_id, name, started_at) VALUES ($1, 's', 0) "
                "RETURNING season_id",
                guild,
            )
        )
    finally:
        await conn.close()


async def test_a_copy_given_back_comes_back_without_rows_and_its_ids_from_the_start(
    postgres_server: PostgresServer, copies: TemplateCopies
) -> None:
    name = await _take(copies)
    url = postgres_server.url(name)
    assert [await _season(url, 1), await _season(url, 2)] == [1, 2]
    left_open = await asyncpg.connect(url)  # a test that forgot a connection
    copies.give_back(name)
    taken = {await _take(copies), await _take(copies)}
    assert name in taken, "the copy given back is used again"
    assert await _season(url, 1) == 1, "no row and the ids from the start"
    assert left_open.is_closed() or await _closed_soon(left_open)
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM schema_version") > 0
    finally:
        await conn.close()


async def test_a_copy_whose_schema_changed_is_dropped_not_used_again(
    postgres_server: PostgresServer, copies: TemplateCopies
) -> None:
    name = await _take(copies)
    conn = await asyncpg.connect(postgres_server.url(name))
    try:
        await conn.execute("ALTER TABLE seasons DROP CONSTRAINT seasons_guild_id_name_key")
    finally:
        await conn.close()
    copies.give_back(name)
    taken = {await _take(copies), await _take(copies)}
    assert name not in taken
    admin = await asyncpg.connect(postgres_server.url())
    try:
        names = {row["datname"] for row in await admin.fetch("SELECT datname FROM pg_database")}
    finally:
        await admin.close()
    assert name not in names


async def _closed_soon(conn: asyncpg.Connection) -> bool:
    """Whether the server ended ``conn`` (a query on it fails)."""
    try:
        await conn.fetchval("SELECT 1")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
        return True
    finally:
        await conn.close()
    return False
