"""The daily deals' memory (migration 15): each server's days and their deals, the
attempts at them, every move of an attempt and the scores of its deals.

A day is stored when its first attempt starts, with its rules and its deals, so the
server changing its settings later in the day (or a change to how cards are dealt) never
changes a day someone has begun. Each call that changes an attempt is committed, all of
it or nothing, before it returns: the moves of one click (the person's and the computers'
answers), the scores of the deals they finished and, with the last, the attempt's end
(the clicks of several people waiting at once share one transaction).
Once a day's results close, the daily service settles it: each attempt's result is
written beside it, and the season's daily board reads those.

The secret the days are dealt under is one of the bot's facts, made at random the first
time it is asked for.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from bot.engine import Card, Rules

from .batch import Batched
from .codec import (
    decode_action,
    decode_hands,
    encode_action,
    encode_hands,
    encode_rules,
    now_ms,
    optional_datetime,
    rules_from_column,
    to_datetime,
)
from .database import Database, Session
from .errors import AlreadyStored, Conflict, ConstraintFailed, NotFound, StoreError
from .facts import FactStore
from .models import (
    AttemptInfo,
    AttemptScores,
    DailyDayRecord,
    DailyDealRecord,
    DailyMove,
    DailyTally,
)
from .rows import Row, from_row
from .seasons import active_season_id

SECRET = "daily-secret"
"""The fact holding the secret the daily deals are dealt under (hex text)."""

ATTEMPT_QUERY = """
    SELECT a.attempt_id, a.guild_id, a.day, a.user_id, a.name, a.season_id, a.started_at,
           a.finished_at,
           (SELECT count(*) FROM daily_moves m WHERE m.attempt_id = a.attempt_id) AS moves
    FROM daily_attempts a WHERE {where}
