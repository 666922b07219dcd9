"""A full disk at the table, for real (SQLite's own SQLITE_FULL): a person's move is
refused politely and changes nothing, and the computers wait it out and play on by
themselves once there is room again."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.engine import from_record
from bot.store import MatchStatus, StoreError
from bot.tables import Refusal
from bot.tables import events as ev
from tests.store.store_helpers import fill_disk, free_disk
from tests.tables.tables_helpers import (
    ANN,
    BOB,
    CAS,
    CHANNEL,
    HOST,
    Harness,
    name,
    same_position,
    wait_for,
)

# A full disk is made with SQLite's max_page_count; PostgreSQL has no such switch.
pytestmark = pytest.mark.sqlite_only

SCALE = 1e-3  # a failed write is tried again after 2 ms


async def test_the_computers_wait_out_a_full_disk_and_finish_by_themselves(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    h: Harness = harness(time_scale=SCALE)
    view = await h.service.open_table(1, CHANNEL, HOST, name(HOST), host_seated=False)
    await h.service.start(CHANNEL, HOST)  # four computers
    with caplog.at_level(logging.WARNING, logger="bot.tables"):
        await fill_disk(h.store)
        await wait_for(lambda: "could not store" in caplog.text)
        stuck = h.service.view(view.table_id).turn
        await wait_for(lambda: caplog.text.count("could not store") >= 10)  # it retries
        assert h.service.view(view.table_id).turn == stuck  # and stores nothing meanwhile
        assert h.events.of(ev.MatchEnded) == []
        same_position(h.service.record(view.table_id, full=True), await h.stored(view.table_id))
        await free_disk(h.store)
        await wait_for(lambda: h.events.of(ev.MatchEnded), timeout=20)
    (ended,) = h.events.of(ev.MatchEnded)
    assert from_record(ended.record).is_over
    stored = await h.store.matches.get_match(ended.match_id)
    assert stored.status is MatchStatus.FINISHED
    assert from_record(await h.store.matches.load_record(ended.match_id)).is_over
    assert await h.store.integrity_problems() == []


async def test_a_move_on_a_full_disk_is_refused_politely_and_changes_nothing(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN, BOB, CAS))
    await fill_disk(h.store)
    for _ in range(2000):  # the actions' page fills after a hundred or so
        table = h.service.view(view.table_id)
        assert table.to_act is not None, "a deal, not a move, met the full disk first"
        user = table.seats[table.to_act].user_id
        assert user is not None
        hand, turn = h.service.hand(view.table_id, user)
        action = h.rng.choice(hand.legal)
        events, record = len(h.events.events), h.service.record(view.table_id, full=True)
        try:
            await h.service.act(view.table_id, user, turn, action)
        except Refusal as refusal:
            assert str(refusal) == "sorry, that could not be saved; please try again"
            break
    else:
        raise AssertionError("the disk never filled")
    assert h.service.view(view.table_id) == table  # nothing changed
    assert h.service.hand(view.table_id, user) == (hand, turn)
    assert h.service.record(view.table_id, full=True) == record
    assert len(h.events.events) == events  # and nothing was announced
    same_position(record, await h.stored(view.table_id))
    await free_disk(h.store)
    await h.service.act(view.table_id, user, turn, action)  # the same click, now stored
    assert h.service.view(view.table_id).turn == turn + 1
    same_position(h.service.record(view.table_id, full=True), await h.stored(view.table_id))


@pytest.mark.parametrize("method", ["append_action", "append_deal", "finish_match"])
async def test_anything_unexpected_on_the_computers_way_is_logged_and_tried_again(
    harness: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, method: str
) -> None:
    h: Harness = harness(time_scale=SCALE)
    real = getattr(h.store.matches, method)
    failures = {"left": 1}

    async def fails_once(*args: Any, **kwargs: Any) -> Any:
        if failures["left"] and (method != "append_deal" or args[1] > 0):
            failures["left"] -= 1
            raise RuntimeError(f"{method} broke, said the test")
        return await real(*args, **kwargs)

    monkeypatch.setattr(h.store.matches, method, fails_once)
    await h.service.open_table(1, CHANNEL, HOST, name(HOST), host_seated=False)
    with caplog.at_level(logging.ERROR, logger="bot.tables"):
        await h.service.start(CHANNEL, HOST)
        await wait_for(lambda: h.events.of(ev.MatchEnded), timeout=20)
    assert failures["left"] == 0
    assert f"{method} broke, said the test" in caplog.text  # logged, with its traceback
    assert len(h.events.of(ev.MatchEnded)) == 1


async def test_a_table_whose_closing_write_fails_after_its_results_finishes_once(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    h: Harness = harness(time_scale=SCALE)
    update_table = h.store.tables.update_table
    failures = {"left": 1}

    async def fails_once(table_id: int, **changes: Any) -> Any:
        if changes.get("status") is not None and failures["left"]:
            failures["left"] -= 1
            raise StoreError("disk full, said the test")
        return await update_table(table_id, **changes)

    view = await h.service.open_table(1, CHANNEL, HOST, name(HOST), host_seated=False)
    await h.service.start(CHANNEL, HOST)
    monkeypatch.setattr(h.store.tables, "update_table", fails_once)
    await wait_for(lambda: h.events.of(ev.TableClosed), timeout=20)
    assert failures["left"] == 0
    (ended,) = h.events.of(ev.MatchEnded)  # announced once, after all was stored
    assert [e.finished for e in h.events.of(ev.TableClosed)] == [True]
    assert (await h.store.tables.get_table(view.table_id)).status.value == "finished"
    assert (await h.store.matches.get_match(ended.match_id)).status is MatchStatus.FINISHED
