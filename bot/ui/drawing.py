"""Deal pictures drawn in processes of their own, beside the bot's process.

A deal picture costs a few milliseconds of CPU (pasting the kept parts, the PNG
encoding). Drawn in the bot's own process, in its picture thread, most of that holds
the interpreter's lock the event loop needs, so with hundreds of people clicking their
daily deals the pictures slowed every answer and used one core at most. The
``BONKEN_DRAWING_PROCESSES`` processes (1 by default) draw them instead, on the
machine's other cores, each with its own fonts and kept parts and pictures
(:mod:`bot.render.layers`, :func:`bot.render.table_image.table_png`): the bot only
sends a small frozen scene and gets the PNG bytes back, the same bytes the bot's own
thread would draw (``tests/discord/test_discord_drawing.py``). With 0 the picture
thread draws them, as before (the tests' harness does).

A process that dies (killed, out of memory) breaks only the pictures under way: they
are logged and sent as text, and the next picture starts new processes. The processes
leave the signals to the bot and end with it, as the computers' workers do
(:func:`~bot.players.pool.worker_started`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.players.pool import worker_started
from bot.render.deal_image import deal_png
from bot.render.scene import TableScene

log = logging.getLogger(__name__)


class DrawingProcesses:
    """``processes`` processes drawing deal pictures (none: the caller draws itself)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    @property
    def used(self) -> bool:
        """True if pictures are sent to the processes (else drawn in the bot's thread)."""
        return self.processes > 0

    def start(self) -> None:
        """Start the processes now (each imports the drawing code once, about a second
        of CPU), so the first click does not wait for it."""
        if self.used:
            for _ in range(self.processes):
                self._executor().submit(_ready)

    async def deal_png(self, scene: TableScene) -> bytes:
        """``deal_png(scene)``, drawn in one of the processes. Raises what drawing
        raised; a broken pool is dropped (the next call starts a new one)."""
        pool = self._executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, deal_png, scene)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        """Stop the processes (pictures under way are dropped: the bot is stopping)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a fresh interpreter, never a fork of a process running threads
            # (the store's, the picture thread) whose locks it could inherit held.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=worker_started
            )
        return self._pool


def _ready() -> None:
    """Nothing: the process has imported the drawing code by the time it runs this."""
