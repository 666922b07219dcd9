"""The lobby: opening a table, seats, computers, kicking, cancelling and starting.

Given the :class:`~bot.tables.turns.Turns` (a seat changing hands during the match), the
:class:`~bot.tables.play.Play` (the first deal) and the :class:`~bot.tables.closing.Closing`;
every method takes the table's lock.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from enum import Enum

from bot.engine import Match
from bot.i18n import N_
from bot.store import Computer, Conflict, Human, StoreError, TableSettings, TableStatus

from . import events as ev
from .closing import Closing
from .computers import LEVELS
from .context import Context, seated
from .errors import Refusal, TableReason
from .play import Play
from .table import Seat, Table, TableView, computer_name, table_from_record, view_of
from .turns import Turns

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 15 * 60
EVERYONE_LEFT_THE_MATCH = N_(
    "every player left the match, so it is cancelled and counts for nobody"
)


class Left(Enum):
    """What leaving did: the seat is free (lobby), the lobby closed (the last person
    left it), a computer plays the seat (match), or the match is cancelled (the last
    person left it)."""

    SEAT_FREED = "seat freed"
    TABLE_CLOSED = "table closed"
    COMPUTER_PLAYS = "computer plays"
    MATCH_CANCELLED = "match cancelled"


def _channel_taken() -> Refusal:
    return Refusal("this channel already has a Bonken table", TableReason.CHANNEL_TAKEN)


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise Refusal(
            f"computer level must be one of {', '.join(LEVELS)}", TableReason.UNKNOWN_LEVEL
        )


def _table_full() -> Refusal:
    return Refusal("the table is full", TableReason.TABLE_FULL)


class Lobby:
    """Who sits where before and during a match; the host's powers; the idle lobby."""

    def __init__(
        self,
        context: Context,
        closing: Closing,
        play: Play,
        turns: Turns,
        *,
        rng: random.Random,
    ) -> None:
        self._context = context
        self._closing = closing
        self._play = play
        self._turns = turns
        self._rng = rng

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        settings: TableSettings | None = None,
        *,
        host_seated: bool = True,
        messages: Mapping[str, int] | None = None,
    ) -> TableView:
        """Open a table in the channel, with the host in the first seat (unless the host
        only hosts, as in the all-computer demo); its matches are played by the rules of
        ``settings`` (the guild's defaults when None). ``messages`` are a front end's
        message ids by role, kept from the start (before any event about the table)."""
        registry, store = self._context.registry, self._context.store
        if registry.find_in_channel(channel_id) is not None:
            raise _channel_taken()
        if settings is not None:
            _check_level(settings.computer_level)
        try:
            record = await store.tables.create_table(guild_id, channel_id, host_id, settings)
            if host_seated or messages:
                await store.tables.update_table(
                    record.table_id,
                    seats={0: Human(host_id)} if host_seated else None,
                    names={0: host_name} if host_seated else None,
                    messages=messages,
                )
        except Conflict:
            raise _channel_taken() from None
        table = table_from_record(record)
        if host_seated:
            table.seats[0] = Seat(Human(host_id), host_name)
        table.messages.update(messages or {})
        registry.add(table)
        await self._lobby_changed(table, N_("{name} opened the table"), name=host_name)
        return view_of(table)

    async def join(self, table: Table, user_id: int, name: str) -> TableView:
        """Take the first empty seat in the lobby, or a seat left during the match."""
        async with table.lock:
            if table.seat_of(user_id) is not None:
                raise Refusal("you are already seated at this table", TableReason.ALREADY_SEATED)
            if table.status is TableStatus.LOBBY:
                free = table.empty_seats()
                if not free:
                    raise _table_full()
                seat = free[0]
                await self._set_seat(table, seat, Human(user_id), name)
                await self._lobby_changed(table, N_("{name} joined"), name=name)
            else:
                vacated = [i for i, s in enumerate(table.seats) if s.vacated]
                if not vacated:
                    raise Refusal(
                        "the match is under way and no seat is free", TableReason.NO_FREE_SEAT
                    )
                seat = vacated[0]
                await self._set_seat(table, seat, Human(user_id), table.seats[seat].name)
                await self._lobby_changed(
                    table,
                    N_("{name} took over {seat}'s seat"),
                    name=name,
                    seat=table.seats[seat].name,
                )
                await self._turns.after_change(table)
            return view_of(table)

    async def leave(self, table: Table, user_id: int) -> Left:
        """Leave the lobby, or leave the match (a computer plays the seat from now on);
        what became of the table says the answer, so the front end tells the truth."""
        async with table.lock:
            seat = seated(table, user_id)
            name = table.seats[seat].name
            if table.status is TableStatus.LOBBY:
                await self._set_seat(table, seat, None, "")
                if not table.humans():
                    await self._closing.close(
                        table, TableStatus.CANCELLED, N_("everyone left the lobby")
                    )
                    return Left.TABLE_CLOSED
                if user_id == table.host_id:
                    await self._new_host(table, table.humans()[0])
                await self._lobby_changed(table, N_("{name} left"), name=name)
                return Left.SEAT_FREED
            if await self._vacate(table, seat, N_("{name} left; a computer plays their seat")):
                return Left.MATCH_CANCELLED
            return Left.COMPUTER_PLAYS

    async def add_computer(
        self, table: Table, actor_id: int, level: str | None, *, is_admin: bool
    ) -> TableView:
        async with table.lock:
            _require_host(table, actor_id, is_admin, "add computer players")
            _require_lobby(table)
            level = level or table.settings.computer_level
            _check_level(level)
            free = table.empty_seats()
            if not free:
                raise _table_full()
            seat = free[0]
            await self._set_seat(table, seat, Computer(level), computer_name(seat))
            await self._lobby_changed(table, N_("a {level} computer player sits down"), level=level)
            return view_of(table)

    async def kick(self, table: Table, actor_id: int, seat: int, *, is_admin: bool) -> TableView:
        """Empty a seat (lobby) or hand it to a computer (match): the host or an admin."""
        async with table.lock:
            _require_host(table, actor_id, is_admin, "remove players")
            if seat not in range(4) or table.seats[seat].occupant is None:
                raise Refusal("nobody sits in that seat", TableReason.EMPTY_SEAT, seat=seat)
            name = table.seats[seat].name
            if table.status is TableStatus.LOBBY:
                if table.seats[seat].user_id == table.host_id:
                    raise Refusal(
                        "the host cannot be removed; cancel the table instead",
                        TableReason.HOST_STAYS,
                        seat=seat,
                    )
                await self._set_seat(table, seat, None, "")
                await self._lobby_changed(table, N_("{name} was removed"), name=name)
            else:
                if table.seats[seat].computer_plays and table.seats[seat].user_id is None:
                    raise Refusal(
                        "a computer already plays that seat", TableReason.COMPUTER_PLAYS, seat=seat
                    )
                await self._vacate(
                    table, seat, N_("{name} was removed; a computer plays their seat")
                )
            return view_of(table)

    async def cancel(self, table: Table, actor_id: int, *, is_admin: bool) -> None:
        async with table.lock:
            _require_host(table, actor_id, is_admin, "cancel the table")
            await self._closing.close(table, TableStatus.CANCELLED, N_("the table was cancelled"))

    async def start(self, table: Table, actor_id: int, *, is_admin: bool) -> TableView:
        """Start the match, filling empty seats with computers at the table's level."""
        async with table.lock:
            _require_host(table, actor_id, is_admin, "start the match")
            _require_lobby(table)
            level = table.settings.computer_level
            for seat in table.empty_seats():
                await self._set_seat(table, seat, Computer(level), computer_name(seat))
            table.stop_lobby_timer()
            table.seed = self._rng.getrandbits(63)
            names = [seat.name for seat in table.seats]
            store = self._context.store
            try:
                info = await store.matches.create_match(
                    table.table_id, names, seed=table.seed, rules=table.rules
                )
                await store.tables.update_table(table.table_id, status=TableStatus.PLAYING)
            except StoreError:
                log.exception("table %s: the match could not be created", table.table_id)
                self.restart_idle_timer(table)  # still a lobby, which may still go idle
                raise Refusal(
                    "sorry, the match could not be started; please try again",
                    TableReason.NOT_SAVED,
                ) from None
            table.status = TableStatus.PLAYING
            table.match_id, table.turn = info.match_id, 0
            table.match = Match(names, first_dealer=info.first_dealer, rules=table.rules)
            await self._lobby_changed(table, N_("the match starts"))
            await self._play.next_deal(table)
            await self._turns.after_change(table)
            return view_of(table)

    async def _set_seat(
        self, table: Table, seat: int, occupant: Human | Computer | None, name: str
    ) -> None:
        await self._context.store.tables.update_table(
            table.table_id, seats={seat: occupant}, names={seat: name}
        )
        table.seats[seat] = Seat(occupant, name)

    async def _new_host(self, table: Table, host_id: int) -> None:
        await self._context.store.tables.update_table(table.table_id, host_id=host_id)
        table.host_id = host_id

    async def _vacate(self, table: Table, seat: int, what: str) -> bool:
        """A computer plays the seat from now on; True if that left no person at the
        table, which cancels the match (a match of computers only counts for nobody).
        ``what`` says so, with ``{name}`` the seat's player."""
        level = table.settings.computer_level
        name = table.seats[seat].name
        await self._context.store.tables.update_table(table.table_id, seats={seat: Computer(level)})
        table.seats[seat] = Seat(Computer(level), name, vacated=True)
        if not table.humans():
            await self._closing.close(table, TableStatus.CANCELLED, EVERYONE_LEFT_THE_MATCH)
            return True
        if table.seat_of(table.host_id) is None:
            await self._new_host(table, table.humans()[0])
        await self._lobby_changed(table, what, name=name)
        await self._turns.after_change(table)
        return False

    async def _lobby_changed(self, table: Table, what: str, **values: str) -> None:
        """Announce the change ``what`` (a catalogue message; ``values`` fill it in)."""
        if table.status is TableStatus.LOBBY:
            self.restart_idle_timer(table)
        words = (what, tuple(values.items()))
        event = ev.LobbyChanged(table.table_id, table.channel_id, what.format(**values), words)
        await self._context.emit(event)

    def restart_idle_timer(self, table: Table) -> None:
        """The lobby closes by itself after ``LOBBY_IDLE_SECONDS`` without a change."""
        table.stop_lobby_timer()
        table.lobby_timer = asyncio.create_task(self._lobby_idle(table))

    async def _lobby_idle(self, table: Table) -> None:
        await asyncio.sleep(LOBBY_IDLE_SECONDS * self._context.time_scale)
        async with table.lock:
            if table.status is TableStatus.LOBBY and self._context.registry.is_open(table):
                await self._closing.close(
                    table, TableStatus.CANCELLED, N_("the lobby was idle for 15 minutes")
                )


def _require_host(table: Table, actor_id: int, is_admin: bool, what: str) -> None:
    """The host, or someone the front end counts as an administrator (``is_admin``)."""
    if actor_id != table.host_id and not is_admin:
        raise Refusal(
            f"only the host or an administrator can {what}", TableReason.NOT_HOST, subject=what
        )


def _require_lobby(table: Table) -> None:
    if table.status is not TableStatus.LOBBY:
        raise Refusal("the match has already started", TableReason.ALREADY_STARTED)
