"""Several bot processes on one database: each restores only its own shards' tables and
the tables it can claim, and lets a table go the moment another process takes it over.

A second process is a second service on a second ``Store`` over the same database (its
own owner id); which owners are alive is the test's say.
"""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import Refusal, TableReason
from bot.tables import events as ev
from tests.store.store_helpers import Liveness, other_process
from tests.tables.tables_helpers import ANN, CHANNEL, GUILD, HOST, Harness, make_harness


def second_process(store: Store, owner: int, liveness: Liveness, **options: object) -> Harness:
    """A second bot process's table service on the same database."""
    return make_harness(other_process(store, owner, liveness), **options)


async def test_a_process_restores_only_its_own_guilds_tables(h: Harness) -> None:
    mine = await h.open_with_humans((HOST, ANN), guild=GUILD, channel=CHANNEL)
    theirs = await h.open_with_humans((HOST,), guild=GUILD + 1, channel=CHANNEL + 1)
    await h.service.close()
    shard = second_process(h.store, 21 << 40, Liveness(), owns_guild=lambda guild: guild == GUILD)
    try:
        assert await shard.service.restore() == 1
        assert [t.table_id for t in shard.service.tables()] == [mine.table_id]
        assert await shard.store.claims.holder(mine.table_id) == shard.store.claims.owner
        assert await shard.store.claims.holder(theirs.table_id) == h.store.claims.owner
    finally:
        await shard.service.close()


async def test_a_table_a_live_process_holds_is_not_restored(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    other = second_process(h.store, 22 << 40, Liveness(h.store.claims.owner))
    try:
        assert await other.service.restore() == 0
        assert other.service.tables() == []
        # the first process drives on
        user, turn, legal = await h.human_turn(view.table_id)
        await h.service.act(view.table_id, user, turn, legal[0])
    finally:
        await other.service.close()


async def test_a_taken_over_table_is_let_go_at_its_next_write(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    await h.play_random(view.table_id, actions=5)
    user, turn, legal = await h.human_turn(view.table_id)
    assert view.match_id is not None
    stored = await h.store.matches.load_record(view.match_id)

    new = second_process(h.store, 23 << 40, Liveness())  # the old owner counts as gone
    try:
        assert await new.service.restore() == 1
        with pytest.raises(Refusal) as refused:
            await h.service.act(view.table_id, user, turn, legal[0])
        assert refused.value.reason is TableReason.TABLE_CLOSED
        assert h.service.tables() == []  # let go: no timers, no computers left behind
        assert not h.events.of(ev.TableClosed)  # and not a word to the channel
        # the refused action was not stored
        assert await h.store.matches.load_record(view.match_id) == stored
        # the new owner takes the same turn
        user, turn, legal = await new.human_turn(view.table_id)
        await new.service.act(view.table_id, user, turn, legal[0])
        assert await h.store.matches.load_record(view.match_id) != stored
    finally:
        await new.service.close()
