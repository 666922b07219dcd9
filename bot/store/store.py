"""The store as one object: open the file, use its parts, close it."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from . import integrity
from .claims import ClaimStore, new_owner
from .database import Database, Session
from .delivery import DeliveryStore
from .facts import FactStore
from .matches import MatchStore
from .seasons import SeasonStore
from .standings import StandingsStore
from .tables import TableStore


class Store:
    """The bot's memory. Get one with :func:`open_store`; close it when the bot stops.

    - ``tables``: guild settings and tables (seats, status, settings, message ids);
    - ``matches``: create, append deals and actions, rebuild records, finish, cancel;
    - ``seasons``: start, end, find seasons;
    - ``standings``: leaderboards and player statistics;
    - ``facts``: small facts the bot keeps about itself (the commands last synced).
    - ``delivery``: what a table's channel was last shown, and its open hand messages.
    - ``claims``: which open tables this process drives (:mod:`bot.store.claims`).
    """

    def __init__(self, db: Database, owner: int | None = None) -> None:
        self.db = db
        """The connection itself, for the store's own modules (such as ``bulk``) only."""
        self.claims = ClaimStore(db, new_owner() if owner is None else owner, OnlyProcess())
        self.tables = TableStore(db, self.claims.owner)
        self.matches = MatchStore(db, self.claims.owner)
        self.seasons = SeasonStore(db)
        self.standings = StandingsStore(db)
        self.facts = FactStore(db)
        self.delivery = DeliveryStore(db)

    async def integrity_problems(self) -> list[str]:
        """Check the whole file (it reads every page); an empty list means it is sound."""
        async with self.db.reading() as session:
            return await integrity.problems(session)

    async def close(self) -> None:
        await self.db.close()

    async def adopt_claims(self) -> None:
        """Make every claim this process's: only for a store no other process can use
        (a SQLite file, which its process lock keeps to one bot)."""
        await self.db.write_one("UPDATE table_claims SET owner = ?", (self.claims.owner,))

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


async def open_store(path: Path | str, *, read_only: bool = False) -> Store:
    """Open (creating or upgrading) the database at ``path`` for this bot process alone.

    Raises :class:`~bot.store.errors.DatabaseRefused`, with the file untouched, if it is
    corrupt, not a Bonken database, newer than this bot, in use by another bot process,
    or not writable. ``read_only`` opens it for inspecting only (the operator's tools):
    no lock, no upgrade, every write refused, and a missing, empty or old file refused.
    """
    path = Path(path)
    if read_only:
        return Store(await Database.open_read_only(path))
    store = Store(await Database.open(path))
    await store.adopt_claims()
    return store


class OnlyProcess:
    """SQLite's liveness: the file's process lock admits one bot, this one, so the owner
    of any other claim is a process that has ended."""

    async def alive(self, session: Session, owner: int) -> bool:
        return False
