"""The finished-match service: which match a request is about, the refusals, and what
looking back at it needs (its record, its replay, a server's list)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.archive import ArchiveReason, ArchiveRefusal, FinishedMatchService, parse_match_id
from bot.archive.service import LARGEST_ID
from bot.engine import deal_hands, from_record, rules_for
from bot.review import Address, Replay
from bot.store import Human, Store
from tests.store.store_helpers import NAMES, finished_match, seated_table

from .conftest import THREAD

GUILD = 1
OTHER_GUILD = 2


async def _refused(work, reason: ArchiveReason) -> ArchiveRefusal:  # type: ignore[no-untyped-def]
    with pytest.raises(ArchiveRefusal) as caught:
        await work
    assert caught.value.reason is reason, caught.value
    return caught.value


async def _playing(store: Store, *, channel_id: int = 10, deals: int = 1) -> int:
    """A match in play at a new table of ``channel_id``, ``deals`` deals dealt."""
    table = await seated_table(store, channel_id=channel_id)
    info = await store.matches.create_match(table.table_id, NAMES)
    for deal in range(deals):
        await store.matches.append_deal(info.match_id, deal, deal_hands(random.Random(deal)))
    return info.match_id


async def test_a_typed_id_finds_the_servers_finished_match_however_written(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id, match = await finished_match(store, 1)
    for typed in (str(match_id), f"#{match_id}", f"  {match_id} "):
        info = await archive.find(GUILD, typed=typed, channel_id=999)
        assert info.match_id == match_id
        assert [seat.name for seat in info.seats] == list(match.players)
    assert (await archive.get(GUILD, match_id)).match_id == match_id


async def test_another_servers_match_is_refused_as_one_that_does_not_exist(
    store: Store, archive: FinishedMatchService
) -> None:
    theirs, _ = await finished_match(store, 1, guild_id=OTHER_GUILD, channel_id=50)
    elsewhere = await _refused(archive.get(GUILD, theirs), ArchiveReason.UNKNOWN)
    missing = await _refused(archive.get(GUILD, theirs + 100), ArchiveReason.UNKNOWN)
    assert (elsewhere.match_id, missing.match_id) == (theirs, theirs + 100)
    # Its owner finds it; the refusal above did not keep anything wrong.
    assert (await archive.get(OTHER_GUILD, theirs)).guild_id == OTHER_GUILD
    await _refused(archive.get(GUILD, theirs), ArchiveReason.UNKNOWN)


@pytest.mark.parametrize(
    "typed", ["abc", "-3", "0", "#", "1.5", "١٢", str(LARGEST_ID + 1), "9" * 25, "12 13"]
)
async def test_what_is_no_match_id_is_refused_as_an_unknown_match(
    archive: FinishedMatchService, typed: str
) -> None:
    refusal = await _refused(archive.find(GUILD, typed=typed), ArchiveReason.UNKNOWN)
    assert refusal.typed == typed.strip()[:20]
    assert refusal.match_id is None


def test_one_id_limit_the_databases_bigint() -> None:
    assert parse_match_id(str(LARGEST_ID)) == LARGEST_ID
    assert parse_match_id("#7") == 7
    with pytest.raises(ArchiveRefusal):
        parse_match_id(str(LARGEST_ID + 1))


async def test_the_largest_id_is_asked_of_the_store_and_found_missing(
    archive: FinishedMatchService,
) -> None:
    refusal = await _refused(archive.find(GUILD, typed=str(LARGEST_ID)), ArchiveReason.UNKNOWN)
    assert refusal.match_id == LARGEST_ID


async def test_a_match_in_play_is_refused_saying_how_far_it_is(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id = await _playing(store, deals=3)
    refusal = await _refused(archive.get(GUILD, match_id), ArchiveReason.IN_PLAY)
    assert (refusal.match_id, refusal.deal, refusal.deals) == (
        match_id,
        3,
        rules_for("standard").deals,
    )
    await _refused(archive.replay(GUILD, match_id), ArchiveReason.IN_PLAY)
    await _refused(archive.record(GUILD, match_id), ArchiveReason.IN_PLAY)


async def test_a_cancelled_match_has_nothing_to_look_back_at(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id = await _playing(store)
    await store.matches.cancel_match(match_id)
    refusal = await _refused(archive.get(GUILD, match_id), ArchiveReason.CANCELLED)
    assert refusal.match_id == match_id


async def test_without_an_id_the_newest_finished_match_of_the_channel_is_meant(
    store: Store, archive: FinishedMatchService
) -> None:
    """A match in play there is passed over for the newest finished one; another
    channel's newer match is not this channel's."""
    older, _ = await finished_match(store, 1, channel_id=10)
    newer, _ = await finished_match(store, 2, channel_id=10)
    await finished_match(store, 3, channel_id=11)
    await _playing(store, channel_id=10)
    assert (await archive.find(GUILD, channel_id=10)).match_id == newer
    assert (await archive.find(GUILD, typed="  ", channel_id=10)).match_id == newer
    assert older < newer


async def test_the_thread_a_match_played_in_finds_it(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id, _ = await finished_match(store, 1, channel_id=10)
    table = (await store.matches.get_match(match_id)).table_id
    await store.tables.update_table(table, messages={THREAD: 77})
    assert (await archive.newest_in(GUILD, 77)).match_id == match_id
    await _refused(archive.newest_in(GUILD, 78), ArchiveReason.NONE_HERE)


async def test_a_channel_with_only_a_match_in_play_refuses_it_as_in_play(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id = await _playing(store, channel_id=20)
    refusal = await _refused(archive.find(GUILD, channel_id=20), ArchiveReason.IN_PLAY)
    assert refusal.match_id == match_id
    await _refused(archive.find(GUILD, channel_id=21), ArchiveReason.NONE_HERE)
    await _refused(archive.find(GUILD, channel_id=None), ArchiveReason.NONE_HERE)


async def test_outside_a_server_nothing_is_looked_up(archive: FinishedMatchService) -> None:
    await _refused(archive.find(None, typed="1"), ArchiveReason.NO_SERVER)


async def test_the_replay_is_the_records_built_once_and_kept(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id, match = await finished_match(store, 4)
    replay = await archive.replay(GUILD, match_id)
    assert replay is await archive.replay(GUILD, match_id)
    expected = Replay.from_record(await store.matches.load_record(match_id))
    assert replay.deals == expected.deals == len(match.deals)
    last = expected.end(expected.deals - 1)
    assert replay.point(last).final == expected.point(last).final


async def test_a_view_is_made_from_the_replay_once_and_then_read_from_the_store(
    store: Store,
) -> None:
    match_id, match = await finished_match(store, 4)
    made: list[int] = []

    def deals(replay: Replay) -> bytes:
        made.append(replay.deals)
        return str(replay.deals).encode()

    first = FinishedMatchService(store.matches)
    assert await first.view(GUILD, match_id, "deals/1", deals) == str(len(match.deals)).encode()
    # Another process (no replay kept) reads it from the store: nothing is made again.
    again = FinishedMatchService(store.matches)
    assert await again.view(GUILD, match_id, "deals/1", deals) == str(len(match.deals)).encode()
    assert made == [len(match.deals)]
    assert await store.matches.view(match_id, "deals/1") == str(len(match.deals)).encode()
    # Another part (another format) is made on its own.
    assert await again.view(GUILD, match_id, "deals/2", lambda replay: b"2") == b"2"


async def test_a_view_has_the_matchs_refusals_and_nothing_is_kept_of_a_match_in_play(
    store: Store, archive: FinishedMatchService
) -> None:
    theirs, _ = await finished_match(store, 1, guild_id=OTHER_GUILD, channel_id=50)
    await _refused(archive.view(GUILD, theirs, "x", lambda r: b"x"), ArchiveReason.UNKNOWN)
    playing = await _playing(store, channel_id=60)
    await _refused(archive.view(GUILD, playing, "x", lambda r: b"x"), ArchiveReason.IN_PLAY)
    await store.matches.keep_view(playing, "x", b"x")  # the store refuses it too
    assert await store.matches.view(playing, "x") is None
    assert await store.matches.view(theirs, "x") is None


async def test_kept_replays_are_the_newest_asked_for(store: Store) -> None:
    archive = FinishedMatchService(store.matches, replays_kept=1)
    first, _ = await finished_match(store, 1, channel_id=10)
    second, _ = await finished_match(store, 2, channel_id=11)
    one = await archive.replay(GUILD, first)
    await archive.replay(GUILD, second)
    assert await archive.replay(GUILD, first) is not one  # built again


async def test_two_asking_at_once_get_one_replay(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id, _ = await finished_match(store, 5)
    one, two = await asyncio.gather(
        archive.replay(GUILD, match_id), archive.replay(GUILD, match_id)
    )
    assert one is two


async def test_a_point_or_deal_the_match_does_not_have_is_refused(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id, match = await finished_match(store, 6)
    replay = await archive.point(GUILD, match_id, Address(0, 0))
    end = replay.end(replay.deals - 1)
    assert await archive.point(GUILD, match_id, end) is replay
    beyond = Address(end.deal, end.step + 1)
    refusal = await _refused(archive.point(GUILD, match_id, beyond), ArchiveReason.NO_SUCH_POINT)
    assert refusal.match_id == match_id
    await _refused(
        archive.point(GUILD, match_id, Address(len(match.deals), 0)), ArchiveReason.NO_SUCH_POINT
    )
    assert await archive.deal(GUILD, match_id, len(match.deals) - 1) is replay
    await _refused(archive.deal(GUILD, match_id, len(match.deals)), ArchiveReason.NO_SUCH_POINT)


async def test_a_record_that_does_not_replay_is_refused_and_logged(
    store: Store, archive: FinishedMatchService, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:  # type: ignore[no-untyped-def]
    match_id, _ = await finished_match(store, 7)
    record = await store.matches.load_record(match_id)
    record["deals"][0]["plays"].reverse()  # what a damaged store could hold

    async def damaged(asked: int) -> dict:  # type: ignore[type-arg]
        return record

    monkeypatch.setattr(store.matches, "load_record", damaged)
    refusal = await _refused(archive.replay(GUILD, match_id), ArchiveReason.NOT_REPLAYABLE)
    assert refusal.match_id == match_id
    assert "does not replay" in caplog.text


async def test_the_record_is_the_stored_one_and_a_copy_each_time(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id, match = await finished_match(store, 8)
    record = await archive.record(GUILD, match_id)
    assert from_record(record).deals[-1].final_scores() == match.deals[-1].final_scores()
    record["players"] = ["changed"]
    assert (await archive.record(GUILD, match_id))["players"] == list(NAMES)


async def test_a_servers_list_is_its_newest_finished_matches_only(
    store: Store, archive: FinishedMatchService
) -> None:
    first, _ = await finished_match(store, 1, channel_id=10)
    second, _ = await finished_match(store, 2, channel_id=11)
    await finished_match(store, 3, channel_id=50, guild_id=OTHER_GUILD)
    await _playing(store, channel_id=12)
    listed = await archive.recent(GUILD)
    assert [found.match_id for found in listed] == [second, first]
    assert listed[0].names == NAMES
    assert [found.match_id for found in await archive.recent(GUILD, limit=1)] == [second]
    assert await archive.recent(GUILD, limit=0) == []


async def test_a_members_seat_and_a_stranger_has_none(
    store: Store, archive: FinishedMatchService
) -> None:
    match_id, _ = await finished_match(store, 9, (Human(1), Human(2), Human(3), Human(4)))
    info = await archive.get(GUILD, match_id)
    assert [archive.seat_of(info, user) for user in (1, 2, 3, 4, 5)] == [0, 1, 2, 3, None]
