"""What the web pages read from the store: a server's web setting, each player's rating
after every rated match, the names players last played under, a player's newest finished
matches and scoresheets, and a server's stored days."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date

from bot.daily import DailyService
from bot.engine import Match
from bot.ratings import OpenSkillRater
from bot.store import Store, TallySeat, WebAccess
from bot.tally import TallyService
from tests.daily.daily_helpers import Clock
from tests.store.store_helpers import NAMES, play, seated_table
from tests.tally.tally_helpers import doubling_match, entries_of


async def rated_match(
    store: Store, seed: int, guild: int = 1, names: tuple[str, ...] = NAMES
) -> tuple[int, Match]:
    table = await seated_table(store, guild_id=guild, channel_id=10 + seed)
    info = await store.matches.create_match(table.table_id, list(names))
    match = await play(store, info.match_id, random.Random(seed), match=Match(names))
    await store.matches.finish_match(info.match_id, rater=OpenSkillRater())
    return info.match_id, match


async def test_a_server_is_by_link_until_it_chooses_and_keeps_its_choice(store: Store) -> None:
    assert (await store.tables.guild_settings(5)).web is WebAccess.LINK
    for access in (WebAccess.OFF, WebAccess.PUBLIC, WebAccess.LINK):
        settings = await store.tables.guild_settings(5)
        await store.tables.set_guild_settings(5, replace(settings, web=access))
        assert (await store.tables.guild_settings(5)).web is access
    other = await store.tables.guild_settings(6)
    assert other.web is WebAccess.LINK


async def test_every_rated_match_adds_a_point_to_each_players_rating_history(store: Store):
    for seed in range(3):
        await rated_match(store, seed)
    season = (await store.seasons.seasons(1))[0]
    for user in (1, 2, 3, 4):
        history = await store.standings.rating_history(season.season_id, user)
        assert len(history) == 3
        stats = await store.standings.player_stats(season.season_id, user)
        assert stats is not None and stats.rating == history[-1].rating
        assert [p.rated_at for p in history] == sorted(p.rated_at for p in history)
    assert await store.standings.rating_history(season.season_id, 99) == []


async def test_a_match_finished_without_a_rater_adds_no_rating(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    await play(store, info.match_id, random.Random(1))
    await store.matches.finish_match(info.match_id)
    season = (await store.seasons.seasons(1))[0]
    assert await store.standings.rating_history(season.season_id, 1) == []


async def test_names_are_the_newest_a_player_played_under(store: Store) -> None:
    await rated_match(store, 1)
    await rated_match(store, 2, names=("Annie", "Bob", "Cas", "Dirk"))
    names = await store.standings.names([1, 2, 77])
    assert names == {1: "Annie", 2: "Bob"}
    assert await store.standings.names([]) == {}


async def test_a_name_from_a_scoresheet_counts_where_no_match_has_one(store: Store) -> None:
    await rated_match(store, 1)  # users 1 to 4 as Ann, Bob, Cas and Dirk
    tallies = TallyService(store, rater=OpenSkillRater())
    match = doubling_match(3)
    for channel, (first, fifth) in enumerate([("Annie", "Eve"), ("Annabel", "Evie")], 40):
        names = (first, "Bob", "Cas", fifth)
        seats = [
            TallySeat(seat=i, name=n, user_id=u)
            for i, (n, u) in enumerate(zip(names, (1, 2, 3, 5), strict=True))
        ]
        sheet = await tallies.open(1, channel, 1, seats, rules=match.rules)
        for entry in entries_of(match):
            await tallies.enter(sheet.tally_id, 1, None, entry)
    # The newest match's name wins over any scoresheet's; else the newest scoresheet's.
    assert await store.standings.names([5, 1, 6]) == {1: "Ann", 5: "Evie"}


async def test_a_players_finished_matches_newest_first_in_their_server_only(store: Store):
    ids = [(await rated_match(store, seed))[0] for seed in range(3)]
    elsewhere, _ = await rated_match(store, 9, guild=2)
    table = await seated_table(store, channel_id=50)  # one in play: not listed
    playing = await store.matches.create_match(table.table_id, NAMES)
    await play(store, playing.match_id, random.Random(4), deals=1)
    found = await store.matches.finished_of_player(1, 2, 10)
    assert [m.match_id for m in found] == ids[::-1]
    match = from_store = found[0]
    assert from_store.seat == 1 and match.names == NAMES
    stored = await store.matches.load_record(ids[-1])
    assert stored["players"] == list(NAMES)
    assert [m.match_id for m in await store.matches.finished_of_player(1, 2, 2)] == ids[:0:-1]
    assert [m.match_id for m in await store.matches.finished_of_player(2, 2, 10)] == [elsewhere]
    assert await store.matches.finished_of_player(1, 42, 10) == []


async def test_a_members_finished_scoresheets(store: Store) -> None:
    tallies = TallyService(store, rater=OpenSkillRater())
    seats = [TallySeat(seat=i, name=n, user_id=i + 1) for i, n in enumerate(NAMES)]
    seats[3] = TallySeat(seat=3, name="Guest", user_id=None)
    match = doubling_match(3)
    sheet = await tallies.open(1, 40, 1, seats, rules=match.rules)
    for entry in entries_of(match):
        view = await tallies.enter(sheet.tally_id, 1, None, entry)
    (found,) = await store.tallies.finished_of_player(1, 2, 10)
    assert found.match_id == sheet.tally_id and found.seat == 1
    assert found.points == view.totals[1] and found.rank == view.ranking[1]
    assert found.names == ("Ann", "Bob", "Cas", "Guest")
    assert await store.tallies.finished_of_player(2, 2, 10) == []


async def test_a_servers_stored_days_newest_first_up_to_a_day(store: Store) -> None:
    clock = Clock()
    daily = DailyService(store.daily, store.tables, clock=clock)
    first = clock.now.date()
    await daily.play(1, 1, "Ann")
    clock.advance(days=1)
    await daily.play(1, 2, "Bob")  # (Ann would go on with yesterday's deals)
    second = clock.now.date()
    assert await store.daily.days(1, second, 10) == [second, first]
    assert await store.daily.days(1, first, 10) == [first]
    assert await store.daily.days(1, second, 1) == [second]
    assert await store.daily.days(2, second, 10) == []
    assert await store.daily.days(1, date(2000, 1, 1), 10) == []
