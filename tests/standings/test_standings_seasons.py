"""Seasons: one active per guild, ending archives the standings, past seasons by name."""

from __future__ import annotations

import pytest

from bot.boards import resolve_season
from bot.store import LeaderboardSort, Store
from tests.standings.standings_helpers import ANN, BOB, CAS, GUILD, Tables

pytestmark = pytest.mark.service_logic


async def test_ending_a_season_archives_its_standings_and_they_stay_queryable_by_name(
    tables: Tables, store: Store
) -> None:
    await store.seasons.start_season(GUILD, "Spring")
    await tables.play((ANN, BOB))
    spring = await store.seasons.season_named(GUILD, "Spring")
    assert spring is not None
    before = await store.standings.leaderboard(spring.season_id, LeaderboardSort.POINTS)

    ended = await store.seasons.end_season(GUILD)
    assert ended.season_id == spring.season_id and not ended.active
    assert await store.seasons.active_season(GUILD) is None

    # Later matches go to a new default season, never to the archived one.
    ended_match = await tables.play((ANN, CAS))
    after = await store.seasons.season_named(GUILD, "Spring")
    assert after is not None and after.ended_at == ended.ended_at
    again = await store.standings.leaderboard(after.season_id, LeaderboardSort.POINTS)
    assert again.rows == before.rows and again.players == 2
    newest = await store.seasons.active_season(GUILD)
    assert newest is not None and newest.name == "Season 2"
    info = await store.matches.get_match(ended_match.match_id)
    assert info.season_id == newest.season_id


async def test_starting_a_season_ends_the_active_one(tables: Tables, store: Store) -> None:
    await tables.play((ANN,))
    first = await store.seasons.active_season(GUILD)
    assert first is not None
    summer = await store.seasons.start_season(GUILD, "Summer")
    old = await store.seasons.season_named(GUILD, first.name)
    assert old is not None and not old.active
    await tables.play((BOB,))
    page = await store.standings.leaderboard(summer.season_id)
    assert [row.user_id for row in page.rows] == [BOB]
    assert [s.name for s in await store.seasons.seasons(GUILD)] == ["Summer", first.name]


async def test_seasons_belong_to_their_guild(tables: Tables, store: Store) -> None:
    await store.seasons.start_season(GUILD, "Spring")
    await store.seasons.start_season(GUILD + 1, "Spring")
    await tables.play((ANN,), guild=GUILD + 1)
    mine = await resolve_season(store.seasons, GUILD, "Spring")
    theirs = await resolve_season(store.seasons, GUILD + 1, "Spring")
    assert mine.season_id != theirs.season_id
    assert (await store.standings.leaderboard(mine.season_id)).players == 0
    assert (await store.standings.leaderboard(theirs.season_id)).players == 1


async def test_without_a_name_the_active_season_then_the_newest_is_meant(store: Store) -> None:
    await store.seasons.start_season(GUILD, "Spring")
    summer = await store.seasons.start_season(GUILD, "Summer")
    assert (await resolve_season(store.seasons, GUILD, None)).name == "Summer"
    await store.seasons.end_season(GUILD)
    found = await resolve_season(store.seasons, GUILD, None)
    assert found.season_id == summer.season_id and not found.active
    assert (await resolve_season(store.seasons, GUILD, "  Spring ")).name == "Spring"
