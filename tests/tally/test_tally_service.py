"""The tally service: who may enter, stale buttons, closed tallies, who entered what, and a
restart that loses nothing. On SQLite (``service_logic``: the tally store's tests run its
queries on both backends)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.engine import STANDARD, Choose, Reason
from bot.engine.tally import PASSED, Correct, DealEntry, Result, Step, Undo
from bot.ratings import OpenSkillRater
from bot.store import Store, TallySeat, TallyStatus, open_store
from bot.tally import Made, TallyReason, TallyRefusal, TallyService, TallyView
from tests.tally.tally_helpers import doubling_match, entries_of

pytestmark = pytest.mark.service_logic

GUILD, CHANNEL = 1, 10
ANN, BOB, CAS, HOST, STRANGER = 101, 102, 103, 104, 999
SEATS = (
    TallySeat(seat=0, name="Ann", user_id=ANN),
    TallySeat(seat=1, name="Bob", user_id=BOB),
    TallySeat(seat=2, name="Cas", user_id=CAS),
    TallySeat(seat=3, name="Oma", user_id=None),
)


async def _opened(service: TallyService) -> TallyView:
    return await service.open(GUILD, CHANNEL, HOST, SEATS, rules=STANDARD)


async def _refused(
    service: TallyService, call, reason: TallyReason | Reason, tally_id: int
) -> TallyRefusal:
    before = await service.view(tally_id)
    with pytest.raises(TallyRefusal) as caught:
        await call()
    assert caught.value.reason is reason, caught.value
    assert await service.view(tally_id) == before
    return caught.value


async def test_a_match_entered_through_the_service_finishes_as_the_engine_scores_it(
    store: Store,
) -> None:
    service = TallyService(store, rater=OpenSkillRater())
    view = await _opened(service)
    match = doubling_match(9)
    people = (ANN, BOB, CAS, HOST)
    for turn, entry in enumerate(entries_of(match)):
        view = await service.enter(view.tally_id, people[turn % 4], view.version, entry)
    assert view.status is TallyStatus.FINISHED and view.step is Step.OVER
    assert list(view.totals) == match.totals() and list(view.ranking) == match.ranking()
    assert [deal.final_scores() for deal in view.deals] == [d.final_scores() for d in match.deals]
    # Who entered what: contract, doubling and result of each deal, in turn.
    assert view.entered_by[0].contract == ANN and view.entered_by[0].doubling == BOB
    assert view.entered_by[0].result == CAS and view.entered_by[1].contract == HOST


async def test_only_who_is_at_the_tally_enters_and_nothing_changes_otherwise(
    store: Store,
) -> None:
    service = TallyService(store)
    view = await _opened(service)
    error = await _refused(
        service,
        lambda: service.enter(view.tally_id, STRANGER, view.version, Choose("queens")),
        TallyReason.NOT_AT_THE_TALLY,
        view.tally_id,
    )
    assert "not at this tally" in str(error)
    await _refused(
        service,
        lambda: service.cancel(view.tally_id, STRANGER, view.version),
        TallyReason.NOT_AT_THE_TALLY,
        view.tally_id,
    )
    # Who opened it keeps the score even without a seat; an administrator may cancel.
    view = await service.enter(view.tally_id, HOST, view.version, Choose("queens"))
    assert view.entered_by[0].contract == HOST
    view = await service.cancel(view.tally_id, STRANGER, view.version, is_admin=True)
    assert view.status is TallyStatus.CANCELLED


async def test_a_button_of_an_older_sheet_is_stale(store: Store) -> None:
    service = TallyService(store)
    view = await _opened(service)
    shown = view.version
    view = await service.enter(view.tally_id, ANN, shown, Choose("queens"))
    await _refused(
        service,
        lambda: service.enter(view.tally_id, BOB, shown, Choose("hearts")),
        TallyReason.STALE,
        view.tally_id,
    )
    # Two clicks at once on the same sheet: one is stored, the other is stale.
    results = await asyncio.gather(
        service.enter(view.tally_id, ANN, view.version, PASSED),
        service.enter(view.tally_id, BOB, view.version, PASSED),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, TallyRefusal)]
    assert len(refused) == 1 and refused[0].reason is TallyReason.STALE
    assert (await service.view(view.tally_id)).version == view.version + 1


async def test_a_finished_or_cancelled_tally_refuses_every_button(store: Store) -> None:
    service = TallyService(store)
    cancelled = await _opened(service)
    cancelled = await service.cancel(cancelled.tally_id, BOB, cancelled.version)
    assert cancelled.changes[-1].made is Made.CANCEL and cancelled.changes[-1].user_id == BOB
    for call in (
        lambda: service.enter(cancelled.tally_id, ANN, cancelled.version, Choose("queens")),
        lambda: service.enter(cancelled.tally_id, ANN, None, Undo()),
        lambda: service.cancel(cancelled.tally_id, ANN, None),
    ):
        await _refused(service, call, TallyReason.CLOSED, cancelled.tally_id)
    finished = await _opened(service)
    for entry in entries_of(doubling_match(1)):
        finished = await service.enter(finished.tally_id, ANN, None, entry)
    assert finished.status is TallyStatus.FINISHED
    await _refused(
        service,
        lambda: service.enter(finished.tally_id, ANN, finished.version, Undo()),
        TallyReason.CLOSED,
        finished.tally_id,
    )
    await _refused(service, lambda: service.view(4242), TallyReason.NO_TALLY, finished.tally_id)


async def test_the_rules_refusals_come_with_what_they_name(store: Store) -> None:
    service = TallyService(store)
    view = await _opened(service)
    view = await service.enter(view.tally_id, ANN, None, Choose("hearts"))
    view = await service.enter(view.tally_id, ANN, None, PASSED)
    error = await _refused(
        service,
        lambda: service.enter(view.tally_id, ANN, None, Result.of({"hearts": [3, 3, 3, 3]})),
        Reason.COUNTS_DO_NOT_ADD_UP,
        view.tally_id,
    )
    assert error.error is not None and (error.error.value, error.error.expected) == (12, 13)


async def test_undo_and_corrections_are_listed_with_who_made_them(store: Store) -> None:
    service = TallyService(store)
    view = await _opened(service)
    for entry in (Choose("queens"), PASSED, Result.of({"queens": [1, 1, 1, 1]}), Choose("hearts")):
        view = await service.enter(view.tally_id, ANN, None, entry)
    view = await service.enter(view.tally_id, BOB, None, Undo())
    assert view.step is Step.CONTRACT and view.number == 2
    fixed = DealEntry("queens", PASSED, Result.of({"queens": [0, 0, 0, 4]}))
    view = await service.enter(view.tally_id, CAS, None, Correct(1, fixed))
    assert [(c.made, c.deal, c.user_id, c.partial) for c in view.changes] == [
        (Made.UNDO, 2, BOB, True),
        (Made.CORRECT, 1, CAS, False),
    ]
    assert view.entered_by[0].contract == view.entered_by[0].result == CAS
    assert list(view.totals) == [0, 0, 0, -120]


async def test_a_restart_in_the_middle_of_a_deal_keeps_what_was_acknowledged(
    database: Path | str,
) -> None:
    async with await open_store(database) as store:
        service = TallyService(store)
        view = await _opened(service)
        view = await service.enter(view.tally_id, ANN, view.version, Choose("kingjacks"))
        view = await service.enter(view.tally_id, BOB, view.version, PASSED)
    async with await open_store(database) as store:
        again = await TallyService(store).view(view.tally_id)
        assert again == view
        assert again.step is Step.RESULT and again.current is not None
        assert again.current.contract.id == "kingjacks"
        assert again.entered_by[0].doubling == BOB


async def test_a_member_sits_once(store: Store) -> None:
    service = TallyService(store)
    twice = (*SEATS[:3], TallySeat(seat=3, name="Ann again", user_id=ANN))
    with pytest.raises(TallyRefusal) as caught:
        await service.open(GUILD, CHANNEL, HOST, twice, rules=STANDARD)
    assert caught.value.reason is TallyReason.MEMBER_TWICE
