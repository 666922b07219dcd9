"""The store as one object: open the database (a SQLite file or PostgreSQL), use its parts,
close it."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from . import integrity
from .claims import ClaimStore, new_owner
from .daily import DailyStore
from .database import Database
from .delivery import DeliveryStore
from .facts import FactStore
from .live_seats import LiveSeatStore
from .matches import MatchStore
from .postgres import PostgresDatabase
from .reviews import ReviewStore
from .seasons import SeasonStore
from .sqlite import SqliteDatabase
from .standings import StandingsStore
from .tables import TableStore
from .tallies import TallyStore
from .url import is_postgres_url


class Store:
    """The bot's memory. Get one with :func:`open_store`; close it when the bot stops.

    - ``tables``: guild settings and tables (seats, status, settings, message ids);
    - ``matches``: create, append deals and actions, rebuild records, finish, cancel;
    - ``seasons``: start, end, find seasons;
    - ``standings``: leaderboards and player statistics;
    - ``facts``: small facts the bot keeps about itself (the commands last synced).
    - ``delivery``: what a table's channel was last shown, and its open hand messages.
    - ``daily``: the daily deals: each server's days, the attempts and their moves.
    - ``claims``: which open tables this process drives (:mod:`bot.store.claims`).
    - ``tallies``: matches played with real cards, kept by their entered scores.
    - ``reviews``: players' reviews of finished matches, as computed (:mod:`.reviews`).
    - ``live_seats``: which browser holds each seat at the live table (:mod:`.live_seats`).
    """

    def __init__(self, db: Database, owner: int | None = None) -> None:
        self.db = db
        """The connection itself, for the store's own modules (such as ``bulk``) only."""
        self.claims = ClaimStore(db, new_owner() if owner is None else owner, db)
        self.tables = TableStore(db, self.claims.owner)
        self.matches = MatchStore(db, self.claims.owner)
        self.seasons = SeasonStore(db)
        self.standings = StandingsStore(db)
        self.facts = FactStore(db)
        self.delivery = DeliveryStore(db)
        self.tallies = TallyStore(db)
        self.daily = DailyStore(db, self.facts)
        self.reviews = ReviewStore(db)
        self.live_seats = LiveSeatStore(db)

    async def integrity_problems(self) -> list[str]:
        """Check the whole database (SQLite: every page); an empty list means it is sound."""
        async with self.db.reading() as session:
            return await integrity.problems(session)

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


async def open_store(target: Path | str, *, read_only: bool = False) -> Store:
    """Open (creating or upgrading) the database ``target``: a ``postgresql://`` URL, or
    the path of a SQLite file, which this bot process then holds alone.

    Raises :class:`~bot.store.errors.DatabaseRefused`, with the database untouched, if it
    is corrupt, unreachable, not a Bonken database, newer than this bot, a file in use by
    another bot process, or not writable. ``read_only`` opens it for inspecting only (the
    operator's tools): no lock, no upgrade, every write refused, and a missing, empty or
    old database refused.
    """
    db: Database
    if is_postgres_url(target):
        db = await PostgresDatabase.open(str(target).strip(), read_only=read_only)
    elif read_only:
        db = await SqliteDatabase.open_read_only(Path(target))
    else:
        db = await SqliteDatabase.open(Path(target))
    store = Store(db)
    if not read_only:
        await db.hold_owner(store.claims.owner)
    return store
