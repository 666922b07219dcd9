"""Failures that must not stop a table: a bad table at restore, a failed deal write, and a
timeout's computer thinking while the player clicks after all."""

from __future__ import annotations

import asyncio
import random

from bot.engine import Action, RecordError, SeatView
from bot.store import Store, StoreError, TableSettings
from bot.tables import Refusal
from bot.tables import events as ev
from tests.tables.tables_helpers import ANN, CHANNEL, HOST, make_harness, name, wait_for


async def test_one_table_that_cannot_be_restored_does_not_stop_the_others(
    store: Store, monkeypatch
) -> None:
    first = make_harness(store)
    broken = await first.open_with_humans((HOST,), channel=CHANNEL)
    healthy = await first.open_with_humans((ANN,), channel=CHANNEL + 1)
    await first.service.close()

    load = store.matches.load_record
    broken_match = broken.match_id

    async def load_or_fail(match_id: int) -> dict:
        if match_id == broken_match:
            raise RecordError("deal 1: made unreadable by the test")
        return await load(match_id)

    monkeypatch.setattr(store.matches, "load_record", load_or_fail)
    second = make_harness(store)
    try:
        assert await second.service.restore() == 1
        assert second.service.table_in_channel(CHANNEL + 1).table_id == healthy.table_id
        assert second.service.table_in_channel(CHANNEL) is None
        await second.play_random(healthy.table_id, actions=3)  # it plays on
        # The table that breaks a rule is closed, so its channel can host a new one.
        assert await store.tables.table_in_channel(CHANNEL) is None
        assert (await second.service.open_table(1, CHANNEL, HOST, name(HOST))).table_id
    finally:
        await second.service.close()


async def test_a_failed_deal_write_after_the_last_card_is_retried(
    store: Store, monkeypatch
) -> None:
    h = make_harness(store, time_scale=0.001)
    append_deal = store.matches.append_deal
    failures = {"left": 1}

    async def flaky_append_deal(match_id: int, index: int, hands) -> None:  # type: ignore[no-untyped-def]
        if index == 1 and failures["left"]:
            failures["left"] -= 1
            raise StoreError("disk full, said the test")
        await append_deal(match_id, index, hands)

    monkeypatch.setattr(store.matches, "append_deal", flaky_append_deal)
    try:
        # An hour to play (3.6 s at this scale): on a loaded machine the turn's timer must
        # not hand the human's seat to a computer between reading the turn and playing it.
        view = await h.open_with_humans(
            (HOST,), start=False, settings=TableSettings(turn_seconds=3600)
        )
        match_id = (await h.service.start(CHANNEL, HOST)).match_id
        # Play deal 1 out; its last card is accepted although deal 2 cannot be stored yet.
        while len(h.events.of(ev.DealScored)) < 1:
            await h.play_random(view.table_id, actions=1)
        # The retry comes after RETRY_SECONDS, scaled (2 ms), or later on a busy machine.
        await wait_for(lambda: len(h.events.of(ev.DealStarted)) == 2)
        await h.service.settle()
        assert failures["left"] == 0
        assert [e.deal_number for e in h.events.of(ev.DealStarted)] == [1, 2]
        assert (await store.matches.get_match(match_id)).deals == 2
        await h.play_random(view.table_id, actions=2)  # and play goes on
    finally:
        await h.service.close()


async def test_a_player_acting_while_the_timeout_computer_thinks_keeps_the_move(
    store: Store,
) -> None:
    thinking = asyncio.Event()
    release = asyncio.Event()

    async def slow_decider(level: str, view: SeatView, seed: int) -> Action:
        if view.to_act is not None and view.seat == view.to_act and thinking.is_set() is False:
            thinking.set()
            await release.wait()
        return random.Random(seed).choice(view.legal)

    h = make_harness(store, decide=slow_decider)
    try:
        view = await h.service.open_table(
            1, CHANNEL, HOST, name(HOST), TableSettings(turn_seconds=60, computer_level="easy")
        )
        for _ in range(3):
            await h.service.add_computer(CHANNEL, HOST, "easy")
        thinking.set()  # let the computers of the first turns play at once
        await h.service.start(CHANNEL, HOST)
        user, turn, legal = await h.human_turn(view.table_id)
        thinking.clear()
        expiry = asyncio.create_task(h.service.expire_turn(view.table_id, turn))
        await asyncio.wait_for(thinking.wait(), 1)
        # The table's lock is free while the computer thinks: the player's click goes in.
        await asyncio.wait_for(h.service.act(view.table_id, user, turn, legal[0]), 1)
        release.set()
        assert await expiry is False
        assert h.events.of(ev.TimedOut) == []
        assert h.service.view(view.table_id).turn > turn  # the player's own move stood
    finally:
        release.set()
        await h.service.close()


async def test_a_computer_player_that_crashes_does_not_stop_the_table(store: Store) -> None:
    async def broken_decider(level: str, view: SeatView, seed: int) -> Action:
        raise RuntimeError("the worker process died, said the test")

    h = make_harness(store, decide=broken_decider)
    try:
        view = await h.service.open_table(1, CHANNEL, HOST, name(HOST), host_seated=False)
        await h.service.start(CHANNEL, HOST)  # four computers, every one of them broken
        await h.service.settle()
        ended = h.events.of(ev.MatchEnded)
        assert ended and ended[0].table_id == view.table_id  # played out at random
    finally:
        await h.service.close()


async def test_a_match_the_store_cannot_create_is_refused_politely(
    store: Store, monkeypatch
) -> None:
    h = make_harness(store)

    async def refuse(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full, said the test")

    try:
        await h.service.open_table(1, CHANNEL, HOST, name(HOST))
        monkeypatch.setattr(store.matches, "create_match", refuse)
        try:
            await h.service.start(CHANNEL, HOST)
        except Refusal as refusal:
            assert "could not be started" in str(refusal)
        else:
            raise AssertionError("start did not refuse")
        assert h.service.table_in_channel(CHANNEL).match_id is None  # still a lobby
    finally:
        await h.service.close()
