"""Play: the engine driven through 11 deals, human actions and their refusals, locks."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from typing import Any

import pytest

from bot.engine import (
    CARDS,
    CONTRACTS,
    PASS,
    Action,
    Choose,
    Double,
    IllegalAction,
    Phase,
    Play,
    Reason,
    SeatView,
    from_record,
)
from bot.store import MatchStatus, StoreError, TableSettings
from bot.tables import Hand, Refusal, TableReason, TableService
from bot.tables import events as ev
from bot.tables.computers import random_decider
from bot.tables.lobby import EVERYONE_LEFT_THE_MATCH, Left
from tests.tables.tables_helpers import (
    ANN,
    BOB,
    CAS,
    CHANNEL,
    GUILD,
    HOST,
    Harness,
    Recorder,
    wait_for,
)

pytestmark = pytest.mark.service_logic

FOUR = (HOST, ANN, BOB, CAS)
ACTS = (ev.ContractChosen, ev.Doubled, ev.CardPlayed)


def check_match_events(events: list[ev.Event]) -> None:
    """One table's whole stream, from the start to the close, in a sane order."""
    kinds = [type(e) for e in events]
    assert kinds[-2:] == [ev.MatchEnded, ev.TableClosed]
    assert events[-1].reason == "the match is over"  # type: ignore[attr-defined]
    main = [
        e
        for e in events
        if isinstance(e, ev.DealStarted | ev.ContractChosen | ev.Doubled | ev.DealScored)
    ]
    expected = [ev.DealStarted, ev.ContractChosen, *[ev.Doubled] * 4, ev.DealScored] * 11
    assert [type(e) for e in main] == expected
    assert [e.deal_number for e in main if isinstance(e, ev.DealStarted)] == list(range(1, 12))
    assert [e.deal_number for e in main if isinstance(e, ev.DealScored)] == list(range(1, 12))

    # Every turn is announced, numbered 0, 1, 2, ... and followed by exactly one action.
    turns = [i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted)]
    assert [events[i].turn for i in turns] == list(range(len(turns)))  # type: ignore[attr-defined]
    bounds = [*turns, len(events)]
    for start, end in itertools.pairwise(bounds):
        announced = events[start]
        acted = [e for e in events[start:end] if isinstance(e, ACTS)]
        assert len(acted) == 1
        assert acted[0].seat == announced.seat  # type: ignore[attr-defined]

    # Tricks are numbered in each deal, and their points add up to the deal's base.
    totals = [0, 0, 0, 0]
    deal_tricks: list[ev.TrickTaken] = []
    for e in events:
        if isinstance(e, ev.DealStarted):
            deal_tricks = []
        elif isinstance(e, ev.TrickTaken):
            deal_tricks.append(e)
            assert len(e.plays) == 4
        elif isinstance(e, ev.DealScored):
            contract = CONTRACTS[e.contract]
            assert sum(e.final) == sum(e.base)
            if contract.domino:
                assert not deal_tricks and len(e.domino_out) == 3
            else:
                assert [t.number for t in deal_tricks] == list(range(1, len(deal_tricks) + 1))
                assert sum(t.points for t in deal_tricks) == sum(e.base)
                assert deal_tricks[-1].ended_early == (len(deal_tricks) < 13)
            totals = [a + b for a, b in zip(totals, e.final, strict=True)]
            assert list(e.totals) == totals
    ended = events[-2]
    assert isinstance(ended, ev.MatchEnded)
    assert list(ended.totals) == totals and sum(totals) == 0
    match = from_record(ended.record)
    assert match.is_over
    assert match.totals() == totals
    assert list(ended.ranks) == match.ranking()
    assert ended.names == match.players


async def test_all_computer_match_runs_to_the_end_in_order(h: Harness) -> None:
    view = await h.service.open_table(GUILD, CHANNEL, HOST, "Host", host_seated=False)
    await h.service.start(CHANNEL, HOST)
    await h.service.settle()
    events = [e for e in h.events.events if e.table_id == view.table_id]
    assert isinstance(events[0], ev.LobbyChanged)
    check_match_events(events[events.index(h.events.of(ev.DealStarted)[0]) :])
    assert all(e.seconds is None for e in h.events.of(ev.TurnStarted))
    assert all(e.by_computer for e in h.events.of(ev.CardPlayed))
    ended = h.events.last(ev.MatchEnded)
    info = await h.store.matches.get_match(ended.match_id)
    assert info.status is MatchStatus.FINISHED
    assert ended.record == await h.store.matches.load_record(ended.match_id)
    assert h.service.tables() == []
    assert (await h.store.tables.get_table(view.table_id)).status.value == "finished"


