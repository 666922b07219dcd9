"""The daily service's CPU per click, without Discord: ``python bench/daily_service.py``.

``--people`` people (default 50) each play a whole attempt at one server's day through
:class:`~bot.daily.DailyService` on a SQLite store in a temporary folder, one after the
other, clicking a legal move drawn at random as soon as the previous answer is back.
``--seed`` gives the day's deals (the bot's secret they are dealt under) and the
clicks: the same seed plays the same attempts on the same day. A click is what the front
end asks of the service for one button (``bot/ui/daily.py``): the move checked with
:meth:`turn` before the click is acknowledged, then played with :meth:`act` (the move,
the computers' answers until the person is to act again, the store's write, the
person's new view).

Printed: the CPU time of the process per click (every thread) and of the event loop's
thread alone (the thread that bounds ``bench/daily.py``), and the loop thread's split:
the computers' decisions (each call of the daily player), the store (the loop thread's
CPU inside the store's calls: its round trips to the database's thread, its rows made
into values) and the rest, which is the engine and the service (checking and applying
moves, building the views). The people play one after the other, so nothing else runs
on the loop meanwhile and each part's thread time is its own; but each click's write is
then a transaction of its own, where under load the writes waiting together share one
(``bench/daily.py``: about ten clicks a transaction), so the store's part is larger here
than there. The attempts' starts (:meth:`play`) are left out; ``--profile N`` prints
the N costliest functions of the clicks by cProfile too (slower: for finding where the
time goes, not for the figures).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's bot

from bot.daily import DailyService
from bot.daily.computers import daily_decider
from bot.engine import Action, SeatView
from bot.store import open_store
from bot.store.daily import SECRET

GUILD = 1


class Split:
    """The loop thread's CPU seconds by part, summed over the clicks."""

    def __init__(self) -> None:
        self.decisions = 0.0
        self.store = 0.0
        self.counting = False

    def timed_decider(
        self, decide: Callable[[SeatView, int], Awaitable[Action]]
    ) -> Callable[[SeatView, int], Awaitable[Action]]:
        async def timed(view: SeatView, seed: int) -> Action:
            start = time.thread_time()
            action = await decide(view, seed)
            if self.counting:
                self.decisions += time.thread_time() - start
            return action

        return timed


class TimedStore:
    """The daily store, with the loop thread's CPU inside each of its coroutines added to
    ``split.store`` (nothing else runs on the loop while one is awaited here)."""

    def __init__(self, store: Any, split: Split) -> None:
        self._store = store
        self._split = split

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if not asyncio.iscoroutinefunction(found):
            return found

        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return await found(*args, **kwargs)
            finally:
                if self._split.counting:
                    self._split.store += time.thread_time() - start

        return timed


async def play_day(people: int, seed: int, folder: Path, profile: cProfile.Profile | None) -> None:
    split = Split()
    async with await open_store(folder / "daily.sqlite3") as store:
        await store.facts.setdefault(SECRET, f"{seed:064x}")  # the same deals every run
        service = DailyService(
            TimedStore(store.daily, split),  # type: ignore[arg-type]
            store.tables,
            decide=split.timed_decider(daily_decider),
        )
        rng = random.Random(seed)
        clicks = 0
        process = thread = 0.0
        for user in range(people):
            view = await service.play(GUILD, user, f"Player {user}")
            while not view.finished:
                action = rng.choice(view.seat.legal)
                split.counting = True
                if profile is not None:
                    profile.enable()
                p0, t0 = time.process_time(), time.thread_time()
                await service.turn(view.attempt_id, user, view.step, action)
                view = await service.act(view.attempt_id, user, view.step, action)
                process += time.process_time() - p0
                thread += time.thread_time() - t0
                if profile is not None:
                    profile.disable()
                split.counting = False
                clicks += 1
    ms = 1000 / clicks
    print(f"{people} attempts, {clicks} clicks ({clicks / people:.0f} an attempt), seed {seed}")
    print(f"CPU a click: process {process * ms:.3f} ms, loop thread {thread * ms:.3f} ms")
    rest = thread - split.decisions - split.store
    print(
        f"loop thread's split a click: decisions {split.decisions * ms:.3f} ms, "
        f"store {split.store * ms:.3f} ms, engine and service {rest * ms:.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, metavar="N", default=0)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    profile = cProfile.Profile() if args.profile else None
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(play_day(args.people, args.seed, Path(folder), profile))
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
