"""Tallies in the store: each entry committed when acknowledged, a restart losing nothing,
and the last deal finishing the tally into the season like a played match.

Every test runs on SQLite and on PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine import STANDARD, TWELVE, Choose, Double, Match, Play, Tally, tally_from_record
from bot.engine.tally import PASSED, Result, Undo
from bot.ratings import OpenSkillRater
from bot.store import (
    AlreadyStored,
    Computer,
    Conflict,
    Guest,
    GuildSettings,
    Human,
    Store,
    TallySeat,
    TallyStatus,
    open_store,
)
from bot.store.__main__ import main
from tests.tally.tally_helpers import doubling_match, entries_of

GUILD, CHANNEL = 1, 10
ANN, BOB, CAS = 101, 102, 103
SEATS = (
    TallySeat(seat=0, name="Ann", user_id=ANN),
    TallySeat(seat=1, name="Bob", user_id=BOB),
    TallySeat(seat=2, name="Cas", user_id=CAS),
    TallySeat(seat=3, name="Oma Dirkje", user_id=None),
)


async def _tally(store: Store, rules=STANDARD, first_dealer: int = 0) -> int:
    info = await store.tallies.create_tally(
        GUILD, CHANNEL, ANN, SEATS, rules=rules, first_dealer=first_dealer
    )
    assert info.status is TallyStatus.OPEN and info.entries == 0
    return info.tally_id


async def test_a_tally_entered_deal_by_deal_counts_like_a_played_match(store: Store) -> None:
    match = doubling_match(3)
    tally_id = await _tally(store)
    entries = list(entries_of(match))
    for seq, entry in enumerate(entries[:-1]):
        assert await store.tallies.append_entry(tally_id, seq, entry, BOB) is None
    result = await store.tallies.append_entry(
        tally_id, len(entries) - 1, entries[-1], CAS, rater=OpenSkillRater()
    )
    assert result is not None and result.tally_id == tally_id
    assert [r.points for r in result.seats] == match.totals()
    assert [r.rank for r in result.seats] == match.ranking()
    assert [list(r.deal_points) for r in result.seats] == [
        [deal.final_scores()[seat] for deal in match.deals] for seat in range(4)
    ]
    assert isinstance(result.seats[3].occupant, Guest)
    info = await store.tallies.get_tally(tally_id)
    assert info.status is TallyStatus.FINISHED and info.season_id == result.season_id
    board = await store.standings.leaderboard(result.season_id)
    assert {row.user_id for row in board.rows} == {ANN, BOB, CAS}  # never the guest
    for seat, user in enumerate((ANN, BOB, CAS)):
        stats = await store.standings.player_stats(result.season_id, user)
        assert stats is not None
        assert (stats.matches, stats.tallies, stats.points) == (1, 1, match.totals()[seat])
        assert stats.wins == (match.ranking()[seat] == 1)
        assert stats.rating is not None
        assert [(v.variant, v.matches, v.points) for v in stats.variants] == [
            ("standard", 1, match.totals()[seat])
        ]
        assert sum(c.points for c in stats.contracts) == stats.points
    assert await store.integrity_problems() == []


async def _stored_match(store: Store, match: Match) -> None:
    """``match`` (played by Ann and Bob and two computers) stored move by move, finished."""
    table = await store.tables.create_table(GUILD, CHANNEL + 1, ANN)
    seats = {0: Human(ANN), 1: Human(BOB), 2: Computer("easy"), 3: Computer("easy")}
    await store.tables.update_table(table.table_id, seats=seats)
    info = await store.matches.create_match(table.table_id, match.players)
    seq = 0
    for index, deal in enumerate(match.deals):
        await store.matches.append_deal(info.match_id, index, deal.hands)
        assert deal.contract is not None
        moves = [(deal.chooser, Choose(deal.contract.id))]
        moves += [(s, Double(t)) for s, t in zip(deal.doubling_order, deal.doubling, strict=True)]
        moves += [(s, Play(card)) for s, card in deal.plays]
        for seat, action in moves:
            await store.matches.append_action(info.match_id, seq, seat, action)
            seq += 1
    await store.matches.finish_match(info.match_id)


async def test_a_played_match_and_a_tally_add_up_in_one_season(store: Store) -> None:
    season = await store.seasons.start_season(GUILD, "Mixed")
    played = doubling_match(5)
    await _stored_match(store, played)
    kept = doubling_match(6, TWELVE)
    tally_id = await _tally(store, TWELVE)
    for seq, entry in enumerate(entries_of(kept)):
        await store.tallies.append_entry(tally_id, seq, entry, ANN)
    stats = await store.standings.player_stats(season.season_id, BOB)
    assert stats is not None
    assert (stats.matches, stats.tallies) == (2, 1)
    assert stats.points == played.totals()[1] + round(kept.totals()[1] / 2)
    lines = {line.variant: (line.matches, line.points) for line in stats.variants}
    assert lines == {"standard": (1, played.totals()[1]), "twelve": (1, kept.totals()[1])}


async def test_a_server_can_keep_tallies_out_of_its_ratings(store: Store) -> None:
    await store.tables.set_guild_settings(GUILD, GuildSettings(rate_tallies=False))
    assert not (await store.tables.guild_settings(GUILD)).rate_tallies
    tally_id = await _tally(store)
    for seq, entry in enumerate(entries_of(doubling_match(3))):
        result = await store.tallies.append_entry(tally_id, seq, entry, ANN, rater=OpenSkillRater())
    assert result is not None
    stats = await store.standings.player_stats(result.season_id, ANN)
    assert stats is not None and stats.matches == 1 and stats.rating is None


async def test_what_was_acknowledged_survives_a_restart_in_the_middle_of_a_deal(
    database: Path | str,
) -> None:
    match = doubling_match(8)
    entries = list(entries_of(match))
    async with await open_store(database) as store:
        tally_id = await _tally(store)
        for seq, entry in enumerate(entries[:5]):  # deal 1 whole, deal 2's contract, doubling
            await store.tallies.append_entry(tally_id, seq, entry, ANN + seq % 3)
    async with await open_store(database) as store:
        info, stored = await store.tallies.load(tally_id)
        assert info.entries == 5
        assert [s.entry for s in stored] == entries[:5]
        assert [s.user_id for s in stored] == [ANN, BOB, CAS, ANN, BOB]
        tally = tally_from_record(await store.tallies.load_record(tally_id))
        assert tally.number == 2 and tally.step.value == "result"
        for seq, entry in enumerate(entries[5:], start=5):
            await store.tallies.append_entry(tally_id, seq, entry, CAS)
        assert (await store.tallies.get_tally(tally_id)).status is TallyStatus.FINISHED
        record = await store.tallies.load_record(tally_id)
        assert record["totals"] == match.totals()


async def test_an_entry_number_is_stored_once_and_in_order(store: Store) -> None:
    tally_id = await _tally(store)
    await store.tallies.append_entry(tally_id, 0, Choose("queens"), ANN)
    with pytest.raises(AlreadyStored):
        await store.tallies.append_entry(tally_id, 0, Choose("hearts"), BOB)
    with pytest.raises(Conflict):
        await store.tallies.append_entry(tally_id, 2, PASSED, BOB)
    info, stored = await store.tallies.load(tally_id)
    assert info.entries == 1 and stored[0].entry == Choose("queens")


async def test_an_entry_the_rules_refuse_is_not_stored(store: Store) -> None:
    tally_id = await _tally(store)
    await store.tallies.append_entry(tally_id, 0, Choose("queens"), ANN)
    await store.tallies.append_entry(tally_id, 1, PASSED, ANN)
    with pytest.raises(Conflict, match="does not replay"):
        await store.tallies.append_entry(tally_id, 2, Result.of({"queens": [1, 1, 1, 2]}), ANN)
    assert (await store.tallies.get_tally(tally_id)).entries == 2


async def test_a_cancelled_or_finished_tally_takes_no_more_entries(store: Store) -> None:
    cancelled = await _tally(store)
    await store.tallies.append_entry(cancelled, 0, Choose("queens"), ANN)
    await store.tallies.cancel_tally(cancelled, 1, BOB)
    info, stored = await store.tallies.load(cancelled)
    assert info.status is TallyStatus.CANCELLED and info.ended_at is not None
    assert (stored[-1].kind, stored[-1].user_id, stored[-1].entry) == ("cancel", BOB, None)
    with pytest.raises(Conflict, match="cancelled"):
        await store.tallies.append_entry(cancelled, 2, Undo(), ANN)
    finished = await _tally(store)
    entries = list(entries_of(doubling_match(2)))
    for seq, entry in enumerate(entries):
        await store.tallies.append_entry(finished, seq, entry, ANN)
    with pytest.raises(Conflict, match="finished"):
        await store.tallies.append_entry(finished, len(entries), Undo(), ANN)
    with pytest.raises(Conflict):
        await store.tallies.cancel_tally(finished, len(entries), ANN)
    assert await store.integrity_problems() == []


async def test_a_member_sits_once_and_every_seat_has_a_name(store: Store) -> None:
    twice = (*SEATS[:3], TallySeat(seat=3, name="Ann again", user_id=ANN))
    with pytest.raises(Conflict, match="two seats"):
        await store.tallies.create_tally(GUILD, CHANNEL, ANN, twice, rules=STANDARD)
    unnamed = (*SEATS[:3], TallySeat(seat=3, name="  ", user_id=None))
    with pytest.raises(ValueError, match="name"):
        await store.tallies.create_tally(GUILD, CHANNEL, ANN, unnamed, rules=STANDARD)


async def test_the_messages_of_a_tally_are_remembered(store: Store) -> None:
    tally_id = await _tally(store)
    await store.tallies.remember_message(tally_id, "sheet", 555)
    await store.tallies.remember_message(tally_id, "sheet", 556)
    await store.tallies.remember_message(tally_id, "thread", 77)
    assert (await store.tallies.get_tally(tally_id)).messages == {"sheet": 556, "thread": 77}


def test_python_m_bot_store_record_prints_a_tally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    path = tmp_path / "bonken.sqlite3"
    match = doubling_match(4)

    async def fill() -> None:
        async with await open_store(path) as store:
            tally_id = await _tally(store)
            for seq, entry in enumerate(list(entries_of(match))[:7]):
                await store.tallies.append_entry(tally_id, seq, entry, ANN)

    asyncio.run(fill())
    assert main(["--database", str(path), "record", "--tally", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["format"] == "bonken-tally/1"
    assert record["players"] == ["Ann", "Bob", "Cas", "Oma Dirkje"]
    assert len(record["deals"]) == 3 and "result" not in record["deals"][2]
    expected = Tally(record["players"])
    for entry in list(entries_of(match))[:7]:
        expected.apply(entry)
    assert record["totals"] == expected.totals()


@pytest.mark.sqlite_only
async def test_the_check_finds_a_season_row_that_lost_its_tally(store: Store) -> None:
    tally_id = await _tally(store)
    for seq, entry in enumerate(entries_of(doubling_match(3))):
        result = await store.tallies.append_entry(tally_id, seq, entry, ANN)
    assert result is not None and await store.integrity_problems() == []
    await store.db.write_one("UPDATE season_players SET tallies = 0 WHERE user_id = ?", (BOB,))
    assert await store.integrity_problems() == [
        f"season rows that differ from the results they sum: {BOB}, {BOB}"
    ]


async def test_a_table_of_guests_finishes_and_reaches_no_standings(store: Store) -> None:
    guests = tuple(TallySeat(seat=s, name=f"Guest {s}", user_id=None) for s in range(4))
    info = await store.tallies.create_tally(GUILD, CHANNEL, ANN, guests, rules=STANDARD)
    for seq, entry in enumerate(entries_of(doubling_match(7))):
        result = await store.tallies.append_entry(
            info.tally_id, seq, entry, ANN, rater=OpenSkillRater()
        )
    assert result is not None and all(isinstance(r.occupant, Guest) for r in result.seats)
    board = await store.standings.leaderboard(result.season_id)
    assert board.players == 0 and board.rows == ()
    assert await store.integrity_problems() == []
