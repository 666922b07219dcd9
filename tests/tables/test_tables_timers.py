"""Turn timers: the reminder, the computer acting at expiry, away seats and coming back."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

from bot.engine import Action, SeatView
from bot.store import StoreError, TableSettings
from bot.tables import Refusal, TableService
from bot.tables import events as ev
from bot.tables.computers import random_decider
from tests.tables.tables_helpers import ANN, BOB, CAS, CHANNEL, HOST, Harness, Recorder, wait_for

pytestmark = pytest.mark.service_logic

ACTS = (ev.ContractChosen, ev.Doubled, ev.CardPlayed)
SCALE = 1e-3  # a 60 s turn takes 60 ms


def acts_of(events: Recorder, seat: int) -> list[Any]:
    return [e for e in events.events if isinstance(e, ACTS) and e.seat == seat]


async def test_reminder_at_half_time_then_a_computer_acts_and_the_table_is_told(
    harness: Any,
) -> None:
    h: Harness = harness(time_scale=SCALE)
    view = await h.open_with_humans((HOST,), settings=TableSettings(turn_seconds=60))
    await wait_for(lambda: h.events.of(ev.TimedOut) and h.events.last(ev.TurnStarted).seat != 0)
    events = h.events.events
    turn = next(e for e in events if isinstance(e, ev.TurnStarted) and e.seat == 0)
    reminder, timed_out = h.events.of(ev.Reminder)[0], h.events.of(ev.TimedOut)[0]
    assert events.index(turn) < events.index(reminder) < events.index(timed_out)
    assert (reminder.seat, reminder.user_id) == (0, HOST)
    assert turn.seconds in (60.0, 90.0) and reminder.seconds_left == turn.seconds / 2
    assert (timed_out.seat, timed_out.user_id) == (0, HOST)
    assert turn.seconds is not None
    time = h.events.time_of
    assert time(reminder) - time(turn) >= turn.seconds * SCALE / 2
    assert time(timed_out) - time(turn) >= turn.seconds * SCALE
    acted = next(e for e in events[events.index(timed_out) :] if isinstance(e, ACTS))
    assert acted.seat == 0 and acted.by_computer
    await h.service.cancel(CHANNEL, HOST)
    assert view.table_id not in {t.table_id for t in h.service.tables()}


async def test_two_timeouts_in_a_row_mark_the_seat_away_and_a_computer_plays_it(
    harness: Any,
) -> None:
    h: Harness = harness(time_scale=SCALE)
    await h.open_with_humans((HOST,), settings=TableSettings(turn_seconds=60))
    await wait_for(lambda: h.events.of(ev.SeatAway), timeout=10)
    away = h.events.of(ev.SeatAway)[0]
    assert (away.seat, away.user_id) == (0, HOST)
    assert len(h.events.of(ev.TimedOut)) == 2 and len(h.events.of(ev.Reminder)) == 2
    assert h.service.table_in_channel(CHANNEL).seats[0].away  # type: ignore[union-attr]
    # From now on the computer plays the seat at once: the match runs to its end.
    await wait_for(lambda: h.events.of(ev.MatchEnded), timeout=20)
    mark = h.events.events.index(away)
    later = h.events.events[mark:]
    assert not [e for e in later if isinstance(e, ev.TimedOut | ev.Reminder)]
    assert all(e.seconds is None for e in later if isinstance(e, ev.TurnStarted))
    assert [e for e in later if isinstance(e, ACTS) and e.seat == 0]
    assert all(e.by_computer for e in later if isinstance(e, ACTS) and e.seat == 0)


async def test_four_absent_players_still_finish_the_match(harness: Any) -> None:
    h: Harness = harness(time_scale=SCALE)
    await h.open_with_humans((HOST, ANN, BOB, CAS), settings=TableSettings(turn_seconds=60))
    await wait_for(lambda: h.events.of(ev.MatchEnded), timeout=30)
    assert len(h.events.of(ev.SeatAway)) == 4
    assert len(h.events.of(ev.TimedOut)) == 8


async def test_no_reminder_or_timeout_for_a_player_who_acts_in_time(harness: Any) -> None:
    h: Harness = harness(time_scale=0.01)  # 0.6 s and 0.9 s turns
    view = await h.open_with_humans((HOST, ANN, BOB, CAS), settings=TableSettings(turn_seconds=60))
    for _ in range(10):
        user, turn, legal = await h.human_turn(view.table_id)
        await h.service.act(view.table_id, user, turn, legal[0])
    await h.service.cancel(CHANNEL, HOST)
    assert not h.events.of(ev.Reminder) and not h.events.of(ev.TimedOut)


# -- expiry called directly --------------------------------------------------------------


async def human_to_act(h: Harness, table_id: int, user: int) -> int:
    """Play the other humans' turns at random until ``user`` is to act; their turn."""
    while True:
        to_act, turn, legal = await h.human_turn(table_id)
        if to_act == user:
            return turn
        await h.service.act(table_id, to_act, turn, h.rng.choice(legal))


