"""Tallies as append-only logs: the players, the rules and one row per entry.

A tally is a match played with real cards, kept by its scores (:mod:`bot.engine.tally`).
Each entry (a contract, a doubling, a result, an undo, a correction, the cancelling) is
stored by itself in one committed transaction before the call returns, with who made it,
so what the bot has shown the table is always on disk and a restart loses nothing. The
tally is rebuilt by replaying its entries through the engine; the entry that completes
the last deal finishes the tally in the same transaction: its results, and its players'
season standings and ratings, as a finished match's (:mod:`bot.store.results`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.engine import Rules, Tally, TallyError, tally_to_record
from bot.engine.tally import Entry
from bot.engine.tally_record import entry_code, parse_entry

from .codec import encode_rules, now_ms, optional_datetime, rules_from_column, to_datetime
from .database import Database, Session
from .errors import AlreadyStored, Conflict, ConstraintFailed, NotFound
from .matches import played, seat_names
from .models import (
    SEATS,
    Human,
    PlayedMatch,
    Rater,
    TallyEntry,
    TallyInfo,
    TallyResult,
    TallySeat,
    TallyStatus,
)
from .results import contributions, seat_results
from .rows import from_row
from .seasons import active_season_id
from .standings import add_contributions, rate

TALLY_QUERY = """
    SELECT t.tally_id, t.guild_id, t.channel_id, t.host_id, t.status, t.first_dealer,
           t.rules, t.language, t.images, t.started_at, t.ended_at, t.season_id,
           coalesce((SELECT max(seq) + 1 FROM tally_entries e WHERE e.tally_id = t.tally_id), 0)
               AS entries
    FROM tallies t WHERE t.tally_id = ?
