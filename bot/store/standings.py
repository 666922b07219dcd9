"""Season standings: the per-player aggregates and the queries that read them.

``season_players`` holds one row per human per season, kept up to date in the same
transaction that stores a finished match, with an index per leaderboard sort. A page is
then an index walk and a rank is an index count, whatever the number of matches.
"""

from __future__ import annotations

from collections.abc import Sequence

from .codec import now_ms, to_datetime
from .database import Database, Session
from .models import (
    ContractStat,
    LeaderboardPage,
    LeaderboardSort,
    PlayerStats,
    RatedPlayer,
    Rater,
    Rating,
    RatingPoint,
    SeasonStanding,
    VariantStat,
)
from .results import Contribution
from .rows import Row, from_row
from .seasons import get_season, sized_season

# The sort expressions must match the index expressions in migration 2 character for
# character (with the dialect's REAL), or SQLite sorts instead of walking the index.
SORT_KEYS = {
    LeaderboardSort.POINTS: "points",
    LeaderboardSort.WINS: "wins",
    LeaderboardSort.AVERAGE: "(CAST(points AS {real}) / matches)",
    LeaderboardSort.RATING: "(rating_mu - 3 * rating_sigma)",
}
SORT_INDEXES = {
    LeaderboardSort.POINTS: "season_players_by_points",
    LeaderboardSort.WINS: "season_players_by_wins",
    LeaderboardSort.AVERAGE: "season_players_by_average",
    LeaderboardSort.RATING: "season_players_by_rating",
}
VARIANTS_QUERY = """
    SELECT coalesce(variant, 'standard') AS variant, count(*) AS matches,
           sum(CASE WHEN rank = 1 THEN 1 ELSE 0 END) AS wins, sum(points) AS points
    FROM (
        SELECT {match_variant} AS variant, r.rank, r.points
        FROM match_seats s
        JOIN matches m ON m.match_id = s.match_id
        JOIN match_results r ON r.match_id = s.match_id AND r.seat = s.seat
        WHERE s.user_id = ? AND m.season_id = ?
        UNION ALL
        SELECT {tally_variant} AS variant, r.rank, r.points
        FROM tally_seats s
        JOIN tallies t ON t.tally_id = s.tally_id
        JOIN tally_results r ON r.tally_id = s.tally_id AND r.seat = s.seat
        WHERE s.user_id = ? AND t.season_id = ?
    ) AS finished
    GROUP BY coalesce(variant, 'standard') ORDER BY variant
"""
"""A player's season per variant, from the finished matches and tallies themselves (the
season's aggregates are in standard points); ``match_seats_by_user`` and
``tally_seats_by_user`` find the player's."""
STANDING_COLUMNS = "user_id, matches, wins, points, rating_mu, rating_sigma, {key} AS sort_value"
"""A leaderboard row's columns, and its value under the sort (``key``, one of SORT_KEYS)."""


SEASON_PLAYER_COLUMNS = (
    "season_id, user_id, matches, wins, points, takeovers, tallies, "
    "doubles_made, doubles_received, doubling_won, doubling_lost"
)
INSERT_CHUNK = 1000
"""Season rows per multi-row INSERT: 10,000 parameters, within both databases' limits."""


