"""Table claims: which bot process drives which open table, so two never drive one.

Several bot processes share one PostgreSQL database, each running some of Discord's
shards. A table belongs to the process whose shard holds its guild, but ownership by
shard alone is not a guarantee (two processes started with overlapping ``--shards``, a
change of ``--shard-count`` while the old processes still run). So a process claims a
table in the database before it drives it, and every write that drives a match (a
deal, an action, the results) is *fenced*: it is stored only if the table's claim is
still this process's, in the same statement or transaction. A process whose claim was
taken stops at its next write (:class:`ClaimLost`) instead of writing beside the new
owner. The action log says who stored each action (``actions.driver``), so that can be
checked after the fact.

Who may take a claim over. A claim carries its owner's id, a random number drawn when
the store opens. A claim may be taken from an owner that is no longer alive, and only
then; whether it is alive is the backend's to say (:class:`Liveness`): on PostgreSQL
each process holds an advisory lock on its own id for as long as its connection lives,
so a process killed with ``kill -9`` is seen as dead the moment its connection drops,
and the process that restarts its shards takes its tables over at once. On SQLite one
process holds the file (:mod:`bot.store.lock`), so any other owner is a process that
has ended, and opening the file adopts every claim.
"""

from __future__ import annotations

import secrets
from typing import Protocol

from .codec import now_ms
from .database import Database, Session
from .errors import Conflict

OWNER_IDS = range(2**48, 2**62)
"""Owner ids: random, far from any small number another advisory lock might use."""


class ClaimLost(Conflict):
    """This process no longer holds the table's claim: another process drives it now."""


class Liveness(Protocol):
    """The backend's answer to "is the process with this owner id still running?"."""

    async def alive(self, session: Session, owner: int) -> bool: ...


def new_owner() -> int:
    return OWNER_IDS.start + secrets.randbelow(len(OWNER_IDS))


# A compare-and-set: the claim is written only if the table has none yet, or still has
# the owner that was found dead (or is already ours), so two processes taking over the
# same dead owner's table at once cannot both win.
CLAIM = """
    INSERT INTO table_claims (table_id, owner, claimed_at) VALUES (?, ?, ?)
    ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at
    WHERE table_claims.owner = ?
    RETURNING owner
"""


class ClaimStore:
    """This process's claims on tables; ``owner`` is its id in ``table_claims``."""

    def __init__(self, db: Database, owner: int, liveness: Liveness) -> None:
        self._db = db
        self.owner = owner
        self._liveness = liveness

    async def claim(self, table_id: int) -> bool:
        """Take the table for this process: True if it is ours now, False if a live
        process holds it (leave it alone; that process drives it)."""
        async with self._db.writing() as session:
            holder = await session.scalar(
                "SELECT owner FROM table_claims WHERE table_id = ?", (table_id,)
            )
            if holder == self.owner:
                return True
            if holder is not None and await self._liveness.alive(session, holder):
                return False
            row = await session.fetchone(
                CLAIM, (table_id, self.owner, now_ms(), self.owner if holder is None else holder)
            )
            return row is not None

    async def holder(self, table_id: int) -> int | None:
        """The owner id holding the table's claim, if any (for tests and the operator)."""
        async with self._db.reading() as session:
            owner = await session.scalar(
                "SELECT owner FROM table_claims WHERE table_id = ?", (table_id,)
            )
        return None if owner is None else int(owner)

    async def release_all(self) -> None:
        """Give every claim of this process up (it is stopping), so the process that
        takes over its shards need not wait to find it gone."""
        await self._db.write_one("DELETE FROM table_claims WHERE owner = ?", (self.owner,))


async def claim_new_table(session: Session, table_id: int, owner: int) -> None:
    """The claim on a table just created, in the transaction that creates it."""
    await session.execute(
        "INSERT INTO table_claims (table_id, owner, claimed_at) VALUES (?, ?, ?)",
        (table_id, owner, now_ms()),
    )


async def require_claim(session: Session, table_id: int, owner: int) -> None:
    """Refuse (:class:`ClaimLost`) a write to a table this process does not hold, inside
    the writing transaction (the fence of a write of several statements)."""
    held = await session.scalar(
        "SELECT 1 FROM table_claims WHERE table_id = ? AND owner = ?", (table_id, owner)
    )
    if held is None:
        raise ClaimLost(f"table {table_id} is driven by another process now")
