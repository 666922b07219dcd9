"""``latest_record_in_channel``: what ``/bonken record`` answers once a table is gone."""

from __future__ import annotations

import random
from pathlib import Path

from bot.engine import Choose, deal_hands, from_record
from bot.store import Human, open_store

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
