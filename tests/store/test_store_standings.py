"""Finished results, seasons, leaderboards and player statistics (what standings ask)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.engine import Deal, Match
from bot.store import (
    Computer,
    Conflict,
    Human,
    LeaderboardSort,
    MatchStatus,
    NotFound,
    RatedPlayer,
    Rating,
    SeatOccupant,
    SeatResult,
    Store,
    TableStatus,
    open_store,
)
from bot.store.bulk import add_finished_matches
from bot.store.migrations import LATEST
from bot.store.rows import Row
from tests.store.store_helpers import NAMES, finished_match, play, seated_table


async def test_a_finished_match_stores_each_seats_result_as_the_engine_scores_it(
    store: Store,
) -> None:
    match_id, match = await finished_match(store, seed=1)
    info = await store.matches.get_match(match_id)
    assert info.status is MatchStatus.FINISHED
    assert info.ended_at is not None and info.season_id is not None
    page = await store.standings.leaderboard(info.season_id)
    by_user = {row.user_id: row for row in page.rows}
    for seat, user in enumerate((1, 2, 3, 4)):
        assert by_user[user].points == match.totals()[seat]
        assert by_user[user].wins == (match.ranking()[seat] == 1)
        assert by_user[user].matches == 1


async def test_the_finish_result_has_totals_ranks_and_deal_scores(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    match = await play(store, info.match_id, random.Random(2))
    result = await store.matches.finish_match(info.match_id)
    assert [r.points for r in result.seats] == match.totals()
    assert [r.rank for r in result.seats] == match.ranking()
    assert [list(r.deal_points) for r in result.seats] == [
        [deal.final_scores()[seat] for deal in match.deals] for seat in range(4)
    ]
    assert [r.name for r in result.seats] == list(NAMES)


async def test_a_guild_without_a_season_gets_a_default_one_at_its_first_match(
    store: Store,
) -> None:
    assert await store.seasons.active_season(1) is None
    match_id, _ = await finished_match(store, seed=3)
    season = await store.seasons.active_season(1)
    assert season is not None and season.name == "Season 1" and season.active
    assert (await store.matches.get_match(match_id)).season_id == season.season_id
    await store.seasons.end_season(1)
    await finished_match(store, seed=4)
    names = [s.name for s in await store.seasons.seasons(1)]
    assert names == ["Season 2", "Season 1"]


async def test_a_cancelled_match_counts_nothing(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    await play(store, info.match_id, random.Random(5))
    await store.matches.cancel_match(info.match_id)
    assert await store.seasons.active_season(1) is None
    await store.tables.update_table(table.table_id, status=TableStatus.CANCELLED)
    _, counted = await finished_match(store, seed=6)
    season = await store.seasons.active_season(1)
    assert season is not None
    page = await store.standings.leaderboard(season.season_id)
    assert all(row.matches == 1 for row in page.rows)
    stats = await store.standings.player_stats(season.season_id, 1)
    assert stats is not None and stats.points == counted.totals()[0]
    assert await store.integrity_problems() == []


async def test_computer_seats_are_recorded_but_never_on_a_leaderboard(store: Store) -> None:
    occupants: tuple[SeatOccupant, ...] = (Human(1), Computer("easy"), Human(3), Computer("normal"))
    table = await seated_table(store, occupants)
    info = await store.matches.create_match(table.table_id, NAMES)
    await play(store, info.match_id, random.Random(7))
    result = await store.matches.finish_match(info.match_id)
    assert [r.occupant for r in result.seats] == list(occupants)
    page = await store.standings.leaderboard(result.season_id, limit=10)
    assert [row.user_id for row in page.rows] == sorted(
        (1, 3), key=lambda u: -result.seats[u - 1].points
    )
    assert page.players == 2


async def test_computer_takeovers_count_each_run_of_computer_moves(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    rng = random.Random(8)
    flags: dict[int, list[bool]] = defaultdict(list)

    def by_computer(seat: int) -> bool:
        flag = seat in (1, 2) and rng.random() < (0.3 if seat == 1 else 0.9)
        flags[seat].append(flag)
        return flag

    await play(store, info.match_id, random.Random(9), by_computer=by_computer)
    result = await store.matches.finish_match(info.match_id)
    expected = [
        sum(1 for i, f in enumerate(flags[seat]) if f and (i == 0 or not flags[seat][i - 1]))
        for seat in range(4)
    ]
    assert expected[0] == 0 and expected[1] > 1
    assert [r.takeovers for r in result.seats] == expected
    stats = await store.standings.player_stats(result.season_id, 2)
    assert stats is not None and stats.takeovers == expected[1]


async def test_player_stats_follow_the_record(store: Store) -> None:
    matches: list[Match] = []
    for seed in (10, 11, 12):
        _, match = await finished_match(store, seed=seed)
        matches.append(match)
    season = await store.seasons.active_season(1)
    assert season is not None
    seat, user = 1, 2
    stats = await store.standings.player_stats(season.season_id, user)
    assert stats is not None
    assert stats.matches == 3
    assert stats.wins == sum(m.ranking()[seat] == 1 for m in matches)
    assert stats.points == sum(m.totals()[seat] for m in matches)
    assert stats.average == pytest.approx(stats.points / 3)
    deals = [deal for m in matches for deal in m.deals]
    deltas = [deal.final_scores()[seat] - deal.base[seat] for deal in deals]
    assert stats.doubling_won == sum(d for d in deltas if d > 0)
    assert stats.doubling_lost == sum(d for d in deltas if d < 0)
    named = [(turn_seat, targets) for d in deals for turn_seat, targets in _turns(d)]
    assert stats.doubles_made == sum(len(t) for s, t in named if s == seat)
    assert stats.doubles_received == sum(seat in t for s, t in named)
    by_contract: dict[str, list[int]] = defaultdict(list)
    for deal in deals:
        assert deal.contract is not None
        by_contract[deal.contract.id].append(deal.final_scores()[seat])
    assert {c.contract: (c.deals, c.points) for c in stats.contracts} == {
        cid: (len(p), sum(p)) for cid, p in by_contract.items()
    }
    averages = {cid: sum(p) / len(p) for cid, p in by_contract.items()}
    assert stats.best_contract is not None and stats.worst_contract is not None
    assert stats.best_contract.average == max(averages.values())
    assert stats.worst_contract.average == min(averages.values())
    assert sum(c.points for c in stats.contracts) == stats.points


def _turns(deal: Deal) -> list[tuple[int, frozenset[int]]]:
    """(seat, named) per doubling turn: right of the dealer first, the chooser last."""
    order = [(deal.dealer + k) % 4 for k in (3, 0, 1, 2)]
    return list(zip(order, deal.doubling, strict=False))


async def test_a_player_without_matches_has_no_stats(store: Store) -> None:
    season = await store.seasons.start_season(1, "Spring")
    assert await store.standings.player_stats(season.season_id, 1) is None


def _results(users: tuple[int | None, ...], points: tuple[int, ...]) -> list[SeatResult]:
    ranks = [1 + sum(other > mine for other in points) for mine in points]
    return [
        SeatResult(
            seat=seat,
            name=f"P{seat}",
            occupant=Human(user) if user is not None else Computer("easy"),
            points=points[seat],
            rank=ranks[seat],
            deal_points=(),
            takeovers=0,
        )
        for seat, user in enumerate(users)
    ]


async def _crafted_season(store: Store) -> int:
    """Six players whose totals, wins and averages are worked out by hand."""
    table = await store.tables.create_table(1, 10, 1)
    season = await store.seasons.start_season(1, "Crafted")
    await add_finished_matches(
        store.db,
        table.table_id,
        season.season_id,
        [
            _results((1, 2, 3, 4), (30, 30, -20, -40)),
            _results((1, 5, 6, 2), (-10, 50, 0, -40)),
            _results((5, 6, 3, None), (10, 10, 0, -20)),
        ],
    )
    return season.season_id


@pytest.mark.parametrize(
    ("sort", "users", "ranks"),
    [
        (LeaderboardSort.POINTS, [5, 1, 6, 2, 3, 4], [1, 2, 3, 4, 5, 6]),
        (LeaderboardSort.WINS, [5, 1, 2, 6, 3, 4], [1, 2, 2, 2, 5, 5]),
        (LeaderboardSort.AVERAGE, [5, 1, 6, 2, 3, 4], [1, 2, 3, 4, 5, 6]),
    ],
)
async def test_leaderboards_sort_highest_first_and_ties_share_a_rank(
    store: Store, sort: LeaderboardSort, users: list[int], ranks: list[int]
) -> None:
    season_id = await _crafted_season(store)
    page = await store.standings.leaderboard(season_id, sort, limit=10)
    assert [row.user_id for row in page.rows] == users
    assert [row.rank for row in page.rows] == ranks
    assert page.players == 6
    assert await store.integrity_problems() == []


async def test_a_page_in_the_middle_of_a_tie_keeps_the_shared_rank(store: Store) -> None:
    season_id = await _crafted_season(store)
    page = await store.standings.leaderboard(season_id, LeaderboardSort.WINS, offset=2, limit=2)
    assert [(row.user_id, row.rank) for row in page.rows] == [(2, 2), (6, 2)]
    page = await store.standings.leaderboard(season_id, LeaderboardSort.WINS, offset=4, limit=5)
    assert [(row.user_id, row.rank) for row in page.rows] == [(3, 5), (4, 5)]


async def test_the_viewer_gets_their_own_row_wherever_it_is(store: Store) -> None:
    season_id = await _crafted_season(store)
    page = await store.standings.leaderboard(season_id, limit=1, viewer=4)
    assert [row.user_id for row in page.rows] == [5]
    assert page.viewer is not None
    assert (page.viewer.user_id, page.viewer.rank, page.viewer.points) == (4, 6, -40)
    assert page.viewer.average == -40
    nobody = await store.standings.leaderboard(season_id, viewer=999)
    assert nobody.viewer is None


async def test_ratings_are_stored_as_given_and_sort_the_rating_board(store: Store) -> None:
    seen: list[list[RatedPlayer]] = []

    def rater(players: Sequence[RatedPlayer]) -> dict[int, Rating]:
        seen.append(list(players))
        return {p.user_id: Rating(mu=30.0 - p.rank + len(seen), sigma=2.0) for p in players}

    occupants: tuple[SeatOccupant, ...] = (Human(1), Human(2), Computer("easy"), Human(4))
    for seed in (13, 14):
        table = await seated_table(store, occupants)
        info = await store.matches.create_match(table.table_id, NAMES)
        await play(store, info.match_id, random.Random(seed))
        result = await store.matches.finish_match(info.match_id, rater=rater)
        await store.tables.update_table(table.table_id, status=TableStatus.FINISHED)
    assert [sorted(p.user_id for p in call) for call in seen] == [[1, 2, 4], [1, 2, 4]]
    assert all(p.previous is None for p in seen[0])
    first = {p.user_id: 30.0 - p.rank + 1 for p in seen[0]}
    assert {p.user_id: p.previous for p in seen[1]} == {
        u: Rating(mu=mu, sigma=2.0) for u, mu in first.items()
    }
    page = await store.standings.leaderboard(result.season_id, LeaderboardSort.RATING)
    final = {p.user_id: Rating(mu=30.0 - p.rank + 2, sigma=2.0) for p in seen[1]}
    assert {row.user_id: row.rating for row in page.rows} == final
    ordinals = [row.rating.ordinal for row in page.rows if row.rating]
    assert ordinals == sorted(ordinals, reverse=True)


async def test_unrated_players_sort_last_on_the_rating_board(store: Store) -> None:
    season_id = await _crafted_season(store)
    await store.db.write_one(
        "UPDATE season_players SET rating_mu = 20 + user_id, rating_sigma = 1 WHERE user_id < 3"
    )
    page = await store.standings.leaderboard(season_id, LeaderboardSort.RATING, viewer=6)
    assert [(row.user_id, row.rank) for row in page.rows] == [
        (2, 1), (1, 2), (3, 3), (4, 3), (5, 3), (6, 3)
    ]  # fmt: skip
    assert page.viewer is not None and page.viewer.rank == 3


async def test_seasons_start_end_and_are_found_by_name(store: Store) -> None:
    spring = await store.seasons.start_season(1, "Spring")
    assert (await store.seasons.active_season(1)) == spring
    summer = await store.seasons.start_season(1, " Summer ")
    assert summer.name == "Summer"
    archived = await store.seasons.season_named(1, "Spring")
    assert archived is not None and not archived.active and archived.ended_at is not None
    with pytest.raises(Conflict, match="already a season named 'Spring'"):
        await store.seasons.start_season(1, "Spring")
    assert (await store.seasons.active_season(1)) == summer
    ended = await store.seasons.end_season(1)
    assert ended.season_id == summer.season_id and not ended.active
    assert await store.seasons.active_season(1) is None
    with pytest.raises(NotFound):
        await store.seasons.end_season(1)
    assert [s.name for s in await store.seasons.seasons(1)] == ["Summer", "Spring"]
    assert await store.seasons.seasons(2) == []
    assert await store.seasons.season_named(1, "Winter") is None


async def test_matches_count_in_the_season_active_when_they_finish(store: Store) -> None:
    spring = await store.seasons.start_season(1, "Spring")
    await finished_match(store, seed=15)
    summer = await store.seasons.start_season(1, "Summer")
    await finished_match(store, seed=16)
    await finished_match(store, seed=17, guild_id=2, channel_id=20)
    for season in (spring, summer):
        page = await store.standings.leaderboard(season.season_id)
        assert [row.matches for row in page.rows] == [1, 1, 1, 1]
    other = await store.seasons.active_season(2)
    assert other is not None and other.name == "Season 1"


async def test_an_unknown_season_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.standings.leaderboard(42)
    with pytest.raises(NotFound):
        await store.standings.player_stats(42, 1)


async def test_every_page_is_its_slice_of_the_whole_board_with_its_ranks(store: Store) -> None:
    """Pages are read from the nearer end, the first row's rank from its tie and the
    viewer's rank from the nearer end: each page of each sort must still be exactly the
    board's rows there, ranked as a whole, and each viewer ranked as on the whole board."""
    rng = random.Random(21)
    table = await store.tables.create_table(1, 10, 1)
    season = await store.seasons.start_season(1, "Pages")
    matches = []
    for _ in range(12):
        users = rng.sample(range(1, 24), 4)
        points = [rng.choice((-10, 0, 10)) for _ in range(3)]
        matches.append(_results(tuple(users), (*points, -sum(points))))
    await add_finished_matches(store.db, table.table_id, season.season_id, matches)
    await store.db.write_one(
        "UPDATE season_players SET rating_mu = 20 + user_id % 3, rating_sigma = 1 "
        "WHERE user_id % 4 <> 0"
    )
    rows = await store.db.write_one(
        "SELECT user_id, points, wins, matches, rating_mu, rating_sigma FROM season_players"
    )

    def rating(row: Row) -> float | None:
        mu = row["rating_mu"]
        return None if mu is None else mu - 3 * row["rating_sigma"]

    values = {
        LeaderboardSort.POINTS: {r["user_id"]: r["points"] for r in rows},
        LeaderboardSort.WINS: {r["user_id"]: r["wins"] for r in rows},
        LeaderboardSort.AVERAGE: {r["user_id"]: r["points"] / r["matches"] for r in rows},
        LeaderboardSort.RATING: {r["user_id"]: rating(r) for r in rows},
    }
    players = len(rows)
    for sort, value in values.items():
        low = min(v for v in value.values() if v is not None) - 1  # None sorts below all
        sortable = {u: low if v is None else v for u, v in value.items()}
        board = sorted(sortable, key=lambda u: (-sortable[u], u))
        ranks = [1 + sum(other > sortable[u] for other in sortable.values()) for u in board]
        for limit in (1, 3, 7):
            for offset in range(players + 2):
                page = await store.standings.leaderboard(
                    season.season_id, sort, offset=offset, limit=limit
                )
                assert [(r.user_id, r.rank) for r in page.rows] == list(
                    zip(board, ranks, strict=True)
                )[offset : offset + limit], (sort, offset, limit)
                assert page.players == players
        for viewer, rank in zip(board, ranks, strict=True):  # counted from either end
            for offset in (0, players // 2, players - 1):
                page = await store.standings.leaderboard(
                    season.season_id, sort, offset=offset, limit=3, viewer=viewer
                )
                assert page.viewer is not None
                assert (page.viewer.user_id, page.viewer.rank) == (viewer, rank), (sort, offset)


async def _sizes(store: Store) -> dict[int, tuple[int, int]]:
    """Per season with players: (its stored count, its season rows counted)."""
    rows = await store.db.write_one(
        "SELECT p.season_id, s.players, count(*) AS counted FROM season_players p "
        "LEFT JOIN season_sizes s ON s.season_id = p.season_id "
        "GROUP BY p.season_id, s.players"
    )
    return {row["season_id"]: (row["players"], row["counted"]) for row in rows}


async def test_the_stored_player_count_follows_finishes_new_players_and_seasons(
    store: Store,
) -> None:
    """A page reads the season's player count from its stored row, not by counting: the
    row must grow by exactly the players new to the season, whatever path adds them."""
    spring = await store.seasons.start_season(1, "Spring")
    assert (await store.standings.leaderboard(spring.season_id)).players == 0
    await finished_match(store, seed=30)  # players 1-4, new
    await finished_match(store, seed=31)  # the same four again: no one new
    await finished_match(store, seed=32, occupants=(Human(1), Human(5), Computer("easy"), Human(6)))
    assert await _sizes(store) == {spring.season_id: (6, 6)}
    table = await store.tables.create_table(1, 11, 1)
    await add_finished_matches(  # a bulk batch of known and new players
        store.db,
        table.table_id,
        spring.season_id,
        [_results((5, 6, 7, 1), (10, 0, -10, 0)), _results((7, 8, None, 6), (5, 5, -5, -5))],
    )
    summer = await store.seasons.start_season(1, "Summer")
    await finished_match(store, seed=33)  # players 1-4, new to the new season
    await finished_match(store, seed=34, guild_id=2, channel_id=20)
    autumn = await store.seasons.active_season(2)
    assert autumn is not None
    assert await _sizes(store) == {
        spring.season_id: (8, 8),
        summer.season_id: (4, 4),
        autumn.season_id: (4, 4),
    }
    for season in (spring, summer, autumn):
        page = await store.standings.leaderboard(season.season_id, limit=20)
        assert page.players == len(page.rows)


async def test_the_player_count_migration_counts_the_seasons_of_an_older_database(
    database: Path | str,
) -> None:
    """A database without migrations 12 and 13 (stored counts dropped, their versions
    taken back) gets each season's count from its rows when it opens: 0 for a season
    without players."""
    async with await open_store(database) as store:
        table = await store.tables.create_table(1, 10, 1)
        big = await store.seasons.start_season(1, "Big")
        await add_finished_matches(
            store.db,
            table.table_id,
            big.season_id,
            [_results((u, u + 1, u + 2, u + 3), (10, 0, 0, -10)) for u in range(1, 60, 2)],
        )
        await finished_match(store, seed=35, guild_id=2, channel_id=20)
        empty = await store.seasons.start_season(3, "Empty")
        await store.db.write_one("DROP TABLE season_sizes")
        # Migrations 12 and 13 undone; the later ones (the reviews', the daily deals' and
        # the tallies' tables) are other features' and stay, as they would in a database
        # that ran them first.
        await store.db.write_one("DELETE FROM schema_version WHERE version IN (12, 13)")
        if store.db.dialect.name == "postgres":
            # Back as schema 11 had it, for migration 13 to replace again (on SQLite it
            # rebuilds the table, which runs alike on the table it rebuilt before).
            await store.db.write_one(
                "ALTER TABLE channel_posted DROP CONSTRAINT channel_posted_step_check, "
                "ADD CONSTRAINT channel_posted_step_check CHECK (step BETWEEN 0 AND 14)"
            )
    async with await open_store(database) as store:
        (row,) = await store.db.write_one("SELECT max(version) AS version FROM schema_version")
        assert row["version"] == LATEST
        sizes = await _sizes(store)
        assert sorted(stored for stored, _ in sizes.values()) == [4, 62]
        assert all(stored == counted for stored, counted in sizes.values())
        assert (await store.standings.leaderboard(empty.season_id)).players == 0
        page = await store.standings.leaderboard(big.season_id, offset=55, limit=10)
        assert page.players == 62 and len(page.rows) == 7
