"""The lobby: open, join, leave, computers, kick, cancel, start, and the idle close."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.engine import PASS
from bot.store import Computer, Human, TableSettings, TableStatus
from bot.tables import Refusal
from bot.tables import events as ev
from bot.tables.lobby import Left
from tests.tables.tables_helpers import ANN, BOB, CAS, CHANNEL, GUILD, HOST, Harness, name, wait_for

pytestmark = pytest.mark.service_logic


async def stored_status(h: Harness, table_id: int) -> TableStatus:
    return (await h.store.tables.get_table(table_id)).status


# -- opening ---------------------------------------------------------------------------


async def test_open_table_seats_the_host_and_says_so(h: Harness) -> None:
    view = await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    assert view.status is TableStatus.LOBBY
    assert view.host_id == HOST
    assert [s.user_id for s in view.seats] == [HOST, None, None, None]
    assert h.service.table_in_channel(CHANNEL) == view
    assert h.events.last(ev.LobbyChanged).what == "Host opened the table"
    stored = await h.store.tables.get_table(view.table_id)
    assert stored.seats == (Human(HOST), None, None, None)


async def test_one_open_table_per_channel(h: Harness) -> None:
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(Refusal, match="already has a Bonken table"):
        await h.service.open_table(GUILD, CHANNEL, ANN, "Ann")
    assert len(h.service.tables()) == 1


@pytest.mark.both_backends
async def test_two_opens_at_once_in_one_channel_make_one_table(h: Harness) -> None:
    results = await asyncio.gather(
        h.service.open_table(GUILD, CHANNEL, HOST, "Host"),
        h.service.open_table(GUILD, CHANNEL, ANN, "Ann"),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Refusal) for r in results) == 1
    assert len(h.service.tables()) == 1
    assert len(await h.store.tables.open_tables()) == 1


async def test_a_channel_can_open_a_new_table_after_the_last_one_closed(h: Harness) -> None:
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    await h.service.cancel(CHANNEL, HOST)
    view = await h.service.open_table(GUILD, CHANNEL, ANN, "Ann")
    assert view.host_id == ANN


@pytest.mark.both_backends
async def test_many_channels_and_guilds_play_at_once(h: Harness) -> None:
    """Six all-computer matches at once, three channels in each of two guilds, each plays
    to its own end: tables of one guild side by side and of two guilds, all sharing the
    service, the store and its connection. Six prove what twelve did at half the cost:
    any mix-up between tables (a deal or an end in the wrong channel, one table's play
    blocking another's) shows with two of each."""
    places = [(guild, 1000 + 10 * guild + n) for guild in range(1, 3) for n in range(3)]
    views = await asyncio.gather(
        *(
            h.service.open_table(guild, channel, HOST, "Host", host_seated=False)
            for guild, channel in places
        )
    )
    assert len({v.table_id for v in views}) == len(places)
    await asyncio.gather(*(h.service.start(channel, HOST) for _, channel in places))
    await h.service.settle()
    assert h.service.tables() == []
    ended = h.events.of(ev.MatchEnded)
    assert sorted(e.channel_id for e in ended) == sorted(channel for _, channel in places)
    for view in views:
        assert len(h.events.of(ev.DealScored, view.table_id)) == 11


async def test_bad_computer_level_in_settings_is_refused(h: Harness) -> None:
    with pytest.raises(Refusal, match="easy, normal, hard"):
        await h.service.open_table(
            GUILD, CHANNEL, HOST, "Host", TableSettings(turn_seconds=60, computer_level="godlike")
        )
    assert h.service.table_in_channel(CHANNEL) is None


async def test_no_table_in_the_channel_is_refused(h: Harness) -> None:
    for call in (
        h.service.join(CHANNEL, ANN, "Ann"),
        h.service.leave(CHANNEL, ANN),
        h.service.start(CHANNEL, HOST),
        h.service.cancel(CHANNEL, HOST),
        h.service.add_computer(CHANNEL, HOST),
    ):
        with pytest.raises(Refusal, match="no Bonken table in this channel"):
            await call


# -- joining and leaving ---------------------------------------------------------------


async def test_join_takes_the_first_empty_seat(h: Harness) -> None:
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    view = await h.service.join(CHANNEL, ANN, "Ann")
    assert [s.user_id for s in view.seats] == [HOST, ANN, None, None]
    assert h.events.last(ev.LobbyChanged).what == "Ann joined"


async def test_join_twice_is_refused(h: Harness) -> None:
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    await h.service.join(CHANNEL, ANN, "Ann")
    with pytest.raises(Refusal, match="already seated"):
        await h.service.join(CHANNEL, ANN, "Ann")


async def test_join_a_full_table_is_refused(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN, BOB, CAS), start=False)
    with pytest.raises(Refusal, match="the table is full"):
        await h.service.join(CHANNEL, 999, "Late")


