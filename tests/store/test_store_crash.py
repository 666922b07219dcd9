"""Crash test: SIGKILL a process storing matches, many times, and check what survived.

After every kill the database must open, hold every write the child acknowledged, replay
every match's record through the engine, and pass the store's integrity checks (no gaps,
no half-finished match, standings equal to the results they sum).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.engine import from_record
from bot.store import MatchStatus, NotFound, open_store

CHILD = "tests.store.store_crash_child"
ROOT = Path(__file__).resolve().parents[2]
KILLS = 25

#: The mean number of acknowledged writes a run that got ready makes before its kill.
WRITES_PER_RUN = 400


@dataclass
class Acknowledged:
    """Everything the child has promised so far, over all its runs."""

    actions: dict[int, int] = field(default_factory=lambda: defaultdict(lambda: -1))
    deals: dict[int, int] = field(default_factory=lambda: defaultdict(lambda: -1))
    matches: set[int] = field(default_factory=set)
    finished: set[int] = field(default_factory=set)
    cancelled: set[int] = field(default_factory=set)

    def read(self, output: bytes) -> int:
        """Take in the complete lines of one run's output; return how many there were."""
        lines = output.split(b"\n")[:-1]  # the last piece has no newline: cut by the kill
        for line in lines:
            kind, *numbers = line.decode().split()
            ids = [int(n) for n in numbers]
            if kind == "M":
                self.matches.add(ids[0])
            elif kind == "D":
                self.deals[ids[0]] = max(self.deals[ids[0]], ids[1])
            elif kind == "A":
                self.actions[ids[0]] = max(self.actions[ids[0]], ids[1])
            elif kind == "F":
                self.finished.add(ids[0])
            elif kind == "C":
                self.cancelled.add(ids[0])
        return len(lines)


def run_and_kill(path: Path, seed: int, rng: random.Random, wait_until_ready: bool) -> bytes:
    child = subprocess.Popen(
        [sys.executable, "-m", CHILD, str(path), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    first = b""
    if wait_until_ready:
        first = child.stdout.readline()
        assert first == b"ready\n", child.communicate()[1].decode()
        # Counted in acknowledged writes, not seconds, so a slow or busy machine tests
        # as many writes as a fast one; the jitter lands the kill anywhere in the next.
        for _ in range(rng.randrange(2 * WRITES_PER_RUN)):
            line = child.stdout.readline()
            if not line:
                break
            first += line
        time.sleep(rng.uniform(0.0, 0.005))
    else:
        time.sleep(rng.uniform(0.0, 0.3))
    child.send_signal(signal.SIGKILL)
    rest, errors = child.communicate()
    assert child.returncode == -signal.SIGKILL, f"the child stopped by itself: {errors.decode()}"
    return first + rest


async def check(path: Path, promised: Acknowledged) -> int:
    """Every promise kept, every record valid, the file sound; return the match count."""
    async with await open_store(path) as store:
        assert await store.integrity_problems() == []
        match_id = 0
        while True:
            try:
                info = await store.matches.get_match(match_id + 1)
            except NotFound:
                break
            match_id = info.match_id
            assert info.actions > promised.actions[match_id]
            assert info.deals > promised.deals[match_id]
            match = from_record(await store.matches.load_record(match_id))
            if match_id in promised.finished:
                assert info.status is MatchStatus.FINISHED
            if match_id in promised.cancelled:
                assert info.status is MatchStatus.CANCELLED
            if info.status is MatchStatus.FINISHED:
                assert match.is_over
        assert promised.matches <= set(range(1, match_id + 1))
    return match_id


@pytest.mark.long
def test_sigkill_never_loses_an_acknowledged_write_nor_leaves_a_partial_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "crash.sqlite3"
    rng = random.Random(2024)
    promised = Acknowledged()
    writes = 0
    for kill in range(KILLS):
        output = run_and_kill(path, seed=kill, rng=rng, wait_until_ready=kill % 5 != 0)
        writes += promised.read(output)
        asyncio.run(check(path, promised))
    matches = asyncio.run(check(path, promised))
    assert writes > 5000, f"only {writes} acknowledged writes: the kills came too early"
    assert promised.finished and matches > len(promised.finished)
