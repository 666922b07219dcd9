"""Which browser holds each person's seat at the live table (migration 18).

A seat's link opens the seat for the first browser that opens it; that browser is given
a claim (a random cookie) and every later opening of the link needs it. The claims are
kept here, not in the bot's memory, so a restart does not hand a link passed on to
whoever opens it first afterwards. Only each claim's SHA-256 is stored: the cookie
itself opens the seat.
"""

from __future__ import annotations

from .database import Database


class LiveSeatStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def claimed(self, table_id: int, user_id: int) -> str | None:
        """The digest of the claim on this person's seat, or None if nobody holds it."""
        async with self._db.reading() as session:
            digest = await session.scalar(
                "SELECT digest FROM live_seat_claims WHERE table_id = ? AND user_id = ?",
                (table_id, user_id),
            )
        return None if digest is None else str(digest)

    async def claim(self, table_id: int, user_id: int, digest: str) -> str:
        """Claim the seat with ``digest`` if nobody holds it; the digest that holds it
        now (of two browsers claiming at once, the first write wins for both)."""
        async with self._db.writing() as session:
            await session.execute(
                "INSERT INTO live_seat_claims (table_id, user_id, digest) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id, user_id) DO NOTHING",
                (table_id, user_id, digest),
            )
            held = await session.scalar(
                "SELECT digest FROM live_seat_claims WHERE table_id = ? AND user_id = ?",
                (table_id, user_id),
            )
        return str(held)

    async def release(self, table_id: int, user_id: int) -> None:
        """Free the seat: the next browser to open the person's link claims it."""
        await self._db.write_one(
            "DELETE FROM live_seat_claims WHERE table_id = ? AND user_id = ?",
            (table_id, user_id),
        )

    async def forget(self, table_id: int) -> None:
        """The table closed: its claims go with it."""
        await self._db.write_one("DELETE FROM live_seat_claims WHERE table_id = ?", (table_id,))
