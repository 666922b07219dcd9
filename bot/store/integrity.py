"""Consistency checks over the whole file: what a crash or a bug could have left behind.

The database's own checks find damaged pages and dangling references; the others check the
store's promises: actions and deals numbered without gaps, results only for finished
matches (four of them), and season rows equal to the sum of the results they summarise.
"""

from __future__ import annotations

from .database import Session

CHECKS = {
    "matches whose actions have a gap": """
        SELECT match_id AS found FROM actions GROUP BY match_id HAVING max(seq) + 1 <> count(*)
    """,
    "matches whose deals have a gap": """
        SELECT match_id AS found FROM deals
        GROUP BY match_id HAVING max(deal_index) + 1 <> count(*)
    """,
    "matches whose results do not fit their status": """
        SELECT m.match_id AS found
        FROM matches m LEFT JOIN match_results r ON r.match_id = m.match_id
        GROUP BY m.match_id
        HAVING CASE WHEN m.status = 'finished'
                    THEN count(r.seat) <> 4 OR m.season_id IS NULL
                    ELSE count(r.seat) <> 0 OR m.season_id IS NOT NULL END
    """,
    "season rows that differ from the results they sum": """
        WITH computed AS (
            SELECT m.season_id, s.user_id, count(*) AS matches,
                   sum(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END) AS wins,
                   sum(r.points) AS points, sum(r.takeovers) AS takeovers
            FROM match_results r
            JOIN matches m ON m.match_id = r.match_id
            JOIN match_seats s ON s.match_id = r.match_id AND s.seat = r.seat
            WHERE s.user_id IS NOT NULL
            GROUP BY m.season_id, s.user_id
        ),
        stored AS (
            SELECT season_id, user_id, matches, wins, points, takeovers FROM season_players
        )
        SELECT user_id AS found FROM (SELECT * FROM computed EXCEPT SELECT * FROM stored) AS missing
        UNION ALL
        SELECT user_id FROM (SELECT * FROM stored EXCEPT SELECT * FROM computed) AS extra
    """,
}
"""What each check looks for, and its query: the ids of what it finds, as ``found``."""


async def problems(session: Session) -> list[str]:
    """Every problem found, one line each; an empty list means the database is sound."""
    found = await session.engine_problems()
    for what, sql in CHECKS.items():
        ids = [row["found"] for row in await session.fetchall(sql)]
        if ids:
            found.append(f"{what}: {', '.join(map(str, ids[:20]))}")
    return found
