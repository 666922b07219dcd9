"""A busy pool shortens budgets instead of queueing decisions (on a fake clock: untimed)."""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.engine.actions import Action
from bot.engine.view import SeatView, seat_view
from bot.players import pool as pool_module
from bot.players.pool import PlayerPool, worker_started
from tests.players.players_helpers import random_position


def _view() -> SeatView:
    match = random_position(4, "queens", deals_before=1, moves=30)
    assert match.to_act is not None
    return seat_view(match, match.to_act)


async def test_busy_pool_hands_out_what_is_left_of_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budgets: list[float] = []
    inline: list[float] = []
    release = threading.Event()

    def held_decision(level: str, view: SeatView, seed: int, budget: float) -> Action:
        if budget > 0:  # a worker's decision: record it and hold the worker
            budgets.append(budget)
            release.wait(5)
        else:
            inline.append(budget)
        return view.legal[0]

    monkeypatch.setattr(pool_module, "decide_sync", held_decision)
    now = [100.0]
    view = _view()
    pool = PlayerPool(workers=2, clock=lambda: now[0])
    pool._executor = ThreadPoolExecutor(max_workers=2)  # the same hand-off, in threads
    try:
        first = [asyncio.create_task(pool.decide("hard", view, s, 1.0)) for s in range(2)]
        await asyncio.sleep(0)
        assert pool.share(1.0) == 0.0  # both workers booked for a whole second
        now[0] = 100.7  # 0.7 s on: both workers are expected free in 0.3 s
        later = [asyncio.create_task(pool.decide("hard", view, s, 1.0)) for s in range(2, 5)]
        await asyncio.sleep(0)
        release.set()
        actions = await asyncio.gather(*first, *later)
    finally:
        pool.close()
    assert budgets[:2] == [1.0, 1.0]
    # The third and fourth get the 0.7 s left after their 0.3 s wait; then both workers
    # are booked until 101.7, a whole second away: the fifth is decided on the spot.
    assert budgets[2:] == [pytest.approx(0.7), pytest.approx(0.7)]
    assert inline == [0.0]
    assert all(action in view.legal for action in actions)
    assert pool.share(1.0) == 1.0  # all answered: the workers are free again


def test_default_workers_leave_a_core_to_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    for cores, workers in [(1, 1), (2, 1), (3, 2), (16, 2)]:
        monkeypatch.setattr(pool_module.os, "cpu_count", lambda cores=cores: cores)
        assert PlayerPool().workers == workers


async def test_closing_the_pool_ends_its_workers_without_waiting_for_their_search() -> None:
    """A decision still being searched is dropped at a stop: the workers the pool
    started are ended (and no other process), and whoever awaited it hears so."""
    bystander = multiprocessing.get_context().Process(target=time.sleep, args=(30,))
    bystander.start()
    pool = PlayerPool(workers=1)
    try:
        searching = asyncio.create_task(pool.decide("hard", _view(), 1, 20.0))
        while not [p for p in multiprocessing.active_children() if p is not bystander]:
            await asyncio.sleep(0.01)
        workers = [p for p in multiprocessing.active_children() if p is not bystander]
        began = time.monotonic()
        pool.close()
        assert time.monotonic() - began < 10  # not the search's 20 s
        assert not any(worker.is_alive() for worker in workers)
        assert bystander.is_alive()
        with pytest.raises(BrokenProcessPool):
            await searching
    finally:
        bystander.terminate()
        bystander.join()


def _deaf_to_sigterm() -> None:
    """A worker's start as if SIGTERM still had a handler of the bot's (a worker forked
    before it took its own signals): it lives on through a SIGTERM."""
    worker_started()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


async def test_closing_the_pool_ends_a_worker_that_lives_through_sigterm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that would live on through SIGTERM (one forked a moment before a stop,
    its signals still the bot's) is ended at once all the same, its search dropped."""
    monkeypatch.setattr(pool_module, "worker_started", _deaf_to_sigterm)
    pool = PlayerPool(workers=1)
    searching = asyncio.create_task(pool.decide("hard", _view(), 1, 20.0))
    while not multiprocessing.active_children():
        await asyncio.sleep(0.01)
    workers = multiprocessing.active_children()
    await asyncio.sleep(0.5)  # its start done: SIGTERM ignored from here on
    began = time.monotonic()
    pool.close()
    assert time.monotonic() - began < 10  # not the search's 20 s
    assert not any(worker.is_alive() for worker in workers)
    with pytest.raises(BrokenProcessPool):
        await searching
