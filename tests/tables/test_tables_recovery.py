"""Recovery: every action is stored first; a restart replays open tables and resumes them."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.engine import Match, deal_hands, from_record
from bot.store import Computer, Human, Store, TableSettings, TableStatus
from bot.tables import TableView
from bot.tables import events as ev
from tests.tables.tables_helpers import (
    ANN,
    BOB,
    CHANNEL,
    GUILD,
    HOST,
    Harness,
    Restartable,
    make_harness,
    wait_for,
)


async def test_a_restart_mid_match_continues_from_the_same_position(tmp_path: Path) -> None:
    node = Restartable(tmp_path / "db.sqlite3")
    h = await node.start()
    try:
        view = await h.open_with_humans((HOST, ANN))
        await h.play_random(view.table_id, actions=40)
        user, turn, _ = await h.human_turn(view.table_id)
        record, table_view = (
            h.service.record(view.table_id, full=True),
            h.service.view(view.table_id),
        )
        h = await node.stop() or await node.start()
        assert await h.service.restore() == 1
        assert await h.service.restore() == 0  # restoring twice adds nothing
        assert h.service.record(view.table_id, full=True) == record
        again = h.service.view(view.table_id)
        assert (again.turn, again.to_act, again.totals) == (
            turn,
            table_view.to_act,
            table_view.totals,
        )
        assert [s.user_id for s in again.seats] == [HOST, ANN, None, None]
        assert [s.name for s in again.seats] == [s.name for s in table_view.seats]
        started = h.events.last(ev.TurnStarted)
        assert (started.seat, started.turn) == (table_view.to_act, turn)
        assert started.seconds is not None and 0 < started.seconds <= 90
        seat_view, hand_turn = h.service.hand(view.table_id, user)
        assert hand_turn == turn and seat_view.my_turn
        await h.play_random(view.table_id)
        ended = h.events.last(ev.MatchEnded)
        assert from_record(ended.record).is_over and sum(ended.totals) == 0
    finally:
        if node.h:
            await node.stop()


async def test_a_restart_while_computers_play_loses_nothing(tmp_path: Path) -> None:
    node = Restartable(tmp_path / "db.sqlite3", pace=0.002)
    h = await node.start()
    try:
        view = await h.service.open_table(GUILD, CHANNEL, HOST, "Host", host_seated=False)
        await h.service.start(CHANNEL, HOST)
        await wait_for(lambda: len(h.events.of(ev.CardPlayed)) >= 20)
        h = await node.restart()
        info = await h.store.matches.get_match(view.match_id or 1)
        assert h.service.view(view.table_id).turn == info.actions
        await wait_for(lambda: h.events.of(ev.MatchEnded), timeout=60)
        ended = h.events.last(ev.MatchEnded)
        assert from_record(ended.record).is_over
        assert (await h.store.tables.get_table(view.table_id)).status is TableStatus.FINISHED
    finally:
        if node.h:
            await node.stop()


async def test_a_lobby_is_restored(tmp_path: Path) -> None:
    node = Restartable(tmp_path / "db.sqlite3")
    h = await node.start()
    try:
        view = await h.open_with_humans(
            (HOST, ANN), start=False, settings=TableSettings(turn_seconds=45, computer_level="easy")
        )
        await h.service.add_computer(CHANNEL, HOST, "hard")
        await h.service.leave(CHANNEL, HOST)  # Ann hosts now
        h = await node.restart()
        again = h.service.table_in_channel(CHANNEL)
        assert again is not None and again.table_id == view.table_id
        assert again.status is TableStatus.LOBBY and again.host_id == ANN
        assert [s.user_id for s in again.seats] == [None, ANN, None, None]
        assert again.seats[2].level == "hard"
        assert again.seats[1].name == "user101"  # the name Ann joined with, not a mention
        assert again.settings == TableSettings(turn_seconds=45, computer_level="easy")
        await h.service.join(CHANNEL, BOB, "Bob")
        started = await h.service.start(CHANNEL, ANN)
        assert [s.user_id for s in started.seats[:2]] == [BOB, ANN]
        assert [s.level for s in started.seats[2:]] == ["hard", "easy"]
        await h.play_random(view.table_id)
        assert h.events.of(ev.MatchEnded)
    finally:
        if node.h:
            await node.stop()


async def test_a_restored_lobby_still_closes_when_idle(tmp_path: Path) -> None:
    node = Restartable(tmp_path / "db.sqlite3", time_scale=2e-4)
    h = await node.start()
    try:
        await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
        h = await node.restart()
        await wait_for(lambda: h.service.table_in_channel(CHANNEL) is None)
        assert h.events.last(ev.TableClosed).reason == "the lobby was idle for 15 minutes"
    finally:
        if node.h:
            await node.stop()


async def test_turn_timers_resume_after_a_restart(tmp_path: Path) -> None:
    node = Restartable(tmp_path / "db.sqlite3", time_scale=1e-3)
    h = await node.start()
    try:
        node.h.service.context.time_scale = 1.0  # type: ignore[union-attr]  # no timeouts before
        view = await h.open_with_humans((HOST,))
        h = await node.restart()
        await wait_for(lambda: h.events.of(ev.TimedOut))
        assert h.events.last(ev.TimedOut).table_id == view.table_id
    finally:
        if node.h:
            await node.stop()


async def seat_stored_match(store: Store, deals: int, seed: int = 99) -> tuple[int, int]:
    """A table and match stored as if the service crashed after ``deals`` finished deals."""
    table = await store.tables.create_table(GUILD, CHANNEL, HOST)
    occupants = {0: Human(HOST), 1: Computer("easy"), 2: Computer("easy"), 3: Computer("easy")}
    await store.tables.update_table(table.table_id, seats=occupants)
    names = ["Host", "East bot", "South bot", "West bot"]
    info = await store.matches.create_match(table.table_id, names, seed=seed)
    await store.tables.update_table(table.table_id, status=TableStatus.PLAYING)
    match, rng, seq = Match(names), random.Random(seed), 0
    for number in range(deals):
        hands = deal_hands(random.Random(f"{seed}:{number}"))
        await store.matches.append_deal(info.match_id, number, hands)
        match.start_deal(hands)
        while not match.deal.is_done:  # type: ignore[union-attr]
            action = rng.choice(match.legal_actions())
            await store.matches.append_action(info.match_id, seq, match.to_act or 0, action)
            match.apply(action)
            seq += 1
    return table.table_id, info.match_id


async def test_a_crash_between_two_deals_deals_the_next_one(store: Store) -> None:
    table_id, match_id = await seat_stored_match(store, deals=3)
    h = make_harness(store)
    try:
        assert await h.service.restore() == 1
        assert h.events.last(ev.DealStarted).deal_number == 4
        assert (await store.matches.get_match(match_id)).deals == 4
        await h.play_random(table_id)
        assert from_record(h.events.last(ev.MatchEnded).record).is_over
    finally:
        await h.service.close()


async def test_a_crash_before_the_results_finishes_the_match(store: Store) -> None:
    table_id, match_id = await seat_stored_match(store, deals=11)
    h = make_harness(store)
    try:
        assert await h.service.restore() == 1
        ended = h.events.last(ev.MatchEnded)
        assert ended.match_id == match_id and sum(ended.totals) == 0
        assert h.events.last(ev.TableClosed).reason == "the match is over"
        assert (await store.tables.get_table(table_id)).status is TableStatus.FINISHED
    finally:
        await h.service.close()


async def test_every_accepted_action_is_stored_before_it_is_announced(h: Harness) -> None:
    """When an action's event comes out, the store already holds it."""
    counts: list[tuple[int, int]] = []
    inner = h.service.context.publish

    async def publish(event: ev.Event, view: TableView | None) -> None:
        if isinstance(event, ev.ContractChosen | ev.Doubled | ev.CardPlayed):
            view = h.service.view(event.table_id)
            info = await h.store.matches.get_match(view.match_id)  # type: ignore[arg-type]
            counts.append((info.actions, view.turn))
        await inner(event, view)

    h.service.context.publish = publish
    view = await h.open_with_humans((HOST, ANN))
    await h.play_random(view.table_id, actions=20)
    assert counts and all(stored == turn for stored, turn in counts)
    await asyncio.sleep(0)


