"""One table in memory: its seats, its match, its turn counter, its lock and its timers.

The service's parts change a :class:`Table` only while holding ``table.lock``; front ends
read it through :class:`TableView`, a frozen snapshot built by :func:`view_of` (the match's
part from the engine's :func:`~bot.engine.public_view`), so rendering never races a change.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace

from bot.engine import STANDARD, Card, Match, Phase, Rules, Trick, public_view
from bot.store import Computer, Human, SeatOccupant, TableRecord, TableSettings, TableStatus

SEAT_NAMES = ("North", "East", "South", "West")

TURN_PHASES = (Phase.CHOOSING, Phase.DOUBLING, Phase.PLAYING)
"""The phases in which a seat has to act (the others are between deals)."""


@dataclass
class Seat:
    """Who sits in a seat and how they are doing.

    ``away`` means a computer plays for the human until they act again; ``vacated``
    means the human left during the match, so a computer plays and a newcomer may sit.
    """

    occupant: SeatOccupant | None = None
    name: str = ""
    away: bool = False
    vacated: bool = False
    timeouts: int = 0

    @property
    def user_id(self) -> int | None:
        return self.occupant.user_id if isinstance(self.occupant, Human) else None

    @property
    def computer_plays(self) -> bool:
        """True if a computer makes this seat's moves now."""
        return isinstance(self.occupant, Computer) or self.away or self.vacated


@dataclass
class Table:
    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    settings: TableSettings
    status: TableStatus = TableStatus.LOBBY
    seats: list[Seat] = field(default_factory=lambda: [Seat() for _ in range(4)])
    match: Match | None = None
    match_id: int | None = None
    seed: int = 0
    turn: int = 0
    """Actions accepted in this match; a button for an earlier number is stale."""
    messages: dict[str, int] = field(default_factory=dict)
    """A front end's message ids by role (e.g. "table"), kept across restarts."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None
    """The human's turn timer."""
    driver: asyncio.Task[None] | None = None
    """The task making the computers' moves (or retrying a failed write between deals)."""
    lobby_timer: asyncio.Task[None] | None = None
    """Closes the lobby when nobody has done anything in it for a while."""

    @property
    def rules(self) -> Rules:
        """The rules its match is played by: the table's setting, chosen when it opened."""
        return self.settings.rules

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def humans(self) -> list[int]:
        return [seat.user_id for seat in self.seats if seat.user_id is not None]

    def empty_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.occupant is None]

    def turn_kind(self) -> Phase | None:
        """What the seat to act has to do (choose, double or play); None between deals."""
        if self.match is None or self.match.phase not in TURN_PHASES:
            return None
        return self.match.phase

    def turn_seconds(self) -> float:
        """Time for the current turn: a card gets the table's turn time, choosing and
        doubling half as long again (60 s and 90 s by default)."""
        base = float(self.settings.turn_seconds)
        return base if self.turn_kind() is Phase.PLAYING else base * 1.5

    def stop_timer(self) -> None:
        """Cancel the turn timer (unless it is the task asking: it ends by itself)."""
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None

    def stop_lobby_timer(self) -> None:
        task, self.lobby_timer = self.lobby_timer, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()


def table_from_record(record: TableRecord) -> Table:
    """A table as the store has it, before its seats and match are filled in."""
    table = Table(
        record.table_id,
        record.guild_id,
        record.channel_id,
        record.host_id,
        record.settings,
        record.status,
    )
    table.messages.update(record.messages)
    return table


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    user_id: int | None
    level: str | None  # computer level when a computer sits here
    away: bool
    vacated: bool


@dataclass(frozen=True, slots=True)
class TableView:
    """A snapshot of a table for rendering: everything public, nobody's hand.

    The deal fields are the engine's :class:`~bot.engine.PublicView` (same names; the
    contract as its id) and keep their defaults in the lobby and before the first deal."""

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    settings: TableSettings
    seats: tuple[SeatInfo, ...]
    turn: int
    match_id: int | None
    messages: dict[str, int]
    rules: Rules = STANDARD
    totals: tuple[int, ...] = (0, 0, 0, 0)
    played_contracts: tuple[str, ...] = ()
    deal_number: int = 0
    dealer: int | None = None
    chooser: int | None = None
    contract: str | None = None
    to_act: int | None = None
    turn_kind: Phase | None = None
    """CHOOSING, DOUBLING or PLAYING: what ``to_act`` has to do."""
    trick: tuple[tuple[int, Card], ...] = ()
    tricks_taken: tuple[int, ...] = (0, 0, 0, 0)
    doubled: tuple[tuple[int, int, int], ...] = ()  # (seat, seat, 1 double or 2 redouble)
    doubling_done: tuple[int, ...] = ()  # seats that had their doubling turn
    base: tuple[int, ...] = (0, 0, 0, 0)
    domino_rows: tuple[tuple[int, int, int], ...] = ()
    """Domino: each started suit row as (suit, lowest rank, highest rank), public."""
    domino_out: tuple[int, ...] = ()
    """Domino: the seats that went out, in order."""
    last_trick: Trick | None = None
    """The deal's last finished trick (public: everyone saw it played)."""
    cards_left: tuple[int, ...] = (0, 0, 0, 0)
    """How many cards each seat still holds (public: everyone counts them)."""


def view_of(table: Table) -> TableView:
    seats = tuple(
        SeatInfo(
            name=seat.name,
            user_id=seat.user_id,
            level=seat.occupant.level if isinstance(seat.occupant, Computer) else None,
            away=seat.away,
            vacated=seat.vacated,
        )
        for seat in table.seats
    )
    lobby = TableView(
        table_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        host_id=table.host_id,
        status=table.status,
        settings=table.settings,
        seats=seats,
        turn=table.turn,
        match_id=table.match_id,
        messages=dict(table.messages),
        rules=table.rules,
    )
    match = table.match
    if match is None or match.deal is None:
        return lobby
    public = public_view(match)
    return replace(
        lobby,
        rules=public.rules,
        totals=public.totals,
        played_contracts=public.played_contracts,
        deal_number=public.deal_number,
        dealer=public.dealer,
        chooser=public.chooser,
        contract=public.contract.id if public.contract else None,
        to_act=public.to_act,
        turn_kind=table.turn_kind(),
        trick=public.trick,
        tricks_taken=public.tricks_taken,
        doubled=public.doubled,
        doubling_done=public.doubling_done,
        base=public.base,
        domino_rows=tuple(
            (int(suit), low, high) for suit, (low, high) in public.domino_rows.items()
        ),
        domino_out=public.domino_out,
        last_trick=public.last_trick,
        cards_left=public.cards_left,
    )


def computer_name(seat: int) -> str:
    """Computers are named after their seat; the level shows on the table, not in names."""
    return f"{SEAT_NAMES[seat]} bot"


def default_name(occupant: SeatOccupant, seat: int) -> str:
    """A seat's name when none was stored: the computer's, or none for a person (a
    front end names them by their id, as it knows how)."""
    if isinstance(occupant, Computer):
        return computer_name(seat)
    return ""
