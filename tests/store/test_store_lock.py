"""One bot process per database file; the operator's read-only tools beside a live bot.

The other process is real: the crash test's child, which plays matches at full speed on
the file in WAL mode, as the bot does.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from bot.engine import from_record
from bot.store import DatabaseRefused, open_store
from bot.store.__main__ import main

CHILD = "tests.store.store_crash_child"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def running_bot(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[bytes]]]:
    """Another process with the store open, writing until the test ends."""
    path = tmp_path / "bonken.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-m", CHILD, str(path), "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n", child.communicate()[1].decode()
        yield path, child
    finally:
        child.kill()
        child.communicate()


async def test_a_second_bot_process_on_the_file_is_refused(
    running_bot: tuple[Path, subprocess.Popen[bytes]],
) -> None:
    path, child = running_bot
    with pytest.raises(DatabaseRefused) as refused:
        await open_store(path)
    message = str(refused.value)
    assert f"{path} is in use by another bot process (pid {child.pid})" in message
    assert "\n" not in message  # one line for the operator
    child.send_signal(signal.SIGKILL)  # however the other bot ends, the lock goes with it
    child.wait()
    async with await open_store(path) as store:
        assert await store.integrity_problems() == []


def test_check_and_record_read_the_database_of_a_running_bot(
    running_bot: tuple[Path, subprocess.Popen[bytes]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, child = running_bot
    assert child.stdout is not None
    match_id = _a_match_well_under_way(child.stdout)
    for _ in range(3):  # the bot writes all the while
        assert main(["--database", str(path), "check"]) == 0
        assert capsys.readouterr().err.strip() == "ok"
        assert main(["--database", str(path), "record", str(match_id)]) == 0
        record = json.loads(capsys.readouterr().out)
        assert sum(len(deal.get("plays", [])) for deal in record["deals"]) > 0
        from_record(record)  # deals and actions from one moment: it replays
    assert child.poll() is None  # the bot was not disturbed
    with pytest.raises(DatabaseRefused, match="in use by another bot process"):
        asyncio.run(open_store(path))  # while a bot that writes is refused


def _a_match_well_under_way(output: IO[bytes]) -> str:
    """The id of a match of which the child has stored a hundred actions."""
    while line := output.readline():
        kind, *numbers = line.split()
        if kind == b"A" and int(numbers[1]) >= 100:
            return numbers[0].decode()
    raise AssertionError("the child stopped")
