"""Matches as append-only logs: the players, the dealt hands and one row per action.

Each deal and each action is stored by itself in one committed transaction before the
call returns, so what the bot has told a player is always on disk. A match's
``bonken-record/1`` document is rebuilt from those rows, and finishing a match replays
it through the engine, so results are exactly what the record says.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from bot.engine import STANDARD, Action, Card, RecordError, Rules, from_record, rules_for

from .claims import ClaimLost, require_claim
from .codec import (
    build_record,
    decode_occupant,
    decode_rules,
    encode_action,
    encode_hands,
    encode_rules,
    now_ms,
    optional_datetime,
    to_datetime,
)
from .database import Database, Session
from .errors import AlreadyStored, Conflict, ConstraintFailed, NotFound, StoreError
from .models import (
    SEATS,
    FinishedMatch,
    Human,
    MatchInfo,
    MatchResult,
    MatchSeat,
    MatchStatus,
    PlayedMatch,
    Rater,
)
from .results import contributions, seat_results
from .rows import Row, from_row
from .seasons import active_season_id
from .standings import add_contributions, rate

MATCH_QUERY = """
    SELECT m.match_id, m.table_id, t.guild_id, m.status, m.first_dealer, m.seed,
           m.started_at, m.ended_at, m.season_id, m.rules,
           coalesce((SELECT max(deal_index) + 1 FROM deals d WHERE d.match_id = m.match_id), 0)
               AS deals,
           coalesce((SELECT max(seq) + 1 FROM actions a WHERE a.match_id = m.match_id), 0)
               AS actions,
           (SELECT acted_at FROM actions a WHERE a.match_id = m.match_id
            ORDER BY seq DESC LIMIT 1) AS last_action_at
    FROM matches m JOIN tables t ON t.table_id = m.table_id
    WHERE m.match_id = ?
"""
SEED_RANGE = range(-(2**63), 2**63)
# The fence of a single-statement write to a match: its row comes from this join, so
# it is stored only while the match's table is claimed by the owner given last.
FENCE = """
    FROM matches m JOIN table_claims c ON c.table_id = m.table_id
    WHERE m.match_id = ? AND c.owner = ?