async def test_expire_turn_acts_for_the_player(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    turn = await human_to_act(h, view.table_id, HOST)
    assert await h.service.expire_turn(view.table_id, turn)
    assert h.events.last(ev.TimedOut).user_id == HOST
    assert h.service.view(view.table_id).turn > turn
    assert not h.events.of(ev.SeatAway)


async def test_expire_turn_for_a_past_turn_or_a_computer_changes_nothing(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    turn = await human_to_act(h, view.table_id, HOST)
    record = h.service.record(view.table_id)
    assert not await h.service.expire_turn(view.table_id, turn - 1)
    assert not await h.service.expire_turn(view.table_id, turn + 1)
    assert not await h.service.expire_turn(9999, turn)
    assert h.service.record(view.table_id) == record and not h.events.of(ev.TimedOut)


async def test_acting_in_between_resets_the_timeout_count(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    turn = await human_to_act(h, view.table_id, HOST)
    assert await h.service.expire_turn(view.table_id, turn)
    turn = await human_to_act(h, view.table_id, HOST)
    _, _, legal = await h.human_turn(view.table_id)
    await h.service.act(view.table_id, HOST, turn, legal[0])  # not a timeout: count resets
    turn = await human_to_act(h, view.table_id, HOST)
    assert await h.service.expire_turn(view.table_id, turn)
    assert not h.events.of(ev.SeatAway)
    turn = await human_to_act(h, view.table_id, HOST)
    assert await h.service.expire_turn(view.table_id, turn)
    assert h.events.last(ev.SeatAway).user_id == HOST


class Gate:
    """A decider that makes seat 0's computer think until the gate opens."""

    def __init__(self) -> None:
        self.closed = False
        self.opened = asyncio.Event()
        self.waiting = asyncio.Event()

    async def __call__(self, level: str, view: SeatView, seed: int) -> Action:
        if view.seat == 0 and self.closed:
            self.waiting.set()
            await self.opened.wait()
        return await random_decider(level, view, seed)


async def away_table(store: Any, gate: Gate) -> tuple[Harness, int]:
    events = Recorder()
    service = TableService(store, events, decide=gate, pace=0, rng=random.Random(4))
    h = Harness(service, store, events)
    view = await h.open_with_humans((HOST, ANN))
    for _ in range(2):
        turn = await human_to_act(h, view.table_id, HOST)
        assert await service.expire_turn(view.table_id, turn)
    assert h.events.last(ev.SeatAway).user_id == HOST
    return h, view.table_id


async def test_an_away_player_acting_again_comes_back(store: Any) -> None:
    gate = Gate()
    h, table_id = await away_table(store, gate)
    try:
        gate.closed = True
        for _ in range(10_000):  # play Ann until the computer thinks for seat 0
            if gate.waiting.is_set():
                break
            if h.service.view(table_id).to_act == 1:
                seat_view, turn = h.service.hand(table_id, ANN)
                await h.service.act(table_id, ANN, turn, seat_view.legal[0])
            await asyncio.sleep(0.001)
        assert gate.waiting.is_set()
        seat_view, turn = h.service.hand(table_id, HOST)
        assert seat_view.my_turn
        await h.service.act(table_id, HOST, turn, seat_view.legal[0])
        back = h.events.last(ev.SeatBack)
        assert (back.seat, back.user_id) == (0, HOST)
        assert not acts_of(h.events, 0)[-1].by_computer
        gate.closed = False
        gate.opened.set()  # the computer's late move for the old turn is dropped
        await h.service.settle()
        assert h.service.view(table_id).turn > turn
        assert not h.service.view(table_id).seats[0].away
        turn = await human_to_act(h, table_id, HOST)  # the host is asked again
        assert h.events.last(ev.TurnStarted).seconds is not None
    finally:
        await h.service.close()


async def test_take_back_returns_the_seat_to_its_player(store: Any) -> None:
    gate = Gate()
    h, table_id = await away_table(store, gate)
    try:
        await h.service.take_back(CHANNEL, HOST)
        assert h.events.last(ev.SeatBack).user_id == HOST
        assert not h.service.view(table_id).seats[0].away
        with pytest.raises(Refusal, match="playing your seat already"):
            await h.service.take_back(CHANNEL, HOST)
        await human_to_act(h, table_id, HOST)
        assert h.events.last(ev.TurnStarted).seconds is not None
        with pytest.raises(Refusal, match="not seated"):
            await h.service.take_back(CHANNEL, BOB)
    finally:
        await h.service.close()


async def test_a_failed_write_keeps_an_away_seat_away(store: Any) -> None:
    gate = Gate()
    h, table_id = await away_table(store, gate)
    try:
        gate.closed = True
        for _ in range(10_000):  # play Ann until the computer thinks for seat 0
            if gate.waiting.is_set():
                break
            if h.service.view(table_id).to_act == 1:
                seat_view, turn = h.service.hand(table_id, ANN)
                await h.service.act(table_id, ANN, turn, seat_view.legal[0])
            await asyncio.sleep(0.001)
        seat_view, turn = h.service.hand(table_id, HOST)
        original = h.service.context.store
        h.service.context.store = FailingStore(original)  # type: ignore[assignment]
        with pytest.raises(Refusal, match="could not be saved"):
            await h.service.act(table_id, HOST, turn, seat_view.legal[0])
        h.service.context.store = original
        assert h.service.view(table_id).seats[0].away and not h.events.of(ev.SeatBack)
        gate.opened.set()  # the computer, still in charge, makes the move
        await h.service.settle()
        assert h.service.view(table_id).turn > turn
        assert acts_of(h.events, 0)[-1].by_computer
    finally:
        await h.service.close()


class FailingStore:
    def __init__(self, inner: Any) -> None:
        self.tables = inner.tables
        self.matches = self
        self._inner = inner.matches

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._inner, attribute)

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        raise StoreError("disk I/O error")


async def test_a_timeout_that_fails_unexpectedly_is_logged_and_timed_again(
    harness: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h: Harness = harness(time_scale=SCALE)
    append_action = h.store.matches.append_action
    failures = {"left": 1}

    async def fails_once(*args: Any, by_computer: bool = False) -> None:
        if by_computer and failures["left"]:  # the computer acting for the human
            failures["left"] -= 1
            raise RuntimeError("the timeout broke, said the test")
        await append_action(*args, by_computer=by_computer)

    monkeypatch.setattr(h.store.matches, "append_action", fails_once)
    with caplog.at_level(logging.ERROR, logger="bot.tables"):
        await h.open_with_humans((HOST,), settings=TableSettings(turn_seconds=60))
        await wait_for(lambda: h.events.of(ev.TimedOut))  # the next expiry does it
    assert failures["left"] == 0
    assert "the timeout broke, said the test" in caplog.text
    assert h.events.of(ev.TimedOut)[0].user_id == HOST
