"""The daily deals' store, on both backends: days stored once, one attempt per person and
day, every click's moves in one transaction, results settled, the secret kept."""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

import pytest

from bot.engine import PASS, STANDARD, TWELVE, Card, Play, deal_hands
from bot.store import (
    AlreadyStored,
    Conflict,
    DailyDealRecord,
    DailyMove,
    NotFound,
    Store,
    open_store,
)

DAY = date(2026, 12, 2)


def _deals(seed: int, count: int = 2) -> list[DailyDealRecord]:
    rng = random.Random(seed)
    return [
        DailyDealRecord(
            deal_index=i, dealer=i % 4, contract=STANDARD.contract_ids[i], hands=deal_hands(rng)
        )
        for i in range(count)
    ]


def _moves(first: int, *codes: str) -> list[DailyMove]:
    moves = []
    for offset, code in enumerate(codes):
        action = PASS if code == "-" else Play(Card.parse(code))
        moves.append(DailyMove(seq=first + offset, deal_index=0, seat=offset % 4, action=action))
    return moves


async def test_a_day_is_stored_once_and_the_first_stored_wins(store: Store) -> None:
    first = await store.daily.open_day(7, DAY, STANDARD, _deals(1))
    second = await store.daily.open_day(7, DAY, TWELVE, _deals(2, 3))
    assert second == first
    assert first.rules is STANDARD
    assert [d.contract for d in first.deals] == [d.contract for d in _deals(1)]
    assert [d.hands for d in first.deals] == [d.hands for d in _deals(1)]
    assert await store.daily.day(7, DAY) == first
    assert await store.daily.day(8, DAY) is None


async def test_one_attempt_per_person_and_day(store: Store) -> None:
    await store.daily.open_day(7, DAY, STANDARD, _deals(1))
    attempt = await store.daily.start_attempt(7, DAY, 100, "Ann", _moves(0, "-"))
    assert (attempt.user_id, attempt.name, attempt.day, attempt.moves) == (100, "Ann", DAY, 1)
    assert attempt.finished_at is None
    with pytest.raises(AlreadyStored):
        await store.daily.start_attempt(7, DAY, 100, "Ann again", [])
    assert await store.daily.attempt_of(7, DAY, 100) == attempt
    assert await store.daily.attempt_of(7, DAY, 101) is None
    assert (await store.daily.attempt(attempt.attempt_id)).name == "Ann"
    with pytest.raises(NotFound):
        await store.daily.attempt(attempt.attempt_id + 1000)


async def test_an_attempt_counts_in_the_servers_active_season(store: Store) -> None:
    await store.daily.open_day(7, DAY, STANDARD, _deals(1))
    first = await store.daily.start_attempt(7, DAY, 100, "Ann", [])
    default = await store.seasons.active_season(7)
    assert default is not None and first.season_id == default.season_id
    spring = await store.seasons.start_season(7, "Spring")
    second = await store.daily.start_attempt(7, DAY, 101, "Bob", [])
    assert second.season_id == spring.season_id


async def test_a_clicks_moves_scores_and_end_are_one_transaction(store: Store) -> None:
    await store.daily.open_day(7, DAY, STANDARD, _deals(1))
    attempt = await store.daily.start_attempt(7, DAY, 100, "Ann", _moves(0, "-", "-"))
    await store.daily.append_moves(attempt.attempt_id, _moves(2, "-", "-"), {})
    # A repeated click: the move number is stored already, and nothing of it is kept.
    with pytest.raises(AlreadyStored):
        await store.daily.append_moves(attempt.attempt_id, _moves(3, "2C"), {0: -5})
    # A gap is refused too.
    with pytest.raises(Conflict):
        await store.daily.append_moves(attempt.attempt_id, _moves(9, "2C"), {})
    assert len(await store.daily.moves(attempt.attempt_id)) == 4
    await store.daily.append_moves(
        attempt.attempt_id, _moves(4, "2C"), {0: -15, 1: 20}, finished=True
    )
    stored = await store.daily.attempt(attempt.attempt_id)
    assert stored.finished_at is not None and stored.moves == 5
    [scores] = await store.daily.day_scores(7, DAY)
    assert scores.scores == (-15, 20) and scores.finished
    with pytest.raises(Conflict, match="finished"):
        await store.daily.append_moves(attempt.attempt_id, _moves(5, "3C"), {})
    assert [m.action for m in await store.daily.moves(attempt.attempt_id)] == [
        PASS,
        PASS,
        PASS,
        PASS,
        Play(Card.parse("2C")),
    ]