"""


class MatchStore:
    """Matches; every write that drives one is fenced by its table's claim
    (:mod:`bot.store.claims`): stored only while this process (``owner``) holds it."""

    def __init__(self, db: Database, owner: int) -> None:
        self._db = db
        self._owner = owner

    async def create_match(
        self,
        table_id: int,
        names: Sequence[str],
        *,
        first_dealer: int = 0,
        seed: int | None = None,
        rules: Rules = STANDARD,
    ) -> MatchInfo:
        """Start a match with the table's four seated players, named as in the record,
        played by ``rules`` (kept with the match, so its record replays by them).

        Raises :class:`Conflict` if a seat is empty, a user sits twice, or the table
        already has a match in play.
        """
        if len(names) != 4 or not all(isinstance(n, str) and n for n in names):
            raise ValueError("a match needs four player names")
        if first_dealer not in SEATS:
            raise ValueError(f"first_dealer must be a seat 0-3, not {first_dealer!r}")
        if seed is not None and seed not in SEED_RANGE:
            raise ValueError("a seed must fit in 64 bits")
        async with self._db.writing() as session:
            if await session.scalar("SELECT 1 FROM tables WHERE table_id = ?", (table_id,)) is None:
                raise NotFound(f"there is no table {table_id}")
            seated = await session.fetchall(
                "SELECT seat, user_id, computer_level FROM table_seats WHERE table_id = ? "
                "ORDER BY seat",
                (table_id,),
            )
            if len(seated) != 4:
                raise Conflict(f"table {table_id} has empty seats")
            await require_claim(session, table_id, self._owner)
            try:
                match_id = await session.scalar(
                    "INSERT INTO matches (table_id, first_dealer, seed, started_at, rules) "
                    "VALUES (?, ?, ?, ?, ?) RETURNING match_id",
                    (table_id, first_dealer, seed, now_ms(), encode_rules(rules)),
                )
            except ConstraintFailed:
                raise Conflict(f"table {table_id} already has a match in play") from None
            try:
                await session.executemany(
                    "INSERT INTO match_seats (match_id, seat, name, user_id, computer_level) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [
                        (match_id, s["seat"], names[s["seat"]], s["user_id"], s["computer_level"])
                        for s in seated
                    ],
                )
            except ConstraintFailed:
                raise Conflict("a player cannot sit in two seats of one match") from None
            return await _info(session, match_id)

    async def append_deal(
        self, match_id: int, deal_index: int, hands: Sequence[Sequence[Card]]
    ) -> None:
        """Store deal ``deal_index`` (0-based, fewer than the match's rules' deals) of the
        match with the four hands dealt.

        Hands are stored, not a seed, so a record never depends on how a future Python
        shuffles. Raises :class:`AlreadyStored` for a deal that is already there.
        """
        async with self._db.reading() as session:
            header = decode_rules(
                await session.scalar("SELECT rules FROM matches WHERE match_id = ?", (match_id,))
            )
        deals = rules_for(header["variant"], header.get("house_rules")).deals
        if deal_index not in range(deals):
            raise ValueError(f"a match has deals 0-{deals - 1}, not {deal_index}")
        encoded = encode_hands(hands)
        try:
            stored = await self._db.write_one(
                f"""
                INSERT INTO deals (match_id, deal_index, hands, dealt_at)
                SELECT ?, ?, ?, ? {FENCE} RETURNING deal_index
                """,
                (match_id, deal_index, encoded, now_ms(), match_id, self._owner),
            )
        except ConstraintFailed as error:
            raise _refusal(error, f"deal {deal_index} of match {match_id}") from None
        if not stored:
            await self._not_stored(match_id)

    async def append_action(
        self,
        match_id: int,
        seq: int,
        seat: int,
        action: Action,
        *,
        by_computer: bool = False,
    ) -> None:
        """Store action number ``seq`` (0-based over the match) in the current deal.

        ``by_computer`` says a computer acted for the human in ``seat`` (a timeout or a
        takeover); leave it False for a computer seat. When this returns the action is
        committed. A ``seq`` already stored raises :class:`AlreadyStored`; a gap or a
        match not in play raises :class:`Conflict`.
        """
        if seat not in SEATS:
            raise ValueError(f"seats are 0-3, not {seat}")
        kind, value = encode_action(action)
        try:
            stored = await self._db.write_one(
                f"""
                INSERT INTO actions (match_id, seq, deal_index, seat, kind, value, by_computer,
                                     acted_at, driver)
                SELECT ?, ?, (SELECT max(deal_index) FROM deals WHERE match_id = ?),
                       ?, ?, ?, ?, ?, c.owner {FENCE}
                RETURNING seq
                """,
                (
                    match_id,
                    seq,
                    match_id,
                    seat,
                    kind,
                    value,
                    int(by_computer),
                    now_ms(),
                    match_id,
                    self._owner,
                ),
            )
        except ConstraintFailed as error:
            raise _refusal(error, f"action {seq} of match {match_id}") from None
        if not stored:
            await self._not_stored(match_id)

    async def _not_stored(self, match_id: int) -> None:
        """Why a fenced write stored nothing: no such match, a match no longer in play
        (its closed table has no claim), or a claim that is not ours."""
        async with self._db.reading() as session:
            _require_playing(await _info(session, match_id))
        raise ClaimLost(f"match {match_id}: its table is driven by another process now")

    async def get_match(self, match_id: int) -> MatchInfo:
        async with self._db.reading() as session:
            return await _info(session, match_id)

    async def view(self, match_id: int, part: str) -> bytes | None:
        """The kept ``part`` of a finished match's pages (migration 19), None if it has
        not been made yet."""
        async with self._db.reading() as session:
            body = await session.scalar(
                "SELECT body FROM match_views WHERE match_id = ? AND part = ?", (match_id, part)
            )
        return None if body is None else bytes(body)

    async def keep_view(self, match_id: int, part: str, body: bytes) -> None:
        """Keep ``part`` of a finished match's pages; nothing is kept of a match that
        has not finished, and a part already kept (made by another reader at the same
        moment, from the same match) stays as it is."""
        await self._db.write_one(
            "INSERT INTO match_views (match_id, part, body) "
            "SELECT match_id, ?, ? FROM matches WHERE match_id = ? AND status = 'finished' "
            "ON CONFLICT (match_id, part) DO NOTHING",
            (part, body, match_id),
        )

    async def load_record(self, match_id: int) -> dict[str, Any]:
        """The match's ``bonken-record/1`` dict, for ``from_record`` or an export."""
        async with self._db.reading() as session:
            record, _ = await _record(session, await _info(session, match_id))
        return record

    async def latest_record_in_channel(
        self, channel_id: int, *, thread_role: str | None = None
    ) -> dict[str, Any] | None:
        """The record of the newest match played at a table in this channel, if any; with
        ``thread_role``, also of a table whose message of that role is this channel (a
        front end's thread the match was played in)."""
        async with self._db.reading() as session:
            match_id = await _latest_in_channel(session, channel_id, thread_role, None)
            if match_id is None:
                return None
            record, _ = await _record(session, await _info(session, match_id))
        return record

    async def latest_in_channel(
        self,
        channel_id: int,
        *,
        thread_role: str | None = None,
        status: MatchStatus | None = None,
    ) -> int | None:
        """The id of the newest match (of ``status``, if given) played where
        :meth:`latest_record_in_channel` looks."""
        async with self._db.reading() as session:
            return await _latest_in_channel(session, channel_id, thread_role, status)

    async def finished_in_guild(self, guild_id: int, limit: int) -> list[FinishedMatch]:
        """The guild's ``limit`` newest finished matches, newest first."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                f"SELECT m.match_id, m.ended_at, {seat_names('match_seats', 'match_id', 'm')} "
                "FROM matches m JOIN tables t ON t.table_id = m.table_id "
                "WHERE t.guild_id = ? AND m.status = 'finished' "
                "ORDER BY m.match_id DESC LIMIT ?",
                (guild_id, limit),
            )
        return [
            FinishedMatch(
                match_id=row["match_id"],
                ended_at=to_datetime(row["ended_at"]),
                names=names_of(row),
            )
            for row in rows
        ]

    async def finished_of_player(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[PlayedMatch]:
        """The player's ``limit`` newest finished matches in the guild, newest first, each
        with their seat, points and place (``match_seats_by_user`` walked backwards)."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT m.match_id AS id, m.ended_at, s.seat, r.points, r.rank, "
                f"{seat_names('match_seats', 'match_id', 's')} "
                "FROM match_seats s JOIN matches m ON m.match_id = s.match_id "
                "JOIN tables t ON t.table_id = m.table_id "
                "JOIN match_results r ON r.match_id = s.match_id AND r.seat = s.seat "
                "WHERE s.user_id = ? AND t.guild_id = ? AND m.status = 'finished' "
                "ORDER BY s.match_id DESC LIMIT ?",
                (user_id, guild_id, limit),
            )
        return played(rows)

    async def cancel_match(self, match_id: int) -> None:
        """Stop a match in play; it keeps its record but counts in no standings."""
        async with self._db.writing() as session:
            info = await _info(session, match_id)
            _require_playing(info)
            await session.execute(
                "UPDATE matches SET status = 'cancelled', ended_at = ? WHERE match_id = ?",
                (now_ms(), match_id),
            )

    async def finish_match(self, match_id: int, *, rater: Rater | None = None) -> MatchResult:
        """Record a completed match's results and add them to the active season.

        One transaction: per-seat totals, ranks, deal scores and takeovers, the match
        marked finished in the guild's active season (a default one is started if there is
        none), each human's season row, and, when ``rater`` is given, their new ratings.
        Raises :class:`Conflict` if the stored record is not a complete, valid match.
        """
        async with self._db.writing() as session:
            info = await _info(session, match_id)
            _require_playing(info)
            await require_claim(session, info.table_id, self._owner)
            record, acted = await _record(session, info)
            try:
                match = await asyncio.to_thread(from_record, record)
            except RecordError as error:
                raise Conflict(f"match {match_id} does not replay: {error}") from None
            if not match.is_over:
                raise Conflict(f"match {match_id} is not over: {len(match.deals)} deals so far")
            results = seat_results(match, info.seats, acted)
            season_id = await active_season_id(session, info.guild_id)
            await session.executemany(
                "INSERT INTO match_results (match_id, seat, points, rank, deal_points, takeovers) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (match_id, r.seat, r.points, r.rank, json.dumps(r.deal_points), r.takeovers)
                    for r in results
                ],
            )
            await session.execute(
                "UPDATE matches SET status = 'finished', ended_at = ?, season_id = ? "
                "WHERE match_id = ?",
                (now_ms(), season_id, match_id),
            )
            await add_contributions(session, season_id, contributions(match, results))
            ranks = {r.occupant.user_id: r.rank for r in results if isinstance(r.occupant, Human)}
            if rater is not None and ranks:
                await rate(session, season_id, ranks, rater)
            return MatchResult(match_id=match_id, season_id=season_id, seats=results)


