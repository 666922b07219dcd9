"""Small facts the bot keeps about itself, by key (migration 4's ``bot_facts``).

The hash of the slash commands last synced with Discord, so a restart with the same
commands does not sync again (Discord limits command creations a day); and the secret the
daily deals are dealt under (:mod:`bot.store.daily`), made once and kept.
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

    async def setdefault(self, key: str, value: str) -> str:
        """The fact's value, setting it to ``value`` first if it has none (committed when
        this returns). Of processes setting one at once, the first write wins for all."""
        async with self._db.writing() as session:
            await session.execute(
                "INSERT INTO bot_facts (key, value, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO NOTHING",
                (key, value, now_ms()),
            )
            stored = await session.scalar("SELECT value FROM bot_facts WHERE key = ?", (key,))
        return str(stored)
