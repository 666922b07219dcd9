"""Seasons per guild: one active at a time, ended ones archived, looked up by name.

Finished matches count in the guild's active season; a guild that has none when a match
finishes gets a default one ("Season 1", "Season 2", ...), so no result is ever lost for
want of a season.
"""

from __future__ import annotations

from .codec import now_ms, optional_datetime, to_datetime
from .database import Database, Session
from .errors import Conflict, ConstraintFailed, NotFound
from .models import Season
from .rows import Row, from_row

SEASON_COLUMNS = "season_id, guild_id, name, started_at, ended_at"


class SeasonStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def start_season(self, guild_id: int, name: str) -> Season:
        """Start a season named ``name``; the active one, if any, ends at the same moment.

        Raises :class:`Conflict` if the guild already has a season with that name.
        """
        name = name.strip()
        if not name:
            raise ValueError("a season needs a name")
        async with self._db.writing() as session:
            now = now_ms()
            await _end_active(session, guild_id, now)
            try:
                return await _insert(session, guild_id, name, now)
            except ConstraintFailed:
                raise Conflict(f"there is already a season named {name!r}") from None

    async def end_season(self, guild_id: int) -> Season:
        """End (archive) the guild's active season and return it."""
        async with self._db.writing() as session:
            row = await _end_active(session, guild_id, now_ms())
            if row is None:
                raise NotFound("there is no active season to end")
            return _season(row)

    async def active_season(self, guild_id: int) -> Season | None:
        async with self._db.reading() as session:
            row = await session.fetchone(
                f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
                (guild_id,),
            )
        return None if row is None else _season(row)

    async def season_named(self, guild_id: int, name: str) -> Season | None:
        async with self._db.reading() as session:
            row = await session.fetchone(
                f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND name = ?",
                (guild_id, name.strip()),
            )
        return None if row is None else _season(row)

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the guild, the newest first."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? "
                "ORDER BY started_at DESC, season_id DESC",
                (guild_id,),
            )
        return [_season(row) for row in rows]


async def get_season(session: Session, season_id: int) -> Season:
    row = await session.fetchone(
        f"SELECT {SEASON_COLUMNS} FROM seasons WHERE season_id = ?", (season_id,)
    )
    if row is None:
        raise NotFound(f"there is no season {season_id}")
    return _season(row)


async def sized_season(session: Session, season_id: int) -> tuple[Season, int]:
    """:func:`get_season` and how many players the season has (its stored count: no
    walk of its rows), in one read: a leaderboard's page wants both, and the web's
    server page is drawn for each reader."""
    columns = ", ".join(f"s.{column}" for column in SEASON_COLUMNS.split(", "))
    row = await session.fetchone(
        f"SELECT {columns}, z.players FROM seasons s "
        "LEFT JOIN season_sizes z ON z.season_id = s.season_id WHERE s.season_id = ?",
        (season_id,),
    )
    if row is None:
        raise NotFound(f"there is no season {season_id}")
    return _season(row), int(row["players"] or 0)


async def active_season_id(session: Session, guild_id: int) -> int:
    """The active season's id, starting a default one if the guild has none."""
    active = await session.scalar(
        "SELECT season_id FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    )
    if active is not None:
        return int(active)
    names = {
        row["name"]
        for row in await session.fetchall(
            "SELECT name FROM seasons WHERE guild_id = ?", (guild_id,)
        )
    }
    number = len(names) + 1
    while f"Season {number}" in names:
        number += 1
    return (await _insert(session, guild_id, f"Season {number}", now_ms())).season_id


async def _end_active(session: Session, guild_id: int, now: int) -> Row | None:
    return await session.fetchone(
        f"UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND ended_at IS NULL "
        f"RETURNING {SEASON_COLUMNS}",
        (now, guild_id),
    )


async def _insert(session: Session, guild_id: int, name: str, now: int) -> Season:
    row = await session.fetchone(
        f"INSERT INTO seasons (guild_id, name, started_at) VALUES (?, ?, ?) "
        f"RETURNING {SEASON_COLUMNS}",
        (guild_id, name, now),
    )
    assert row is not None
    return _season(row)


def _season(row: Row) -> Season:
    return from_row(
        Season,
        row,
        started_at=to_datetime(row["started_at"]),
        ended_at=optional_datetime(row["ended_at"]),
    )