async def test_leave_empties_the_seat(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN), start=False)
    assert await h.service.leave(CHANNEL, ANN) is Left.SEAT_FREED
    view = h.service.table_in_channel(CHANNEL)
    assert view is not None
    assert [s.user_id for s in view.seats] == [HOST, None, None, None]
    assert (await h.store.tables.get_table(view.table_id)).seats == (Human(HOST), None, None, None)


async def test_host_leaving_passes_the_host_to_the_next_human(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN, BOB), start=False)
    assert await h.service.leave(CHANNEL, HOST) is Left.SEAT_FREED
    view = h.service.table_in_channel(CHANNEL)
    assert view is not None and view.host_id == ANN
    assert (await h.store.tables.get_table(view.table_id)).host_id == ANN
    await h.service.add_computer(CHANNEL, ANN)  # the new host may do host things
    with pytest.raises(Refusal, match="only the host"):
        await h.service.add_computer(CHANNEL, BOB)


async def test_last_human_leaving_closes_the_lobby(h: Harness) -> None:
    view = await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    await h.service.add_computer(CHANNEL, HOST)
    assert await h.service.leave(CHANNEL, HOST) is Left.TABLE_CLOSED
    assert h.service.table_in_channel(CHANNEL) is None
    assert "everyone left" in h.events.last(ev.TableClosed).reason
    assert await stored_status(h, view.table_id) is TableStatus.CANCELLED


async def test_leave_when_not_seated_is_refused(h: Harness) -> None:
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(Refusal, match="not seated"):
        await h.service.leave(CHANNEL, ANN)


# -- computers ---------------------------------------------------------------------------


async def test_host_adds_computers_of_each_level(h: Harness) -> None:
    view = await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    for level in ("easy", "normal", "hard"):
        view = await h.service.add_computer(CHANNEL, HOST, level)
    assert [s.level for s in view.seats] == [None, "easy", "normal", "hard"]
    stored = await h.store.tables.get_table(view.table_id)
    assert stored.seats[1:] == (Computer("easy"), Computer("normal"), Computer("hard"))
    assert h.events.last(ev.LobbyChanged).what == "a hard computer player sits down"


async def test_add_computer_defaults_to_the_table_level(h: Harness) -> None:
    await h.service.open_table(
        GUILD, CHANNEL, HOST, "Host", TableSettings(turn_seconds=60, computer_level="easy")
    )
    view = await h.service.add_computer(CHANNEL, HOST)
    assert view.seats[1].level == "easy"


async def test_add_computer_with_a_bad_level_is_refused(h: Harness) -> None:
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(Refusal, match="computer level must be one of easy, normal, hard"):
        await h.service.add_computer(CHANNEL, HOST, "expert")
    assert h.service.table_in_channel(CHANNEL).seats[1].name == ""  # type: ignore[union-attr]


async def test_only_the_host_or_an_admin_adds_computers(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN), start=False)
    with pytest.raises(Refusal, match="only the host or an administrator"):
        await h.service.add_computer(CHANNEL, ANN)
    view = await h.service.add_computer(CHANNEL, ANN, "easy", is_admin=True)
    assert view.seats[2].level == "easy"


async def test_add_computer_to_a_full_table_is_refused(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN, BOB, CAS), start=False)
    with pytest.raises(Refusal, match="the table is full"):
        await h.service.add_computer(CHANNEL, HOST)


async def test_computer_removed_by_kick_frees_the_seat(h: Harness) -> None:
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    await h.service.add_computer(CHANNEL, HOST)
    view = await h.service.kick(CHANNEL, HOST, 1)
    assert view.seats[1].level is None and view.seats[1].user_id is None


# -- kick and cancel ---------------------------------------------------------------------


async def test_host_kicks_a_player(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN), start=False)
    view = await h.service.kick(CHANNEL, HOST, 1)
    assert [s.user_id for s in view.seats] == [HOST, None, None, None]
    assert h.events.last(ev.LobbyChanged).what == f"{name(ANN)} was removed"


async def test_only_the_host_or_an_admin_kicks(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN, BOB), start=False)
    with pytest.raises(Refusal, match="only the host or an administrator"):
        await h.service.kick(CHANNEL, ANN, 2)
    assert h.service.table_in_channel(CHANNEL).seats[2].user_id == BOB  # type: ignore[union-attr]
    view = await h.service.kick(CHANNEL, ANN, 2, is_admin=True)
    assert view.seats[2].user_id is None


async def test_kick_an_empty_seat_or_the_host_is_refused(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN), start=False)
    with pytest.raises(Refusal, match="nobody sits in that seat"):
        await h.service.kick(CHANNEL, HOST, 3)
    with pytest.raises(Refusal, match="nobody sits in that seat"):
        await h.service.kick(CHANNEL, HOST, 7)
    with pytest.raises(Refusal, match="host cannot be removed"):
        await h.service.kick(CHANNEL, ANN, 0, is_admin=True)


