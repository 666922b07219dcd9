"""The daily service: attempts started, resumed and played; the same
moves give the same game; every bad request is refused politely and changes nothing;
the date turning; results hidden until played; the daily board. On SQLite, but the
clicks at once (``service_logic``: the daily store's tests run its queries on both)."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.daily import MIN_DAYS, PERSON_SEAT, DailyReason, DailyRefusal, DailyService
from bot.daily import service as service_module
from bot.engine import Choose, Double, Play, Reason, from_record, rules_for
from bot.store import GuildSettings, StorageFailed, Store, TableSettings, open_store
from bot.store.copy import copy_database
from tests.daily.daily_helpers import GUILD, Clock, at_random, cards_in, first_legal, play_out

pytestmark = pytest.mark.service_logic

ANN, BOB, CAS = 100, 101, 102
TODAY = date(2026, 12, 2)


async def _moves(store: Store, attempt_id: int) -> list[tuple[int, int, str]]:
    return [(m.deal_index, m.seat, m.action.code) for m in await store.daily.moves(attempt_id)]


async def test_a_person_starts_today_and_it_is_their_turn(
    service: DailyService, store: Store
) -> None:
    view = await service.play(GUILD, ANN, "Ann")
    assert view.day == TODAY and view.deal_number == 1 and view.deals == 4
    assert view.seat.seat == PERSON_SEAT and view.seat.my_turn and view.seat.legal
    assert view.players[PERSON_SEAT] == "Ann"
    assert view.step == len(await store.daily.moves(view.attempt_id))
    assert view.closes_at == datetime(2026, 12, 4, tzinfo=UTC)
    # Asking again resumes the same attempt where it stands.
    again = await service.play(GUILD, ANN, "Ann")
    assert (again.attempt_id, again.step, again.seat) == (view.attempt_id, view.step, view.seat)


async def test_two_people_making_the_same_moves_see_the_same_game(
    service: DailyService, store: Store
) -> None:
    ann = await play_out(service, await service.play(GUILD, ANN, "Ann"), at_random(5))
    bob = await play_out(service, await service.play(GUILD, BOB, "Bob"), at_random(5))
    assert ann.finished and bob.finished
    assert await _moves(store, ann.attempt_id) == await _moves(store, bob.attempt_id)
    assert ann.scores == bob.scores
    # Other moves of the person give another game, on the same cards and contracts.
    cas = await play_out(service, await service.play(GUILD, CAS, "Cas"), at_random(6))
    assert await _moves(store, cas.attempt_id) != await _moves(store, ann.attempt_id)
    results = await service.results(GUILD, None, ANN)
    assert results.comparisons is not None
    assert [c.contract for c in results.comparisons] == [
        d.contract for d in (await service.program(GUILD, TODAY)).deals
    ]


async def test_the_same_moves_give_the_same_game_across_a_restart(
    database: Path | str, clock: Clock
) -> None:
    async with await open_store(database) as store:
        first = DailyService(store.daily, store.tables, clock=clock)
        view = await play_out(first, await first.play(GUILD, ANN, "Ann"), at_random(9), moves=20)
        attempt_id, step = view.attempt_id, view.step
    # A new process: nothing in memory; the attempt is replayed from the store.
    async with await open_store(database) as store:
        second = DailyService(store.daily, store.tables, clock=clock)
        resumed = await second.play(GUILD, ANN, "Ann")
        assert (resumed.attempt_id, resumed.step, resumed.seat) == (attempt_id, step, view.seat)
        ann = await play_out(second, resumed, at_random(9))
        bob = await play_out(second, await second.play(GUILD, BOB, "Bob"), at_random(9))
        assert await _moves(store, ann.attempt_id) == await _moves(store, bob.attempt_id)


async def test_a_button_still_works_after_a_restart(database: Path | str, clock: Clock) -> None:
    async with await open_store(database) as store:
        view = await DailyService(store.daily, store.tables, clock=clock).play(GUILD, ANN, "Ann")
    async with await open_store(database) as store:
        service = DailyService(store.daily, store.tables, clock=clock)
        after = await service.act(view.attempt_id, ANN, view.step, view.seat.legal[0])
        assert after.step > view.step


async def test_nobody_sees_a_deal_before_playing_it(service: DailyService) -> None:
    """Every view of an attempt holds the person's own hand of the deal in play and the
    cards played to it, and no other card: not the computers' hands, not a deal to come."""
    program = await service.program(GUILD, TODAY)
    view = await service.play(GUILD, ANN, "Ann")
    views = [view]
    while not view.finished:
        view = await service.act(view.attempt_id, ANN, view.step, first_legal(view))
        views.append(view)
    for seen in views:
        deal = program.deals[seen.deal_number - 1]
        played = {card for _seat, card in seen.seat.plays}
        assert set(seen.seat.hand) <= set(deal.hands[PERSON_SEAT])
        assert cards_in(seen) <= set(seen.seat.hand) | played
    assert len({v.deal_number for v in views}) == len(program.deals)


