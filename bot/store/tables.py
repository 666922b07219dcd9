"""Tables and guild settings: who sits where, the table's state, settings and messages.

The table service owns the rules (who may join, when a table starts); this module only
remembers, so a restart can rebuild every open table from :meth:`TableStore.open_tables`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .claims import claim_new_table
from .codec import (
    decode_occupant,
    encode_occupant,
    encode_rules,
    now_ms,
    rules_from_column,
    to_datetime,
)
from .database import Database, Session
from .errors import Conflict, ConstraintFailed, NotFound
from .models import (
    SEATS,
    GuildSettings,
    SeatOccupant,
    TablePlace,
    TableRecord,
    TableSettings,
    TableStatus,
    WebAccess,
)
from .rows import Row, from_row

# Every query below selects tables through this join, so a record always carries the
# match in play at the table. ``{where}`` is filled from constants in this module only.
TABLE_QUERY = """
    SELECT t.table_id, t.guild_id, t.channel_id, t.host_id, t.status, t.turn_seconds,
           t.computer_level, t.created_at, m.match_id, t.rules, t.images, t.language
    FROM tables t LEFT JOIN matches m ON m.table_id = t.table_id AND m.status = 'playing'
    WHERE {where} ORDER BY t.table_id
"""
SEATS_QUERY = """
    SELECT s.table_id, s.seat, s.user_id, s.computer_level, s.name
    FROM table_seats s JOIN tables t ON t.table_id = s.table_id WHERE {where}
"""
MESSAGES_QUERY = """
    SELECT g.table_id, g.role, g.message_id
    FROM table_messages g JOIN tables t ON t.table_id = g.table_id WHERE {where}
"""
BY_ID = "t.table_id = ?"
OPEN = "t.status IN ('lobby', 'playing')"
OPEN_IN_CHANNEL = "t.channel_id = ? AND t.status IN ('lobby', 'playing')"


class TableStore:
    """Create, change and load tables; every change is one committed transaction."""

    def __init__(self, db: Database, owner: int) -> None:
        self._db = db
        self._owner = owner

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._db.reading() as session:
            return await _guild_settings(session, guild_id)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        defaults = settings.table_defaults
        await self._db.write_one(
            """
            INSERT INTO guild_settings (guild_id, turn_seconds, computer_level, place, rules,
                                        images, language, rate_tallies, web)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (guild_id) DO UPDATE
            SET turn_seconds = excluded.turn_seconds, computer_level = excluded.computer_level,
                place = excluded.place, rules = excluded.rules, images = excluded.images,
                language = excluded.language, rate_tallies = excluded.rate_tallies,
                web = excluded.web
            """,
            (
                guild_id,
                defaults.turn_seconds,
                defaults.computer_level,
                settings.place,
                encode_rules(defaults.rules),
                int(defaults.images),
                settings.language,
                int(settings.rate_tallies),
                settings.web.value,
            ),
        )

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: TableSettings | None = None,
    ) -> TableRecord:
        """A new table in the lobby with four empty seats; ``settings`` default to the guild's.

        Raises :class:`Conflict` if the channel already has an open table.
        """
        async with self._db.writing() as session:
            if settings is None:
                settings = (await _guild_settings(session, guild_id)).table_defaults
            now = now_ms()
            try:
                row = await session.fetchone(
                    """
                    INSERT INTO tables (guild_id, channel_id, host_id, status, turn_seconds,
                                        computer_level, created_at, updated_at, rules, images,
                                        language)
                    VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING table_id
                    """,
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        settings.turn_seconds,
                        settings.computer_level,
                        now,
                        now,
                        encode_rules(settings.rules),
                        int(settings.images),
                        settings.language,
                    ),
                )
            except ConstraintFailed:
                raise Conflict(f"channel {channel_id} already has an open table") from None
            assert row is not None
            await claim_new_table(session, row["table_id"], self._owner)
            return await _one(session, row["table_id"])

    async def get_table(self, table_id: int) -> TableRecord:
        async with self._db.reading() as session:
            return await _one(session, table_id)

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The open (lobby or playing) table in this channel, if there is one."""
        async with self._db.reading() as session:
            tables = await _load(session, OPEN_IN_CHANNEL, (channel_id,))
        return tables[0] if tables else None

    async def open_tables(self) -> list[TableRecord]:
        """Every table in the lobby or playing: what to restore after a restart."""
        async with self._db.reading() as session:
            return await _load(session, OPEN, ())

    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus | None = None,
        host_id: int | None = None,
        settings: TableSettings | None = None,
        seats: Mapping[int, SeatOccupant | None] | None = None,
        names: Mapping[int, str] | None = None,
        messages: Mapping[str, int | None] | None = None,
    ) -> TableRecord:
        """Change what is given, all in one transaction, and return the table as stored.

        ``seats`` maps a seat to its new occupant (None empties it), with the name from
        ``names`` it goes by, if given; ``messages`` maps a
        role such as ``"lobby"`` or ``"deal"`` to a message id (None forgets it).
        """
        if seats is not None and not set(seats) <= set(SEATS):
            raise ValueError(f"seats are 0-3, not {sorted(seats)}")
        async with self._db.writing() as session:
            await _one(session, table_id)
            changes: dict[str, object] = {"updated_at": now_ms()}
            if status is not None:
                changes["status"] = TableStatus(status).value
            if host_id is not None:
                changes["host_id"] = host_id
            if settings is not None:
                changes["turn_seconds"] = settings.turn_seconds
                changes["computer_level"] = settings.computer_level
                changes["rules"] = encode_rules(settings.rules)
                changes["images"] = int(settings.images)
                changes["language"] = settings.language
            assignments = ", ".join(f"{column} = ?" for column in changes)
            try:
                await session.execute(
                    f"UPDATE tables SET {assignments} WHERE table_id = ?",
                    (*changes.values(), table_id),
                )
            except ConstraintFailed:
                raise Conflict("the channel already has another open table") from None
            for seat, occupant in (seats or {}).items():
                await _set_seat(session, table_id, seat, occupant, (names or {}).get(seat))
            for role, message_id in (messages or {}).items():
                await _set_message(session, table_id, role, message_id)
            if status in (TableStatus.FINISHED, TableStatus.CANCELLED):
                # a closed table is driven by no one
                await session.execute("DELETE FROM table_claims WHERE table_id = ?", (table_id,))
            return await _one(session, table_id)


