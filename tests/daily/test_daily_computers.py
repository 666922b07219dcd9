"""The daily computers are deterministic: the same position gives the same action in
another process, under load, and without ever reading a clock."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date

import pytest

from bot.daily import DailyService
from bot.daily.attempt import Attempt
from bot.daily.computers import DAILY_LEVEL, decision_seed, play_computers
from bot.daily.program import PERSON_SEAT, day_program, day_seed
from bot.engine import STANDARD, Action, SeatView
from bot.players.pool import decide_sync
from bot.store import Store
from tests.daily.daily_helpers import GUILD, at_random, play_out

PROGRAM = day_program(day_seed("ab" * 32, GUILD, date(2026, 12, 2)), 4, STANDARD)


def _computer_positions() -> list[tuple[SeatView, int]]:
    """Every computer decision of an attempt whose person plays the first legal action."""
    attempt = Attempt(PROGRAM, "Ann")
    positions = []
    while not attempt.finished:
        seat = attempt.to_act
        assert seat is not None
        view = attempt.view_for(seat)
        if seat == PERSON_SEAT:
            attempt.apply(view.legal[0])
            continue
        seed = decision_seed(PROGRAM.seed, attempt.deal_index, attempt.decision_number)
        positions.append((view, seed))
        attempt.apply(decide_sync(DAILY_LEVEL, view, seed, 0.0))
    return positions


def test_the_daily_computers_read_no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = _computer_positions()
    expected = [decide_sync(DAILY_LEVEL, view, seed, 0.0) for view, seed in positions]

    def no_clock() -> float:
        raise AssertionError("a daily computer read the clock")

    for name in ("time", "monotonic", "perf_counter", "process_time"):
        monkeypatch.setattr(time, name, no_clock)
    assert [decide_sync(DAILY_LEVEL, view, seed, 0.0) for view, seed in positions] == expected


def test_another_process_busy_with_searches_decides_the_same() -> None:
    """A worker process (another interpreter, as another machine would be), kept busy by
    hard searches on the clock, gives every daily decision unchanged."""
    positions = _computer_positions()
    expected = [decide_sync(DAILY_LEVEL, view, seed, 0.0) for view, seed in positions]
    busy_view, busy_seed = positions[len(positions) // 2]
    with ProcessPoolExecutor(max_workers=1) as pool:
        searches = [
            pool.submit(decide_sync, "hard", busy_view, busy_seed + n, 0.2) for n in range(3)
        ]
        decided = [
            pool.submit(decide_sync, DAILY_LEVEL, view, seed, 0.0) for view, seed in positions
        ]
        assert [future.result() for future in decided] == expected
        assert all(future.result() in busy_view.legal for future in searches)


async def test_with_a_busy_pool_two_people_get_the_same_computer_moves(
    store: Store,
) -> None:
    """Ann's computers decide in a worker process that hard searches keep busy; Bob's on
    the event loop, as the bot does. The same moves give the same game."""
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(max_workers=1) as pool:
        decisions = 0

        async def in_the_busy_pool(view: SeatView, seed: int) -> Action:
            nonlocal decisions
            decisions += 1
            if decisions % 4 == 1:  # a table's search queued ahead of it, on the clock
                pool.submit(decide_sync, "hard", view, seed, 0.05)
            return await loop.run_in_executor(pool, decide_sync, DAILY_LEVEL, view, seed, 0.0)

        busy = DailyService(store.daily, store.tables, decide=in_the_busy_pool)
        ann = await play_out(busy, await busy.play(GUILD, 100, "Ann"), at_random(4))
    quiet = DailyService(store.daily, store.tables)
    bob = await play_out(quiet, await quiet.play(GUILD, 101, "Bob"), at_random(4))
    assert [m.action for m in await store.daily.moves(ann.attempt_id)] == [
        m.action for m in await store.daily.moves(bob.attempt_id)
    ]


async def test_the_computers_play_until_the_person_is_to_act() -> None:
    attempt = Attempt(PROGRAM, "Ann")

    async def normal(view: SeatView, seed: int) -> Action:
        return decide_sync(DAILY_LEVEL, view, seed, 0.0)

    moves = await play_computers(attempt, normal)
    assert attempt.person_to_act and all(m.seat != PERSON_SEAT for m in moves)
    assert await play_computers(attempt, normal) == []
