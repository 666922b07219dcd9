"""``python -m bot.store``: check a file, print a match's record, never create a file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from store_helpers import finished_match

from bot.engine import from_record
from bot.store import open_store
from bot.store.__main__ import main


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