async def _guild_settings(session: Session, guild_id: int) -> GuildSettings:
    row = await session.fetchone(
        "SELECT turn_seconds, computer_level, place, rules, images, language, rate_tallies, web "
        "FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )
    if row is None:
        return GuildSettings()
    # The row's language is the server's; its tables' defaults choose none of their own.
    defaults = _settings(row, language=None)
    return from_row(
        GuildSettings,
        row,
        table_defaults=defaults,
        place=TablePlace(row["place"] or TablePlace.THREAD),
        rate_tallies=row["rate_tallies"] != 0,  # NULL (before schema 16): rated
        web=WebAccess(row["web"] or WebAccess.LINK),  # NULL (before schema 17): by link
    )


async def _set_seat(
    session: Session, table_id: int, seat: int, occupant: SeatOccupant | None, name: str | None
) -> None:
    if occupant is None:
        await session.execute(
            "DELETE FROM table_seats WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
        return
    await session.execute(
        """
        INSERT INTO table_seats (table_id, seat, user_id, computer_level, name)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (table_id, seat) DO UPDATE
        SET user_id = excluded.user_id, computer_level = excluded.computer_level,
            name = excluded.name
        """,
        (table_id, seat, *encode_occupant(occupant), name),
    )


async def _set_message(session: Session, table_id: int, role: str, message_id: int | None) -> None:
    if message_id is None:
        await session.execute(
            "DELETE FROM table_messages WHERE table_id = ? AND role = ?", (table_id, role)
        )
        return
    await session.execute(
        """
        INSERT INTO table_messages (table_id, role, message_id) VALUES (?, ?, ?)
        ON CONFLICT (table_id, role) DO UPDATE SET message_id = excluded.message_id
        """,
        (table_id, role, message_id),
    )


async def _one(session: Session, table_id: int) -> TableRecord:
    tables = await _load(session, BY_ID, (table_id,))
    if not tables:
        raise NotFound(f"there is no table {table_id}")
    return tables[0]


async def _load(session: Session, where: str, params: tuple[object, ...]) -> list[TableRecord]:
    rows = await session.fetchall(TABLE_QUERY.format(where=where), params)
    if not rows:
        return []
    ids = [row["table_id"] for row in rows]
    seats: dict[int, list[SeatOccupant | None]] = {table_id: [None] * 4 for table_id in ids}
    names: dict[int, list[str | None]] = {table_id: [None] * 4 for table_id in ids}
    for seated in await session.fetchall(SEATS_QUERY.format(where=where), params):
        table_id, seat = seated["table_id"], seated["seat"]
        seats[table_id][seat] = decode_occupant(seated["user_id"], seated["computer_level"])
        names[table_id][seat] = seated["name"]
    messages: dict[int, dict[str, int]] = {table_id: {} for table_id in ids}
    for message in await session.fetchall(MESSAGES_QUERY.format(where=where), params):
        messages[message["table_id"]][message["role"]] = message["message_id"]
    return [
        _record(row, tuple(seats[table_id]), tuple(names[table_id]), messages[table_id])
        for row, table_id in zip(rows, ids, strict=True)
    ]


def _record(
    row: Row,
    seats: tuple[SeatOccupant | None, ...],
    names: tuple[str | None, ...],
    messages: dict[str, int],
) -> TableRecord:
    return from_row(
        TableRecord,
        row,
        status=TableStatus(row["status"]),
        seats=seats,
        names=names,
        settings=_settings(row),
        messages=messages,
        created_at=to_datetime(row["created_at"]),
    )


def _settings(row: Row, **decoded: object) -> TableSettings:
    """The settings in a table's row, or in a server's (its defaults for new tables)."""
    return from_row(
        TableSettings,
        row,
        rules=rules_from_column(row["rules"]),
        images=row["images"] != 0,  # NULL (before schema 9) is the default: pictures
        **decoded,
    )
