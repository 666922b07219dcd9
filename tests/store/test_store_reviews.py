"""Reviews of finished matches, on both backends: asked for once, computed a deal at a
time (kept as they finish, so a restart resumes), stored whole when done."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import ReviewStatus, Store, StoreError, open_store
from bot.store.migrations import migrate
from tests.store.store_helpers import finished_match

SETTINGS = {"seed": 1, "work": 100, "batches": 2}


async def test_a_review_is_queued_once_then_runs_a_deal_at_a_time_and_is_stored_whole(
    store: Store,
) -> None:
    match_id, _ = await finished_match(store, seed=3)
    state, queued = await store.reviews.request(match_id, 2, 1, SETTINGS)
    assert queued and state.status is ReviewStatus.QUEUED
    assert (state.seat, state.guild_id, state.settings, state.deals_done) == (2, 1, SETTINGS, 0)
    again, queued = await store.reviews.request(match_id, 2, 1, {"seed": 9})
    assert not queued and again == state  # asked for again: the same review, not a second

    await store.reviews.mark_running(match_id, 2)
    await store.reviews.add_deal(match_id, 2, 1, {"deal": 1})
    await store.reviews.add_deal(match_id, 2, 0, {"deal": 0})
    await store.reviews.add_deal(match_id, 2, 0, {"deal": 0, "again": True})  # kept the first
    assert await store.reviews.deals(match_id, 2) == [{"deal": 0}, {"deal": 1}]
    running = await store.reviews.get(match_id, 2)
    assert running is not None
    assert (running.status, running.deals_done, running.review) == (ReviewStatus.RUNNING, 2, None)
    assert [(s.match_id, s.seat) for s in await store.reviews.unfinished()] == [(match_id, 2)]

    await store.reviews.finish(match_id, 2, {"lost": 12.5})
    done = await store.reviews.get(match_id, 2)
    assert done is not None and done.status is ReviewStatus.DONE
    assert done.review == {"lost": 12.5}
    await store.reviews.mark_queued(match_id, 2)  # a done review stays done
    assert (await store.reviews.get(match_id, 2)).status is ReviewStatus.DONE  # type: ignore[union-attr]
    assert await store.reviews.unfinished() == []
    assert await store.reviews.get(match_id, 1) is None
    assert await store.integrity_problems() == []


async def test_restart_order_is_the_order_reviews_were_asked_for(store: Store) -> None:
    first, _ = await finished_match(store, seed=4)
    second, _ = await finished_match(store, seed=5, channel_id=11)
    await store.reviews.request(second, 0, 1, SETTINGS)
    await asyncio.sleep(0.01)  # a later millisecond
    await store.reviews.request(first, 3, 1, SETTINGS)
    await store.reviews.mark_running(first, 3)
    await store.reviews.mark_queued(first, 3)
    unfinished = await store.reviews.unfinished()
    assert [(s.match_id, s.seat, s.status) for s in unfinished] == [
        (second, 0, ReviewStatus.QUEUED),
        (first, 3, ReviewStatus.QUEUED),
    ]


async def test_a_review_of_no_match_or_no_seat_is_refused(store: Store) -> None:
    with pytest.raises(StoreError):
        await store.reviews.request(999, 0, 1, SETTINGS)
    match_id, _ = await finished_match(store, seed=6)
    with pytest.raises(StoreError):
        await store.reviews.request(match_id, 4, 1, SETTINGS)
    with pytest.raises(StoreError):  # a deal of a review never asked for
        await store.reviews.add_deal(match_id, 0, 0, {})
    assert await store.reviews.unfinished() == []


async def test_migration_14_adds_the_reviews_to_a_file_at_13(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn, target=13)
        assert migrate(conn, target=14) == [14]
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):  # done means a review
            conn.execute(
                "INSERT INTO reviews (match_id, seat, guild_id, status, settings, requested_at, "
                "updated_at) VALUES (1, 0, 1, 'done', '{}', 0, 0)"
            )
    async with await open_store(path) as store:
        match_id, _ = await finished_match(store, seed=10)
        state, queued = await store.reviews.request(match_id, 0, 1, SETTINGS)
        assert queued and state.status is ReviewStatus.QUEUED
        assert await store.integrity_problems() == []
