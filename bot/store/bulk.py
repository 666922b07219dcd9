"""Bulk-loading finished matches for large fixtures (``bench/store.py``), not for play.

The real path, :meth:`MatchStore.finish_match`, replays each record; a benchmark needing
100,000 finished matches cannot afford that. This writes the same ``matches``,
``match_seats``, ``match_results`` and season rows (through the same aggregate upsert),
leaving out what only a record could give: deals, actions, per-contract and doubling
figures.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .codec import encode_occupant, now_ms
from .database import Database
from .models import Human, SeatResult
from .results import Contribution
from .standings import add_contributions


async def add_finished_matches(
    db: Database, table_id: int, season_id: int, matches: Sequence[Sequence[SeatResult]]
) -> None:
    """Store each match (its four seat results) as finished in ``season_id``, in one go
    (one transaction; the rows by the database's fastest insert, COPY on PostgreSQL)."""
    now = now_ms()
    totals: dict[int, list[int]] = {}
    async with db.writing() as session:
        first = await session.scalar("SELECT coalesce(max(match_id), 0) + 1 FROM matches")
        ids = range(first, first + len(matches))
        await session.copy_rows(
            "matches",
            ("match_id", "table_id", "first_dealer", "status", "started_at", "ended_at",
             "season_id"),
            [(match_id, table_id, 0, "finished", now, now, season_id) for match_id in ids],
        )  # fmt: skip
        await session.ids_taken("matches", "match_id")
        await session.copy_rows(
            "match_seats",
            ("match_id", "seat", "name", "user_id", "computer_level"),
            [
                (match_id, r.seat, r.name, *encode_occupant(r.occupant))
                for match_id, results in zip(ids, matches, strict=True)
                for r in results
            ],
        )
        await session.copy_rows(
            "match_results",
            ("match_id", "seat", "points", "rank", "deal_points", "takeovers"),
            [
                (match_id, r.seat, r.points, r.rank, json.dumps(r.deal_points), r.takeovers)
                for match_id, results in zip(ids, matches, strict=True)
                for r in results
            ],
        )
        for results in matches:
            for r in results:
                if isinstance(r.occupant, Human):
                    row = totals.setdefault(r.occupant.user_id, [0, 0, 0, 0])
                    row[0] += 1
                    row[1] += r.rank == 1
                    row[2] += r.points
                    row[3] += r.takeovers
        await add_contributions(
            session,
            season_id,
            [
                Contribution(
                    user_id=user_id,
                    matches=played,
                    wins=wins,
                    points=points,
                    takeovers=takeovers,
                    doubles_made=0,
                    doubles_received=0,
                    doubling_won=0,
                    doubling_lost=0,
                    contracts=(),
                )
                for user_id, (played, wins, points, takeovers) in totals.items()
            ],
        )