"""


class DailyStore:
    """Days, attempts and their moves; every change is one committed transaction."""

    def __init__(self, db: Database, facts: FactStore) -> None:
        self._db = db
        self._facts = facts
        self._appends = Batched(db, _append_together)

    async def secret(self) -> str:
        """The bot's secret for dealing the days (made and kept the first time)."""
        return await self._facts.setdefault(SECRET, secrets.token_hex(32))

    # -- a server's setting -------------------------------------------------------------

    async def deals_per_day(self, guild_id: int) -> int | None:
        """The number of deals the server set for its days, None if it never set one."""
        async with self._db.reading() as session:
            deals = await session.scalar(
                "SELECT deals FROM daily_settings WHERE guild_id = ?", (guild_id,)
            )
        return None if deals is None else int(deals)

    async def set_deals_per_day(self, guild_id: int, deals: int) -> None:
        """Days the server begins from now on have ``deals`` deals (1 to 11)."""
        await self._db.write_one(
            "INSERT INTO daily_settings (guild_id, deals) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET deals = excluded.deals",
            (guild_id, deals),
        )

    # -- days ---------------------------------------------------------------------------

    async def day(self, guild_id: int, day: date) -> DailyDayRecord | None:
        """The server's day as stored, None if nobody has begun it."""
        async with self._db.reading() as session:
            return await _day(session, guild_id, day)

    async def open_day(
        self, guild_id: int, day: date, rules: Rules, deals: Sequence[DailyDealRecord]
    ) -> DailyDayRecord:
        """Store the day with its rules and deals unless it is stored already, and return
        the day as stored (another process may have stored it first: its wins)."""
        async with self._db.writing() as session:
            created = await session.fetchone(
                "INSERT INTO daily_days (guild_id, day, rules, opened_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, day) DO NOTHING RETURNING guild_id",
                (guild_id, day.isoformat(), encode_rules(rules), now_ms()),
            )
            if created is not None:
                await session.executemany(
                    "INSERT INTO daily_deals (guild_id, day, deal_index, dealer, contract, "
                    "hands) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (
                            guild_id,
                            day.isoformat(),
                            deal.deal_index,
                            deal.dealer,
                            deal.contract,
                            encode_hands(deal.hands),
                        )
                        for deal in deals
                    ],
                )
            stored = await _day(session, guild_id, day)
        assert stored is not None
        return stored

    # -- attempts -----------------------------------------------------------------------

    async def start_attempt(
        self, guild_id: int, day: date, user_id: int, name: str, moves: Sequence[DailyMove]
    ) -> AttemptInfo:
        """Start ``user_id``'s attempt at the stored day, with the computers' first
        ``moves``, counted in the server's active season (a default one is started if it
        has none). Raises :class:`AlreadyStored` if the person has an attempt that day."""
        await self._season_ready(guild_id)
        async with self._db.writing() as session:
            season_id = await active_season_id(session, guild_id)
            try:
                attempt_id = await session.scalar(
                    "INSERT INTO daily_attempts (guild_id, day, user_id, name, season_id, "
                    "started_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING attempt_id",
                    (guild_id, day.isoformat(), user_id, name, season_id, now_ms()),
                )
            except ConstraintFailed as error:
                if error.kind == "unique":
                    raise AlreadyStored(f"user {user_id} has an attempt on {day}") from None
                raise Conflict(f"no attempt on {day}: {error}") from None
            await _insert_moves(session, [(int(attempt_id), move) for move in moves])
            return await _attempt(session, int(attempt_id))

    async def _season_ready(self, guild_id: int) -> None:
        """Make sure the server has an active season, on its own: two attempts starting at
        once in a server without one both start the default season, and on PostgreSQL the
        second of those transactions fails; tried again, it finds the first one's."""
        for tries_left in (1, 0):
            try:
                async with self._db.writing() as session:
                    await active_season_id(session, guild_id)
                return
            except ConstraintFailed:
                if not tries_left:
                    raise

    async def attempt(self, attempt_id: int) -> AttemptInfo:
        """The attempt with this id; :class:`NotFound` if there is none."""
        async with self._db.reading() as session:
            return await _attempt(session, attempt_id)

    async def attempt_of(self, guild_id: int, day: date, user_id: int) -> AttemptInfo | None:
        """``user_id``'s attempt at the server's day, if they made one."""
        async with self._db.reading() as session:
            row = await session.fetchone(
                ATTEMPT_QUERY.format(where="a.guild_id = ? AND a.day = ? AND a.user_id = ?"),
                (guild_id, day.isoformat(), user_id),
            )
        return None if row is None else _attempt_info(row)

    async def moves(self, attempt_id: int) -> list[DailyMove]:
        """The attempt's moves in order."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT seq, deal_index, seat, kind, value FROM daily_moves "
                "WHERE attempt_id = ? ORDER BY seq",
                (attempt_id,),
            )
        return [_move(row) for row in rows]

    async def append_moves(
        self,
        attempt_id: int,
        moves: Sequence[DailyMove],
        scores: Mapping[int, int],
        *,
        finished: bool = False,
    ) -> None:
        """Store the next ``moves`` of the attempt, the person's final ``scores`` of the
        deals they ended (by deal index) and, when ``finished``, the attempt's end: one
        transaction, committed when this returns. A move number already stored raises
        :class:`AlreadyStored` (a stale or repeated click); a finished attempt or a gap,
        :class:`Conflict`; and nothing of the call is stored. Calls made while another
        is being written are written together, in the next transaction
        (:mod:`bot.store.batch`): with many people clicking at once, its begin, reads
        and commit are paid once for all of them."""
        await self._appends(_Append(attempt_id, moves, scores, finished))

    @property
    def append_transactions(self) -> int:
        """Transactions :meth:`append_moves` has written so far (fewer than its calls
        when calls waited together)."""
        return self._appends.transactions

    # -- results ------------------------------------------------------------------------

    async def day_scores(self, guild_id: int, day: date) -> list[AttemptScores]:
        """Every attempt at the server's day with its scores, in the order they started."""
        return (await self.days_scores(guild_id, (day,)))[day]

    async def days_scores(
        self, guild_id: int, days: Sequence[date]
    ) -> dict[date, list[AttemptScores]]:
        """:meth:`day_scores` of each of ``days``, in one read (the server's page asks
        for the two open days each time it is drawn). A day's deals are counted only
        for its attempts: most days of most servers have none."""
        marks = ", ".join("?" * len(days))
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT a.attempt_id, a.user_id, a.name, a.season_id, a.finished_at, a.day, "
                "(SELECT count(*) FROM daily_deals d WHERE d.guild_id = a.guild_id "
                "AND d.day = a.day) AS deals, s.deal_index, s.score "
                "FROM daily_attempts a "
                "LEFT JOIN daily_scores s ON s.attempt_id = a.attempt_id "
                f"WHERE a.guild_id = ? AND a.day IN ({marks}) ORDER BY a.attempt_id, s.deal_index",
                (guild_id, *(day.isoformat() for day in days)),
            )
        attempts: dict[int, tuple[Row, list[int | None]]] = {}
        for row in rows:
            _first, scores = attempts.setdefault(
                row["attempt_id"], (row, [None] * int(row["deals"]))
            )
            if row["deal_index"] is not None:
                scores[row["deal_index"]] = row["score"]
        found: dict[date, list[AttemptScores]] = {day: [] for day in days}
        for first, scores in attempts.values():
            found[date.fromisoformat(str(first["day"]))].append(
                from_row(
                    AttemptScores,
                    first,
                    finished=first["finished_at"] is not None,
                    scores=tuple(scores),
                )
            )
        return found

    async def day_moves(self, guild_id: int, day: date) -> dict[int, list[DailyMove]]:
        """Every attempt's moves at the server's day, by attempt id (for replays)."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT m.attempt_id, m.seq, m.deal_index, m.seat, m.kind, m.value "
                "FROM daily_moves m JOIN daily_attempts a ON a.attempt_id = m.attempt_id "
                "WHERE a.guild_id = ? AND a.day = ? ORDER BY m.attempt_id, m.seq",
                (guild_id, day.isoformat()),
            )
        moves: dict[int, list[DailyMove]] = {}
        for row in rows:
            moves.setdefault(row["attempt_id"], []).append(_move(row))
        return moves

    async def days(self, guild_id: int, last: date, limit: int) -> list[date]:
        """The server's ``limit`` newest stored days up to ``last``, newest first."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT day FROM daily_days WHERE guild_id = ? AND day <= ? "
                "ORDER BY day DESC LIMIT ?",
                (guild_id, last.isoformat(), limit),
            )
        return [date.fromisoformat(row["day"]) for row in rows]

    async def unsettled_days(self, guild_id: int, last: date) -> list[date]:
        """The server's days up to ``last`` with an attempt whose result is not written."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT DISTINCT day FROM daily_attempts "
                "WHERE guild_id = ? AND day <= ? AND result IS NULL ORDER BY day",
                (guild_id, last.isoformat()),
            )
        return [date.fromisoformat(row["day"]) for row in rows]

    async def settle_day(self, results: Mapping[int, float]) -> None:
        """Write each attempt's result (by attempt id) for a day whose results closed.
        Settling twice writes the same values, so two processes may both do it."""
        async with self._db.writing() as session:
            await session.executemany(
                "UPDATE daily_attempts SET result = ? WHERE attempt_id = ?",
                [(result, attempt_id) for attempt_id, result in sorted(results.items())],
            )

    async def season_tallies(self, season_id: int) -> list[DailyTally]:
        """Each player's settled days in the season: how many, and their results' sum."""
        async with self._db.reading() as session:
            rows = await session.fetchall(
                "SELECT a.user_id, count(*) AS days, sum(a.result) AS total, "
                "(SELECT b.name FROM daily_attempts b WHERE b.season_id = a.season_id "
                " AND b.user_id = a.user_id ORDER BY b.day DESC LIMIT 1) AS name "
                "FROM daily_attempts a WHERE a.season_id = ? AND a.result IS NOT NULL "
                "GROUP BY a.season_id, a.user_id",
                (season_id,),
            )
        return [from_row(DailyTally, row, total=float(row["total"])) for row in rows]


@dataclass(frozen=True)
class _Append:
    """One call of :meth:`DailyStore.append_moves`, waiting to be written."""

    attempt_id: int
    moves: Sequence[DailyMove]
    scores: Mapping[int, int]
    finished: bool


async def _append_together(session: Session, appends: Sequence[_Append]) -> list[StoreError | None]:
    """Write the appends that fit where their attempt stands, in the session's
    transaction; each one's answer: None (written) or its refusal (nothing of it
    written). Two of the same attempt are checked in order, the second after the first."""
    ids = sorted({append.attempt_id for append in appends})
    rows = await session.fetchall(
        "SELECT a.attempt_id, a.finished_at IS NOT NULL AS finished, "
        "(SELECT coalesce(max(seq) + 1, 0) FROM daily_moves m "
        " WHERE m.attempt_id = a.attempt_id) AS next "
        f"FROM daily_attempts a WHERE a.attempt_id IN ({', '.join('?' * len(ids))})",
        ids,
    )
    state = {row["attempt_id"]: (bool(row["finished"]), int(row["next"])) for row in rows}
    answers: list[StoreError | None] = []
    written: list[_Append] = []
    for append in appends:
        refusal = _refusal(append, state.get(append.attempt_id))
        answers.append(refusal)
        if refusal is None:
            written.append(append)
            after = state[append.attempt_id][1] + len(append.moves)
            state[append.attempt_id] = (append.finished, after)
    await _insert_moves(
        session, [(append.attempt_id, move) for append in written for move in append.moves]
    )
    ended = [
        (append.attempt_id, deal, score)
        for append in written
        for deal, score in sorted(append.scores.items())
    ]
    if ended:
        await session.executemany(
            "INSERT INTO daily_scores (attempt_id, deal_index, score) VALUES (?, ?, ?)", ended
        )
    finishing = [(now_ms(), append.attempt_id) for append in written if append.finished]
    if finishing:
        await session.executemany(
            "UPDATE daily_attempts SET finished_at = ? WHERE attempt_id = ?", finishing
        )
    return answers


def _refusal(append: _Append, state: tuple[bool, int] | None) -> StoreError | None:
    """Why ``append`` does not fit its attempt (finished or not, its next move number)."""
    attempt_id, moves = append.attempt_id, append.moves
    if state is None:
        return NotFound(f"there is no attempt {attempt_id}")
    finished, after = state
    if finished:
        return Conflict(f"attempt {attempt_id} is finished")
    if moves and moves[0].seq != after:
        if moves[0].seq < after:
            return AlreadyStored(f"move {moves[0].seq} of attempt {attempt_id} is stored")
        return Conflict(f"attempt {attempt_id} has no move {after} yet")
    return None


async def _day(session: Session, guild_id: int, day: date) -> DailyDayRecord | None:
    rules = await session.scalar(
        "SELECT rules FROM daily_days WHERE guild_id = ? AND day = ?",
        (guild_id, day.isoformat()),
    )
    if rules is None:
        return None
    rows = await session.fetchall(
        "SELECT deal_index, dealer, contract, hands FROM daily_deals "
        "WHERE guild_id = ? AND day = ? ORDER BY deal_index",
        (guild_id, day.isoformat()),
    )
    deals = tuple(
        from_row(
            DailyDealRecord,
            row,
            hands=tuple(
                tuple(Card.parse(code) for code in hand) for hand in decode_hands(row["hands"])
            ),
        )
        for row in rows
    )
    return DailyDayRecord(guild_id=guild_id, day=day, rules=rules_from_column(rules), deals=deals)


async def _attempt(session: Session, attempt_id: int) -> AttemptInfo:
    row = await session.fetchone(ATTEMPT_QUERY.format(where="a.attempt_id = ?"), (attempt_id,))
    if row is None:
        raise NotFound(f"there is no attempt {attempt_id}")
    return _attempt_info(row)


def _attempt_info(row: Row) -> AttemptInfo:
    return from_row(
        AttemptInfo,
        row,
        day=date.fromisoformat(row["day"]),
        started_at=to_datetime(row["started_at"]),
        finished_at=optional_datetime(row["finished_at"]),
    )


def _move(row: Row) -> DailyMove:
    return from_row(DailyMove, row, action=decode_action(row["kind"], row["value"]))


async def _insert_moves(session: Session, moves: Sequence[tuple[int, DailyMove]]) -> None:
    """Insert (attempt id, move) rows; a move number stored already is :class:`AlreadyStored`."""
    if not moves:
        return
    now = now_ms()
    try:
        await session.executemany(
            "INSERT INTO daily_moves (attempt_id, seq, deal_index, seat, kind, value, acted_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (attempt_id, m.seq, m.deal_index, m.seat, *encode_action(m.action), now)
                for attempt_id, m in moves
            ],
        )
    except ConstraintFailed as error:
        if error.kind == "unique":
            raise AlreadyStored(f"a move of attempt {moves[0][0]} is stored already") from None
        raise