async def add_contributions(
    session: Session, season_id: int, contributions: Sequence[Contribution]
) -> None:
    """Add finished-match contributions (at most one per user) to the season rows, creating
    them as needed, and raise the season's player count by the rows created.

    Each player's first row is inserted only where none exists yet, and the rows the
    insert returns are the new ones: a count taken by the insert itself stays right when
    two transactions add the same new player at once (the second waits for the first,
    then finds the row and adds to it). The count is written last, so a finishing
    transaction that holds the season's count row waits for no other lock.
    """
    rows = [
        (
            season_id,
            c.user_id,
            c.matches,
            c.wins,
            c.points,
            c.takeovers,
            c.tallies,
            c.doubles_made,
            c.doubles_received,
            c.doubling_won,
            c.doubling_lost,
        )
        for c in contributions
    ]
    created: set[int] = set()
    for start in range(0, len(rows), INSERT_CHUNK):
        chunk = rows[start : start + INSERT_CHUNK]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
        returned = await session.fetchall(
            f"INSERT INTO season_players ({SEASON_PLAYER_COLUMNS}) VALUES {marks} "
            "ON CONFLICT (season_id, user_id) DO NOTHING RETURNING user_id",
            [value for row in chunk for value in row],
        )
        created.update(row["user_id"] for row in returned)
    await session.executemany(
        f"""
        INSERT INTO season_players ({SEASON_PLAYER_COLUMNS})
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (season_id, user_id) DO UPDATE SET
            matches = season_players.matches + excluded.matches,
            wins = season_players.wins + excluded.wins,
            points = season_players.points + excluded.points,
            takeovers = season_players.takeovers + excluded.takeovers,
            tallies = season_players.tallies + excluded.tallies,
            doubles_made = season_players.doubles_made + excluded.doubles_made,
            doubles_received = season_players.doubles_received + excluded.doubles_received,
            doubling_won = season_players.doubling_won + excluded.doubling_won,
            doubling_lost = season_players.doubling_lost + excluded.doubling_lost
        """,
        [row for row, c in zip(rows, contributions, strict=True) if c.user_id not in created],
    )
    await session.executemany(
        """
        INSERT INTO season_player_contracts (season_id, user_id, contract, deals, base_points,
                                             points)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (season_id, user_id, contract) DO UPDATE SET
            deals = season_player_contracts.deals + excluded.deals,
            base_points = season_player_contracts.base_points + excluded.base_points,
            points = season_player_contracts.points + excluded.points
        """,
        [
            (season_id, c.user_id, line.contract, line.deals, line.base_points, line.points)
            for c in contributions
            for line in c.contracts
        ],
    )
    if created:
        await session.execute(
            "INSERT INTO season_sizes (season_id, players) VALUES (?, ?) "
            "ON CONFLICT (season_id) DO UPDATE SET "
            "players = season_sizes.players + excluded.players",
            (season_id, len(created)),
        )


async def rate(
    session: Session, season_id: int, ranks: dict[int, int], rater: Rater
) -> dict[int, Rating]:
    """Ask ``rater`` for new ratings of these users (by rank) and store them."""
    marks = ", ".join("?" * len(ranks))
    previous = {
        row["user_id"]: _rating(row)
        for row in await session.fetchall(
            f"SELECT user_id, rating_mu, rating_sigma FROM season_players "
            f"WHERE season_id = ? AND user_id IN ({marks})",
            (season_id, *ranks),
        )
    }
    players = [
        RatedPlayer(user_id=user_id, rank=rank, previous=previous.get(user_id))
        for user_id, rank in ranks.items()
    ]
    ratings = dict(rater(players))
    await session.executemany(
        "UPDATE season_players SET rating_mu = ?, rating_sigma = ? "
        "WHERE season_id = ? AND user_id = ?",
        [(r.mu, r.sigma, season_id, user_id) for user_id, r in ratings.items()],
    )
    # Kept a row a rating, so a player's page can draw the rating over the season.
    now = now_ms()
    await session.executemany(
        "INSERT INTO rating_history (season_id, user_id, rated_at, mu, sigma) "
        "VALUES (?, ?, ?, ?, ?)",
        [(season_id, user_id, now, r.mu, r.sigma) for user_id, r in ratings.items()],
    )
    return ratings


