"""Running players off the event loop: the entry point the table service awaits.

Easy and normal decide in well under a millisecond and run inline; hard searches for up
to its budget and runs in a process pool, so the bot's event loop never blocks and two
tables can think at once. Everything crossing the process boundary pickles: the view
(cards unpickle to the shared instances), the level, the seed and the budget.
"""

from __future__ import annotations

import asyncio
import os
import random
from concurrent.futures import ProcessPoolExecutor

from bot.engine.actions import Action
from bot.engine.view import SeatView

from .levels import player_for

#: Levels cheap enough to run on the event loop itself.
INLINE_LEVELS = frozenset({"easy", "normal"})
DEFAULT_BUDGET = 1.0


def decide_sync(level: str, view: SeatView, seed: int, budget: float = DEFAULT_BUDGET) -> Action:
    """The action of a ``level`` player for ``view``, in this process: same inputs, same
    action (for hard, as long as the work cap and not the clock ends its search)."""
    return player_for(level).choose_action(view, random.Random(seed), budget)


class PlayerPool:
    """Owns the worker processes; use as ``async with PlayerPool() as pool``."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or min(2, os.cpu_count() or 1)
        self._executor: ProcessPoolExecutor | None = None

    async def __aenter__(self) -> PlayerPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (waiting for running decisions to finish)."""
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None

    async def decide(
        self, level: str, view: SeatView, seed: int, budget: float = DEFAULT_BUDGET
    ) -> Action:
        """The ``level`` player's action for ``view``, without blocking the event loop."""
        if level in INLINE_LEVELS:
            return decide_sync(level, view, seed, budget)
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=self.workers)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, decide_sync, level, view, seed, budget)
