"""Opening the file: created on first start, upgraded when old, refused untouched when bad."""

from __future__ import annotations

import random
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from store_helpers import seated_table

from bot.settings import Settings
from bot.store import DatabaseRefused, open_store
from bot.store.migrations import LATEST, migrate


def test_the_database_path_defaults_to_data_bonken_sqlite3() -> None:
    assert Settings.from_env({}).database_path == Path("data/bonken.sqlite3")


def test_the_database_path_comes_from_bonken_database() -> None:
    env = {"BONKEN_DATABASE": "/srv/bonken/db.sqlite3"}
    assert Settings.from_env(env).database_path == Path("/srv/bonken/db.sqlite3")


async def test_the_folder_and_file_are_created_on_first_start(tmp_path: Path) -> None:
    path = tmp_path / "data" / "deeper" / "bonken.sqlite3"
    async with await open_store(path):
        pass
    assert path.is_file()
    assert _version(path) == LATEST


async def test_the_file_runs_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "bonken.sqlite3"
    async with await open_store(path):
        pass
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_an_empty_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "bonken.sqlite3"
    path.touch()
    async with await open_store(path):
        pass
    assert _version(path) == LATEST


async def test_data_survives_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "bonken.sqlite3"
    async with await open_store(path) as store:
        table = await seated_table(store)
    async with await open_store(path) as store:
        assert await store.tables.get_table(table.table_id) == table


def _garbage(path: Path) -> None:
    path.write_bytes(b"these are not the bytes you are looking for\n" * 200)


def _truncated(path: Path) -> None:
    _real_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _scribbled(path: Path) -> None:
    _real_database(path)
    data = bytearray(path.read_bytes())
    data[4096 * 3 : 4096 * 3 + 2000] = random.Random(0).randbytes(2000)
    path.write_bytes(bytes(data))


def _newer(path: Path) -> None:
    _real_database(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 0)", (LATEST + 1,))


def _foreign(path: Path) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")


def _real_database(path: Path) -> None:
    """A store file as the bot leaves it (WAL mode, closed cleanly), with some bulk."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        migrate(conn)
        conn.execute("CREATE TABLE padding (x)")
        conn.executemany("INSERT INTO padding VALUES (?)", [("x" * 500,)] * 200)


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_garbage, "not a SQLite database"),
        (_truncated, "corrupt"),
        (_scribbled, "corrupt"),
        (_newer, re.escape(f"schema version {LATEST + 1}, newer than this bot knows ({LATEST})")),
        (_foreign, "not a Bonken one"),
    ],
    ids=["garbage", "truncated", "scribbled", "newer", "foreign"],
)
async def test_a_bad_file_stops_the_bot_with_a_clear_message_and_is_left_untouched(
    tmp_path: Path, make, says: str
) -> None:
    path = tmp_path / "bonken.sqlite3"
    make(path)
    before = path.read_bytes()
    with pytest.raises(DatabaseRefused, match=says):
        await open_store(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bonken.sqlite3"]


def _version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT max(version) FROM schema_version").fetchone()[0]