"""
CANCEL = "cancel"
"""The stored kind of the entry that cancels a tally (the engine's entries aside)."""
MAX_NAME = 100
"""A seat's name is at most this long (a Discord display name is at most 32)."""


class TallyStore:
    """Tallies: create one, append its entries (the last one finishes it), cancel it."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create_tally(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seats: Sequence[TallySeat],
        *,
        rules: Rules,
        first_dealer: int = 0,
        language: str | None = None,
        images: bool = True,
    ) -> TallyInfo:
        """A new open tally with these four seats (seat 0 first), played by ``rules``.

        Raises ``ValueError`` for anything but four named seats 0-3 and :class:`Conflict`
        for a member in two seats."""
        if sorted(seat.seat for seat in seats) != list(SEATS):
            raise ValueError("a tally has four seats, 0-3")
        if not all(0 < len(seat.name.strip()) <= MAX_NAME for seat in seats):
            raise ValueError(f"each seat needs a name of 1-{MAX_NAME} characters")
        if first_dealer not in SEATS:
            raise ValueError(f"first_dealer must be a seat 0-3, not {first_dealer!r}")
        async with self._db.writing() as session:
            tally_id = await session.scalar(
                """
                INSERT INTO tallies (guild_id, channel_id, host_id, first_dealer, rules,
                                     language, images, started_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING tally_id
                """,
                (
                    guild_id,
                    channel_id,
                    host_id,
                    first_dealer,
                    encode_rules(rules),
                    language,
                    int(images),
                    now_ms(),
                ),
            )
            try:
                await session.executemany(
                    "INSERT INTO tally_seats (tally_id, seat, name, user_id) VALUES (?, ?, ?, ?)",
                    [(tally_id, s.seat, s.name.strip(), s.user_id) for s in seats],
                )
            except ConstraintFailed:
                raise Conflict("a player cannot sit in two seats of one tally") from None
            return await _info(session, tally_id)

    async def get_tally(self, tally_id: int) -> TallyInfo:
        async with self._db.reading() as session:
            return await _info(session, tally_id)

    async def load(self, tally_id: int) -> tuple[TallyInfo, list[TallyEntry]]:
        """The tally and its entries in order, read at one moment."""
        async with self._db.reading() as session:
            info = await _info(session, tally_id)
            return info, await _entries(session, tally_id)

    async def append_entry(
        self, tally_id: int, seq: int, entry: Entry, user_id: int, *, rater: Rater | None = None
    ) -> TallyResult | None:
        """Store entry number ``seq`` (0-based) of an open tally, made by ``user_id``;
        when this returns it is committed.

        The entries so far and this one must replay through the engine (else
        :class:`Conflict`: callers check first, with the engine's own refusal). If this
        entry completes the last deal, the tally is finished in the same transaction and
        its results are returned: each member's season row gains it as a match played at
        a real table, and, when ``rater`` is given and the server rates tallies, their
        ratings change. A ``seq`` already stored raises :class:`AlreadyStored`; a gap or a
        tally that is not open raises :class:`Conflict`."""
        kind, value = entry_code(entry)
        async with self._db.writing() as session:
            info = await _info(session, tally_id)
            await _insert(session, info, seq, kind, value, user_id)
            tally = _replayed(info, await _entries(session, tally_id))
            if not tally.is_over:
                return None
            return await _finish(session, info, tally, rater)

    async def cancel_tally(self, tally_id: int, seq: int, user_id: int) -> None:
        """Cancel an open tally (``user_id`` did, as entry ``seq``): it keeps its entries
        but counts in no standings."""
        async with self._db.writing() as session:
            info = await _info(session, tally_id)
            await _insert(session, info, seq, CANCEL, "", user_id)
            await session.execute(
                "UPDATE tallies SET status = 'cancelled', ended_at = ? WHERE tally_id = ?",
                (now_ms(), tally_id),
            )

    async def remember_message(self, tally_id: int, role: str, message_id: int) -> None:
        """Keep a front end's message id (the scoresheet, its thread) across restarts."""
        await self._db.write_one(
            """
            INSERT INTO tally_messages (tally_id, role, message_id) VALUES (?, ?, ?)
            ON CONFLICT (tally_id, role) DO UPDATE SET message_id = excluded.message_id
            """,
            (tally_id, role, message_id),
        )

    async def finished_of_player(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[PlayedMatch]:
        """The member's ``limit`` newest finished tallies in the guild, newest first
        (``tally_seats_by_user`` walked backwards)."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT t.tally_id AS id, t.ended_at, s.seat, r.points, r.rank, "
                f"{seat_names('tally_seats', 'tally_id', 's')} "
                "FROM tally_seats s JOIN tallies t ON t.tally_id = s.tally_id "
                "JOIN tally_results r ON r.tally_id = s.tally_id AND r.seat = s.seat "
                "WHERE s.user_id = ? AND t.guild_id = ? AND t.status = 'finished' "
                "ORDER BY s.tally_id DESC LIMIT ?",
                (user_id, guild_id, limit),
            )
        return played(rows)

    async def marked_since(self, role: str, since_ms: int) -> list[tuple[int, int]]:
        """``(tally, guild)`` of the tallies open or ended after ``since_ms`` (ms since
        the epoch) that keep a message of ``role``: those a front end may still owe a
        post (it marks the ones it keeps count of so)."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT t.tally_id, t.guild_id FROM tallies t "
                "JOIN tally_messages m ON m.tally_id = t.tally_id AND m.role = ? "
                "WHERE t.status = 'open' OR t.ended_at >= ? ORDER BY t.tally_id",
                (role, since_ms),
            )
        return [(row["tally_id"], row["guild_id"]) for row in rows]

    async def load_record(self, tally_id: int) -> dict[str, Any]:
        """The tally's ``bonken-tally/1`` record, for an export or a bug report."""
        info, entries = await self.load(tally_id)
        tally = _replayed(info, entries)
        return tally_to_record(tally, started=info.started_at.isoformat(timespec="seconds"))


async def _insert(
    session: Session, info: TallyInfo, seq: int, kind: str, value: str, user_id: int
) -> None:
    if info.status is not TallyStatus.OPEN:
        raise Conflict(f"tally {info.tally_id} is {info.status.value}, not open")
    try:
        await session.execute(
            "INSERT INTO tally_entries (tally_id, seq, kind, value, user_id, entered_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (info.tally_id, seq, kind, value, user_id, now_ms()),
        )
    except ConstraintFailed as error:
        what = f"entry {seq} of tally {info.tally_id}"
        if error.kind == "unique":
            raise AlreadyStored(f"{what} is already stored") from None
        raise Conflict(f"{what}: {error}") from None


def _replayed(info: TallyInfo, entries: Sequence[TallyEntry]) -> Tally:
    """The tally its stored entries make, by the engine's rules."""
    tally = Tally(
        [seat.name for seat in info.seats], first_dealer=info.first_dealer, rules=info.rules
    )
    for stored in entries:
        if stored.entry is None:
            continue
        try:
            tally.apply(stored.entry)
        except TallyError as error:
            raise Conflict(
                f"tally {info.tally_id}: entry {stored.seq} does not replay: {error}"
            ) from None
    return tally


async def _finish(
    session: Session, info: TallyInfo, tally: Tally, rater: Rater | None
) -> TallyResult:
    """Record a complete tally's results and add them to the guild's active season."""
    results = seat_results(tally, info.seats)
    season_id = await active_season_id(session, info.guild_id)
    await session.executemany(
        "INSERT INTO tally_results (tally_id, seat, points, rank, deal_points) "
        "VALUES (?, ?, ?, ?, ?)",
        [(info.tally_id, r.seat, r.points, r.rank, json.dumps(r.deal_points)) for r in results],
    )
    await session.execute(
        "UPDATE tallies SET status = 'finished', ended_at = ?, season_id = ? WHERE tally_id = ?",
        (now_ms(), season_id, info.tally_id),
    )
    await add_contributions(session, season_id, contributions(tally, results, tally=True))
    ranks = {r.occupant.user_id: r.rank for r in results if isinstance(r.occupant, Human)}
    rated = await session.scalar(
        "SELECT rate_tallies FROM guild_settings WHERE guild_id = ?", (info.guild_id,)
    )
    if rater is not None and ranks and rated != 0:  # NULL (never set): rated
        await rate(session, season_id, ranks, rater)
    return TallyResult(tally_id=info.tally_id, season_id=season_id, seats=results)


async def _info(session: Session, tally_id: int) -> TallyInfo:
    row = await session.fetchone(TALLY_QUERY, (tally_id,))
    if row is None:
        raise NotFound(f"there is no tally {tally_id}")
    seats = await session.fetchall(
        "SELECT seat, name, user_id FROM tally_seats WHERE tally_id = ? ORDER BY seat",
        (tally_id,),
    )
    messages = await session.fetchall(
        "SELECT role, message_id FROM tally_messages WHERE tally_id = ?", (tally_id,)
    )
    return from_row(
        TallyInfo,
        row,
        status=TallyStatus(row["status"]),
        seats=tuple(from_row(TallySeat, seat) for seat in seats),
        rules=rules_from_column(row["rules"]),
        images=row["images"] != 0,
        started_at=to_datetime(row["started_at"]),
        ended_at=optional_datetime(row["ended_at"]),
        messages={message["role"]: message["message_id"] for message in messages},
    )


async def _entries(session: Session, tally_id: int) -> list[TallyEntry]:
    rows = await session.fetchall(
        "SELECT seq, kind, value, user_id, entered_at FROM tally_entries "
        "WHERE tally_id = ? ORDER BY seq",
        (tally_id,),
    )
    return [
        from_row(
            TallyEntry,
            row,
            entry=None if row["kind"] == CANCEL else parse_entry(row["kind"], row["value"]),
            entered_at=to_datetime(row["entered_at"]),
        )
        for row in rows
    ]