async def test_the_same_seed_plays_the_same_match(store: Any) -> None:
    records = []
    for channel in (1, 2):
        events = Recorder()
        service = TableService(store, events, pace=0, rng=random.Random(5))
        await service.open_table(GUILD, channel, HOST, "Host", host_seated=False)
        await service.start(channel, HOST)
        await service.settle()
        records.append(events.of(ev.MatchEnded)[0].record)
    for record in records:
        record.pop("started")
    assert records[0] == records[1]


async def test_each_computer_plays_at_its_own_level(store: Any) -> None:
    asked: dict[int, set[str]] = {}

    async def decide(level: str, view: SeatView, seed: int) -> Action:
        asked.setdefault(view.seat, set()).add(level)
        return await random_decider(level, view, seed)

    service = TableService(store, Recorder(), decide=decide, pace=0, rng=random.Random(1))
    settings = TableSettings(turn_seconds=60, computer_level="normal")
    await service.open_table(GUILD, CHANNEL, HOST, "Host", settings, host_seated=False)
    for level in ("easy", "hard", "easy"):
        await service.add_computer(CHANNEL, HOST, level)
    await service.start(CHANNEL, HOST)
    await service.settle()
    assert asked == {0: {"easy"}, 1: {"hard"}, 2: {"easy"}, 3: {"normal"}}


