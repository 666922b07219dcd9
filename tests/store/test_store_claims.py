"""Table claims: a process drives only the tables it holds, and its writes are fenced.

A second bot process is played by a second ``Store`` on the same database with its own
owner id; whether an owner is alive is the backend's answer, given here by the test.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.engine import Match, Play
from bot.store import ClaimLost, Conflict, Store, TableStatus, open_store
from bot.store.claims import CLAIM
from bot.store.migrations import migrate
from tests.store.store_helpers import NAMES, Liveness, other_process, play, seated_table


async def driven(store: Store, match_id: int) -> list[int | None]:
    rows = await store.db.write_one(
        "SELECT driver FROM actions WHERE match_id = ? ORDER BY seq", (match_id,)
    )
    return [row["driver"] for row in rows]


async def test_a_new_table_is_claimed_by_the_process_that_opens_it(store: Store) -> None:
    table = await seated_table(store)
    assert await store.claims.holder(table.table_id) == store.claims.owner
    assert await store.claims.claim(table.table_id)  # ours already


async def test_a_claim_held_by_a_live_process_is_refused(store: Store) -> None:
    table = await seated_table(store)
    other = other_process(store, 7 << 40, Liveness(store.claims.owner))
    assert not await other.claims.claim(table.table_id)
    assert await store.claims.holder(table.table_id) == store.claims.owner


async def test_the_old_owner_s_writes_stop_once_its_table_is_taken_over(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    match = await play(store, info.match_id, random.Random(3), deals=1)
    assert set(await driven(store, info.match_id)) == {store.claims.owner}
    stored = await store.matches.get_match(info.match_id)

    new = other_process(store, 9 << 40, Liveness())  # the first owner has died
    assert await new.claims.claim(table.table_id)
    assert await store.claims.holder(table.table_id) == new.claims.owner

    # The old process cannot start the next deal, act, or finish: nothing is stored.
    hands = Match(NAMES).deal_random(random.Random(4)).hands
    with pytest.raises(ClaimLost):
        await store.matches.append_deal(info.match_id, 1, hands)
    with pytest.raises(ClaimLost):
        await store.matches.append_action(info.match_id, stored.actions, 0, Play(hands[0][0]))
    with pytest.raises(ClaimLost):
        await store.matches.finish_match(info.match_id)
    assert (await store.matches.get_match(info.match_id)).actions == stored.actions
    # The new owner goes on from the same record, and the log says who stored what.
    await play(new, info.match_id, random.Random(5), deals=2, match=match)
    drivers = await driven(store, info.match_id)
    assert set(drivers[: stored.actions]) == {store.claims.owner}
    assert set(drivers[stored.actions :]) == {new.claims.owner}


async def test_two_processes_taking_over_one_dead_owner_s_table_one_wins(store: Store) -> None:
    table = await seated_table(store)
    dead = store.claims.owner
    first = other_process(store, 11 << 40, Liveness())
    second = other_process(store, 12 << 40, Liveness(first.claims.owner))
    assert await first.claims.claim(table.table_id)
    assert not await second.claims.claim(table.table_id)  # the winner is alive
    assert await store.claims.holder(table.table_id) not in (dead, second.claims.owner)


async def test_a_takeover_only_replaces_the_owner_that_was_found_dead(store: Store) -> None:
    """The claim is a compare-and-set: if the holder changed since it was looked up (a
    process that won the race meanwhile), the stale takeover writes nothing."""
    table = await seated_table(store)
    winner = other_process(store, 13 << 40, Liveness())
    assert await winner.claims.claim(table.table_id)
    rows = await store.db.write_one(
        CLAIM,
        (table.table_id, 14 << 40, 0, store.claims.owner),  # the holder it saw die
    )
    assert rows == []
    assert await store.claims.holder(table.table_id) == winner.claims.owner


async def test_a_closed_table_has_no_claim_and_refuses_writes(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    await store.matches.cancel_match(info.match_id)
    await store.tables.update_table(table.table_id, status=TableStatus.CANCELLED)
    assert await store.claims.holder(table.table_id) is None
    hands = Match(NAMES).deal_random(random.Random(1)).hands
    with pytest.raises(Conflict, match="not in play") as refused:
        await store.matches.append_deal(info.match_id, 0, hands)
    assert not isinstance(refused.value, ClaimLost)


async def test_starting_a_match_needs_the_claim(store: Store) -> None:
    table = await seated_table(store)
    new = other_process(store, 15 << 40, Liveness())
    assert await new.claims.claim(table.table_id)
    with pytest.raises(ClaimLost):
        await store.matches.create_match(table.table_id, NAMES)


async def test_stopping_gives_the_claims_up(store: Store) -> None:
    mine = await seated_table(store, channel_id=10)
    new = other_process(store, 16 << 40, Liveness())
    theirs = await new.tables.create_table(1, 11, host_id=1)
    await store.claims.release_all()
    assert await store.claims.holder(mine.table_id) is None
    assert await store.claims.holder(theirs.table_id) == new.claims.owner


async def test_reopening_a_sqlite_file_adopts_every_claim(tmp_path: Path) -> None:
    """One process holds a SQLite file, so the claims of the last one are its own now."""
    path = tmp_path / "bonken.sqlite3"
    async with await open_store(path) as first:
        table = await seated_table(first)
        info = await first.matches.create_match(table.table_id, NAMES)
        old_owner = first.claims.owner
    async with await open_store(path) as second:
        assert second.claims.owner != old_owner
        assert await second.claims.holder(table.table_id) == second.claims.owner
        await play(second, info.match_id, random.Random(2), deals=1)


async def test_tables_open_at_the_upgrade_get_a_claim_no_process_holds(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=10)
    conn.execute(
        "INSERT INTO tables (table_id, guild_id, channel_id, host_id, status, turn_seconds, "
        "computer_level, created_at, updated_at) VALUES "
        "(1, 1, 10, 1, 'playing', 60, 'easy', 0, 5), (2, 1, 11, 1, 'finished', 60, 'easy', 0, 5)"
    )
    migrate(conn)
    assert conn.execute("SELECT table_id, owner, claimed_at FROM table_claims").fetchall() == [
        (1, 0, 5)
    ]
    conn.close()
    async with await open_store(path) as store:
        assert await store.claims.holder(1) == store.claims.owner
