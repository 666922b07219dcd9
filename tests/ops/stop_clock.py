"""How long a process takes to stop, counted as the process's own doing.

A stop is timed from the signal to the process's end, less the time the process's main
thread stood ready to run while the machine's cores ran other work (Linux's
``/proc/<pid>/task/<pid>/schedstat``, its second figure). On a loaded 2-core machine that
queueing alone took a stop with nothing to do past a second; what a stop must never do,
wait (for a timeout, a thread, a rate limit, a computer's search), still counts in full:
a waiting thread is not ready to run. The main thread is the one that ends the process,
so its queueing is on the way of every stop. Where the kernel keeps no such figure, the
stop is timed in full.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

POLL = 0.005
"""Seconds between two readings of the main thread's queueing while the process stops."""


def queued_seconds(pid: int) -> float | None:
    """The seconds the main thread of process ``pid`` has stood ready to run but not run,
    since it started; None if the kernel does not say (or the process is gone)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/schedstat") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


async def time_stop(pid: int, send: Callable[[], None], end: Awaitable[T]) -> tuple[float, T]:
    """Call ``send`` (the signal), await ``end`` (the process's end); the seconds between,
    less the process's queueing for a core, and what ``end`` gave. The last reading is
    taken a few milliseconds before the end at most: the queueing after it still counts."""
    first = queued_seconds(pid)
    last = first

    async def watch() -> None:
        nonlocal last
        while (now := queued_seconds(pid)) is not None:
            last = max(last or now, now)
            await asyncio.sleep(POLL)

    sent = time.monotonic()
    send()
    watcher = asyncio.create_task(watch())
    try:
        result = await end
    finally:
        watcher.cancel()
    took = time.monotonic() - sent
    if first is None or last is None:
        return took, result
    return took - (last - first), result
