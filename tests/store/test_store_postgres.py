"""The PostgreSQL backend's own behaviour: what it refuses at open, read-only opening,
migrating from several processes at once, and a schema equal to SQLite's.

Everything the two backends share runs on both through the ``store`` fixture; these are
the cases where PostgreSQL differs (a server, a login, other processes on one database).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.engine import Match, from_record
from bot.store import ClaimLost, DatabaseRefused, StorageFailed, Store, open_store
from bot.store import migrations as migrations_module
from bot.store.__main__ import main
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.postgres import migrate
from tests.postgres_server import PostgresServer
from tests.store.migration_helpers import (
    LATE,
    TABLE_IN_PLAY,
    takes_any_step_but_keeps_its_rows,
    without_the_late_migration,
)
from tests.store.store_helpers import NAMES, finished_match, seated_table


async def _sql(url: str, *statements: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        rows: list[asyncpg.Record] = []
        for statement in statements:
            rows = await conn.fetch(statement)
        return rows
    finally:
        await conn.close()


async def test_a_new_database_is_migrated_to_the_latest_schema(postgres_empty: str) -> None:
    async with await open_store(postgres_empty) as store:
        assert store.db.dialect.name == "postgres"
    rows = await _sql(postgres_empty, "SELECT version FROM schema_version ORDER BY version")
    assert [row["version"] for row in rows] == [m.version for m in MIGRATIONS]


async def test_bot_processes_starting_together_migrate_once(postgres_empty: str) -> None:
    stores = await asyncio.gather(*(open_store(postgres_empty) for _ in range(4)))
    try:
        table = await seated_table(stores[0])
        assert (await stores[3].tables.get_table(table.table_id)).seats == table.seats
    finally:
        for store in stores:
            await store.close()
    rows = await _sql(postgres_empty, "SELECT version FROM schema_version ORDER BY version")
    assert [row["version"] for row in rows] == [m.version for m in MIGRATIONS]


async def test_migration_13_lifts_the_cap_on_a_step_and_keeps_the_rows(
    postgres_empty: str,
) -> None:
    conn = await asyncpg.connect(postgres_empty)
    try:
        await migrate(conn, target=12)
        await conn.execute(TABLE_IN_PLAY)
        await conn.execute("INSERT INTO channel_posted (table_id, deal, step) VALUES (7, 3, 14)")
        with pytest.raises(asyncpg.CheckViolationError):
            await conn.execute("UPDATE channel_posted SET step = 15")
        assert await migrate(conn, target=13) == [13]
    finally:
        await conn.close()
    await takes_any_step_but_keeps_its_rows(postgres_empty)


async def test_a_lower_migration_merged_after_a_higher_one_still_runs(
    postgres_empty: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = await asyncpg.connect(postgres_empty)
    try:
        everything = migrations_module.MIGRATIONS
        monkeypatch.setattr(migrations_module, "MIGRATIONS", without_the_late_migration())
        assert LATE.version not in await migrate(conn)
        monkeypatch.setattr(migrations_module, "MIGRATIONS", everything)
        assert await migrate(conn) == [LATE.version]
        assert await migrate(conn) == []
    finally:
        await conn.close()


async def test_a_newer_schema_is_refused_untouched(postgres_url: str) -> None:
    await _sql(postgres_url, f"INSERT INTO schema_version VALUES ({LATEST + 1}, 0)")
    for read_only in (False, True):
        with pytest.raises(DatabaseRefused, match=f"schema version {LATEST + 1}, newer"):
            await open_store(postgres_url, read_only=read_only)
    rows = await _sql(postgres_url, "SELECT max(version) AS v FROM schema_version")
    assert rows[0]["v"] == LATEST + 1


async def test_a_database_that_is_not_bonken_is_refused_untouched(postgres_empty: str) -> None:
    await _sql(postgres_empty, "CREATE TABLE invoices (id integer)")
    with pytest.raises(DatabaseRefused, match="not a Bonken database"):
        await open_store(postgres_empty)
    rows = await _sql(postgres_empty, "SELECT tablename FROM pg_tables WHERE schemaname='public'")
    assert [row["tablename"] for row in rows] == ["invoices"]


async def test_a_missing_database_a_wrong_login_and_no_server_are_one_line_each(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    cases = {
        postgres_server.url("nowhere"): "does not exist; create it",
        postgres_server.url("postgres", user="stranger"): "refused the login",
        f"postgresql://postgres@/bonken?host={tmp_path}": "cannot reach the PostgreSQL server",
        "postgresql://postgres@127.0.0.1:1/bonken": "cannot reach the PostgreSQL server",
        "postgresql://postgres@db:port/bonken": "not a valid URL",
    }
    for url, expected in cases.items():
        with pytest.raises(DatabaseRefused, match=expected) as refused:
            await open_store(url)
        assert "\n" not in str(refused.value)


async def test_a_password_never_reaches_the_message(postgres_server: PostgresServer) -> None:
    url = postgres_server.url("nowhere").replace("postgres@", "postgres:hunter2@")
    with pytest.raises(DatabaseRefused) as refused:
        await open_store(url)
    assert "hunter2" not in str(refused.value) and "postgres:***@" in str(refused.value)


async def test_read_only_opening_reads_and_refuses_every_write(postgres_url: str) -> None:
    async with await open_store(postgres_url) as store:
        match_id, _ = await finished_match(store, 3)
        record = await store.matches.load_record(match_id)
    async with await open_store(postgres_url, read_only=True) as reader:
        assert await reader.matches.load_record(match_id) == record
        assert await reader.integrity_problems() == []
        with pytest.raises(StorageFailed, match="read-only"):
            await reader.tables.create_table(1, 99, 1)


async def test_read_only_opening_refuses_an_empty_or_old_database(postgres_empty: str) -> None:
    with pytest.raises(DatabaseRefused, match="is empty"):
        await open_store(postgres_empty, read_only=True)
    await _sql(
        postgres_empty,
        "CREATE TABLE schema_version (version integer, applied_at bigint)",
        "INSERT INTO schema_version VALUES (1, 0)",
    )
    with pytest.raises(DatabaseRefused, match="older than"):
        await open_store(postgres_empty, read_only=True)


async def test_two_processes_storing_one_action_number_store_it_once(postgres_url: str) -> None:
    """Two connections race to store each action under the same number, both as the
    table's owner: the database keeps exactly one (the other is told it is already
    stored), and no number is skipped. A process that is not the owner stores none."""
    async with await open_store(postgres_url) as one, await open_store(postgres_url) as other:
        two = Store(other.db, owner=one.claims.owner)
        table = await seated_table(one)
        info = await one.matches.create_match(table.table_id, NAMES)
        match = Match(NAMES)
        await one.matches.append_deal(info.match_id, 0, match.deal_random(random.Random(4)).hands)
        rng = random.Random(5)
        for seq in range(20):
            action, seat = rng.choice(match.legal_actions()), match.to_act
            assert seat is not None
            outcomes = await asyncio.gather(
                one.matches.append_action(info.match_id, seq, seat, action),
                two.matches.append_action(info.match_id, seq, seat, action),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyStored", "NoneType"]
            with pytest.raises(ClaimLost):
                await other.matches.append_action(info.match_id, seq + 1, seat, action)
            match.apply(action)
        assert (await two.matches.get_match(info.match_id)).actions == 20
        assert await two.integrity_problems() == []


def _sqlite_schema(path: Path) -> dict[str, object]:
    with closing(sqlite3.connect(path)) as conn:
        tables = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        return {
            "columns": {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")] for t in tables},
            "indexes": sorted(
                row[0]
                for row in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                )
            ),
            "triggers": sorted(
                row[0]
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")
            ),
        }


async def test_both_dialects_end_with_the_same_schema(tmp_path: Path, postgres_url: str) -> None:
    """Same tables, same columns in the same order, same named indexes and triggers
    (PostgreSQL's own TRUNCATE guards aside: SQLite has no TRUNCATE)."""
    path = tmp_path / "bonken.sqlite3"
    await (await open_store(path)).close()
    columns = await _sql(
        postgres_url,
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    )
    indexes = await _sql(
        postgres_url,
        "SELECT indexname FROM pg_indexes i WHERE schemaname = 'public' AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
    )
    triggers = await _sql(
        postgres_url,
        "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgname NOT LIKE '%emptied'",
    )
    on_postgres: dict[str, list[str]] = {}
    for row in columns:
        on_postgres.setdefault(row["table_name"], []).append(row["column_name"])
    assert _sqlite_schema(path) == {
        "columns": on_postgres,
        "indexes": sorted(row["indexname"] for row in indexes),
        "triggers": sorted(row["tgname"] for row in triggers),
    }


def test_check_and_record_read_a_postgresql_database(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def one_match() -> int:
        async with await open_store(postgres_url) as store:
            match_id, _ = await finished_match(store, 5)
        return match_id

    match_id = asyncio.run(one_match())
    assert main(["--database", postgres_url, "check"]) == 0
    assert capsys.readouterr().err.strip() == "ok"
    assert main(["--database", postgres_url, "record", str(match_id)]) == 0
    assert from_record(json.loads(capsys.readouterr().out)).is_over