class StandingsStore:
    """Leaderboards and player statistics, read from the season aggregates."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(
        self,
        season_id: int,
        sort: LeaderboardSort = LeaderboardSort.POINTS,
        *,
        offset: int = 0,
        limit: int = 10,
        viewer: int | None = None,
    ) -> LeaderboardPage:
        """One page of the season's leaderboard, plus ``viewer``'s own row and rank.

        Rows are ordered by the sort value (highest first), then by user id so pages
        never overlap; equal values share a rank. Players without a rating sort last
        under the rating sort.
        """
        if offset < 0 or limit < 1:
            raise ValueError("offset must be >= 0 and limit >= 1")
        async with self._db.reading() as session:
            sort = LeaderboardSort(sort)
            key = SORT_KEYS[sort].format(real=session.dialect.real)
            season, players = await sized_season(session, season_id)
            if session.dialect.walk_indexes:
                await session.execute(session.dialect.walk_indexes)
            rows = await _page(session, season_id, key, offset, limit, players)
            standings: list[SeasonStanding] = []
            for position, row in enumerate(rows, start=offset + 1):
                if not standings:
                    rank = await _first_rank(session, season_id, sort, row, offset)
                elif row["sort_value"] == rows[len(standings) - 1]["sort_value"]:
                    rank = standings[-1].rank
                else:
                    rank = position
                standings.append(_standing(row, rank))
            own = next((s for s in standings if s.user_id == viewer), None)
            if viewer is not None and own is None:
                mine = await session.fetchone(
                    f"SELECT {STANDING_COLUMNS.format(key=key)} FROM season_players "
                    "WHERE season_id = ? AND user_id = ?",
                    (season_id, viewer),
                )
                if mine is not None:
                    value = mine["sort_value"]
                    # Below the page's last row, the viewer has the page and all before it above.
                    lower = bool(rows) and _lower(value, rows[-1]["sort_value"])
                    above = offset + len(rows) if lower else 0
                    rank = await _rank(session, season_id, key, value, players, above)
                    own = _standing(mine, rank)
        return LeaderboardPage(
            season=season,
            sort=sort,
            offset=offset,
            players=players,
            rows=tuple(standings),
            viewer=own,
        )

    async def player_stats(
        self, season_id: int, user_id: int, *, variants: bool = True
    ) -> PlayerStats | None:
        """The player's season statistics, or None if they finished no match in it;
        ``variants=False`` leaves the results per variant out (empty), for a reader who
        does not show them (the web's player page: the dearest of these reads)."""
        async with self._db.reading() as session:
            season = await get_season(session, season_id)
            row = await session.fetchone(
                """
                SELECT matches, wins, points, takeovers, tallies, doubles_made,
                       doubles_received, doubling_won, doubling_lost, rating_mu, rating_sigma
                FROM season_players WHERE season_id = ? AND user_id = ?
                """,
                (season_id, user_id),
            )
            if row is None:
                return None
            contracts = await session.fetchall(
                "SELECT contract, deals, base_points, points FROM season_player_contracts "
                "WHERE season_id = ? AND user_id = ? ORDER BY contract",
                (season_id, user_id),
            )
            by_variant = (
                await session.fetchall(
                    VARIANTS_QUERY.format(
                        match_variant=session.dialect.json_text("m.rules", "variant"),
                        tally_variant=session.dialect.json_text("t.rules", "variant"),
                    ),
                    (user_id, season_id, user_id, season_id),
                )
                if variants
                else []
            )
        return from_row(
            PlayerStats,
            row,
            season=season,
            user_id=user_id,
            rating=_rating(row),
            contracts=tuple(from_row(ContractStat, line) for line in contracts),
            variants=tuple(from_row(VariantStat, line) for line in by_variant),
        )

    async def rating_history(self, season_id: int, user_id: int) -> list[RatingPoint]:
        """The player's rating after each of their rated matches of the season, oldest
        first (kept since the web pages came; earlier matches have no point)."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT rated_at, mu, sigma FROM rating_history "
                "WHERE season_id = ? AND user_id = ? ORDER BY rating_id",
                (season_id, user_id),
            )
        return [
            RatingPoint(
                rated_at=to_datetime(row["rated_at"]),
                rating=Rating(mu=row["mu"], sigma=row["sigma"]),
            )
            for row in rows
        ]

    async def names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each of these players last played under (at a table, a scoresheet or
        the daily deals), for pages that show players outside Discord; a player never
        seen is left out. Each player's newest match and newest scoresheet are one step
        back from the end of his part of ``match_seats_by_user`` and
        ``tally_seats_by_user``, not a walk over every seat he ever had (a server page's
        ten players: an eighth of the time)."""
        if not user_ids:
            return {}
        wanted = ", ".join(["(CAST(? AS BIGINT))"] * len(user_ids))
        async with self._db.reading() as session:
            rows = await session.fetchall(
                f"""
                WITH wanted (user_id) AS (VALUES {wanted})
                SELECT w.user_id,
                  (SELECT s.name FROM match_seats s WHERE s.user_id = w.user_id
                   ORDER BY s.match_id DESC LIMIT 1) AS played,
                  (SELECT t.name FROM tally_seats t WHERE t.user_id = w.user_id
                   ORDER BY t.tally_id DESC LIMIT 1) AS kept
                FROM wanted w
                """,
                tuple(user_ids),
            )
        # The newest match's name over the newest scoresheet's.
        names = {
            row["user_id"]: row["kept"] if row["played"] is None else row["played"] for row in rows
        }
        return {user_id: name for user_id, name in names.items() if name is not None}


async def _page(
    session: Session, season_id: int, key: str, offset: int, limit: int, players: int
) -> list[Row]:
    """The rows at ``offset``, walking the index from whichever end is nearer: a page in
    the second half is read backwards from the last row, so no page walks more than half
    the season's players."""
    order = f"{key} {session.dialect.descending}, user_id"
    backwards = offset + limit > players - offset and offset < players
    if backwards:
        order = f"{key} {session.dialect.ascending}, user_id DESC"
        offset, limit = max(players - offset - limit, 0), min(limit, players - offset)
    rows = await session.fetchall(
        f"SELECT {STANDING_COLUMNS.format(key=key)} FROM season_players WHERE season_id = ? "
        f"ORDER BY {order} LIMIT ? OFFSET ?",
        (season_id, limit, offset),
    )
    return rows[::-1] if backwards else rows


async def _first_rank(
    session: Session, season_id: int, sort: LeaderboardSort, row: Row, offset: int
) -> int:
    """The rank of the page's first row, from the rows before it that share its value.

    The ``offset`` rows before it are those with a higher value and those with the same
    value and a lower user id; only the latter are counted (an index range over the tie),
    so a deep page costs no count of every player above it.
    """
    if offset == 0:  # nothing is before the first page's first row
        return 1
    key = SORT_KEYS[sort].format(real=session.dialect.real)
    user_id, value = row["user_id"], row["sort_value"]
    condition = f"{key} IS NULL" if value is None else f"{key} = ?"
    params = (season_id, user_id) if value is None else (season_id, value, user_id)
    # Named, because SQLite's planner would rather walk the primary key's user-id range
    # (up to the whole season) than the sort index's tie; it cannot tell which is narrower.
    hint = session.dialect.index_hint(SORT_INDEXES[sort])
    tied_before = await session.scalar(
        f"SELECT count(*) FROM season_players {hint} WHERE season_id = ? AND {condition} "
        "AND user_id < ?",
        params,
    )
    return offset + 1 - int(tied_before)


async def _rank(
    session: Session, season_id: int, key: str, value: object, players: int, above: int
) -> int:
    """1 + how many players have a strictly higher value (None is below every value),
    knowing that at least ``above`` do.

    Counted from the nearer end, so the count walks little more than half the season:
    the side expected smaller (``above`` says, or the viewer's value against the middle
    of the highest and lowest) is counted up to half the season; if it holds that many,
    the other side, then fewer than half, is counted instead. The guess only orders the
    two counts: the rank is exact either way.
    """
    params: tuple[object, ...] = () if value is None else (value,)
    higher = [(f"{key} IS NOT NULL" if value is None else f"{key} > ?", params)]
    not_higher: list[tuple[str, tuple[object, ...]]] = [(f"{key} IS NULL", ())]
    if value is not None:
        not_higher.append((f"{key} <= ?", params))
    half = players // 2 + 1
    upper = above < half and await _in_upper_half(session, season_id, key, value)
    first, second = (higher, not_higher) if upper else (not_higher, higher)
    counted = await _count(session, season_id, key, first, half)
    if counted >= half:
        first, counted = second, await _count(session, season_id, key, second, players)
    return 1 + (counted if first is higher else players - counted)


async def _in_upper_half(session: Session, season_id: int, key: str, value: object) -> bool:
    """Whether ``value`` is above the middle of the season's highest and lowest values
    (two index probes): a guess of which end of the board is nearer."""
    if value is None:
        return False
    order = f"ORDER BY {key} {session.dialect.descending}, user_id"
    top = await session.scalar(
        f"SELECT {key} FROM season_players WHERE season_id = ? {order} LIMIT 1", (season_id,)
    )
    bottom = await session.scalar(
        f"SELECT {key} FROM season_players WHERE season_id = ? AND {key} IS NOT NULL "
        f"ORDER BY {key} {session.dialect.ascending}, user_id DESC LIMIT 1",
        (season_id,),
    )
    return bool(value > (top + bottom) / 2)  # type: ignore[operator]


async def _count(
    session: Session,
    season_id: int,
    key: str,
    ranges: Sequence[tuple[str, tuple[object, ...]]],
    limit: int,
) -> int:
    """The rows in these ranges of the sort index, counting no further than ``limit``
    (each range a walk in index order that stops there)."""
    total = 0
    for condition, params in ranges:
        if total >= limit:
            break
        total += int(
            await session.scalar(
                f"SELECT count(*) FROM (SELECT 1 FROM season_players WHERE season_id = ? "
                f"AND {condition} ORDER BY {key} {session.dialect.descending}, user_id "
                "LIMIT ?) AS counted",
                (season_id, *params, limit - total),
            )
        )
    return total


def _lower(value: object, than: object) -> bool:
    """Whether ``value`` sorts strictly below ``than`` on the board (None below all)."""
    return than is not None and (value is None or value < than)  # type: ignore[operator]


def _standing(row: Row, rank: int) -> SeasonStanding:
    return from_row(SeasonStanding, row, rank=rank, rating=_rating(row))


def _rating(row: Row) -> Rating | None:
    """The row's rating; None for a player not rated (yet) this season."""
    mu = row["rating_mu"]
    return None if mu is None else Rating(mu=mu, sigma=row["rating_sigma"])
