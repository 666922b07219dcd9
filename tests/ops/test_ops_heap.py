"""The bot's frozen heap (``bot/heap.py``): frozen once built, its young generation then
collected less often, both given back at the close, and a host's own frozen heap (a test
worker's) left as it was."""

from __future__ import annotations

import subprocess
import sys

from bot.heap import YOUNG_THRESHOLD
from tests.ops.fake_discord import ROOT

SCRIPT = """
import gc, sys
from bot.heap import FrozenHeap
host = sys.argv[1] == "host"
if host:
    gc.freeze()
before = gc.get_freeze_count()
heap = FrozenHeap()
heap.freeze()
frozen = gc.get_freeze_count()
young = gc.get_threshold()[0]
heap.freeze()
again = gc.get_freeze_count()
heap.unfreeze()
print(before, frozen, again, gc.get_freeze_count(), young, gc.get_threshold()[0])
"""


def _counts(kind: str) -> list[int]:
    """The frozen-object counts before, after a freeze, after a second, after the
    unfreeze, and the young generation's threshold while frozen and after, in a process
    of its own (the test worker keeps its heap frozen)."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, kind], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return [int(n) for n in done.stdout.split()]


def test_a_server_freezes_what_it_built_and_gives_it_back_at_its_close() -> None:
    before, frozen, again, after, young, young_after = _counts("alone")
    assert before == 0 and frozen > 0 and again == frozen and after == 0
    assert young == YOUNG_THRESHOLD != 700 and young_after == 700  # Python's own


def test_a_host_that_froze_its_own_heap_keeps_it_frozen() -> None:
    before, frozen, again, after, young, young_after = _counts("host")
    assert before > 0 and frozen == again == after == before
    assert young == young_after == 700  # the host's collector as the host set it