async def test_only_the_host_or_an_admin_cancels(h: Harness) -> None:
    view = await h.open_with_humans((HOST, ANN), start=False)
    with pytest.raises(Refusal, match="only the host or an administrator"):
        await h.service.cancel(CHANNEL, ANN)
    assert h.service.table_in_channel(CHANNEL) is not None
    await h.service.cancel(CHANNEL, ANN, is_admin=True)
    assert h.service.table_in_channel(CHANNEL) is None
    assert h.events.last(ev.TableClosed).reason == "the table was cancelled"
    assert await stored_status(h, view.table_id) is TableStatus.CANCELLED


async def test_cancel_during_the_match_cancels_the_stored_match(h: Harness) -> None:
    view = await h.open_with_humans((HOST,))
    await h.service.cancel(CHANNEL, HOST)
    assert view.match_id is not None
    info = await h.store.matches.get_match(view.match_id)
    assert info.status.value == "cancelled"
    with pytest.raises(Refusal, match="that table is closed"):
        await h.service.act(view.table_id, HOST, view.turn, PASS)


# -- starting ----------------------------------------------------------------------------


async def test_start_fills_empty_seats_with_computers(h: Harness) -> None:
    await h.service.open_table(
        GUILD, CHANNEL, HOST, "Host", TableSettings(turn_seconds=60, computer_level="easy")
    )
    await h.service.join(CHANNEL, ANN, "Ann")
    view = await h.service.start(CHANNEL, HOST)
    assert view.status is TableStatus.PLAYING
    assert [s.level for s in view.seats] == [None, None, "easy", "easy"]
    stored = await h.store.tables.get_table(view.table_id)
    assert stored.status is TableStatus.PLAYING
    assert stored.seats == (Human(HOST), Human(ANN), Computer("easy"), Computer("easy"))
    assert view.match_id is not None and stored.match_id == view.match_id
    info = await h.store.matches.get_match(view.match_id)
    assert [s.name for s in info.seats] == ["Host", "Ann", "South bot", "West bot"]


async def test_start_with_four_seats_filled_adds_nobody(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN, BOB), start=False)
    await h.service.add_computer(CHANNEL, HOST, "hard")
    view = await h.service.start(CHANNEL, HOST)
    assert [s.user_id for s in view.seats[:3]] == [HOST, ANN, BOB]
    assert view.seats[3].level == "hard"


async def test_only_the_host_or_an_admin_starts(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN), start=False)
    with pytest.raises(Refusal, match="only the host or an administrator"):
        await h.service.start(CHANNEL, ANN)
    assert h.service.table_in_channel(CHANNEL).status is TableStatus.LOBBY  # type: ignore[union-attr]
    view = await h.service.start(CHANNEL, ANN, is_admin=True)
    assert view.status is TableStatus.PLAYING


async def test_lobby_actions_after_the_start_are_refused(h: Harness) -> None:
    await h.open_with_humans((HOST, ANN))
    with pytest.raises(Refusal, match="already started"):
        await h.service.start(CHANNEL, HOST)
    with pytest.raises(Refusal, match="already started"):
        await h.service.add_computer(CHANNEL, HOST)
    with pytest.raises(Refusal, match="no seat is free"):
        await h.service.join(CHANNEL, BOB, "Bob")


# -- the idle lobby ----------------------------------------------------------------------

IDLE_SCALE = 5e-4  # 15 minutes become 0.45 s
IDLE = 15 * 60 * IDLE_SCALE


async def test_an_idle_lobby_closes_itself_and_says_so(harness) -> None:  # type: ignore[no-untyped-def]
    h: Harness = harness(time_scale=IDLE_SCALE)
    view = await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    opened = time.monotonic()
    await wait_for(lambda: h.service.table_in_channel(CHANNEL) is None)
    assert time.monotonic() - opened >= IDLE * 0.99
    closed = h.events.last(ev.TableClosed)
    assert closed.reason == "the lobby was idle for 15 minutes"
    assert closed.table_id == view.table_id
    assert await stored_status(h, view.table_id) is TableStatus.CANCELLED


async def test_lobby_activity_restarts_the_idle_clock(harness) -> None:  # type: ignore[no-untyped-def]
    h: Harness = harness(time_scale=IDLE_SCALE)
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host")
    await asyncio.sleep(IDLE * 0.6)
    await h.service.join(CHANNEL, ANN, "Ann")
    joined = time.monotonic()
    await wait_for(lambda: h.service.table_in_channel(CHANNEL) is None)
    assert time.monotonic() - joined >= IDLE * 0.99


async def test_a_started_table_never_closes_for_idleness(harness) -> None:  # type: ignore[no-untyped-def]
    h: Harness = harness(time_scale=IDLE_SCALE)
    await h.service.open_table(GUILD, CHANNEL, HOST, "Host", TableSettings(turn_seconds=3600))
    await h.service.start(CHANNEL, HOST)
    await asyncio.sleep(IDLE * 2)
    view = h.service.table_in_channel(CHANNEL)
    assert view is not None and view.status is TableStatus.PLAYING
    assert not h.events.of(ev.TableClosed)