def seat_names(table: str, key: str, alias: str) -> str:
    """Columns ``name0`` to ``name3`` of a query: the names of the four seats of the
    match (``table`` ``match_seats``, ``key`` ``match_id``) or tally (``tally_seats``,
    ``tally_id``) in the row of ``alias`` (this package's constants), each found by its
    primary key as the row is read (:func:`names_of`), rather than a second statement
    reading four rows a match."""
    return ", ".join(
        f"(SELECT n.name FROM {table} n WHERE n.{key} = {alias}.{key} AND n.seat = {seat}) "
        f"AS name{seat}"
        for seat in range(4)
    )


def names_of(row: Row) -> tuple[str, ...]:
    """The seats' names a row read with :func:`seat_names`, seat 0 first."""
    names = (row["name0"], row["name1"], row["name2"], row["name3"])
    return tuple(name for name in names if name is not None)


def played(rows: Sequence[Row]) -> list[PlayedMatch]:
    """``rows`` (``id, ended_at, seat, points, rank`` and :func:`seat_names`: one
    person's finished matches or tallies) as :class:`PlayedMatch`."""
    return [
        PlayedMatch(
            match_id=row["id"],
            ended_at=to_datetime(row["ended_at"]),
            names=names_of(row),
            seat=row["seat"],
            points=row["points"],
            rank=row["rank"],
        )
        for row in rows
    ]


