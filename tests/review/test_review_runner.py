"""A review off the event loop: progress a deal at a time, resuming from stored deals,
cancelling, and workers at a lower priority than the bot."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from bot.review import (
    DealReview,
    ReviewError,
    ReviewSettings,
    review_deal,
    review_executor,
    run_review,
)
from bot.review.runner import NICENESS
from tests.review.review_helpers import normal_match

SETTINGS = ReviewSettings(seed=4, work=500, batches=1)


class CountingExecutor(ThreadPoolExecutor):
    """A thread pool that counts the deals handed to it."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.deals: list[int] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.deals.append(args[2])
        return super().submit(fn, *args, **kwargs)


async def test_a_review_reports_each_deal_as_it_finishes() -> None:
    record = normal_match(21)
    seen: list[tuple[int, int, int]] = []

    async def on_deal(deal: DealReview, done: int, total: int) -> None:
        seen.append((deal.deal, done, total))

    with CountingExecutor(2) as executor:
        review = await run_review(
            record, 2, executor=executor, settings=SETTINGS, on_deal=on_deal, parallel=2
        )
    assert [done for _, done, _ in seen] == list(range(1, 12))
    assert {deal for deal, _, _ in seen} == set(range(11))
    assert {total for _, _, total in seen} == {11}
    assert sorted(executor.deals) == list(range(11))
    assert [deal.deal for deal in review.deals] == list(range(11))
    assert review.deals[4] == review_deal(record, 2, 4, SETTINGS)


async def test_a_review_resumes_after_the_deals_already_done() -> None:
    record = normal_match(22)
    stored = [
        DealReview(deal, 0, entry["contract"], 0.0, ())
        for deal, entry in enumerate(record["deals"][:8])
    ]
    with CountingExecutor(1) as executor:
        resumed = await run_review(record, 0, executor=executor, settings=SETTINGS, done=stored)
    assert executor.deals == [8, 9, 10]
    assert resumed.deals[:8] == tuple(stored)
    assert resumed.deals[8] == review_deal(record, 0, 8, SETTINGS)


async def test_cancelling_a_review_hands_out_no_more_deals() -> None:
    record = normal_match(23)
    task: asyncio.Task[Any] | None = None

    async def on_deal(deal: DealReview, done: int, total: int) -> None:
        assert task is not None
        task.cancel()

    with CountingExecutor(1) as executor:
        task = asyncio.create_task(
            run_review(record, 1, executor=executor, settings=SETTINGS, on_deal=on_deal)
        )
        with pytest.raises(asyncio.CancelledError):
            await task
    assert executor.deals == [0]


async def test_a_review_that_cannot_be_made_is_refused_before_any_work() -> None:
    record = normal_match(24)
    record["deals"] = record["deals"][:3]
    record.pop("totals")
    with CountingExecutor(1) as executor:
        with pytest.raises(ReviewError, match="not over"):
            await run_review(record, 1, executor=executor, settings=SETTINGS)
        with pytest.raises(ReviewError, match="no seat"):
            await run_review(normal_match(24), 7, executor=executor, settings=SETTINGS)
    assert executor.deals == []


def test_review_workers_run_at_a_lower_priority_than_the_bot() -> None:
    executor = review_executor(1)
    try:
        niceness = executor.submit(os.nice, 0).result()
    finally:
        executor.shutdown()
    assert niceness == min(19, os.nice(0) + NICENESS)
