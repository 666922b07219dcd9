"""The bot's reviews: asked for, queued, computed in the background, stored, shown.

A player's review is minutes of search. The service computes each (match, seat) once,
in low-priority worker processes (:mod:`.runner`), stores each deal as it finishes and
the whole review when done (``store.reviews``), and shows it from the store ever after.
Its event-loop work is small (a few store writes a deal), so a table's computers and
every acknowledgement go first. At most ``workers`` reviews run at once, and at most
``per_guild`` of one server; a review asked for beyond that waits its turn, in the
order asked, and knows its place in line. Whoever shows a review follows it with
:meth:`ReviewService.changed` (each finished deal, a new place in line, the end).

After a restart :meth:`ReviewService.restore` queues again every review the store has
queued or running: a running one resumes after its last stored deal. Knowing nothing of
Discord, the service takes match ids, seats and guild ids; whether the asker may see the
match is the front end's question, answered before it asks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field

from bot.store import ReviewState, ReviewStatus, Store, StoreError

from .result import DealReview, PlayerReview, ReviewSettings
from .runner import review_executor, run_review, stop_executor

log = logging.getLogger(__name__)

Key = tuple[int, int]
"""A review's key: (match id, seat)."""


@dataclass(frozen=True)
class ReviewTicket:
    """Where one review is, for whoever shows it: ``status``; ``deals_done`` of
    ``deals`` while it runs; ``place`` in line (1: next) while queued; the ``review``
    once done; ``failed`` if it stopped on an error (asking again tries again)."""

    match_id: int
    seat: int
    status: ReviewStatus
    deals_done: int = 0
    deals: int = 0
    place: int | None = None
    review: PlayerReview | None = None
    failed: bool = False


@dataclass(eq=False)
class _Job:
    match_id: int
    seat: int
    guild_id: int
    settings: ReviewSettings
    status: ReviewStatus = ReviewStatus.QUEUED
    deals_done: int = 0
    deals: int = 0
    review: PlayerReview | None = None
    failed: bool = False
    task: asyncio.Task[None] | None = None
    signal: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def key(self) -> Key:
        return self.match_id, self.seat


def _done(state: ReviewState) -> ReviewTicket:
    """The ticket of a review the store has done."""
    assert state.review is not None
    review = PlayerReview.from_json(state.review)
    deals = len(review.deals)
    return ReviewTicket(state.match_id, state.seat, ReviewStatus.DONE, deals, deals, review=review)