async def test_day_scores_list_unfinished_deals_as_none(store: Store) -> None:
    await store.daily.open_day(7, DAY, STANDARD, _deals(1, 3))
    ann = await store.daily.start_attempt(7, DAY, 100, "Ann", [])
    bob = await store.daily.start_attempt(7, DAY, 101, "Bob", [])
    await store.daily.append_moves(ann.attempt_id, _moves(0, "-"), {0: -20})
    scores = {s.name: s for s in await store.daily.day_scores(7, DAY)}
    assert scores["Ann"].scores == (-20, None, None) and not scores["Ann"].finished
    assert scores["Bob"].scores == (None, None, None)
    assert scores["Bob"].attempt_id == bob.attempt_id
    assert await store.daily.day_scores(7, date(2026, 12, 1)) == []


async def test_days_scores_reads_several_days_each_with_its_own_deals(store: Store) -> None:
    later = DAY + timedelta(days=1)
    await store.daily.open_day(7, DAY, STANDARD, _deals(1, 3))
    await store.daily.open_day(7, later, STANDARD, _deals(2, 1))
    await store.daily.open_day(8, later, STANDARD, _deals(2, 4))
    ann = await store.daily.start_attempt(7, DAY, 100, "Ann", [])
    await store.daily.append_moves(ann.attempt_id, _moves(0, "-"), {0: -20})
    await store.daily.start_attempt(7, later, 100, "Ann", [])
    await store.daily.start_attempt(8, later, 101, "Bob", [])  # another server's
    empty = date(2026, 12, 1)
    found = await store.daily.days_scores(7, (DAY, later, empty))
    assert [(s.name, s.scores) for s in found[DAY]] == [("Ann", (-20, None, None))]
    assert [(s.name, s.scores) for s in found[later]] == [("Ann", (None,))]
    assert found[empty] == []
    assert found[DAY] == await store.daily.day_scores(7, DAY)


async def test_a_days_moves_are_read_by_attempt_in_order_and_only_that_days(store: Store) -> None:
    later = DAY + timedelta(days=1)
    for guild, day in ((7, DAY), (7, later), (8, DAY)):
        await store.daily.open_day(guild, day, STANDARD, _deals(1))
    ann = await store.daily.start_attempt(7, DAY, 100, "Ann", _moves(0, "-"))
    bob = await store.daily.start_attempt(7, DAY, 101, "Bob", [])
    await store.daily.append_moves(bob.attempt_id, _moves(0, "-", "-"), {})
    await store.daily.append_moves(ann.attempt_id, _moves(1, "-", "2C"), {})
    await store.daily.start_attempt(7, later, 100, "Ann", _moves(0, "-"))  # another day's
    await store.daily.start_attempt(8, DAY, 102, "Cas", _moves(0, "-"))  # another server's
    moves = await store.daily.day_moves(7, DAY)
    assert list(moves) == [ann.attempt_id, bob.attempt_id]
    assert moves[ann.attempt_id] == await store.daily.moves(ann.attempt_id)
    assert [m.seq for m in moves[ann.attempt_id]] == [0, 1, 2]
    assert moves[ann.attempt_id][2].action == Play(Card.parse("2C"))
    assert moves[bob.attempt_id] == _moves(0, "-", "-")
    assert await store.daily.day_moves(7, date(2026, 12, 1)) == {}


async def test_closed_days_are_settled_once_into_the_season_tally(store: Store) -> None:
    attempts = []
    for day in (date(2026, 11, 28), date(2026, 11, 29), DAY):
        await store.daily.open_day(7, day, STANDARD, _deals(day.day))
        attempts.append(await store.daily.start_attempt(7, day, 100, "Ann", []))
    closed = date(2026, 11, 30)
    assert await store.daily.unsettled_days(7, closed) == [date(2026, 11, 28), date(2026, 11, 29)]
    await store.daily.settle_day({attempts[0].attempt_id: 40.0})
    await store.daily.settle_day({attempts[1].attempt_id: 70.0})
    await store.daily.settle_day({attempts[1].attempt_id: 70.0})  # twice: the same
    assert await store.daily.unsettled_days(7, closed) == []
    assert await store.daily.unsettled_days(7, DAY) == [DAY]
    [tally] = await store.daily.season_tallies(attempts[0].season_id)
    assert (tally.user_id, tally.name, tally.days, tally.total) == (100, "Ann", 2, 110.0)


async def test_the_days_per_server_setting(store: Store) -> None:
    assert await store.daily.deals_per_day(7) is None
    await store.daily.set_deals_per_day(7, 11)
    await store.daily.set_deals_per_day(7, 6)
    assert await store.daily.deals_per_day(7) == 6
    assert await store.daily.deals_per_day(8) is None


async def test_the_secret_is_made_once_and_kept(database: Path | str) -> None:
    async with await open_store(database) as store:
        secret = await store.daily.secret()
        assert secret == await store.daily.secret()
        assert len(secret) == 64 and int(secret, 16) >= 0
    async with await open_store(database) as store:
        assert await store.daily.secret() == secret
