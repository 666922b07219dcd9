"""The bot's reviews in the background: queued, run a deal at a time with progress,
stored once and shown from the store; a server's limit and the place in line; a
restart resumes a review after its stored deals."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.review import ReviewSettings, run_review
from bot.review.service import ReviewService, ReviewTicket
from bot.store import ReviewStatus, Store, open_store
from tests.sqlite_template import fresh_sqlite
from tests.store.store_helpers import finished_match

SETTINGS = ReviewSettings(seed=4, work=300, batches=1)


class GatedExecutor(ThreadPoolExecutor):
    """Threads that start a deal only once ``gate`` is open, and count the deals."""

    def __init__(self, workers: int, gate: threading.Event) -> None:
        super().__init__(workers)
        self.gate = gate
        self.deals: list[tuple[int, int]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.deals.append((args[1], args[2]))  # (seat, deal)

        def gated() -> Any:
            self.gate.wait(timeout=60)
            return fn(*args, **kwargs)

        return super().submit(gated)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as opened:
        yield opened


def _service(
    store: Store, gate: threading.Event, made: list[GatedExecutor], **limits: int
) -> ReviewService:
    def executor(workers: int) -> GatedExecutor:
        made.append(GatedExecutor(workers, gate))
        return made[-1]

    return ReviewService(store, settings=SETTINGS, executor=executor, **limits)


async def _until_done(service: ReviewService, ticket: ReviewTicket) -> list[ReviewTicket]:
    seen = [ticket]
    while seen[-1].status is not ReviewStatus.DONE:
        changed = await service.changed(ticket.match_id, ticket.seat)
        assert changed is not None and not changed.failed
        seen.append(changed)
    return seen


async def test_a_review_shows_its_progress_then_is_stored_and_shown_from_the_store(
    store: Store,
) -> None:
    match_id, _ = await finished_match(store, seed=30)
    gate, made = threading.Event(), []
    service = _service(store, gate, made)
    try:
        first = await service.request(match_id, 1, guild_id=1)
        assert first.status is ReviewStatus.RUNNING
        gate.set()
        seen = await _until_done(service, first)
    finally:
        await service.close()
    progress = [(t.deals_done, t.deals) for t in seen if t.status is ReviewStatus.RUNNING]
    assert progress[-1] == (11, 11)
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)
    assert len({done for done, _ in progress}) >= 5  # shown deal by deal, not all at the end
    review = seen[-1].review
    assert review is not None and len(review.deals) == 11
    assert sorted(deal for _, deal in made[0].deals) == list(range(11))

    again = _service(store, gate, made)  # another process, later: from the store
    shown = await again.request(match_id, 1, guild_id=1)
    await again.close()
    assert shown.status is ReviewStatus.DONE and shown.review is not None
    assert shown.review.to_json() == review.to_json()
    assert len(made) == 1  # nothing computed again
    record = await store.matches.load_record(match_id)
    with ThreadPoolExecutor(1) as pool:
        direct = await run_review(record, 1, executor=pool, settings=SETTINGS)
    assert direct.to_json() == review.to_json()


async def test_a_server_over_its_limit_waits_its_place_in_line(store: Store) -> None:
    ids = [(await finished_match(store, seed=40 + i, channel_id=10 + i))[0] for i in range(3)]
    gate, made = threading.Event(), []
    service = _service(store, gate, made, workers=2, per_guild=1)
    try:
        running = await service.request(ids[0], 0, guild_id=1)
        waiting = await service.request(ids[1], 0, guild_id=1)
        elsewhere = await service.request(ids[2], 0, guild_id=2)
        assert running.status is ReviewStatus.RUNNING
        assert (waiting.status, waiting.place) == (ReviewStatus.QUEUED, 1)
        assert elsewhere.status is ReviewStatus.RUNNING  # another server is not held up
        assert await service.request(ids[1], 0, guild_id=1) == waiting  # asked again: same
        stored = await store.reviews.get(ids[1], 0)
        assert stored is not None and stored.status is ReviewStatus.QUEUED
        gate.set()
        await _until_done(service, running)
        after = service.ticket(ids[1], 0)
        assert after is not None and after.status is not ReviewStatus.QUEUED
        await _until_done(service, waiting)
        await _until_done(service, elsewhere)
    finally:
        await service.close()
    for match_id in ids:
        done = await store.reviews.get(match_id, 0)
        assert done is not None and done.status is ReviewStatus.DONE


async def test_a_restart_resumes_a_running_review_after_its_stored_deals(store: Store) -> None:
    match_id, _ = await finished_match(store, seed=50)
    gate, made = threading.Event(), []
    first = _service(store, gate, made)
    ticket = await first.request(match_id, 2, guild_id=1)
    gate.set()
    while ticket.deals_done < 3:
        changed = await first.changed(match_id, 2)
        assert changed is not None
        ticket = changed
    gate.clear()  # the next deals wait: the bot stops in the middle of the review
    await first.close()
    stopped = await store.reviews.get(match_id, 2)
    assert stopped is not None and stopped.status is ReviewStatus.RUNNING
    kept = stopped.deals_done
    assert 3 <= kept < 11

    gate.set()
    second = _service(store, gate, made)
    try:
        assert await second.restore() == 1
        resumed = second.ticket(match_id, 2)
        assert resumed is not None
        seen = await _until_done(second, resumed)
    finally:
        await second.close()
    assert sorted(deal for _, deal in made[1].deals) == list(range(kept, 11))  # only the rest
    review = seen[-1].review
    assert review is not None and [deal.deal for deal in review.deals] == list(range(11))
    record = await store.matches.load_record(match_id)
    with ThreadPoolExecutor(1) as pool:
        direct = await run_review(record, 2, executor=pool, settings=SETTINGS)
    assert review.to_json() == direct.to_json()  # the same review as without the restart
