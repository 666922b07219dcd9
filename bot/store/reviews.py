"""Players' reviews of finished matches: requested, computed a deal at a time, stored.

A review takes minutes of search, so it is computed once and kept (migration 14). Its
row says where it is (queued, running, done); each deal's review is stored as it
finishes, so a review cut short by a restart resumes after its last stored deal; the
finished review is stored whole and shown from here ever after. The reviews are JSON
the store keeps as text and does not read: :mod:`bot.review.result` writes and reads it.
"""

from __future__ import annotations

import json
from typing import Any

from .codec import now_ms, to_datetime
from .database import Database, Session
from .models import ReviewState, ReviewStatus
from .rows import Row

STATE_QUERY = """
    SELECT r.match_id, r.seat, r.guild_id, r.status, r.settings, r.requested_at, r.review,
           (SELECT count(*) FROM review_deals d
            WHERE d.match_id = r.match_id AND d.seat = r.seat) AS deals_done
    FROM reviews r
"""


class ReviewStore:
    """The reviews (see the module); each call is one transaction."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def request(
        self, match_id: int, seat: int, guild_id: int, settings: dict[str, Any]
    ) -> tuple[ReviewState, bool]:
        """The review of ``seat`` in ``match_id``, queued now if it was never asked for;
        True with it if this call queued it."""
        async with self._db.writing() as session:
            found = await _state(session, match_id, seat)
            if found is not None:
                return found, False
            now = now_ms()
            await session.execute(
                "INSERT INTO reviews (match_id, seat, guild_id, status, settings, requested_at, "
                "updated_at) VALUES (?, ?, ?, 'queued', ?, ?, ?)",
                (match_id, seat, guild_id, json.dumps(settings), now, now),
            )
            queued = await _state(session, match_id, seat)
        assert queued is not None
        return queued, True

    async def get(self, match_id: int, seat: int) -> ReviewState | None:
        async with self._db.reading() as session:
            return await _state(session, match_id, seat)

    async def done(self, match_id: int) -> list[ReviewState]:
        """The match's finished reviews, by seat (one read: a match page shows them
        all)."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                STATE_QUERY + " WHERE r.match_id = ? AND r.status = 'done' ORDER BY r.seat",
                (match_id,),
            )
        return [_decoded(row) for row in rows]

    async def unfinished(self) -> list[ReviewState]:
        """Every review queued or running, in the order they were asked for: what a
        restart carries on with."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                STATE_QUERY
                + " WHERE r.status <> 'done' ORDER BY r.requested_at, r.match_id, r.seat"
            )
        return [_decoded(row) for row in rows]

    async def mark_running(self, match_id: int, seat: int) -> None:
        await self._set_status(match_id, seat, ReviewStatus.RUNNING)

    async def mark_queued(self, match_id: int, seat: int) -> None:
        """Back in the queue (a review that stopped with the bot)."""
        await self._set_status(match_id, seat, ReviewStatus.QUEUED)

    async def _set_status(self, match_id: int, seat: int, status: ReviewStatus) -> None:
        await self._db.write_one(
            "UPDATE reviews SET status = ?, updated_at = ? "
            "WHERE match_id = ? AND seat = ? AND status <> 'done'",
            (status.value, now_ms(), match_id, seat),
        )

    async def add_deal(self, match_id: int, seat: int, deal: int, review: dict[str, Any]) -> None:
        """Keep one deal's review (a deal stored already keeps the first one: a review's
        deal is the same however often it is computed)."""
        await self._db.write_one(
            "INSERT INTO review_deals (match_id, seat, deal_index, review) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (match_id, seat, deal_index) DO NOTHING",
            (match_id, seat, deal, json.dumps(review)),
        )

    async def deals(self, match_id: int, seat: int) -> list[dict[str, Any]]:
        """The deals' reviews stored so far, in deal order."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT review FROM review_deals WHERE match_id = ? AND seat = ? "
                "ORDER BY deal_index",
                (match_id, seat),
            )
        return [json.loads(row["review"]) for row in rows]

    async def finish(self, match_id: int, seat: int, review: dict[str, Any]) -> None:
        """Store the whole review: done, shown from here from now on."""
        await self._db.write_one(
            "UPDATE reviews SET status = 'done', review = ?, updated_at = ? "
            "WHERE match_id = ? AND seat = ?",
            (json.dumps(review), now_ms(), match_id, seat),
        )


async def _state(session: Session, match_id: int, seat: int) -> ReviewState | None:
    row = await session.fetchone(
        STATE_QUERY + " WHERE r.match_id = ? AND r.seat = ?", (match_id, seat)
    )
    return None if row is None else _decoded(row)


def _decoded(row: Row) -> ReviewState:
    review = row["review"]
    return ReviewState(
        match_id=row["match_id"],
        seat=row["seat"],
        guild_id=row["guild_id"],
        status=ReviewStatus(row["status"]),
        settings=json.loads(row["settings"]),
        requested_at=to_datetime(row["requested_at"]),
        review=None if review is None else json.loads(review),
        deals_done=int(row["deals_done"]),
    )
