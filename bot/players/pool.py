"""Running players off the event loop: the entry point the table service awaits.

Easy and normal decide in well under a millisecond and run inline; hard searches for up
to its budget and runs in a process pool, so the bot's event loop never blocks and two
tables can think at once. Everything crossing the process boundary pickles: the view
(cards unpickle to the shared instances), the level, the seed and the budget.

Under load the pool shortens budgets instead of queueing. It keeps an estimate of when
each worker will be free (every decision handed out books its budget on the worker that
frees first), and a new decision gets what is left of its budget after the wait it
would have: no decision waits and thinks longer than its budget (as far as the
estimate goes; a search usually ends before its budget, so the estimate errs on the
safe side). When less than :data:`MIN_BUDGET` is left, it is decided at once on the
event loop with no budget (hard with no budget plays as normal, in well under a
millisecond). So many tables of hard computers play faster, not slower, when they crowd
the pool. By default the workers leave one core to the bot's own process (two workers
from three cores, one on two), so the event loop answers interactions while they search.
Lowering the workers' priority instead was tried and dropped: on a busy machine the
searches then got so little of a core that decisions overran their budget by seconds.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

from bot.engine.actions import Action
from bot.engine.view import SeatView

from .levels import player_for

#: Levels cheap enough to run on the event loop itself.
INLINE_LEVELS = frozenset({"easy", "normal"})
DEFAULT_BUDGET = 1.0

#: The least budget worth a trip to a worker process, in seconds; a smaller share of a
#: saturated pool is decided inline with no budget.
MIN_BUDGET = 0.05

ORPHAN_CHECK = 0.5
"""Seconds between a worker's looks whether the bot's process still lives."""


def worker_started() -> None:
    """A worker leaves the signals to the bot, and ends with it.

    Forked from the bot's process, it shares its event loop's wake-up pipe: a signal it
    gets would also reach the bot, and Ctrl-C, which a terminal sends to every process
    of the group, would reach it once per worker (the bot takes a second signal as
    "stop at once"). So Ctrl-C is ignored here (the bot ends its workers when it stops)
    and SIGTERM ends a worker as it ends any process. A bot killed outright (SIGKILL)
    ends no one: the worker notices it has lost its parent and ends itself."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    bot = os.getppid()
    threading.Thread(target=_end_with, args=(bot,), name="ends-with-the-bot", daemon=True).start()


def _end_with(bot: int) -> None:
    """End this worker once the bot's process ``bot`` is gone (it is then another's
    child), within :data:`ORPHAN_CHECK` seconds."""
    while os.getppid() == bot:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)


def decide_sync(level: str, view: SeatView, seed: int, budget: float = DEFAULT_BUDGET) -> Action:
    """The action of a ``level`` player for ``view``, in this process: same inputs, same
    action (for hard only with no budget: with one, its clock ends the search)."""
    return player_for(level).choose_action(view, random.Random(seed), budget)


class KnownWorkers:
    """A multiprocessing context that remembers the processes it starts: the workers a
    :class:`ProcessPoolExecutor` made with it, which it offers no public way to reach
    before Python 3.14 (``terminate_workers``). Everything else is the base context's."""

    def __init__(self, base: BaseContext | None = None) -> None:
        self._base: Any = base or multiprocessing.get_context()
        self.started: weakref.WeakSet[BaseProcess] = weakref.WeakSet()

    def Process(self, *args: Any, **kwargs: Any) -> BaseProcess:
        process: BaseProcess = self._base.Process(*args, **kwargs)
        self.started.add(process)
        return process

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


class PlayerPool:
    """Owns the worker processes; use as ``async with PlayerPool() as pool``. Default
    workers: one core fewer than the machine has, at least one and at most two.

    ``clock`` is the time source of the workers' schedule (tests pass a fake one)."""

    def __init__(
        self, workers: int | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.workers = workers or max(1, min(2, (os.cpu_count() or 1) - 1))
        self._executor: Executor | None = None
        self._context = KnownWorkers()
        self._clock = clock
        self._free = [0.0] * self.workers  # when each worker is expected to be free

    async def __aenter__(self) -> PlayerPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers at once: a decision still being searched is dropped, not
        waited for (it may take the whole budget, up to a minute). Whoever awaited it
        has stopped already (the bot is closing); nothing of it was stored."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # ProcessPoolExecutor cannot stop a running call; its workers are ended instead
        # (the context it started them with knows them), with SIGKILL: a worker forked a
        # moment ago that has not yet taken its signals (worker_started) still has the
        # bot's, whose handler would pass a SIGTERM on to the bot through the wake-up
        # pipe they share (the bot then heard "SIGTERM again" and stopped at once) and
        # leave the worker alive. The executor's own thread then sees them gone and ends
        # at once: waiting for it here keeps it from closing its pipe while Python's
        # exit writes to it (an error at exit otherwise).
        for worker in list(self._context.started):
            if worker.is_alive():
                worker.kill()
        executor.shutdown(wait=True, cancel_futures=True)

    def share(self, budget: float) -> float:
        """The budget a decision handed out now gets: ``budget`` less its expected wait
        for a worker, or 0 when less than :data:`MIN_BUDGET` would be left."""
        wait = max(0.0, min(self._free) - self._clock())
        left = budget - wait
        return left if left >= MIN_BUDGET else 0.0

    async def decide(
        self, level: str, view: SeatView, seed: int, budget: float = DEFAULT_BUDGET
    ) -> Action:
        """The ``level`` player's action for ``view``, without blocking the event loop;
        the budget is cut to :meth:`share` of it when the workers are busy."""
        if level in INLINE_LEVELS:
            return decide_sync(level, view, seed, budget)
        budget = self.share(budget)
        if budget <= 0:
            return decide_sync(level, view, seed, 0.0)
        worker = min(range(self.workers), key=self._free.__getitem__)
        done = max(self._clock(), self._free[worker]) + budget
        self._free[worker] = done
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                # (a context by what it offers, not by its class)
                mp_context=self._context,  # type: ignore[call-overload]
                initializer=worker_started,
            )
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._executor, decide_sync, level, view, seed, budget
            )
        finally:
            if self._free[worker] == done:  # nothing booked after it: free from now
                self._free[worker] = min(done, self._clock())