async def test_a_second_attempt_the_same_day_is_refused(
    service: DailyService, store: Store
) -> None:
    ann = await play_out(service, await service.play(GUILD, ANN, "Ann"))
    with pytest.raises(DailyRefusal) as refused:
        await service.play(GUILD, ANN, "Ann")
    assert refused.value.reason is DailyReason.ALREADY_PLAYED
    assert [s.attempt_id for s in await store.daily.day_scores(GUILD, TODAY)] == [ann.attempt_id]


async def test_a_button_of_someone_elses_attempt_is_refused(
    service: DailyService, store: Store
) -> None:
    ann = await service.play(GUILD, ANN, "Ann")
    before = await _moves(store, ann.attempt_id)
    with pytest.raises(DailyRefusal) as refused:
        await service.act(ann.attempt_id, BOB, ann.step, ann.seat.legal[0])
    assert refused.value.reason is DailyReason.NOT_YOURS
    assert await _moves(store, ann.attempt_id) == before
    assert (await service.play(GUILD, ANN, "Ann")).step == ann.step


async def test_a_button_of_a_finished_attempt_is_refused(
    service: DailyService, store: Store
) -> None:
    start = await service.play(GUILD, ANN, "Ann")
    done = await play_out(service, start)
    before = await _moves(store, done.attempt_id)
    for step, action in ((start.step, start.seat.legal[0]), (done.step, start.seat.legal[0])):
        with pytest.raises(DailyRefusal) as refused:
            await service.act(done.attempt_id, ANN, step, action)
        assert refused.value.reason is DailyReason.FINISHED
    assert await _moves(store, done.attempt_id) == before


@pytest.mark.parametrize("attempt_id", [999_999, 0, -1, 2**62])
async def test_a_forged_attempt_is_refused(service: DailyService, attempt_id: int) -> None:
    await service.play(GUILD, ANN, "Ann")
    with pytest.raises(DailyRefusal) as refused:
        await service.act(attempt_id, ANN, 0, Double.of())
    assert refused.value.reason is DailyReason.NO_SUCH_ATTEMPT


async def test_a_stale_or_forged_step_is_refused(service: DailyService, store: Store) -> None:
    view = await play_out(service, await service.play(GUILD, ANN, "Ann"), moves=3)
    before = await _moves(store, view.attempt_id)
    for step in (view.step - 1, view.step + 1, -5, 10**9):
        with pytest.raises(DailyRefusal) as refused:
            await service.act(view.attempt_id, ANN, step, view.seat.legal[0])
        assert refused.value.reason is DailyReason.STALE
    assert await _moves(store, view.attempt_id) == before


async def test_a_move_the_rules_forbid_is_refused_by_the_engines_reason(
    service: DailyService, store: Store
) -> None:
    view = await service.play(GUILD, ANN, "Ann")
    view = await play_out(service, view, moves=1 if isinstance(view.seat.legal[0], Double) else 0)
    assert isinstance(view.seat.legal[0], Play)
    before = await _moves(store, view.attempt_id)
    held = set(view.seat.hand)
    not_held = next(
        c
        for d in (await service.program(GUILD, TODAY)).deals
        for h in d.hands
        for c in h
        if c not in held
    )
    refusals = {}
    for action in (Play(not_held), Choose("queens"), Double.of(0)):
        with pytest.raises(DailyRefusal) as refused:
            await service.act(view.attempt_id, ANN, view.step, action)
        refusals[action.code] = refused.value.reason
    assert refusals[f"P:{not_held.code}"] is Reason.NOT_HELD
    assert refusals["C:queens"] is Reason.WRONG_PHASE
    assert refusals["D:0"] is Reason.WRONG_PHASE
    assert await _moves(store, view.attempt_id) == before


