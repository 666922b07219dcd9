"""The lobby controller on its own: a real table service and store, a fake Discord (the
interactions record their answers, a fake presenter what it is told). The slash commands
and the lobby buttons end here; the harness tests cover the way there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest

from bot.store import Computer, GuildSettings, Human, Store, TablePlace, open_store
from bot.tables import Refusal, TableReason, TableService, TableView
from bot.tables import events as ev
from bot.ui.lobby import LobbyController
from bot.ui.places import Places
from bot.ui.replies import UIRefusal
from bot.ui.threads import THREAD, THREAD_WANTED
from tests.discord.fakes import (
    BOT_PERMISSIONS,
    CHANNEL_ID,
    GUILD_ID,
    THREAD_ID,
    THREAD_PERMISSIONS,
    FakeLobbyMessages,
    interaction,
)
from tests.sqlite_template import fresh_sqlite

ANN, BOB = 101, 102


async def _ignore(event: ev.Event, view: TableView | None) -> None:
    """The service's ``publish``: no presenter in these tests."""


@dataclass
class Lobby:
    store: Store
    service: TableService
    presenter: FakeLobbyMessages
    lobby: LobbyController


@pytest.fixture
async def lobby(tmp_path) -> AsyncIterator[Lobby]:
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        service = TableService(store, _ignore, pace=0.0)
        presenter = FakeLobbyMessages()
        # The table of channel CHANNEL_ID plays in thread THREAD_ID.
        places = Places(service, lambda channel: CHANNEL_ID if channel == THREAD_ID else channel)
        try:
            yield Lobby(
                store, service, presenter, LobbyController(service, store.tables, presenter, places)
            )
        finally:
            await service.close()


async def test_a_table_opens_with_its_lobby_message_as_the_commands_answer(lobby: Lobby):
    opened = interaction(ANN, "Ann", app_permissions=THREAD_PERMISSIONS)
    await lobby.lobby.open(opened, None, None)
    view = lobby.service.table_in_channel(CHANNEL_ID)
    assert view is not None and view.host_id == ANN
    answer = opened.answer
    assert answer.kind == "send" and not answer.ephemeral  # the channel sees the lobby
    assert answer.embed is not None and answer.embed.title == "Bonken table"
    assert answer.custom_ids() == [
        f"bonken:lobby:{view.table_id}:{op}" for op in ("join", "leave", "addbot", "start")
    ]
    message = opened.message.id
    assert lobby.service.view(view.table_id).messages["table"] == message
    assert lobby.presenter.adopted == [(view.table_id, message)]
    # The server plays in threads (the default) and the bot may open them here: the
    # table is opened wanting one (the presenter opens it when the match starts).
    assert view.messages[THREAD] == THREAD_WANTED


async def test_a_table_plays_in_its_channel_where_the_bot_may_not_open_threads(lobby: Lobby):
    await lobby.lobby.open(interaction(ANN, app_permissions=BOT_PERMISSIONS), None, None)
    assert THREAD not in lobby.service.table_in_channel(CHANNEL_ID).messages
    assert len(lobby.presenter.adopted) == 1


async def test_a_server_that_plays_in_the_channel_opens_no_thread(lobby: Lobby):
    await lobby.store.tables.set_guild_settings(GUILD_ID, GuildSettings(place=TablePlace.CHANNEL))
    await lobby.lobby.open(interaction(ANN, app_permissions=THREAD_PERMISSIONS), None, None)
    assert THREAD not in lobby.service.table_in_channel(CHANNEL_ID).messages


async def test_without_the_permissions_it_needs_nothing_is_opened_and_they_are_named(
    lobby: Lobby,
):
    missing = discord.Permissions(view_channel=True, send_messages=True)
    opened = interaction(ANN, app_permissions=missing)
    with pytest.raises(UIRefusal) as refused:
        await lobby.lobby.open(opened, None, None)
    assert str(refused.value).endswith("Embed Links, Attach Files")
    assert lobby.service.table_in_channel(CHANNEL_ID) is None
    assert opened.response.sent == [] and lobby.presenter.adopted == []


async def test_a_table_is_opened_in_a_servers_channel_only(lobby: Lobby):
    with pytest.raises(UIRefusal, match="played in a server's text channel"):
        await lobby.lobby.open(interaction(ANN, guild_id=None), None, None)
    assert lobby.service.tables() == []


async def test_from_the_tables_thread_the_lobby_buttons_reach_its_channels_table(lobby: Lobby):
    await lobby.lobby.open(interaction(ANN, "Ann"), None, None)
    table_id = lobby.service.table_in_channel(CHANNEL_ID).table_id
    joined = interaction(BOB, "Bob", channel_id=THREAD_ID)
    await lobby.lobby.button(joined, table_id, "join")
    assert joined.answer.ephemeral and joined.answer.content == "You sit East."
    added = interaction(ANN, channel_id=THREAD_ID)
    await lobby.lobby.button(added, table_id, "addbot")
    seats = [seat.occupant for seat in lobby.service.registry.table(table_id).seats]
    assert seats[:2] == [Human(ANN), Human(BOB)] and isinstance(seats[2], Computer)


async def test_a_button_of_a_table_that_is_not_open_here_changes_nothing(lobby: Lobby):
    await lobby.lobby.open(interaction(ANN), None, None)
    table_id = lobby.service.table_in_channel(CHANNEL_ID).table_id
    clicked = interaction(BOB)
    with pytest.raises(Refusal) as refused:
        await lobby.lobby.button(clicked, table_id + 1, "join")
    assert refused.value.reason is TableReason.TABLE_CLOSED
    assert clicked.response.sent == []
    assert [seat.user_id for seat in lobby.service.view(table_id).seats][:2] == [ANN, None]
