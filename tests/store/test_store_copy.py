"""``python -m bot.store copy SQLITE_FILE postgresql://...``: every row across, checked."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.engine import from_record
from bot.ratings import OpenSkillRater
from bot.store import (
    Computer,
    ConstraintFailed,
    GuildSettings,
    HandLink,
    Human,
    LeaderboardSort,
    Store,
    TableSettings,
    open_store,
)
from bot.store.__main__ import main
from tests.store.store_helpers import NAMES, finished_match, play, seated_table


async def _busy_file(path: Path) -> None:
    """A file with a bit of everything: two seasons of rated matches, a cancelled match, a
    match in play, a lobby, server settings, facts and delivery rows."""
    async with await open_store(path) as store:
        await store.tables.set_guild_settings(
            1,
            GuildSettings(
                table_defaults=TableSettings(turn_seconds=45, computer_level="hard"), language="nl"
            ),
        )
        for seed in range(3):
            await finished_match(store, seed, channel_id=10 + seed)
        await store.seasons.start_season(1, "Winter")
        table = await seated_table(store, (Human(1), Human(2), Computer("easy"), Human(5)),
                                   channel_id=20)  # fmt: skip
        info = await store.matches.create_match(table.table_id, NAMES, seed=7)
        await play(store, info.match_id, random.Random(7))
        await store.matches.finish_match(info.match_id, rater=OpenSkillRater())
        cancelled = await store.matches.create_match(table.table_id, NAMES)
        await play(store, cancelled.match_id, random.Random(8), deals=1)
        await store.matches.cancel_match(cancelled.match_id)
        playing = await store.matches.create_match(table.table_id, NAMES)
        await play(store, playing.match_id, random.Random(9), deals=2)
        await store.delivery.set_posted(table.table_id, 2, 5)
        await store.delivery.keep_hand(
            HandLink(
                table_id=table.table_id,
                user_id=1,
                application_id=99,
                token="tok",
                expires_at=time.time() + 600,
            )
        )
        await store.tables.create_table(1, 30, host_id=4)
        await store.facts.put("commands", "abc")


async def _everything(store: Store) -> dict[str, object]:
    """What the bot can read back, for comparing the two sides."""
    seasons = await store.seasons.seasons(1)
    pages = [
        await store.standings.leaderboard(season.season_id, sort, viewer=5)
        for season in seasons
        for sort in LeaderboardSort
    ]
    stats = [
        await store.standings.player_stats(season.season_id, user)
        for season in seasons
        for user in (1, 2, 5)
    ]
    tables = await store.tables.open_tables()
    return {
        "seasons": seasons,
        "pages": pages,
        "stats": stats,
        "tables": tables,
        "matches": [await store.matches.get_match(m) for m in range(1, 7)],
        "records": [await store.matches.load_record(m) for m in range(1, 7)],
        "settings": await store.tables.guild_settings(1),
        "posted": [await store.delivery.last_posted(t.table_id) for t in tables],
        "hands": [await store.delivery.hand_links(t.table_id) for t in tables],
        "fact": await store.facts.get("commands"),
    }


def test_copy_moves_every_table_match_and_season_and_checks_it(
    tmp_path: Path, postgres_empty: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bonken.sqlite3"
    asyncio.run(_busy_file(path))
    before = path.read_bytes()
    assert main(["copy", str(path), postgres_empty]) == 0
    out, err = capsys.readouterr()
    assert "matches: 6 rows" in out and "actions: " in out
    assert "6 match records identical on both sides" in err
    assert path.read_bytes() == before  # the source is only read

    async def compare() -> None:
        async with await open_store(path) as sqlite, await open_store(postgres_empty) as pg:
            assert await _everything(pg) == await _everything(sqlite)
            assert await pg.integrity_problems() == []
            # The ids go on from the copied ones, and the log is append-only again.
            made = await pg.tables.create_table(1, 40, host_id=4)
            assert made.table_id == (await sqlite.tables.create_table(1, 40, host_id=4)).table_id
            with pytest.raises(ConstraintFailed, match="append-only"):
                await pg.db.write_one("DELETE FROM actions WHERE match_id = 6")
            # The match in play goes on where it stood, once a process claims its table
            # (its claim came across with the owner id of the SQLite bot, long gone).
            assert await pg.claims.claim((await pg.matches.get_match(6)).table_id)
            match = from_record(await pg.matches.load_record(6))
            await play(pg, 6, random.Random(10), deals=3, match=match)
            assert (await pg.matches.get_match(6)).deals == 3

    asyncio.run(compare())


def test_copy_refuses_a_database_that_is_not_empty(
    tmp_path: Path, postgres_empty: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bonken.sqlite3"
    asyncio.run(_busy_file(path))
    assert main(["copy", str(path), postgres_empty]) == 0
    capsys.readouterr()
    assert main(["copy", str(path), postgres_empty]) == 1
    assert "is not empty (its " in capsys.readouterr().err


def test_copy_wants_a_postgresql_url(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["copy", str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")]) == 1
    assert "postgresql://" in capsys.readouterr().err
