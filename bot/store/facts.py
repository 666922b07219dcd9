"""Small facts the bot keeps about itself, by key (migration 4's ``bot_facts``).

The one so far is the hash of the slash commands last synced with Discord, so a restart
with the same commands does not sync again (Discord limits command creations a day).
"""

from __future__ import annotations

from .codec import now_ms
from .database import Database


class FactStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        async with self._db.reading() as session:
            value = await session.scalar("SELECT value FROM bot_facts WHERE key = ?", (key,))
        return None if value is None else str(value)

    async def put(self, key: str, value: str) -> None:
        """Set the fact (committed when this returns)."""
        await self._db.write_one(
            "INSERT INTO bot_facts (key, value, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            "updated_at = excluded.updated_at",
            (key, value, now_ms()),
        )