@pytest.mark.both_backends
async def test_two_clicks_at_once_store_one_move(service: DailyService, store: Store) -> None:
    view = await service.play(GUILD, ANN, "Ann")
    action = view.seat.legal[0]
    outcomes = await asyncio.gather(
        service.act(view.attempt_id, ANN, view.step, action),
        service.act(view.attempt_id, ANN, view.step, action),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, DailyRefusal)]
    assert len(refused) == 1 and refused[0].reason is DailyReason.STALE
    assert len(await _moves(store, view.attempt_id)) == next(
        o.step for o in outcomes if not isinstance(o, BaseException)
    )


async def test_a_failed_write_changes_nothing_and_a_retry_works(
    service: DailyService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = await service.play(GUILD, ANN, "Ann")
    before = await _moves(store, view.attempt_id)
    real = store.daily.append_moves

    async def full_disk(*args: object, **kwargs: object) -> None:
        raise StorageFailed("the disk is full")

    monkeypatch.setattr(store.daily, "append_moves", full_disk)
    with pytest.raises(DailyRefusal) as refused:
        await service.act(view.attempt_id, ANN, view.step, view.seat.legal[0])
    assert refused.value.reason is DailyReason.NOT_SAVED
    assert await _moves(store, view.attempt_id) == before
    monkeypatch.setattr(store.daily, "append_moves", real)
    again = await service.play(GUILD, ANN, "Ann")
    assert (again.step, again.seat) == (view.step, view.seat)
    after = await service.act(view.attempt_id, ANN, view.step, view.seat.legal[0])
    assert after.step > view.step


async def test_the_date_turning_while_someone_plays(
    service: DailyService, store: Store, clock: Clock
) -> None:
    """An attempt counts for the day it started and can be finished until the end of the
    next UTC day; then it is closed, and its unfinished deals rank last."""
    clock.now = datetime(2026, 12, 2, 23, 59, tzinfo=UTC)
    view = await play_out(service, await service.play(GUILD, ANN, "Ann"), moves=2)
    clock.now = datetime(2026, 12, 3, 0, 1, tzinfo=UTC)
    view = await service.act(view.attempt_id, ANN, view.step, first_legal(view))
    assert view.day == TODAY
    resumed = await service.play(GUILD, ANN, "Ann")  # yesterday's first: it closes sooner
    assert (resumed.attempt_id, resumed.day) == (view.attempt_id, TODAY)
    clock.now = datetime(2026, 12, 3, 23, 59, 59, tzinfo=UTC)
    view = await service.act(view.attempt_id, ANN, view.step, first_legal(view))
    bob = await play_out(service, await service.play(GUILD, BOB, "Bob"))
    assert bob.day == date(2026, 12, 3)  # Bob, starting on the 3rd, plays the 3rd's deals
    clock.now = datetime(2026, 12, 4, tzinfo=UTC)
    before = await _moves(store, view.attempt_id)
    with pytest.raises(DailyRefusal) as refused:
        await service.act(view.attempt_id, ANN, view.step, first_legal(view))
    assert refused.value.reason is DailyReason.CLOSED
    assert await _moves(store, view.attempt_id) == before
    # Today's deals are new ones; yesterday's are over for Ann.
    today = await service.play(GUILD, ANN, "Ann")
    assert today.day == date(2026, 12, 4) and today.attempt_id != view.attempt_id
    # The closed day counts Ann's attempt, unfinished: alone on its deals, she has 50%.
    results = await service.results(GUILD, "2026-12-02", BOB)
    assert results.closed and [r.name for r in results.ranking] == ["Ann"]
    assert results.ranking[0].percent == 50 and not results.ranking[0].finished


async def test_an_unfinished_attempt_at_close_ranks_last_on_its_unfinished_deals(
    service: DailyService, clock: Clock
) -> None:
    ann = await play_out(service, await service.play(GUILD, ANN, "Ann"), at_random(1))
    bob = await play_out(service, await service.play(GUILD, BOB, "Bob"), at_random(2))
    cas = await play_out(service, await service.play(GUILD, CAS, "Cas"), moves=15)
    assert ann.finished and bob.finished and not cas.finished
    open_results = await service.results(GUILD, None, ANN)
    assert {r.name for r in open_results.ranking} == {"Ann", "Bob"}  # so far: finished ones
    clock.advance(days=2)
    closed = await service.results(GUILD, "2026-12-02", ANN)
    assert closed.closed
    by_name = {r.name: r for r in closed.ranking}
    assert set(by_name) == {"Ann", "Bob", "Cas"}
    assert by_name["Cas"].rank == 3 and not by_name["Cas"].finished
    assert closed.comparisons is not None
    for comparison, cas_score in zip(closed.comparisons, cas.scores, strict=True):
        if cas_score is None:
            assert comparison.field[-1] is None


async def test_results_are_hidden_until_played(service: DailyService, clock: Clock) -> None:
    ann = await play_out(service, await service.play(GUILD, ANN, "Ann"), at_random(3))
    bob = await play_out(service, await service.play(GUILD, BOB, "Bob"), moves=4)
    for viewer in (BOB, CAS):  # one playing, one who has not begun
        hidden = await service.results(GUILD, None, viewer)
        assert [r.name for r in hidden.ranking] == ["Ann"]
        assert not hidden.played and hidden.comparisons is None and hidden.replays is None
        assert cards_in(hidden) == set()
    mine = await service.results(GUILD, "2026-12-02", ANN)
    assert mine.played and mine.comparisons is not None and mine.replays is None
    assert [c.mine for c in mine.comparisons] == list(ann.scores)
    assert all(c.best is not None and c.best_by == ("Ann",) for c in mine.comparisons)
    # Once the day's results close, everyone sees the deals and every attempt's replay.
    clock.advance(days=2)
    closed = await service.results(GUILD, "2026-12-02", CAS)
    assert closed.closed and closed.comparisons is not None and closed.replays is not None
    assert {r.name for r in closed.replays} == {"Ann", "Bob"}
    for replay in closed.replays:
        for record in replay.records:
            assert "seed" not in record
            from_record(record)  # every deal replays by the engine
    assert {r.name: r.finished for r in closed.ranking} == {"Ann": True, "Bob": bob.finished}


@pytest.mark.parametrize("when", ["yesterday", "2026-13-01", "02-12-2026", "2026-12-2", ""])
async def test_a_bad_date_is_refused(service: DailyService, when: str) -> None:
    with pytest.raises(DailyRefusal) as refused:
        await service.results(GUILD, when, ANN)
    assert refused.value.reason is DailyReason.BAD_DATE


async def test_a_day_to_come_is_refused(service: DailyService) -> None:
    with pytest.raises(DailyRefusal) as refused:
        await service.results(GUILD, "2026-12-03", ANN)
    assert refused.value.reason is DailyReason.FUTURE_DATE
    empty = await service.results(GUILD, "2026-11-01", ANN)
    assert empty.ranking == () and empty.deals == 0 and empty.comparisons is None


async def test_finishing_gives_the_days_result_so_far(service: DailyService) -> None:
    first = await play_out(service, await service.play(GUILD, ANN, "Ann"), at_random(1))
    assert first.standing is not None
    assert (first.standing.percent, first.standing.rank, first.standing.field) == (50, 1, 1)
    second = await play_out(service, await service.play(GUILD, BOB, "Bob"), at_random(1))
    assert second.standing is not None and second.standing.field == 2
    assert second.standing.percent == 50 and second.standing.rank == 1  # the same game
    assert first.previous is not None and first.previous.number == first.deals


@pytest.mark.parametrize("deals", [0, 12, -3, 100])
async def test_a_number_of_deals_outside_one_to_eleven_is_refused(
    service: DailyService, deals: int
) -> None:
    with pytest.raises(DailyRefusal) as refused:
        await service.set_deals_per_day(GUILD, deals)
    assert refused.value.reason is DailyReason.BAD_DEALS
    assert await service.deals_per_day(GUILD) == 4


async def test_a_new_number_of_deals_counts_from_the_next_day_begun(
    service: DailyService, clock: Clock
) -> None:
    await service.play(GUILD, ANN, "Ann")  # today is begun with 4 deals
    await service.set_deals_per_day(GUILD, 11)
    assert await service.deals_per_day(GUILD) == 11
    assert (await service.play(GUILD, BOB, "Bob")).deals == 4
    clock.advance(days=1)
    assert (await service.play(GUILD, CAS, "Cas")).deals == 11


async def test_the_daily_board_counts_each_season_and_ranks_after_enough_days(
    service: DailyService, store: Store, clock: Clock
) -> None:
    for _day in range(MIN_DAYS):
        await play_out(service, await service.play(GUILD, ANN, "Ann"), at_random(1))
        await play_out(service, await service.play(GUILD, BOB, "Bob"), at_random(2))
        clock.advance(days=1)
    await play_out(service, await service.play(GUILD, CAS, "Cas"), at_random(3))
    season = await store.seasons.active_season(GUILD)
    assert season is not None
    rows = await service.board(GUILD, season.season_id)
    by_name = {row.name: row for row in rows}
    assert by_name["Ann"].days == by_name["Bob"].days == MIN_DAYS
    assert by_name["Ann"].rank is not None and by_name["Bob"].rank is not None
    assert by_name["Cas"].days == 1 and by_name["Cas"].rank is None
    assert rows[-1].name == "Cas"
    assert by_name["Ann"].percent + by_name["Bob"].percent == 100  # two per day: 100 shared
    # A new season starts an empty board.
    spring = await store.seasons.start_season(GUILD, "Spring")
    assert await service.board(GUILD, spring.season_id) == []
    clock.advance(days=3)  # every day closed and settled: the old season keeps its board
    assert {r.name: r.days for r in await service.board(GUILD, season.season_id)} == {
        "Ann": MIN_DAYS,
        "Bob": MIN_DAYS,
        "Cas": 1,
    }


async def test_a_day_is_played_by_the_servers_variant_and_house_rules(
    service: DailyService, store: Store
) -> None:
    house = rules_for(
        "twelve",
        {"must_trump": "overtrump", "domino_aces": "either", "heart_lead": "broken"},
    )
    await store.tables.set_guild_settings(
        GUILD, GuildSettings(table_defaults=TableSettings(rules=house))
    )
    view = await service.play(GUILD, ANN, "Ann")
    assert view.seat.rules is house
    # A change of the server's rules later that day leaves the day as it was begun.
    await store.tables.set_guild_settings(GUILD, GuildSettings())
    done = await play_out(service, await service.play(GUILD, BOB, "Bob"), at_random(8))
    assert done.seat.rules is house and done.finished
    program = await service.program(GUILD, TODAY)
    assert all(house.contract(deal.contract) for deal in program.deals)


async def test_a_copy_to_postgresql_keeps_every_day_and_attempt(
    tmp_path: Path, postgres_url: str, clock: Clock
) -> None:
    """The secret travels with the data (``python -m bot.store copy``), so days dealt after
    the move are the ones they would have been, and every attempt plays on."""
    path = tmp_path / "bonken.sqlite3"
    async with await open_store(path) as store:
        service = DailyService(store.daily, store.tables, clock=clock)
        ann = await play_out(service, await service.play(GUILD, ANN, "Ann"), at_random(1))
        bob = await play_out(service, await service.play(GUILD, BOB, "Bob"), moves=5)
        secret = await store.daily.secret()
    await copy_database(path, postgres_url)
    async with await open_store(postgres_url) as store:
        assert await store.daily.secret() == secret
        service = DailyService(store.daily, store.tables, clock=clock)
        bob_after = await play_out(service, await service.play(GUILD, BOB, "Bob"))
        assert bob_after.attempt_id == bob.attempt_id and bob_after.finished
        results = await service.results(GUILD, None, ANN)
        assert {r.name for r in results.ranking} == {"Ann", "Bob"}
        assert results.comparisons is not None
        assert [c.mine for c in results.comparisons] == list(ann.scores)


@pytest.mark.both_backends
async def test_starting_twice_at_once_makes_one_attempt(
    service: DailyService, store: Store
) -> None:
    first, second = await asyncio.gather(
        service.play(GUILD, ANN, "Ann"), service.play(GUILD, ANN, "Ann")
    )
    assert first.attempt_id == second.attempt_id and first.step == second.step
    assert len(await store.daily.day_scores(GUILD, TODAY)) == 1


async def test_an_attempt_dropped_from_memory_plays_on_from_the_store(
    service: DailyService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "LIVE_ATTEMPTS", 2)
    views = [await service.play(GUILD, user, f"P{user}") for user in (ANN, BOB, CAS)]
    ann = views[0]  # the least recently used: no longer in memory
    after = await service.act(ann.attempt_id, ANN, ann.step, ann.seat.legal[0])
    assert after.step > ann.step
    assert len(await store.daily.moves(ann.attempt_id)) == after.step
