"""The event loop's stall as the benchmarks measure it (``bench/stall.py``, ``live.py``,
``web.py``): a task asks to sleep ``tick`` seconds again and again; how late each wake-up
comes is the loop's stall in wall time, and the loop thread's CPU between two wake-ups is
its own work (the part no busy machine adds)."""

from __future__ import annotations

import asyncio
import time


class LoopTicker:
    """Ticks on the running loop from :meth:`start` to :meth:`stop`."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.lateness: list[float] = []
        """Seconds each wake-up came after it was due."""
        self.busy: list[float] = []
        """CPU seconds of the loop's thread between two ticks."""
        self._running = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._running = True
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop after the tick under way (it is counted)."""
        self._running = False
        if self._task is not None:
            await self._task

    async def _run(self) -> None:
        while self._running:
            asked, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.tick)
            self.lateness.append(time.perf_counter() - asked - self.tick)
            self.busy.append(time.thread_time() - cpu)