async def test_a_restored_table_first_says_so_with_its_last_two_deals(tmp_path: Path) -> None:
    node = Restartable(tmp_path / "db.sqlite3")
    h = await node.start()
    try:
        view = await h.open_with_humans((HOST,))
        while len(h.match(view.table_id).deals) < 3:
            await h.play_random(view.table_id, actions=1)
        await h.play_random(view.table_id, actions=6)
        before = [e for e in h.events.events if e.table_id == view.table_id]
        h = await node.restart()
        restored = h.events.events[0]
        assert isinstance(restored, ev.TableRestored)
        assert isinstance(h.events.events[1], ev.TurnStarted)  # then play resumes
        # The lines are the events of deals 2 and 3 as they were announced.
        kinds = (ev.DealStarted, ev.TrickTaken, ev.DealScored)
        second = next(
            i for i, e in enumerate(before) if isinstance(e, ev.DealStarted) and e.deal_number == 2
        )
        assert list(restored.lines) == [e for e in before[second:] if isinstance(e, kinds)]
    finally:
        if node.h:
            await node.stop()


async def test_a_finished_match_s_end_is_told_again_as_it_was(store: Store) -> None:
    """``restore_end``: the last lines, the end with the stored record and the closing,
    each with the finished table's view; the store is left as it was."""
    table_id, match_id = await seat_stored_match(store, deals=11)
    first = make_harness(store)
    try:
        await first.service.restore()  # finishes the match, as before the stop
        ended = first.events.last(ev.MatchEnded)
    finally:
        await first.service.close()
    h = make_harness(store)
    try:
        assert await h.service.restore() == 0  # nothing open any more
        assert await h.service.restore_end(table_id, match_id)
        restored, again, closed = h.events.events
        assert isinstance(restored, ev.TableRestored) and restored.lines
        assert isinstance(again, ev.MatchEnded)
        assert (again.match_id, again.totals, again.ranks) == (
            match_id,
            ended.totals,
            ended.ranks,
        )
        assert again.record == ended.record
        assert isinstance(closed, ev.TableClosed) and closed.finished
        assert (await store.tables.get_table(table_id)).status is TableStatus.FINISHED
    finally:
        await h.service.close()


async def test_an_end_that_cannot_be_told_is_refused_quietly(store: Store) -> None:
    """A table still open, a match that is not there, or a table unknown: False,
    nothing published, the bot goes on."""
    table_id, match_id = await seat_stored_match(store, deals=3)
    h = make_harness(store)
    try:
        assert not await h.service.restore_end(table_id, match_id)  # not finished
        await store.tables.update_table(table_id, status=TableStatus.FINISHED)
        assert not await h.service.restore_end(table_id, match_id + 99)  # no such match
        assert not await h.service.restore_end(table_id + 99, match_id)  # no such table
        assert h.events.events == []
    finally:
        await h.service.close()
