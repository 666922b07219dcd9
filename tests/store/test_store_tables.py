"""Tables and guild settings: what the table service stores and finds again after a restart."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import (
    Computer,
    Conflict,
    GuildSettings,
    Human,
    NotFound,
    Store,
    TablePlace,
    TableSettings,
    TableStatus,
    open_store,
)
from bot.store.migrations import migrate
from tests.store.store_helpers import NAMES, seated_table


async def test_a_new_table_is_in_the_lobby_with_four_empty_seats(store: Store) -> None:
    table = await store.tables.create_table(guild_id=1, channel_id=10, host_id=100)
    assert table.status is TableStatus.LOBBY
    assert table.seats == (None, None, None, None)
    assert (table.guild_id, table.channel_id, table.host_id) == (1, 10, 100)
    assert table.messages == {}
    assert table.match_id is None


async def test_a_new_table_takes_the_guild_defaults_unless_told_otherwise(store: Store) -> None:
    assert (await store.tables.guild_settings(1)) == GuildSettings()
    await store.tables.set_guild_settings(
        1, GuildSettings(table_defaults=TableSettings(turn_seconds=45, computer_level="easy"))
    )
    assert (await store.tables.guild_settings(1)).table_defaults == TableSettings(
        turn_seconds=45, computer_level="easy"
    )
    default = await store.tables.create_table(1, 10, 100)
    chosen = await store.tables.create_table(
        1, 11, 100, TableSettings(turn_seconds=120, computer_level="normal")
    )
    other_guild = await store.tables.create_table(2, 12, 100)
    assert default.settings == TableSettings(turn_seconds=45, computer_level="easy")
    assert chosen.settings == TableSettings(turn_seconds=120, computer_level="normal")
    assert other_guild.settings == TableSettings()


async def test_a_guild_chooses_where_its_tables_play(store: Store) -> None:
    assert (await store.tables.guild_settings(1)).place is TablePlace.THREAD
    settings = GuildSettings(
        table_defaults=TableSettings(turn_seconds=90, computer_level="hard"),
        place=TablePlace.CHANNEL,
    )
    await store.tables.set_guild_settings(1, settings)
    assert await store.tables.guild_settings(1) == settings
    assert (await store.tables.guild_settings(2)).place is TablePlace.THREAD


def test_a_turn_time_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        TableSettings(turn_seconds=0, computer_level="easy")


async def test_seats_hold_a_user_or_a_computer_level(store: Store) -> None:
    table = await store.tables.create_table(1, 10, 100)
    table = await store.tables.update_table(
        table.table_id, seats={0: Human(100), 2: Computer("easy")}
    )
    assert table.seats == (Human(100), None, Computer("easy"), None)
    table = await store.tables.update_table(
        table.table_id, seats={0: None, 1: Human(7), 2: Human(8)}
    )
    assert table.seats == (None, Human(7), Human(8), None)


async def test_seats_are_0_to_3(store: Store) -> None:
    table = await store.tables.create_table(1, 10, 100)
    with pytest.raises(ValueError, match="seats are 0-3"):
        await store.tables.update_table(table.table_id, seats={4: Human(1)})


async def test_status_host_settings_and_messages_change_together(store: Store) -> None:
    table = await store.tables.create_table(1, 10, 100)
    changed = await store.tables.update_table(
        table.table_id,
        status=TableStatus.PLAYING,
        host_id=200,
        settings=TableSettings(turn_seconds=30, computer_level="easy"),
        messages={"lobby": 1, "deal": 2},
    )
    assert changed.status is TableStatus.PLAYING
    assert changed.host_id == 200
    assert changed.settings == TableSettings(turn_seconds=30, computer_level="easy")
    assert changed.messages == {"lobby": 1, "deal": 2}
    changed = await store.tables.update_table(table.table_id, messages={"lobby": None, "deal": 3})
    assert changed.messages == {"deal": 3}
    assert await store.tables.get_table(table.table_id) == changed


async def test_a_channel_has_at_most_one_open_table(store: Store) -> None:
    first = await store.tables.create_table(1, 10, 100)
    with pytest.raises(Conflict, match="channel 10 already has an open table"):
        await store.tables.create_table(1, 10, 101)
    await store.tables.update_table(first.table_id, status=TableStatus.CANCELLED)
    second = await store.tables.create_table(1, 10, 101)
    with pytest.raises(Conflict, match="another open table"):
        await store.tables.update_table(first.table_id, status=TableStatus.LOBBY)
    assert (await store.tables.table_in_channel(10)) == second


async def test_a_table_is_found_by_its_channel_only_while_open(store: Store) -> None:
    table = await store.tables.create_table(1, 10, 100)
    assert (await store.tables.table_in_channel(10)) == table
    assert (await store.tables.table_in_channel(11)) is None
    await store.tables.update_table(table.table_id, status=TableStatus.FINISHED)
    assert (await store.tables.table_in_channel(10)) is None


async def test_open_tables_with_their_match_are_what_a_restart_restores(tmp_path: Path) -> None:
    path = tmp_path / "bonken.sqlite3"
    async with await open_store(path) as store:
        lobby = await store.tables.create_table(1, 10, 100)
        playing = await seated_table(store, channel_id=11)
        info = await store.matches.create_match(playing.table_id, NAMES)
        await store.tables.update_table(playing.table_id, status=TableStatus.PLAYING)
        closed = await store.tables.create_table(1, 12, 100)
        await store.tables.update_table(closed.table_id, status=TableStatus.CANCELLED)
    async with await open_store(path) as store:
        tables = await store.tables.open_tables()
    assert [t.table_id for t in tables] == [lobby.table_id, playing.table_id]
    assert [t.match_id for t in tables] == [None, info.match_id]
    assert tables[1].seats == (Human(1), Human(2), Human(3), Human(4))


async def test_an_unknown_table_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.tables.get_table(99)
    with pytest.raises(NotFound):
        await store.tables.update_table(99, status=TableStatus.CANCELLED)


async def test_a_guild_and_each_table_choose_pictures_or_text(store: Store) -> None:
    """Pictures are on unless the server turned them off; a table keeps its own choice."""
    assert (await store.tables.guild_settings(1)).table_defaults.images is True
    off = GuildSettings(
        table_defaults=TableSettings(turn_seconds=60, computer_level="normal", images=False)
    )
    await store.tables.set_guild_settings(1, off)
    assert await store.tables.guild_settings(1) == off
    assert (await store.tables.create_table(1, 10, 100)).settings.images is False
    table = await store.tables.create_table(2, 11, 100)
    assert table.settings.images is True
    await store.tables.update_table(
        table.table_id,
        settings=TableSettings(turn_seconds=60, computer_level="normal", images=False),
    )
    assert (await store.tables.get_table(table.table_id)).settings.images is False


async def test_servers_and_tables_stored_before_schema_9_show_pictures(tmp_path: Path) -> None:
    """Their ``images`` column is NULL after the upgrade: the default, on."""
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        migrate(conn, target=7)
        conn.execute("INSERT INTO guild_settings VALUES (1, 90, 'easy', 'channel')")
        conn.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, status, turn_seconds,"
            " computer_level, created_at, updated_at)"
            " VALUES (1, 10, 100, 'lobby', 60, 'easy', 0, 0)"
        )
    async with await open_store(path) as store:
        assert (await store.tables.guild_settings(1)).table_defaults.images is True
        (table,) = await store.tables.open_tables()
        assert table.settings.images is True