async def _latest_in_channel(
    session: Session, channel_id: int, thread_role: str | None, status: MatchStatus | None
) -> int | None:
    sql = (
        "SELECT max(m.match_id) FROM matches m JOIN tables t ON t.table_id = m.table_id "
        "WHERE (t.channel_id = ? OR t.table_id IN ("
        "SELECT g.table_id FROM table_messages g WHERE g.role = ? AND g.message_id = ?))"
    )
    params: tuple[Any, ...] = (channel_id, thread_role, channel_id)
    if status is not None:
        sql += " AND m.status = ?"
        params += (status.value,)
    match_id = await session.scalar(sql, params)
    return None if match_id is None else int(match_id)


def _require_playing(info: MatchInfo) -> None:
    if info.status is not MatchStatus.PLAYING:
        raise Conflict(f"match {info.match_id} is {info.status.value}, not in play")


def _refusal(error: ConstraintFailed, what: str) -> StoreError:
    if error.kind == "unique":
        return AlreadyStored(f"{what} is already stored")
    if error.kind == "not null" and error.where == "actions.deal_index":
        return Conflict(f"{what}: no deal has been stored yet")
    return Conflict(f"{what}: {error}")


async def _info(session: Session, match_id: int) -> MatchInfo:
    row = await session.fetchone(MATCH_QUERY, (match_id,))
    if row is None:
        raise NotFound(f"there is no match {match_id}")
    seats = await session.fetchall(
        "SELECT seat, name, user_id, computer_level FROM match_seats WHERE match_id = ? "
        "ORDER BY seat",
        (match_id,),
    )
    return from_row(
        MatchInfo,
        row,
        status=MatchStatus(row["status"]),
        seats=tuple(
            from_row(MatchSeat, s, occupant=decode_occupant(s["user_id"], s["computer_level"]))
            for s in seats
        ),
        started_at=to_datetime(row["started_at"]),
        ended_at=optional_datetime(row["ended_at"]),
        last_action_at=optional_datetime(row["last_action_at"]),
        rules=decode_rules(row["rules"]),
    )


async def _record(
    session: Session, info: MatchInfo
) -> tuple[dict[str, Any], list[tuple[int, bool]]]:
    """The record, and ``(seat, by_computer)`` of every action in order."""
    hands = await session.fetchall(
        "SELECT hands FROM deals WHERE match_id = ? ORDER BY deal_index", (info.match_id,)
    )
    actions = await session.fetchall(
        "SELECT deal_index, kind, value, seat, by_computer FROM actions WHERE match_id = ? "
        "ORDER BY seq",
        (info.match_id,),
    )
    record = build_record(
        [seat.name for seat in info.seats],
        info.first_dealer,
        info.seed,
        info.started_at,
        [deal["hands"] for deal in hands],
        [(action["deal_index"], action["kind"], action["value"]) for action in actions],
        info.rules,
    )
    return record, [(action["seat"], bool(action["by_computer"])) for action in actions]
