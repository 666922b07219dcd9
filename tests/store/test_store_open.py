"""Opening the file: created on first start, upgraded when old, refused untouched when bad."""

from __future__ import annotations

import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.store import DatabaseRefused, open_store
from bot.store.migrations import LATEST, migrate
from tests.store.store_helpers import seated_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_database_path_defaults_to_data_bonken_sqlite3() -> None:
    assert Settings.from_env({}).database_path == Path("data/bonken.sqlite3")


def test_the_database_path_comes_from_bonken_database() -> None:
    env = {"BONKEN_DATABASE": "/srv/bonken/db.sqlite3"}
    assert Settings.from_env(env).database_path == Path("/srv/bonken/db.sqlite3")
    assert Settings.from_env(env).database == Path("/srv/bonken/db.sqlite3")


@pytest.mark.parametrize("scheme", ["postgresql", "postgres", "PostgreSQL"])
def test_a_postgresql_url_in_bonken_database_selects_postgresql(scheme: str) -> None:
    url = f"{scheme}://bonken:hunter2@db.example:5432/bonken"
    settings = Settings.from_env({"BONKEN_DATABASE": f" {url} "})
    assert settings.database == url and settings.database_url == url
    assert "hunter2" not in repr(settings)


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
        conn.execute("PRAGMA synchronous=OFF")  # a test's file: no fsync for each migration
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


async def test_a_path_under_a_file_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    path = tmp_path / "file" / "sub" / "bonken.sqlite3"
    with pytest.raises(DatabaseRefused) as refused:
        await open_store(path)
    message = str(refused.value)
    assert message.startswith(f"cannot create the folder {path.parent} for the database")
    assert "BONKEN_DATABASE" in message and "\n" not in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


# The child opens the store as a user who may not write there. Tests run as root here,
# for whom permissions do not stop a write; so a root child first imports everything it
# needs, then gives up root for `nobody` before it opens the file (a root that cannot
# fails the test, saying why: it does not skip).
OPEN_AS_NOBODY = """
import asyncio, concurrent.futures.thread, os, sys
from bot.store import DatabaseRefused, open_store
if os.geteuid() == 0:
    try:
        os.setgid(65534)
        os.setuid(65534)
    except OSError as error:
        print(f"cannot become nobody: {error}")
        sys.exit(4)
async def open_and_close():
    await (await open_store(sys.argv[1])).close()
try:
    asyncio.run(open_and_close())
except DatabaseRefused as refused:
    print(refused)
    sys.exit(3)
"""


def _read_only_folder(folder: Path) -> Path:
    folder.chmod(0o555)
    return folder / "bonken.sqlite3"


def _read_only_folder_with_a_database(folder: Path) -> Path:
    path = folder / "bonken.sqlite3"
    _real_database(path)
    folder.chmod(0o555)
    return path


def _read_only_file(folder: Path) -> Path:
    path = folder / "bonken.sqlite3"
    _real_database(path)
    path.chmod(0o444)
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_read_only_folder, "cannot create the lock file"),
        (_read_only_folder_with_a_database, "cannot create the lock file"),
        (_read_only_file, "attempt to write a readonly database"),
    ],
    ids=["folder", "folder-with-file", "file"],
)
def test_a_place_the_bot_cannot_write_is_refused_in_one_line(make, says: str) -> None:
    with tempfile.TemporaryDirectory() as top:
        Path(top).chmod(0o755)  # nobody may reach the folder, not write in it
        folder = Path(top) / "data"
        folder.mkdir(mode=0o777)
        folder.chmod(0o777)
        path = make(folder)
        before = path.read_bytes() if path.exists() else None
        child = subprocess.run(
            [sys.executable, "-c", OPEN_AS_NOBODY, str(path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
        folder.chmod(0o755)
        assert child.returncode == 3, child.stdout + child.stderr
        message = child.stdout.strip()
        assert str(path) in message and says in message and "\n" not in message
        assert (path.read_bytes() if path.exists() else None) == before
