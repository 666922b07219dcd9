"""``latest_record_in_channel``: what ``/bonken record`` answers once a table is gone."""

from __future__ import annotations

import random
from pathlib import Path

from bot.engine import Choose, deal_hands, from_record
from bot.store import Human, MatchStatus, TableStatus, open_store
from tests.store.store_helpers import finished_match, seated_table

HANDS_SEED = 5


async def test_latest_record_in_channel_is_the_newest_match_there(tmp_path: Path) -> None:
    async with await open_store(tmp_path / "b.sqlite3") as store:
        assert await store.matches.latest_record_in_channel(10) is None
        table = await store.tables.create_table(1, 10, 100)
        await store.tables.update_table(table.table_id, seats={s: Human(100 + s) for s in range(4)})
        match = await store.matches.create_match(table.table_id, ["A", "B", "C", "D"])
        await store.matches.append_deal(match.match_id, 0, deal_hands(random.Random(HANDS_SEED)))
        await store.matches.append_action(match.match_id, 0, 2, Choose("queens"))
        record = await store.matches.latest_record_in_channel(10)
        assert record is not None
        assert record["players"] == ["A", "B", "C", "D"]
        assert from_record(record).deals[0].contract.id == "queens"
        assert await store.matches.latest_record_in_channel(11) is None


async def test_the_thread_a_match_played_in_finds_its_record(database) -> None:
    """A front end keeps a table's thread as one of its messages: asked with that role,
    the thread finds the newest match played in it, the channel finds its tables'
    newest, and another thread of the channel finds nothing."""
    async with await open_store(database) as store:
        older = await _match_at(store, channel=10, thread=20, names=["A", "B", "C", "D"])
        newer = await _match_at(store, channel=10, thread=30, names=["E", "F", "G", "H"])
        assert older != newer
        in_thread = await store.matches.latest_record_in_channel(20, thread_role="thread")
        assert in_thread is not None and in_thread["players"] == ["A", "B", "C", "D"]
        in_channel = await store.matches.latest_record_in_channel(10, thread_role="thread")
        assert in_channel is not None and in_channel["players"] == ["E", "F", "G", "H"]
        assert await store.matches.latest_record_in_channel(20) is None  # (no role asked)
        assert await store.matches.latest_record_in_channel(40, thread_role="thread") is None


async def _match_at(store, *, channel: int, thread: int, names: list[str]) -> int:  # type: ignore[no-untyped-def]
    """A match (stopped) at a new table of ``channel`` that played in ``thread``."""
    table = await store.tables.create_table(1, channel, 100)
    seats = {s: Human(100 + s) for s in range(4)}
    await store.tables.update_table(table.table_id, seats=seats, messages={"thread": thread})
    match = await store.matches.create_match(table.table_id, names)
    await store.matches.cancel_match(match.match_id)
    # (A channel holds one open table at a time.)
    await store.tables.update_table(table.table_id, status=TableStatus.CANCELLED)
    return match.match_id


async def test_the_newest_finished_match_of_a_channel_and_a_guilds_list(store) -> None:  # type: ignore[no-untyped-def]
    """What a replay defaults to and what its menu offers: a match in play is passed
    over for the newest finished one; another guild's matches are never listed."""
    first, _ = await finished_match(store, 1, channel_id=10)
    second, _ = await finished_match(store, 2, channel_id=10)
    elsewhere, _ = await finished_match(store, 3, channel_id=50, guild_id=2)
    table = await seated_table(store, channel_id=10)
    playing = await store.matches.create_match(table.table_id, ["W", "X", "Y", "Z"])
    matches = store.matches
    assert await matches.latest_in_channel(10) == playing.match_id
    assert await matches.latest_in_channel(10, status=MatchStatus.FINISHED) == second
    assert await matches.latest_in_channel(10, status=MatchStatus.PLAYING) == playing.match_id
    assert await matches.latest_in_channel(50, status=MatchStatus.FINISHED) == elsewhere
    assert await matches.latest_in_channel(60, status=MatchStatus.FINISHED) is None
    listed = await matches.finished_in_guild(1, 25)
    assert [m.match_id for m in listed] == [second, first]
    assert listed[0].names == ("Ann", "Bob", "Cas", "Dirk")
    assert listed[0].ended_at >= listed[1].ended_at
    assert [m.match_id for m in await matches.finished_in_guild(1, 1)] == [second]
    assert [m.match_id for m in await matches.finished_in_guild(2, 25)] == [elsewhere]
