"""What the front end delivered: the channel's last line and the hand messages' links."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.store import ConstraintFailed, HandLink, Store, open_store
from bot.ui.lines import END_STEP, SCORE_STEP
from tests.store.migration_helpers import schema_1_file
from tests.store.store_helpers import finished_match


def link(table_id: int, user_id: int, token: str, expires_at: float) -> HandLink:
    """A hand message's link, from one application (its id matters to no test here)."""
    return HandLink(
        table_id=table_id, user_id=user_id, application_id=7, token=token, expires_at=expires_at
    )


async def test_the_last_line_posted_is_kept_per_table(store: Store) -> None:
    one = await store.tables.create_table(1, 10, 100)
    two = await store.tables.create_table(1, 11, 100)
    assert await store.delivery.last_posted(one.table_id) is None
    await store.delivery.set_posted(one.table_id, 1, 0)
    await store.delivery.set_posted(one.table_id, 1, SCORE_STEP)
    await store.delivery.set_posted(two.table_id, 2, 5)
    assert await store.delivery.last_posted(one.table_id) == (1, SCORE_STEP)
    assert await store.delivery.last_posted(two.table_id) == (2, 5)


async def test_any_step_the_presenter_numbers_is_kept_but_no_negative_one(store: Store) -> None:
    """How many lines a deal has, and in which order, is the presenter's business: the
    store keeps a step past the score line's too. A negative deal or step is no place in
    any order, and is refused with nothing changed."""
    table = await store.tables.create_table(1, 10, 100)
    await store.delivery.set_posted(table.table_id, 2, SCORE_STEP + 10)
    assert await store.delivery.last_posted(table.table_id) == (2, SCORE_STEP + 10)
    for deal, step in ((-1, 0), (3, -1)):
        with pytest.raises(ConstraintFailed) as refused:
            await store.delivery.set_posted(table.table_id, deal, step)
        assert refused.value.kind == "check"
    assert await store.delivery.last_posted(table.table_id) == (2, SCORE_STEP + 10)


async def test_hand_links_are_kept_replaced_and_never_returned_expired(store: Store) -> None:
    table = await store.tables.create_table(1, 10, 100)
    tid, now = table.table_id, time.time()
    await store.delivery.keep_hand(link(tid, 100, "old-token", now + 600))
    await store.delivery.keep_hand(link(tid, 100, "new-token", now + 840))
    await store.delivery.keep_hand(link(tid, 101, "expired-token", now - 1))
    other = await store.tables.create_table(1, 11, 100)
    await store.delivery.keep_hand(link(other.table_id, 102, "expired", now - 1))
    await store.delivery.keep_hand(link(other.table_id, 103, "live", now + 60))
    async with store.db.reading() as session:  # expired ones go at the next keep, too
        assert await session.scalar("SELECT user_id FROM hand_links ORDER BY 1") == 100
        assert await session.scalar("SELECT count(*) FROM hand_links") == 2
    (kept,) = await store.delivery.hand_links(tid)
    assert (kept.table_id, kept.user_id, kept.application_id) == (tid, 100, 7)
    assert kept.token == "new-token"
    assert abs(kept.expires_at - (now + 840)) < 0.01
    assert "new-token" not in repr(kept)  # a credential never reaches a log line
    await store.delivery.forget_hand(tid, 100)
    assert await store.delivery.hand_links(tid) == []


async def test_forgetting_a_tables_hands_forgets_only_that_table(store: Store) -> None:
    one = await store.tables.create_table(1, 10, 100)
    two = await store.tables.create_table(1, 11, 100)
    later = time.time() + 600
    for table in (one, two):
        await store.delivery.keep_hand(link(table.table_id, 100, "t", later))
        await store.delivery.keep_hand(link(table.table_id, 101, "u", later))
    await store.delivery.forget_hand(one.table_id)
    assert await store.delivery.hand_links(one.table_id) == []
    assert [kept.user_id for kept in await store.delivery.hand_links(two.table_id)] == [100, 101]


async def test_a_table_in_play_at_the_upgrade_counts_as_fully_shown(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    schema_1_file(path)  # table 7 plays its third deal
    async with await open_store(path) as store:
        assert await store.delivery.last_posted(7) == (3, SCORE_STEP)
        assert await store.integrity_problems() == []


async def test_a_finished_match_whose_end_was_not_posted_is_found_until_it_is(
    store: Store,
) -> None:
    """The finished tables whose last line is before the end's step: the first start that
    asks decides from when (an older match's end was shown by an older bot); a table
    still playing, one whose end was posted and one that ended too long ago are not."""
    hour = 3600 * 1000
    await finished_match(store, 1, channel_id=10)  # ended before any start asked
    await asyncio.sleep(0.01)  # (the store's times are in milliseconds)
    assert await store.delivery.unshown_ends(END_STEP, hour) == []
    shown_id, _ = await finished_match(store, 2, channel_id=11)
    unshown_id, _ = await finished_match(store, 3, channel_id=12)
    never_id, _ = await finished_match(store, 4, channel_id=13)  # nothing of it posted
    await store.tables.create_table(1, 14, 100)  # a table in its lobby
    info = {m: await store.matches.get_match(m) for m in (shown_id, unshown_id)}
    await store.delivery.set_posted(info[shown_id].table_id, 11, END_STEP)
    await store.delivery.set_posted(info[unshown_id].table_id, 11, SCORE_STEP)
    found = await store.delivery.unshown_ends(END_STEP, hour)
    assert (info[unshown_id].table_id, unshown_id) in found
    assert [match for _, match in found] == [unshown_id, never_id]
    assert await store.delivery.unshown_ends(END_STEP, -hour) == []  # all ended too long ago
