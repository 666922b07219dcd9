"""A review off the event loop: one deal at a time in low-priority worker processes.

A player's review is minutes of search, so the bot must never run it on its event loop
nor let it slow a table's computers. :func:`run_review` hands the deals to an executor
(:func:`review_executor`: worker processes at a lower priority than the bot and its
players' pool, so a busy machine serves the tables first) and awaits them, reporting
each finished deal to ``on_deal`` (to store it, and to show "deal 4 of 11"). Deals
already reviewed (``done``, from the store after a restart) are not computed again, so
a restarted review resumes where it stopped. Cancelling the awaiting task cancels the
deals not yet started; a deal already running in a worker finishes there and its
result is dropped.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from bot.players.pool import worker_started

from .analysis import assemble, check_request, finished_match, review_deal
from .result import DealReview, PlayerReview, ReviewSettings

#: How much lower a review worker's priority is than the bot's (``nice`` steps).
NICENESS = 10

OnDeal = Callable[[DealReview, int, int], Awaitable[None]]
"""Called with each deal's review as it finishes, the deals done and the deals in all."""


def lower_priority() -> None:
    """A review worker's initializer: run at :data:`NICENESS` below the bot, and leave
    the signals to the bot and end with it, as the computers' workers do."""
    os.nice(NICENESS)
    worker_started()


def review_executor(workers: int = 1) -> ProcessPoolExecutor:
    """An executor for reviews: ``workers`` processes at low priority. The bot's owner
    shuts it down with the bot (:func:`stop_executor`)."""
    return ProcessPoolExecutor(max_workers=workers, initializer=lower_priority)


def stop_executor(executor: Executor) -> None:
    """Stop a review executor at once: a deal still being searched is dropped, not
    waited for (its review resumes from the deals stored, at the next start)."""
    if isinstance(executor, ProcessPoolExecutor):
        for worker in list(executor._processes.values()):  # type: ignore[attr-defined]
            worker.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


async def run_review(
    record: Any,
    seat: int,
    *,
    executor: Executor,
    settings: ReviewSettings,
    done: Iterable[DealReview] = (),
    on_deal: OnDeal | None = None,
    parallel: int = 1,
) -> PlayerReview:
    """``seat``'s review of the finished match ``record``, computed in ``executor``,
    at most ``parallel`` deals at once, skipping the deals in ``done``.

    Raises :class:`~.analysis.ReviewError` at once for a record that cannot be
    reviewed (before any work is handed out)."""
    match = finished_match(record)
    check_request(match, seat, 0)
    results = {deal.deal: deal for deal in done if deal.seat == seat}
    todo = [deal for deal in range(len(match.deals)) if deal not in results]
    total = len(match.deals)
    loop = asyncio.get_running_loop()
    running: set[asyncio.Future[DealReview]] = set()
    try:
        while todo or running:
            await asyncio.sleep(0)  # a cancel asked for while reporting stops here
            while todo and len(running) < max(1, parallel):
                deal = todo.pop(0)
                running.add(
                    loop.run_in_executor(executor, review_deal, record, seat, deal, settings)
                )
            finished, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: f.result().deal):
                review = future.result()
                results[review.deal] = review
                if on_deal is not None:
                    await on_deal(review, len(results), total)
    finally:
        for future in running:
            future.cancel()
    return assemble(match, seat, settings, results.values())
