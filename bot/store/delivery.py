"""What the Discord front end delivered: the channel's last line, the open hand messages.

A restart must neither lose nor repeat what a table's channel is told, and must keep the
private hand messages working. Both live here, per table:

- the last line posted in the channel, as ``(deal, step)``: the numbers the presenter
  gives its lines, which compare in the order they are posted (how many a deal has is
  the presenter's business; the store refuses only a negative one);
- each player's newest hand message as its interaction webhook (application id and
  token). A token is a credential for 15 minutes: it is stored with its expiry, never
  returned once expired, and deleted when it expires or its table closes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from .codec import now_ms
from .database import Database
from .rows import from_row


def _without_tokens(record: logging.LogRecord) -> bool:
    """aiosqlite logs every statement with its parameters at DEBUG: not those with tokens."""
    return "hand_links" not in record.getMessage()


logging.getLogger("aiosqlite").addFilter(_without_tokens)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandLink:
    """How to edit one player's open hand message: its interaction's webhook."""

    table_id: int
    user_id: int
    application_id: int
    token: str = field(repr=False)  # a credential: kept out of logs and reprs
    expires_at: float
    """Seconds since the epoch after which the token must not be used."""


class DeliveryStore:
    """Remember the channel's last line and the hand links; each change is one commit."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def last_posted(self, table_id: int) -> tuple[int, int] | None:
        """The (deal, step) last posted at this table; None if nothing was recorded."""
        async with self._db.reading() as session:
            row = await session.fetchone(
                "SELECT deal, step FROM channel_posted WHERE table_id = ?", (table_id,)
            )
        return None if row is None else (row["deal"], row["step"])

    async def set_posted(self, table_id: int, deal: int, step: int) -> None:
        await self._db.write_one(
            """
            INSERT INTO channel_posted (table_id, deal, step) VALUES (?, ?, ?)
            ON CONFLICT (table_id) DO UPDATE SET deal = excluded.deal, step = excluded.step
            """,
            (table_id, deal, step),
        )

    async def keep_hand(self, link: HandLink) -> None:
        """The player's newest hand message (an older one of theirs is forgotten); any
        expired token, of any table, is deleted on the way."""
        async with self._db.writing() as session:
            await session.execute("DELETE FROM hand_links WHERE expires_at <= ?", (now_ms(),))
            await session.execute(
                """
                INSERT INTO hand_links (table_id, user_id, application_id, token, expires_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (table_id, user_id) DO UPDATE
                SET application_id = excluded.application_id, token = excluded.token,
                    expires_at = excluded.expires_at
                """,
                (
                    link.table_id,
                    link.user_id,
                    link.application_id,
                    link.token,
                    int(link.expires_at * 1000),
                ),
            )

    async def hand_links(self, table_id: int) -> list[HandLink]:
        """The table's hand links still valid; expired ones are deleted, never returned."""
        async with self._db.writing() as session:
            await session.execute("DELETE FROM hand_links WHERE expires_at <= ?", (now_ms(),))
            rows = await session.fetchall(
                """
                SELECT table_id, user_id, application_id, token, expires_at
                FROM hand_links WHERE table_id = ? ORDER BY user_id
                """,
                (table_id,),
            )
        return [from_row(HandLink, row, expires_at=row["expires_at"] / 1000) for row in rows]

    async def forget_hand(self, table_id: int, user_id: int | None = None) -> None:
        """Forget one player's hand link, or (``user_id`` None) all of the table's."""
        if user_id is None:
            await self._db.write_one("DELETE FROM hand_links WHERE table_id = ?", (table_id,))
        else:
            await self._db.write_one(
                "DELETE FROM hand_links WHERE table_id = ? AND user_id = ?", (table_id, user_id)
            )