async def test_a_human_match_runs_to_the_end_in_order(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    await h.play_random(view.table_id)
    events = [e for e in h.events.events if e.table_id == view.table_id]
    check_match_events(events[events.index(h.events.of(ev.DealStarted)[0]) :])
    human_turns = [e for e in h.events.of(ev.TurnStarted) if e.seat in (0, 1)]
    assert human_turns and all(e.seconds is not None for e in human_turns)
    assert not any(e.by_computer for e in h.events.of(ev.CardPlayed) if e.seat in (0, 1))


# -- human actions -----------------------------------------------------------------------


async def test_turn_times_are_60_s_for_a_card_and_90_s_to_choose_or_double(h: Harness) -> None:
    view = await h.open_with_humans(FOUR)
    seen: dict[Phase, set[float | None]] = {}
    while len(seen) < 3:
        user, turn, legal = await h.human_turn(view.table_id)
        await h.service.act(view.table_id, user, turn, legal[0])
        for event in h.events.of(ev.TurnStarted):
            seen.setdefault(event.kind, set()).add(event.seconds)
    assert seen == {Phase.CHOOSING: {90.0}, Phase.DOUBLING: {90.0}, Phase.PLAYING: {60.0}}


async def test_acting_before_the_start_is_refused(h: Harness) -> None:
    view = await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(Refusal, match="has not started"):
        await h.service.act(view.table_id, HOST, 0, PASS)
    with pytest.raises(Refusal, match="has not started"):
        h.service.hand(view.table_id, HOST)


async def test_someone_not_seated_cannot_act_or_see_a_hand(h: Harness) -> None:
    view = await h.open_with_humans((HOST,))
    with pytest.raises(Refusal, match="not seated"):
        await h.service.act(view.table_id, 999, view.turn, PASS)
    with pytest.raises(Refusal, match="not seated"):
        h.service.hand(view.table_id, 999)


async def test_hand_shows_only_the_seats_own_cards(h: Harness) -> None:
    view = await h.open_with_humans(FOUR)
    match = h.match(view.table_id)
    for seat, user in enumerate(FOUR):
        seat_view, turn = h.service.hand(view.table_id, user)
        assert seat_view.seat == seat and turn == view.turn
        assert set(seat_view.hand) == set(match.deal.hands[seat])  # type: ignore[union-attr]


async def test_a_stale_turn_number_is_refused_and_changes_nothing(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    await h.play_random(view.table_id, actions=5)
    user, turn, legal = await h.human_turn(view.table_id)
    before = (
        h.service.record(view.table_id, full=True),
        await h.stored(view.table_id),
        len(h.events.events),
    )
    for stale in (turn - 1, 0, turn + 1):
        with pytest.raises(Refusal, match="that was for an earlier turn"):
            await h.service.act(view.table_id, user, stale, legal[0])
    after = (
        h.service.record(view.table_id, full=True),
        await h.stored(view.table_id),
        len(h.events.events),
    )
    assert after == before
    assert h.service.view(view.table_id).turn == turn
    await h.service.act(view.table_id, user, turn, legal[0])  # the right number still works
    assert h.service.view(view.table_id).turn > turn


async def test_acting_out_of_turn_is_refused(h: Harness) -> None:
    view = await h.open_with_humans(FOUR)
    to_act = h.service.view(view.table_id).to_act
    assert to_act is not None
    other = FOUR[(to_act + 1) % 4]
    seat_view, turn = h.service.hand(view.table_id, FOUR[to_act])
    with pytest.raises(Refusal, match=f"it is not your turn; it is user{FOUR[to_act]}'s turn"):
        await h.service.act(view.table_id, other, turn, seat_view.legal[0])
    assert h.service.view(view.table_id).turn == turn


def illegal_actions(legal: list[Action], hand: tuple[Any, ...]) -> list[Action]:
    candidates: list[Action] = [Choose(c) for c in CONTRACTS] + [Choose("whist")]
    candidates += [Double.of(s) for s in range(4)] + [Double.of(1, 2, 3), Double.of(5)]
    candidates += [Play(card) for card in CARDS]
    return [a for a in candidates if a not in legal]


async def test_an_illegal_action_is_refused_with_the_rules_message(h: Harness) -> None:
    view = await h.open_with_humans(FOUR)
    rng = random.Random(3)
    checked = 0
    seen_follow = False
    while checked < 60 or not seen_follow:
        user, turn, legal = await h.human_turn(view.table_id)
        seat_view, _ = h.service.hand(view.table_id, user)
        before = h.service.record(view.table_id, full=True)
        for action in rng.sample(illegal_actions(legal, seat_view.hand), 3):
            with pytest.raises(IllegalAction) as expected:
                h.match(view.table_id).check(action, seat_view.seat)
            with pytest.raises(Refusal) as refused:
                await h.service.act(view.table_id, user, turn, action)
            assert str(refused.value) == str(expected.value)
            seen_follow |= str(refused.value).startswith("you must follow suit")
            checked += 1
        # A card in hand that does not follow suit, when there is one.
        for card in seat_view.hand:
            if seat_view.trick and Play(card) not in legal:
                with pytest.raises(Refusal, match="you must follow suit: you hold a"):
                    await h.service.act(view.table_id, user, turn, Play(card))
                seen_follow = True
                break
        assert h.service.record(view.table_id, full=True) == before
        assert h.service.view(view.table_id).turn == turn
        await h.service.act(view.table_id, user, turn, rng.choice(legal))


@pytest.mark.both_backends
async def test_a_double_click_is_stored_once(h: Harness) -> None:
    view = await h.open_with_humans(FOUR)
    for _ in range(8):
        user, turn, legal = await h.human_turn(view.table_id)
        results = await asyncio.gather(
            h.service.act(view.table_id, user, turn, legal[0]),
            h.service.act(view.table_id, user, turn, legal[-1]),
            return_exceptions=True,
        )
        assert isinstance(results[0], Hand) and results[0].turn == turn + 1
        assert isinstance(results[1], Refusal) and "earlier turn" in str(results[1])
        info = await h.store.matches.get_match(view.match_id)  # type: ignore[arg-type]
        assert info.actions == turn + 1 == h.service.view(view.table_id).turn
    acts = [e for e in h.events.events if isinstance(e, ACTS)]
    assert len(acts) == 8


async def test_an_action_answers_with_the_actors_hand_as_it_left_it(h: Harness) -> None:
    """The service says what the action did to the actor's hand: a front end shows it
    without asking again (and never works out whose turn it is itself)."""
    view = await h.open_with_humans(FOUR)
    user, turn, legal = await h.human_turn(view.table_id)
    hand = await h.service.act(view.table_id, user, turn, legal[0])
    assert hand is not None and hand == h.service.hand(view.table_id, user)
    assert hand.turn == turn + 1 and not hand.view.my_turn


async def test_what_leads_to_an_action_is_checked_as_the_action_is(h: Harness) -> None:
    """The trumps menu and a doubling's targets ask the service whose turn it is: the
    same refusals as an action's (an earlier turn, someone else's, another phase)."""
    view = await h.open_with_humans(FOUR)
    user, turn, _legal = await h.human_turn(view.table_id)
    phase = h.service.hand(view.table_id, user).view.phase
    assert h.service.on_turn(view.table_id, user, turn, phase).turn == turn
    other = next(u for u in FOUR if u != user)
    refusals = [
        (user, turn - 1, phase, TableReason.STALE_TURN),
        (other, turn, phase, TableReason.NOT_YOUR_TURN),
        (user, turn, Phase.PLAYING, Reason.WRONG_PHASE),
    ]
    for who, at, asked, reason in refusals:
        with pytest.raises(Refusal) as refused:
            h.service.on_turn(view.table_id, who, at, asked)
        assert refused.value.reason is reason


async def test_an_action_without_a_turn_number_is_for_the_current_turn(h: Harness) -> None:
    view = await h.open_with_humans(FOUR)
    user, turn, legal = await h.human_turn(view.table_id)
    await h.service.act_in_channel(CHANNEL, user, legal[0])
    assert h.service.view(view.table_id).turn == turn + 1


async def test_doubling_events_name_doubles_and_redoubles(h: Harness) -> None:
    view = await h.open_with_humans(FOUR)
    user, turn, legal = await h.human_turn(view.table_id)
    await h.service.act(view.table_id, user, turn, legal[0])  # the contract
    order = h.service.hand(view.table_id, HOST)[0].doubling_order
    first, second = order[0], order[1]
    # The first doubler doubles the second; the second redoubles the first.
    await h.service.act(view.table_id, FOUR[first], turn + 1, Double.of(second))
    await h.service.act(view.table_id, FOUR[second], turn + 2, Double.of(first))
    doubled = h.events.of(ev.Doubled)
    assert (doubled[0].seat, doubled[0].doubles, doubled[0].redoubles) == (first, (second,), ())
    assert (doubled[1].seat, doubled[1].doubles, doubled[1].redoubles) == (second, (), (first,))
    low, high = sorted((first, second))
    assert (low, high, 2) in h.service.view(view.table_id).doubled


# -- leaving and kicking during the match ------------------------------------------------


async def test_a_player_leaving_the_match_is_replaced_by_a_computer(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    assert await h.service.leave(CHANNEL, ANN) is Left.COMPUTER_PLAYS
    seat = h.service.view(view.table_id).seats[1]
    assert seat.vacated and seat.user_id is None and seat.name == "user101"
    assert "a computer plays their seat" in h.events.last(ev.LobbyChanged).what
    await h.play_random(view.table_id)  # only the host is asked from now on
    assert h.events.last(ev.MatchEnded).names[1] == "user101"


async def test_a_newcomer_takes_over_a_vacated_seat(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    await h.service.kick(CHANNEL, HOST, 1)
    with pytest.raises(Refusal, match="a computer already plays that seat"):
        await h.service.kick(CHANNEL, HOST, 1)
    await h.service.join(CHANNEL, BOB, "Bob")
    seat = h.service.view(view.table_id).seats[1]
    assert seat.user_id == BOB and not seat.vacated and seat.name == "user101"
    await h.play_random(view.table_id)
    assert h.events.of(ev.MatchEnded)


async def test_the_host_leaving_the_match_passes_the_host(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN))
    await h.service.leave(CHANNEL, HOST)
    assert h.service.view(view.table_id).host_id == ANN


async def test_the_last_human_leaving_the_match_cancels_it(h: Harness) -> None:
    view = await h.open_with_humans((HOST,))
    assert await h.service.leave(CHANNEL, HOST) is Left.MATCH_CANCELLED
    await h.service.settle()
    assert h.events.last(ev.TableClosed).reason == EVERYONE_LEFT_THE_MATCH
    info = await h.store.matches.get_match(view.match_id)  # type: ignore[arg-type]
    assert info.status is MatchStatus.CANCELLED
    assert not h.events.of(ev.MatchEnded)


# -- store failures and locks ------------------------------------------------------------


class FlakyMatches:
    """The real match store, except that ``append_action`` fails while ``fail`` is set."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.fail = False

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._inner, attribute)

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        if self.fail:
            raise StoreError("disk I/O error")
        await self._inner.append_action(*args, **kwargs)


class FlakyStore:
    def __init__(self, inner: Any) -> None:
        self.tables = inner.tables
        self.claims = inner.claims
        self.matches = FlakyMatches(inner.matches)


async def test_a_failed_store_write_leaves_the_table_unchanged(store: Any) -> None:
    flaky = FlakyStore(store)
    events = Recorder()
    service = TableService(flaky, events, pace=0, rng=random.Random(2))  # type: ignore[arg-type]
    h = Harness(service, store, events)
    try:
        view = await h.open_with_humans((HOST, ANN))
        await h.play_random(view.table_id, actions=3)
        user, turn, legal = await h.human_turn(view.table_id)
        before = (h.service.record(view.table_id, full=True), h.service.view(view.table_id))
        stored, count = await h.stored(view.table_id), len(events.events)
        flaky.matches.fail = True
        with pytest.raises(Refusal, match="could not be saved; please try again"):
            await service.act(view.table_id, user, turn, legal[0])
        assert (h.service.record(view.table_id, full=True), h.service.view(view.table_id)) == before
        assert await h.stored(view.table_id) == stored
        assert len(events.events) == count
        flaky.matches.fail = False
        await service.act(view.table_id, user, turn, legal[0])  # the retry goes through
        await h.play_random(view.table_id)
        assert events.of(ev.MatchEnded)
    finally:
        await service.close()


@pytest.mark.both_backends
async def test_a_locked_table_does_not_block_another(h: Harness) -> None:
    one = await h.open_with_humans(FOUR, channel=1)
    two = await h.open_with_humans(FOUR, channel=2)
    user, turn, legal = await h.human_turn(two.table_id)
    async with h.service.registry.table(one.table_id).lock:  # table one is busy (held forever)
        await asyncio.wait_for(h.service.act(two.table_id, user, turn, legal[0]), timeout=5)
        assert h.service.view(two.table_id).turn == turn + 1
        blocked = asyncio.create_task(h.service.act(one.table_id, HOST, 0, legal[0]))
        await asyncio.sleep(0.05)
        assert not blocked.done()  # table one waits for its own lock only
    with pytest.raises(Refusal):
        await blocked


async def test_a_failed_write_at_expiry_announces_nothing_and_tries_again(store: Any) -> None:
    flaky = FlakyStore(store)
    events = Recorder()
    service = TableService(  # type: ignore[arg-type]
        flaky, events, pace=0, time_scale=1.0, rng=random.Random(2)
    )
    try:
        await service.open_table(GUILD, CHANNEL, HOST, "Host", TableSettings(turn_seconds=60))
        view = await service.start(CHANNEL, HOST)
        await service.settle()
        turn = service.view(view.table_id).turn
        flaky.matches.fail = True
        service.context.time_scale = 1e-3  # the timer set after the failure fires within 90 ms
        with pytest.raises(Refusal, match="could not be saved"):
            await service.expire_turn(view.table_id, turn)
        assert not events.of(ev.TimedOut) and not events.of(ev.SeatAway)
        assert service.view(view.table_id).turn == turn
        # The turn timer tries again, and succeeds once the store works again.
        flaky.matches.fail = False
        await wait_for(lambda: events.of(ev.TimedOut))
        assert len(events.of(ev.TimedOut)) == 1 and not events.of(ev.SeatAway)
        assert service.view(view.table_id).turn > turn
    finally:
        await service.close()


async def test_a_failed_write_by_a_computer_is_tried_again(store: Any) -> None:
    flaky = FlakyStore(store)
    events = Recorder()
    service = TableService(  # type: ignore[arg-type]
        flaky, events, pace=0, time_scale=0.01, rng=random.Random(2)
    )
    try:
        await service.open_table(GUILD, CHANNEL, HOST, "Host", host_seated=False)
        flaky.matches.fail = True
        view = await service.start(CHANNEL, HOST)
        await asyncio.sleep(0.05)
        assert service.view(view.table_id).turn == 0
        flaky.matches.fail = False
        await wait_for(lambda: events.of(ev.MatchEnded), timeout=30)
    finally:
        await service.close()


async def test_cancelling_while_a_computer_thinks_stops_the_table(
    store: Any, caplog: pytest.LogCaptureFixture
) -> None:
    events = Recorder()
    service = TableService(store, events, pace=0.05, rng=random.Random(2))
    try:
        await service.open_table(GUILD, CHANNEL, HOST, "Host", host_seated=False)
        await service.start(CHANNEL, HOST)
        await wait_for(lambda: events.of(ev.ContractChosen))
        await service.cancel(CHANNEL, HOST)  # the next computer waits out its pace
        await asyncio.sleep(0.15)
        await service.settle()
        assert isinstance(events.events[-1], ev.TableClosed)
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    finally:
        await service.close()
