"""One table in memory: its seats, its match, its turn counter and its lock.

The service changes a :class:`Table` only while holding ``table.lock``; front ends read
it through :class:`TableView`, a frozen snapshot, so rendering never races a change.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.engine import Card, Match, MatchPhase
from bot.store import Computer, Human, SeatOccupant, TableSettings, TableStatus

from .events import TurnKind

SEAT_NAMES = ("North", "East", "South", "West")

TURN_KINDS = {
    MatchPhase.CHOOSING: TurnKind.CHOOSE,
    MatchPhase.DOUBLING: TurnKind.DOUBLE,
    MatchPhase.PLAYING: TurnKind.PLAY,
}


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
    driver: asyncio.Task[None] | None = None

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def humans(self) -> list[int]:
        return [seat.user_id for seat in self.seats if seat.user_id is not None]

    def empty_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.occupant is None]

    def turn_kind(self) -> TurnKind | None:
        if self.match is None:
            return None
        return TURN_KINDS.get(self.match.phase)

    def turn_seconds(self) -> float:
        """Time for the current turn: a card gets the table's turn time, choosing and
        doubling half as long again (60 s and 90 s by default)."""
        base = float(self.settings.turn_seconds)
        return base if self.turn_kind() is TurnKind.PLAY else base * 1.5


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

    The deal fields keep their defaults in the lobby and before the first deal."""

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
    totals: tuple[int, ...] = (0, 0, 0, 0)
    played_contracts: tuple[str, ...] = ()
    deal_number: int = 0
    dealer: int | None = None
    chooser: int | None = None
    contract: str | None = None
    to_act: int | None = None
    turn_kind: TurnKind | None = None
    trick: tuple[tuple[int, Card], ...] = ()
    tricks_taken: tuple[int, ...] = (0, 0, 0, 0)
    doubled: tuple[tuple[int, int, int], ...] = ()  # (seat, seat, 1 double or 2 redouble)
    doubling_done: tuple[int, ...] = ()  # seats that had their doubling turn
    base: tuple[int, ...] = (0, 0, 0, 0)
    domino_rows: tuple[tuple[int, int, int], ...] = ()
    """Domino: each started suit row as (suit, lowest rank, highest rank), public."""
    domino_out: tuple[int, ...] = ()
    """Domino: the seats that went out, in order."""


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
    known = {
        "table_id": table.table_id,
        "guild_id": table.guild_id,
        "channel_id": table.channel_id,
        "host_id": table.host_id,
        "status": table.status,
        "settings": table.settings,
        "seats": seats,
        "turn": table.turn,
        "match_id": table.match_id,
        "messages": dict(table.messages),
    }
    match = table.match
    deal = match.deal if match else None
    if match is None or deal is None:
        return TableView(**known)
    taken = [0, 0, 0, 0]
    for trick_done in deal.tricks:
        taken[trick_done.winner] += 1
    return TableView(
        **known,
        totals=tuple(match.totals()),
        played_contracts=tuple(match.chosen_by),
        deal_number=len(match.deals),
        dealer=deal.dealer,
        chooser=deal.chooser,
        contract=deal.contract.id if deal.contract else None,
        to_act=deal.to_act,
        turn_kind=table.turn_kind(),
        trick=tuple(((deal.leader + i) % 4, card) for i, card in enumerate(deal.trick)),
        tricks_taken=tuple(taken),
        doubled=tuple(
            (i, j, deal.multipliers[i][j])
            for i in range(4)
            for j in range(i + 1, 4)
            if deal.multipliers[i][j]
        ),
        doubling_done=deal.doubling_order[: len(deal.doubling)],
        base=tuple(deal.base),
        domino_rows=tuple(
            (int(suit), low, high) for suit, (low, high) in deal.domino_rows().items()
        ),
        domino_out=tuple(deal.out),
    )


def computer_name(seat: int) -> str:
    """Computers are named after their seat; the level shows on the table, not in names."""
    return f"{SEAT_NAMES[seat]} bot"


def default_name(occupant: SeatOccupant, seat: int) -> str:
    """A seat's name when none was stored: the computer's, or the person's mention."""
    if isinstance(occupant, Computer):
        return computer_name(seat)
    return f"<@{occupant.user_id}>"
