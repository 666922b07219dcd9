"""Migrations: a file made by the first schema upgrades to the newest with its data intact.

The old file is built the way schema 1 would have been written, with schema 1's SQL (the
store's own code always speaks the newest schema), then opened by today's store.
"""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.engine import STANDARD, from_record, to_record
from bot.store import MatchStatus, TableStatus, open_store
from bot.store import migrations as migrations_module
from bot.store.migrations import LATEST, Migration, applied_versions, migrate, schema_version
from tests.store.migration_helpers import (
    LATE,
    TABLE_IN_PLAY,
    schema_1_file,
    takes_any_step_but_keeps_its_rows,
    without_the_late_migration,
)
from tests.store.store_helpers import play

V1_TABLES = (
    "guild_settings",
    "tables",
    "table_seats",
    "table_messages",
    "matches",
    "match_seats",
    "deals",
    "actions",
)


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every schema-1 table, in schema-1 columns only."""
    with closing(sqlite3.connect(path)) as conn:
        rows = {}
        for table in V1_TABLES:
            columns = [c[1] for c in conn.execute(f"PRAGMA table_info({table})")]
            columns = [column for column in columns if column != "season_id"]
            rows[table] = sorted(conn.execute(f"SELECT {', '.join(columns)} FROM {table}"))
    return rows


async def test_a_schema_1_file_upgrades_with_every_row_intact(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    schema_1_file(path)
    before = _rows(path)
    async with await open_store(path):
        pass
    with closing(sqlite3.connect(path)) as conn:
        assert schema_version(conn) == LATEST
    after = _rows(path)
    assert after.keys() >= before.keys()
    for table, rows in before.items():
        # Migrations only append columns (NULL in old rows): every old value is still there.
        widths = {len(row) for row in rows}
        assert [row[: len(old)] for row, old in zip(after[table], rows, strict=True)] == rows
        assert all(value is None for row in after[table] for value in row[max(widths, default=0) :])


async def test_an_upgraded_match_replays_continues_and_counts(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    played = schema_1_file(path)
    async with await open_store(path) as store:
        table = await store.tables.get_table(7)
        assert table.status is TableStatus.PLAYING
        assert table.match_id == 4
        assert table.messages == {"deal": 555}
        assert table.settings.turn_seconds == 90
        record = await store.matches.load_record(4)
        match = from_record(record)
        assert to_record(match)["deals"] == to_record(played)["deals"]
        assert (await store.matches.get_match(3)).status is MatchStatus.CANCELLED

        await play(store, 4, random.Random(5), match=match)
        result = await store.matches.finish_match(4)
        page = await store.standings.leaderboard(result.season_id)
        assert sorted(row.user_id for row in page.rows) == [100, 101, 103]
        assert await store.integrity_problems() == []


def test_a_failing_migration_leaves_the_file_at_the_previous_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = Migration(
        LATEST + 1, "broken", ("CREATE TABLE half_done (x)", "INSERT INTO nowhere VALUES (1)")
    )
    monkeypatch.setattr(migrations_module, "MIGRATIONS", (*migrations_module.MIGRATIONS, broken))
    with closing(sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)) as conn:
        migrate(conn)
        with pytest.raises(sqlite3.OperationalError, match="no such table: nowhere"):
            migrate(conn, target=LATEST + 1)
        assert schema_version(conn) == LATEST
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        assert "half_done" not in tables


async def test_the_house_rules_migration_keeps_old_tables_standard_and_deals_append_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    schema_1_file(path)
    async with await open_store(path) as store:
        table = await store.tables.get_table(7)
        assert table.settings.rules is STANDARD
        assert (await store.tables.guild_settings(1)).table_defaults.rules is STANDARD
        assert (await store.matches.load_record(4))["variant"] == "standard"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        # The rebuilt deals table kept its triggers and its references...
        with pytest.raises(sqlite3.IntegrityError, match="deals are append-only"):
            conn.execute("UPDATE deals SET dealt_at = 0")
        with pytest.raises(sqlite3.IntegrityError, match="deals are append-only"):
            conn.execute("DELETE FROM deals")
        with pytest.raises(sqlite3.IntegrityError, match="the match is not in play"):
            conn.execute("INSERT INTO deals VALUES (3, 0, ?, 1)", ("x" * 104,))
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        # ...and takes the twelfth deal of a twelve match, but no thirteenth.
        assert conn.execute("SELECT max(deal_index) FROM deals WHERE match_id = 4").fetchone() == (
            2,
        )
        for index in range(3, 12):
            conn.execute("INSERT INTO deals VALUES (4, ?, ?, 1)", (index, "x" * 104))
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            conn.execute("INSERT INTO deals VALUES (4, 12, ?, 1)", ("x" * 104,))


def test_a_rebuilding_migration_restores_foreign_keys_even_when_it_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = Migration(LATEST + 1, "broken rebuild", ("DROP TABLE matches",), rebuilds=True)
    monkeypatch.setattr(migrations_module, "MIGRATIONS", (*migrations_module.MIGRATIONS, broken))
    with closing(sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn)
        conn.execute(
            "INSERT INTO tables (table_id, guild_id, channel_id, host_id, status, turn_seconds, "
            "computer_level, created_at, updated_at) "
            "VALUES (1, 1, 1, 1, 'lobby', 60, 'normal', 1, 1)"
        )
        conn.execute("INSERT INTO matches (table_id, first_dealer, started_at) VALUES (1, 0, 1)")
        conn.execute("INSERT INTO deals VALUES (1, 0, ?, 1)", ("x" * 104,))
        with pytest.raises(sqlite3.IntegrityError, match="broke a reference"):
            migrate(conn, target=LATEST + 1)
        assert schema_version(conn) == LATEST
        assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert conn.execute("SELECT count(*) FROM matches").fetchone() == (1,)


async def test_migration_13_lifts_the_cap_on_a_step_and_keeps_the_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn, target=12)
        conn.execute(TABLE_IN_PLAY)
        conn.execute("INSERT INTO channel_posted (table_id, deal, step) VALUES (7, 3, 14)")
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            conn.execute("UPDATE channel_posted SET step = 15")
        assert migrate(conn, target=13) == [13]
        # The rebuilt table still refers to its table.
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            conn.execute("INSERT INTO channel_posted (table_id, deal, step) VALUES (8, 0, 0)")
    await takes_any_step_but_keeps_its_rows(path)


def test_the_migrations_are_in_ascending_order() -> None:
    versions = [m.version for m in migrations_module.MIGRATIONS]
    assert versions == sorted(set(versions))
    assert versions[-1] == LATEST


def test_a_lower_migration_merged_after_a_higher_one_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two migrations made at once may be merged in either order: a database that ran
    the higher one before the lower existed gets the lower one when it arrives."""
    with closing(sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)) as conn:
        everything = migrations_module.MIGRATIONS
        monkeypatch.setattr(migrations_module, "MIGRATIONS", without_the_late_migration())
        assert LATE.version not in migrate(conn)
        assert schema_version(conn) == LATEST
        monkeypatch.setattr(migrations_module, "MIGRATIONS", everything)
        assert migrate(conn) == [LATE.version]
        assert migrate(conn) == []
        assert applied_versions(conn) == {m.version for m in everything}


async def test_migration_15_adds_the_daily_deals_beside_every_row(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        migrate(conn, target=13)
        conn.execute("INSERT INTO seasons (guild_id, name, started_at) VALUES (7, 'Winter', 1)")
    async with await open_store(path) as store:
        season = await store.seasons.active_season(7)
        assert season is not None and season.name == "Winter"
        assert await store.daily.deals_per_day(7) is None
        await store.daily.set_deals_per_day(7, 5)
        assert await store.daily.deals_per_day(7) == 5
        assert await store.integrity_problems() == []
