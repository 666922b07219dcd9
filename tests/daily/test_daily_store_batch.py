"""The moves of clicks waiting at once are written in one transaction, on both backends,
and each click still gets its own answer: stored, or refused with nothing of it stored."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from datetime import date

import pytest

from bot.engine import PASS, STANDARD, Card, Play, deal_hands
from bot.store import AlreadyStored, Conflict, DailyDealRecord, DailyMove, NotFound, Store

DAY = date(2026, 12, 2)


def _moves(first: int, *codes: str, seat: int | None = None) -> list[DailyMove]:
    return [
        DailyMove(
            seq=first + offset,
            deal_index=0,
            seat=offset % 4 if seat is None else seat,
            action=PASS if code == "-" else Play(Card.parse(code)),
        )
        for offset, code in enumerate(codes)
    ]


async def _attempts(store: Store, people: int) -> list[int]:
    rng = random.Random(1)
    deals = [
        DailyDealRecord(
            deal_index=0, dealer=0, contract=STANDARD.contract_ids[0], hands=deal_hands(rng)
        )
    ]
    await store.daily.open_day(7, DAY, STANDARD, deals)
    started = [
        await store.daily.start_attempt(7, DAY, 100 + n, f"P{n}", _moves(0, "-", "-"))
        for n in range(people)
    ]
    return [attempt.attempt_id for attempt in started]


async def _outcomes(*calls: Awaitable[None]) -> list[type[BaseException] | None]:
    """Each call's end, run at once (so they wait for the store together)."""
    ended = await asyncio.gather(*calls, return_exceptions=True)
    return [None if e is None else type(e) for e in ended]  # type: ignore[misc]


async def _stored(store: Store, attempt_id: int) -> int:
    return len(await store.daily.moves(attempt_id))


async def test_clicks_waiting_together_share_a_transaction_each_answered_alone(
    store: Store,
) -> None:
    ann, bob, cas, dirk, eve = await _attempts(store, 5)
    await store.daily.append_moves(dirk, _moves(2, "-", "-"), {0: 10}, finished=True)
    before = store.daily.append_transactions
    outcomes = await _outcomes(
        store.daily.append_moves(ann, _moves(2, "-"), {}),
        store.daily.append_moves(bob, _moves(1, "-"), {}),  # move 1 is stored: stale
        store.daily.append_moves(cas, _moves(5, "-"), {}),  # moves 2 to 4 are missing
        store.daily.append_moves(dirk, _moves(4, "-"), {}),  # finished
        store.daily.append_moves(eve + 99, _moves(2, "-"), {}),  # no such attempt
        store.daily.append_moves(eve, _moves(2, "-", "-"), {0: -20}, finished=True),
    )
    assert outcomes == [None, AlreadyStored, Conflict, Conflict, NotFound, None]
    assert store.daily.append_transactions == before + 1
    assert [await _stored(store, a) for a in (ann, bob, cas, dirk, eve)] == [3, 2, 2, 4, 4]
    scores = {s.attempt_id: s for s in await store.daily.day_scores(7, DAY)}
    assert (scores[eve].scores, scores[eve].finished) == ((-20,), True)
    assert (scores[ann].scores, scores[ann].finished) == ((None,), False)


async def test_two_calls_for_one_attempt_in_a_batch_are_checked_in_order(store: Store) -> None:
    [ann] = await _attempts(store, 1)
    outcomes = await _outcomes(
        store.daily.append_moves(ann, _moves(2, "-"), {}),
        store.daily.append_moves(ann, _moves(3, "-"), {}),  # after the first: fits
        store.daily.append_moves(ann, _moves(3, "2C"), {}),  # the same move again
        store.daily.append_moves(ann, _moves(4, "-"), {0: 5}, finished=True),
        store.daily.append_moves(ann, _moves(5, "-"), {}),  # after the end
    )
    assert outcomes == [None, None, AlreadyStored, None, Conflict]
    assert [m.action for m in await store.daily.moves(ann)] == [PASS] * 5


async def test_a_batch_the_database_refuses_is_written_again_call_by_call(store: Store) -> None:
    """A refusal only the database sees (here a seat out of range) fails the whole
    transaction: each call is then written alone, so only the faulty one is refused."""
    ann, bob, cas = await _attempts(store, 3)
    before = store.daily.append_transactions
    outcomes = await _outcomes(
        store.daily.append_moves(ann, _moves(2, "-"), {}),
        store.daily.append_moves(bob, _moves(2, "-", seat=9), {}),
        store.daily.append_moves(cas, _moves(2, "-"), {}),
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert outcomes[1] is not None and issubclass(outcomes[1], Conflict)
    assert store.daily.append_transactions == before + 1 + 3
    assert [await _stored(store, a) for a in (ann, bob, cas)] == [3, 2, 3]


async def test_a_click_given_up_before_its_turn_is_not_written(store: Store) -> None:
    ann, bob = await _attempts(store, 2)
    first = asyncio.ensure_future(store.daily.append_moves(ann, _moves(2, "-"), {}))
    given_up = asyncio.ensure_future(store.daily.append_moves(bob, _moves(2, "-"), {}))
    await asyncio.sleep(0)  # both are queued; the writer has not begun
    given_up.cancel()
    await first
    with pytest.raises(asyncio.CancelledError):
        await given_up
    assert [await _stored(store, a) for a in (ann, bob)] == [3, 2]
    await store.daily.append_moves(bob, _moves(2, "-"), {})  # tried again: stored
    assert await _stored(store, bob) == 3
