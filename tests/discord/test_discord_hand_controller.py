"""The hand controller on its own: a real table service and store, a fake Discord (the
interactions and the webhook edits are recorded, not sent). What a hand message shows
is built from the engine's seat view; these tests are about when it is sent and edited,
with which token, and in whose language."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.engine import MatchPhase
from bot.i18n import N_
from bot.store import HandLink, Store, open_store
from bot.tables import TableService, TableView
from bot.tables import events as ev
from bot.ui.hand import hand_message
from bot.ui.hands import STALE_NOTICE, HandController
from tests.discord.fakes import CHANNEL_ID, GUILD_ID, FakeWebhookEdits, interaction
from tests.sqlite_template import fresh_sqlite

ANN, BOB = 101, 102


async def _ignore(event: ev.Event, view: TableView | None) -> None:
    """The service's ``publish``: no presenter in these tests."""


@dataclass
class Table:
    store: Store
    service: TableService
    hands: HandController
    edits: FakeWebhookEdits
    table_id: int


@pytest.fixture
async def table(tmp_path) -> AsyncIterator[Table]:
    """Ann and Bob at a started table (computers in the other seats), a hand controller."""
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        service = TableService(store, _ignore, pace=0.0)
        await service.open_table(GUILD_ID, CHANNEL_ID, ANN, "Ann")
        await service.join(CHANNEL_ID, BOB, "Bob")
        view = await service.start(CHANNEL_ID, ANN)
        await service.settle()
        edits = FakeWebhookEdits()
        hands = HandController(service, store.delivery, edits)
        try:
            yield Table(store, service, hands, edits, view.table_id)
        finally:
            hands.close()
            await service.close()


def to_act(t: Table) -> int:
    """Ann or Bob, whoever the table waits for (the computers have moved)."""
    return next(user for user in (ANN, BOB) if t.service.hand(t.table_id, user)[0].my_turn)


async def act(t: Table, user: int) -> None:
    seat_view, turn = t.service.hand(t.table_id, user)
    await t.service.act(t.table_id, user, turn, seat_view.legal[0])
    await t.service.settle()


async def test_show_answers_privately_and_keeps_the_link_across_a_restart(table: Table):
    t = table
    shown = interaction(ANN, "Ann")
    await t.hands.show(shown, t.table_id)
    answer = shown.answer
    assert answer.kind == "send" and answer.ephemeral
    assert answer.content is not None and answer.content.startswith("**Deal 1 · ")
    assert t.hands.live(t.table_id, ANN) and not t.hands.live(t.table_id, BOB)
    (link,) = await t.store.delivery.hand_links(t.table_id)
    assert (link.user_id, link.token) == (ANN, shown.token)
    assert t.edits.edits == []  # a fresh message, not an edit


async def test_a_refresh_is_sent_only_when_the_message_would_change(table: Table):
    t = table
    mover = to_act(t)
    shown = interaction(mover)
    await t.hands.show(shown, t.table_id)
    await t.hands.refresh(t.table_id, mover)
    assert t.edits.edits == []  # it shows the table as it is
    await act(t, mover)
    await t.hands.refresh(t.table_id, mover)
    (edit,) = t.edits.edits
    assert edit.link.token == shown.token
    assert edit.content != shown.answer.content


async def test_a_refresh_wanted_while_the_answer_is_in_flight_follows_it_with_its_token(
    table: Table,
):
    """The other player's move comes while a player's new hand message is being answered:
    the refresh waits for the answer and goes out with the answer's (newer) token, not
    with the older message's."""
    t = table
    while t.service.hand(t.table_id, to_act(t))[0].phase is not MatchPhase.PLAYING:
        await act(t, to_act(t))
    mover = to_act(t)
    other = BOB if mover == ANN else ANN
    await t.hands.show(interaction(other), t.table_id)  # an older hand message
    shown = interaction(other)
    shown.response.hold = asyncio.Event()
    answering = asyncio.create_task(t.hands.show(shown, t.table_id))
    await asyncio.sleep(0.01)  # the answer is in flight
    await act(t, mover)  # a card on the table: the other's message is out of date
    t.hands.request_refresh(t.table_id, other)  # as the presenter asks on each turn
    await asyncio.sleep(0.01)
    assert t.edits.edits == []  # nothing goes out before the answer
    shown.response.hold.set()
    await answering
    await t.hands.idle()
    (edit,) = t.edits.edits
    assert edit.link.token == shown.token and edit.content != shown.answer.content
    seat_view, turn = t.service.hand(t.table_id, other)
    seats = t.service.view(t.table_id).seats
    assert edit.content == hand_message(t.table_id, turn, seat_view, seats)[0]  # as it is now


async def test_a_restored_link_about_to_expire_says_so_in_its_refresh(table: Table):
    t = table
    link = HandLink(
        table_id=t.table_id,
        user_id=ANN,
        application_id=99,
        token="old-token",
        expires_at=time.time() + 30,
    )
    await t.store.delivery.keep_hand(link)
    await t.hands.restore(t.table_id)  # after a restart: the stored links
    assert not t.hands.live(t.table_id, ANN)  # too little time left to count on it
    await t.hands.refresh(t.table_id, ANN)
    (edit,) = t.edits.edits
    assert edit.link.token == "old-token"
    assert edit.content.startswith(STALE_NOTICE + "\n**Deal 1 · ")


async def test_closing_the_table_tells_each_open_hand_in_its_players_language(table: Table):
    t = table
    dutch, english = interaction(ANN, locale="nl"), interaction(BOB, locale="en-GB")
    await t.hands.show(dutch, t.table_id)
    await t.hands.show(english, t.table_id)
    await t.hands.close_table(t.table_id, N_("the table was cancelled"), "en", CHANNEL_ID)
    said = {edit.link.user_id: (edit.content, edit.view) for edit in t.edits.edits}
    assert said == {
        ANN: ("De tafel is gesloten: de tafel is opgeheven.", None),
        BOB: ("The table is closed: the table was cancelled.", None),
    }
    assert await t.store.delivery.hand_links(t.table_id) == []
    assert not t.hands.live(t.table_id, ANN) and not t.hands.live(t.table_id, BOB)


async def test_a_finished_match_tells_each_open_hand_where_its_standings_are(table: Table):
    t = table
    await t.hands.show(interaction(ANN, locale="nl"), t.table_id)
    await t.hands.show(interaction(BOB, locale="en-GB"), t.table_id)
    thread = CHANNEL_ID + 1  # the thread the match played in
    await t.hands.close_table(t.table_id, None, "en", thread)
    said = {edit.link.user_id: (edit.content, edit.view) for edit in t.edits.edits}
    assert said == {
        ANN: (f"Deze partij is afgelopen; de eindstand staat in <#{thread}>.", None),
        BOB: (f"This match is over; the final standings are in <#{thread}>.", None),
    }
