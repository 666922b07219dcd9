"""A full disk, for real: SQLite's own SQLITE_FULL, made by capping the file's page count.

Every failure must leave the store as a :class:`StorageFailed` (a ``StoreError``), the
failed transaction rolled back, and the connection usable once there is room again.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import Match
from bot.store import AlreadyStored, StorageFailed, Store
from tests.store.store_helpers import NAMES, actions_taken, fill_disk, free_disk, seated_table

# A full disk is made with SQLite's max_page_count; PostgreSQL has no such switch.
pytestmark = pytest.mark.sqlite_only


async def test_a_failed_transaction_is_rolled_back_and_the_connection_stays_usable(
    store: Store,
) -> None:
    await store.db.write_one("CREATE TABLE scratch (x)")
    await fill_disk(store)
    with pytest.raises(StorageFailed, match="database or disk is full"):
        async with store.db.writing() as session:
            await session.execute("INSERT INTO scratch VALUES ('fits')")
            await session.execute("INSERT INTO scratch VALUES (?)", ("x" * 100_000,))
    assert not store.db._conn.in_transaction
    async with store.db.reading() as session:
        assert await session.scalar("SELECT count(*) FROM scratch") == 0  # 'fits' is undone
    await free_disk(store)
    async with store.db.writing() as session:
        await session.execute("INSERT INTO scratch VALUES ('fits')")
        await session.execute("INSERT INTO scratch VALUES (?)", ("x" * 100_000,))
    async with store.db.reading() as session:
        assert await session.scalar("SELECT count(*) FROM scratch") == 2
    assert await store.integrity_problems() == []


async def test_an_action_on_a_full_disk_is_a_storage_failure_and_is_stored_once_there_is_room(
    store: Store,
) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES, seed=1)
    match, rng = Match(NAMES), random.Random(3)
    for _ in range(2000):  # the actions' page fills after a hundred or so
        if match.to_act is None:  # only the actions meet the full disk here
            await free_disk(store)
            deal = match.deal_random(rng)
            await store.matches.append_deal(info.match_id, len(match.deals) - 1, deal.hands)
            await fill_disk(store)
            continue
        seq, seat, action = actions_taken(match), match.to_act, rng.choice(match.legal_actions())
        try:
            await store.matches.append_action(info.match_id, seq, seat, action)
        except StorageFailed as error:
            message = str(error)
            break
        match.apply(action)
    else:
        raise AssertionError("the disk never filled")
    assert "database or disk is full" in message and "bonken.sqlite3" in message
    assert (await store.matches.get_match(info.match_id)).actions == seq  # nothing stored
    await free_disk(store)
    await store.matches.append_action(info.match_id, seq, seat, action)
    with pytest.raises(AlreadyStored):  # the primary key still means what it meant
        await store.matches.append_action(info.match_id, seq, seat, action)
    assert (await store.matches.get_match(info.match_id)).actions == seq + 1
    assert await store.integrity_problems() == []
