"""``python -m bot.store``: check a file, print a match's record, never write a byte."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.engine import from_record
from bot.store import open_store
from bot.store.__main__ import main
from bot.store.migrations import LATEST, migrate, schema_version
from tests.store.store_helpers import finished_match

ROOT = Path(__file__).resolve().parents[2]


async def _one_match(path: Path) -> None:
    async with await open_store(path) as store:
        await finished_match(store, seed=1)


def test_check_says_ok_for_a_sound_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bonken.sqlite3"
    asyncio.run(_one_match(path))
    assert main(["--database", str(path), "check"]) == 0
    assert capsys.readouterr().err.strip() == "ok"


def test_record_prints_a_record_the_engine_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bonken.sqlite3"
    asyncio.run(_one_match(path))
    assert main(["--database", str(path), "record", "1"]) == 0
    assert from_record(json.loads(capsys.readouterr().out)).is_over
    assert main(["--database", str(path), "record", "2"]) == 1
    assert capsys.readouterr().err.strip() == "there is no match 2"


def test_a_missing_file_is_reported_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nothing.sqlite3"
    assert main(["--database", str(path), "check"]) == 1
    assert "there is no database" in capsys.readouterr().err
    assert not path.exists()


def _old(path: Path) -> None:
    """A file as the first bot left it: WAL mode, schema version 1, a table in it."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        migrate(conn, target=1)
        conn.execute(
            "INSERT INTO tables VALUES (1, 1, 10, 1, 'lobby', 60, 'normal', 0, 0)",
        )


def _empty(path: Path) -> None:
    path.touch()


def _current(path: Path) -> None:
    asyncio.run(_one_match(path))


@pytest.mark.parametrize(
    ("make", "code", "says"),
    [
        (_old, 1, f"schema version 1, older than this bot's ({LATEST})"),
        (_empty, 1, "is empty"),
        (_current, 0, "ok"),
    ],
    ids=["old", "empty", "current"],
)
@pytest.mark.parametrize("command", [["check"], ["record", "1"]], ids=["check", "record"])
def test_check_and_record_never_write_the_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Path], None],
    code: int,
    says: str,
    command: list[str],
) -> None:
    path = tmp_path / "bonken.sqlite3"
    make(path)
    before, files = path.read_bytes(), sorted(p.name for p in tmp_path.iterdir())
    exit_code = main(["--database", str(path), *command])
    err = capsys.readouterr().err
    if command == ["check"] or code:
        assert (exit_code, err.count("\n")) == (code, 1)
        assert says in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files  # not even a -wal or -shm


def test_check_of_an_old_file_says_how_to_upgrade_and_upgrade_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bonken.sqlite3"
    _old(path)
    assert main(["--database", str(path), "check"]) == 1
    assert f"--database {path} check --upgrade" in capsys.readouterr().err
    assert main(["--database", str(path), "check", "--upgrade"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"{path} is at schema version {LATEST}",
        "ok",
    ]
    with closing(sqlite3.connect(path)) as conn:
        assert schema_version(conn) == LATEST


def test_upgrade_does_not_create_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nothing.sqlite3"
    assert main(["--database", str(path), "check", "--upgrade"]) == 1
    assert "there is no database" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def _with_problems(path: Path) -> None:
    """A sound file whose season rows no longer add up: ``check`` prints lines."""
    _current(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("UPDATE season_players SET points = points + 1")


@pytest.mark.parametrize(
    ("make", "command"),
    [(_current, ["record", "1"]), (_with_problems, ["check"])],
    ids=["record", "check"],
)
def test_output_into_a_closed_pipe_ends_quietly(
    tmp_path: Path, make: Callable[[Path], None], command: list[str]
) -> None:
    path = tmp_path / "bonken.sqlite3"
    make(path)
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.store", "--database", str(path), *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # as `| head` does once it has its lines, here before the first
    errors = child.stderr.read().decode()
    child.wait(timeout=30)
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
    assert child.returncode == 1