class ReviewService:
    """Reviews in the background (see the module). ``settings``: how a new review is
    computed (one already stored keeps its own); ``executor``: made when the first
    review starts (low-priority workers by default), stopped by :meth:`close`."""

    def __init__(
        self,
        store: Store,
        *,
        settings: ReviewSettings,
        workers: int = 1,
        per_guild: int = 1,
        executor: Callable[[int], Executor] = review_executor,
    ) -> None:
        self._store = store
        self._settings = settings
        self._workers = max(1, workers)
        self._per_guild = max(1, per_guild)
        self._make_executor = executor
        self._executor: Executor | None = None
        self._jobs: dict[Key, _Job] = {}
        self._line: list[_Job] = []  # queued, in the order asked
        self._closed = False

    async def request(self, match_id: int, seat: int, guild_id: int) -> ReviewTicket:
        """The review of ``seat`` in the finished match ``match_id``: from the store
        when done, else where it is now, queued for ``guild_id`` if nobody asked yet."""
        job = self._jobs.get((match_id, seat))
        if job is not None and not job.failed:
            return self._ticket(job)
        state, _ = await self._store.reviews.request(
            match_id, seat, guild_id, self._settings.to_json()
        )
        if state.status is ReviewStatus.DONE:
            return _done(state)
        job = self._jobs.get((match_id, seat))  # asked for meanwhile, by someone else
        if job is None or job.failed:
            settings = ReviewSettings.from_json(state.settings)
            job = self._enqueue(match_id, seat, state.guild_id, settings, state.deals_done)
        return self._ticket(job)

    async def stored(self, match_id: int, seat: int) -> PlayerReview | None:
        """The review, if the store has it done."""
        state = await self._store.reviews.get(match_id, seat)
        if state is None or state.status is not ReviewStatus.DONE:
            return None
        return _done(state).review

    def ticket(self, match_id: int, seat: int) -> ReviewTicket | None:
        """Where the review is now, if this process has it queued, running or just done."""
        job = self._jobs.get((match_id, seat))
        return None if job is None else self._ticket(job)

    async def changed(self, match_id: int, seat: int) -> ReviewTicket | None:
        """Wait until the review moves (a deal done, a new place in line, the end), and
        say where it is then: done from the store once it finished; None if this process
        does not have it and the store has not got it done."""
        job = self._jobs.get((match_id, seat))
        if job is None:
            state = await self._store.reviews.get(match_id, seat)
            return None if state is None or state.status is not ReviewStatus.DONE else _done(state)
        if job.status is not ReviewStatus.DONE and not job.failed:
            await job.signal.wait()
        return self._ticket(job)

    async def restore(self, owns: Callable[[int], bool] = lambda guild_id: True) -> int:
        """Queue again every review the store has queued or running for a guild this
        process ``owns`` (its shards'), in the order they were asked for; a running one
        resumes after its stored deals. How many."""
        states = [s for s in await self._store.reviews.unfinished() if owns(s.guild_id)]
        for state in states:
            if state.status is ReviewStatus.RUNNING:
                await self._store.reviews.mark_queued(state.match_id, state.seat)
            if (state.match_id, state.seat) not in self._jobs:
                settings = ReviewSettings.from_json(state.settings)
                self._enqueue(state.match_id, state.seat, state.guild_id, settings, 0)
        return len(states)

    async def close(self) -> None:
        """Stop every review at once: what is stored stays, the next start resumes."""
        self._closed = True
        tasks = [job.task for job in self._jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(stop_executor, executor)

    # -- the line --------------------------------------------------------------------------

    def _enqueue(
        self, match_id: int, seat: int, guild_id: int, settings: ReviewSettings, done: int
    ) -> _Job:
        job = _Job(match_id, seat, guild_id, settings, deals_done=done)
        self._jobs[job.key] = job
        self._line.append(job)
        self._pump()
        return job

    def _running(self) -> list[_Job]:
        return [job for job in self._jobs.values() if job.status is ReviewStatus.RUNNING]

    def _pump(self) -> None:
        """Start the first reviews in line that the limits allow, then tell the ones
        still waiting their new place."""
        if self._closed:
            return
        running = self._running()
        for job in list(self._line):
            if len(running) >= self._workers:
                break
            if sum(1 for other in running if other.guild_id == job.guild_id) >= self._per_guild:
                continue
            self._line.remove(job)
            job.status = ReviewStatus.RUNNING
            job.task = asyncio.create_task(self._run(job), name=f"review {job.key}")
            running.append(job)
        for job in self._line:
            self._signal(job)

    def _ticket(self, job: _Job) -> ReviewTicket:
        place = self._line.index(job) + 1 if job in self._line else None
        return ReviewTicket(
            job.match_id,
            job.seat,
            job.status,
            deals_done=job.deals_done,
            deals=job.deals,
            place=place,
            review=job.review,
            failed=job.failed,
        )

    @staticmethod
    def _signal(job: _Job) -> None:
        """Wake whoever waits on ``job`` (:meth:`changed`); later waiters wait anew."""
        job.signal.set()
        job.signal = asyncio.Event()

    # -- one review ------------------------------------------------------------------------

    async def _run(self, job: _Job) -> None:
        reviews = self._store.reviews
        try:
            await reviews.mark_running(job.match_id, job.seat)
            record = await self._store.matches.load_record(job.match_id)
            done = [DealReview.from_json(d) for d in await reviews.deals(job.match_id, job.seat)]
            job.deals, job.deals_done = len(record["deals"]), len(done)
            self._signal(job)

            async def on_deal(deal: DealReview, finished: int, deals: int) -> None:
                await reviews.add_deal(job.match_id, job.seat, deal.deal, deal.to_json())
                job.deals_done, job.deals = finished, deals
                self._signal(job)

            if self._executor is None:
                self._executor = self._make_executor(self._workers)
            review = await run_review(
                record,
                job.seat,
                executor=self._executor,
                settings=job.settings,
                done=done,
                on_deal=on_deal,
            )
            await reviews.finish(job.match_id, job.seat, review.to_json())
            job.review, job.status = review, ReviewStatus.DONE
        except asyncio.CancelledError:
            job.status = ReviewStatus.QUEUED  # the store says running: resumed at start
            raise
        except Exception:  # a bug or a failed write: logged, and asking again retries
            log.exception("review of match %s seat %s failed", job.match_id, job.seat)
            job.failed, job.status = True, ReviewStatus.QUEUED
            with contextlib.suppress(StoreError):
                await reviews.mark_queued(job.match_id, job.seat)
        finally:
            if job.status is ReviewStatus.DONE or job.failed:
                self._jobs.pop(job.key, None)
            self._signal(job)
            self._pump()
