"""The table service: lobby, turns, timers, computer seats and recovery.

It runs every table and knows nothing of Discord: callers pass ids and names, and what
happens comes back as :mod:`bot.tables.events` through one ``publish`` callback. Each
table has its own lock, so tables never wait for each other; a human's action is checked
by the engine, stored (committed) and only then applied and announced, so a refusal or a
failed write leaves the table exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import (
    Action,
    Choose,
    Double,
    IllegalAction,
    Match,
    MatchPhase,
    Play,
    RecordError,
    SeatView,
    deal_hands,
    from_record,
    seat_view,
    to_record,
)
from bot.store import (
    AlreadyStored,
    Computer,
    Conflict,
    Human,
    Rater,
    Store,
    StoreError,
    TableRecord,
    TableSettings,
    TableStatus,
)

from . import events as ev
from .computers import LEVELS, Decider, move_seed, random_decider
from .errors import Refusal
from .table import SEAT_NAMES, Seat, Table, TableView, view_of

log = logging.getLogger(__name__)

Publish = Callable[[ev.Event], Awaitable[None]]

LOBBY_IDLE_SECONDS = 15 * 60
AWAY_AFTER_TIMEOUTS = 2
RESTORE_GRACE = 0.2
"""After a restart a human gets at least this share of the turn time back."""
RETRY_SECONDS = 2.0
"""A computer whose move could not be stored tries again after this long."""
COMPUTER_WRITES = 8
"""Computer moves being stored at once, over all tables. The store writes one action at
a time, in turn; without this bound every table's computer would queue a write, and a
human's action would wait behind all of them (hundreds at 500 busy tables). With it, a
human's action waits behind at most this many computer moves."""


class TableService:
    """Every table of the bot. Public methods raise :class:`Refusal` for bad requests."""

    def __init__(
        self,
        store: Store,
        publish: Publish,
        *,
        decide: Decider = random_decider,
        pace: float = 1.0,
        time_scale: float = 1.0,
        rater: Rater | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """``pace``: seconds a computer waits before each move, so people can follow (0 in
        tests). ``time_scale`` multiplies every timer (turns and the idle lobby)."""
        self._store = store
        self._publish = publish
        self._decide = decide
        self._pace = pace
        self._time_scale = time_scale
        self._rater = rater
        self._rng = rng or random.Random()
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}
        self._computer_writes = asyncio.Semaphore(COMPUTER_WRITES)

    # -- looking things up --------------------------------------------------------------

    def table_in_channel(self, channel_id: int) -> TableView | None:
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else view_of(self._tables[table_id])

    def view(self, table_id: int) -> TableView:
        return view_of(self._table(table_id))

    def tables(self) -> list[TableView]:
        return [view_of(table) for table in self._tables.values()]

    def hand(self, table_id: int, user_id: int) -> tuple[SeatView, int]:
        """The seat view of ``user_id`` at this table, with the turn its buttons carry."""
        table = self._table(table_id)
        seat = self._seated(table, user_id)
        if table.match is None:
            raise Refusal("the match has not started yet")
        return seat_view(table.match, seat), table.turn

    def scores(self, table_id: int) -> list[tuple[int, str, tuple[int, ...], tuple[int, ...]]]:
        """(deal number, contract, base, final) for every deal chosen so far."""
        match = self._table(table_id).match
        if match is None:
            return []
        return [
            (number, deal.contract.id, tuple(deal.base), tuple(deal.final_scores()))
            for number, deal in enumerate(match.deals, start=1)
            if deal.contract is not None
        ]

    def record(self, table_id: int) -> dict[str, Any] | None:
        """The match record of the table's match so far (None before it starts)."""
        table = self._table(table_id)
        if table.match is None:
            return None
        return to_record(table.match, seed=table.seed)

    async def remember_message(self, table_id: int, role: str, message_id: int | None) -> None:
        """Keep a front end's message id (e.g. the table message) across restarts."""
        table = self._table(table_id)
        await self._store.tables.update_table(table_id, messages={role: message_id})
        if message_id is None:
            table.messages.pop(role, None)
        else:
            table.messages[role] = message_id

    def _table(self, table_id: int) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise Refusal("that table is closed")
        return table

    def _in_channel(self, channel_id: int) -> Table:
        table_id = self._by_channel.get(channel_id)
        if table_id is None:
            raise Refusal("there is no Bonken table in this channel; open one with /bonken new")
        return self._tables[table_id]

    @staticmethod
    def _seated(table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("you are not seated at this table")
        return seat

    # -- the lobby ----------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        settings: TableSettings | None = None,
        *,
        host_seated: bool = True,
    ) -> TableView:
        """Open a table in the channel, with the host in the first seat (unless the host
        only hosts, as in the all-computer demo)."""
        if channel_id in self._by_channel:
            raise Refusal("this channel already has a Bonken table")
        if settings is not None and settings.computer_level not in LEVELS:
            raise Refusal(f"computer level must be one of {', '.join(LEVELS)}")
        try:
            record = await self._store.tables.create_table(guild_id, channel_id, host_id, settings)
            if host_seated:
                await self._store.tables.update_table(
                    record.table_id, seats={0: Human(host_id)}, names={0: host_name}
                )
        except Conflict:
            raise Refusal("this channel already has a Bonken table") from None
        table = self._from_record(record)
        if host_seated:
            table.seats[0] = Seat(Human(host_id), host_name)
        self._add(table)
        await self._lobby_changed(table, f"{host_name} opened the table")
        return view_of(table)

    async def join(self, channel_id: int, user_id: int, name: str) -> TableView:
        """Take the first empty seat in the lobby, or a seat left during the match."""
        table = self._in_channel(channel_id)
        async with table.lock:
            if table.seat_of(user_id) is not None:
                raise Refusal("you are already seated at this table")
            if table.status is TableStatus.LOBBY:
                free = table.empty_seats()
                if not free:
                    raise Refusal("the table is full")
                seat = free[0]
                await self._set_seat(table, seat, Human(user_id), name)
                await self._lobby_changed(table, f"{name} joined")
            else:
                vacated = [i for i, s in enumerate(table.seats) if s.vacated]
                if not vacated:
                    raise Refusal("the match is under way and no seat is free")
                seat = vacated[0]
                await self._set_seat(table, seat, Human(user_id), table.seats[seat].name)
                await self._lobby_changed(
                    table, f"{name} took over {table.seats[seat].name}'s seat"
                )
                await self._after_change(table)
            return view_of(table)

    async def leave(self, channel_id: int, user_id: int) -> TableView | None:
        """Leave the lobby, or leave the match (a computer plays the seat from now on)."""
        table = self._in_channel(channel_id)
        async with table.lock:
            seat = self._seated(table, user_id)
            name = table.seats[seat].name
            if table.status is TableStatus.LOBBY:
                await self._set_seat(table, seat, None, "")
                if not table.humans():
                    await self._close(table, TableStatus.CANCELLED, "everyone left the lobby")
                    return None
                if user_id == table.host_id:
                    await self._new_host(table, table.humans()[0])
                await self._lobby_changed(table, f"{name} left")
            else:
                await self._vacate(table, seat, f"{name} left; a computer plays their seat")
            return view_of(table)

    async def add_computer(
        self, channel_id: int, actor_id: int, level: str | None = None, *, is_admin: bool = False
    ) -> TableView:
        table = self._in_channel(channel_id)
        async with table.lock:
            self._require_host(table, actor_id, is_admin, "add computer players")
            self._require_lobby(table)
            level = level or table.settings.computer_level
            if level not in LEVELS:
                raise Refusal(f"computer level must be one of {', '.join(LEVELS)}")
            free = table.empty_seats()
            if not free:
                raise Refusal("the table is full")
            seat = free[0]
            await self._set_seat(table, seat, Computer(level), _computer_name(seat))
            await self._lobby_changed(table, f"a {level} computer player sits down")
            return view_of(table)

    async def kick(
        self, channel_id: int, actor_id: int, seat: int, *, is_admin: bool = False
    ) -> TableView:
        """Empty a seat (lobby) or hand it to a computer (match): host or Manage Server."""
        table = self._in_channel(channel_id)
        async with table.lock:
            self._require_host(table, actor_id, is_admin, "remove players")
            if seat not in range(4) or table.seats[seat].occupant is None:
                raise Refusal("nobody sits in that seat")
            name = table.seats[seat].name
            if table.status is TableStatus.LOBBY:
                if table.seats[seat].user_id == table.host_id:
                    raise Refusal("the host cannot be removed; cancel the table instead")
                await self._set_seat(table, seat, None, "")
                await self._lobby_changed(table, f"{name} was removed")
            else:
                if table.seats[seat].computer_plays and table.seats[seat].user_id is None:
                    raise Refusal("a computer already plays that seat")
                await self._vacate(table, seat, f"{name} was removed; a computer plays their seat")
            return view_of(table)

    async def cancel(self, channel_id: int, actor_id: int, *, is_admin: bool = False) -> None:
        table = self._in_channel(channel_id)
        async with table.lock:
            self._require_host(table, actor_id, is_admin, "cancel the table")
            await self._close(table, TableStatus.CANCELLED, "the table was cancelled")

    async def start(self, channel_id: int, actor_id: int, *, is_admin: bool = False) -> TableView:
        """Start the match, filling empty seats with computers at the table's level."""
        table = self._in_channel(channel_id)
        async with table.lock:
            self._require_host(table, actor_id, is_admin, "start the match")
            self._require_lobby(table)
            level = table.settings.computer_level
            for seat in table.empty_seats():
                await self._set_seat(table, seat, Computer(level), _computer_name(seat))
            self._stop_lobby_timer(table)
            table.seed = self._rng.getrandbits(63)
            names = [seat.name for seat in table.seats]
            try:
                info = await self._store.matches.create_match(
                    table.table_id, names, seed=table.seed
                )
                await self._store.tables.update_table(table.table_id, status=TableStatus.PLAYING)
            except StoreError:
                log.exception("table %s: the match could not be created", table.table_id)
                self._restart_lobby_timer(table)  # still a lobby, which may still go idle
                raise Refusal("sorry, the match could not be started; please try again") from None
            table.status = TableStatus.PLAYING
            table.match_id, table.turn = info.match_id, 0
            table.match = Match(names, first_dealer=info.first_dealer)
            await self._lobby_changed(table, "the match starts")
            await self._next_deal(table)
            await self._after_change(table)
            return view_of(table)

    def _require_host(self, table: Table, actor_id: int, is_admin: bool, what: str) -> None:
        if actor_id != table.host_id and not is_admin:
            raise Refusal(f"only the host or a member with Manage Server can {what}")

    @staticmethod
    def _require_lobby(table: Table) -> None:
        if table.status is not TableStatus.LOBBY:
            raise Refusal("the match has already started")

    async def _set_seat(
        self, table: Table, seat: int, occupant: Human | Computer | None, name: str
    ) -> None:
        await self._store.tables.update_table(
            table.table_id, seats={seat: occupant}, names={seat: name}
        )
        table.seats[seat] = Seat(occupant, name)

    async def _new_host(self, table: Table, host_id: int) -> None:
        await self._store.tables.update_table(table.table_id, host_id=host_id)
        table.host_id = host_id

    async def _vacate(self, table: Table, seat: int, what: str) -> None:
        level = table.settings.computer_level
        name = table.seats[seat].name
        await self._store.tables.update_table(table.table_id, seats={seat: Computer(level)})
        table.seats[seat] = Seat(Computer(level), name, vacated=True)
        if not table.humans():
            await self._close(table, TableStatus.CANCELLED, "every player left the match")
            return
        if table.seat_of(table.host_id) is None:
            await self._new_host(table, table.humans()[0])
        await self._lobby_changed(table, what)
        await self._after_change(table)

    async def _lobby_changed(self, table: Table, what: str) -> None:
        if table.status is TableStatus.LOBBY:
            self._restart_lobby_timer(table)
        await self._emit(ev.LobbyChanged(table.table_id, table.channel_id, what))

    # -- playing ------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, turn: int | None, action: Action) -> None:
        """A human's action. ``turn`` is the number their button carried (None: now)."""
        table = self._table(table_id)
        async with table.lock:
            if table.match is None or table.status is not TableStatus.PLAYING:
                raise Refusal("the match has not started yet")
            seat = self._seated(table, user_id)
            if turn is not None and turn != table.turn:
                raise Refusal("that was for an earlier turn")
            if table.match.to_act != seat:
                to_act = table.match.to_act
                whose = "nobody's" if to_act is None else f"{table.seats[to_act].name}'s"
                raise Refusal(f"it is not your turn; it is {whose} turn")
            try:
                table.match.check(action, seat)
            except IllegalAction as error:
                raise Refusal(str(error)) from None

            async def stored() -> None:
                await self._bring_back(table, seat)
                table.seats[seat].timeouts = 0

            await self._accept(table, seat, action, by_computer=False, stored=stored)

    async def act_in_channel(self, channel_id: int, user_id: int, action: Action) -> None:
        """A slash command's action: the table of the channel, the current turn."""
        await self.act(self._in_channel(channel_id).table_id, user_id, None, action)

    async def take_back(self, channel_id: int, user_id: int) -> None:
        """``/bonken back``: the player takes their seat back from the computer."""
        table = self._in_channel(channel_id)
        async with table.lock:
            seat = self._seated(table, user_id)
            if not table.seats[seat].away:
                raise Refusal("you are playing your seat already")
            await self._bring_back(table, seat)
            await self._after_change(table)

    async def _bring_back(self, table: Table, seat: int) -> None:
        state = table.seats[seat]
        if state.away:
            state.away = False
            state.timeouts = 0
            assert state.user_id is not None
            await self._emit(ev.SeatBack(table.table_id, table.channel_id, seat, state.user_id))

    async def _accept(
        self,
        table: Table,
        seat: int,
        action: Action,
        *,
        by_computer: bool,
        stored: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Store, apply and announce one checked action. Call with the lock held.

        ``stored`` runs once the action is safely stored, before it is applied: what the
        caller changes there (a seat coming back, a timeout counted) never happens for an
        action the store refused."""
        match, match_id = table.match, table.match_id
        assert match is not None and match_id is not None
        try:
            await self._store.matches.append_action(
                match_id, table.turn, seat, action, by_computer=by_computer
            )
        except AlreadyStored:
            raise Refusal("that was for an earlier turn") from None
        except StoreError:
            log.exception("table %s: could not store action %s", table.table_id, action)
            raise Refusal("sorry, that could not be saved; please try again") from None
        if stored is not None:
            await stored()
        deal = match.deal
        assert deal is not None
        tricks_before = len(deal.tricks)
        doubled_before = [row[:] for row in deal.multipliers]
        match.apply(action)
        table.turn += 1
        computer = by_computer or isinstance(table.seats[seat].occupant, Computer)
        base = (table.table_id, table.channel_id)
        if isinstance(action, Choose):
            await self._emit(ev.ContractChosen(*base, seat, action.contract, computer))
        elif isinstance(action, Double):
            redoubles = tuple(sorted(t for t in action.targets if doubled_before[t][seat]))
            doubles = tuple(sorted(t for t in action.targets if not doubled_before[t][seat]))
            await self._emit(ev.Doubled(*base, seat, doubles, redoubles, computer))
        elif isinstance(action, Play):
            await self._emit(ev.CardPlayed(*base, seat, action.card, computer))
            if len(deal.tricks) > tricks_before:
                trick = deal.tricks[-1]
                ended_early = deal.is_done and trick.number < 13
                await self._emit(
                    ev.TrickTaken(
                        *base,
                        trick.number,
                        tuple(trick.played()),
                        trick.winner,
                        trick.points,
                        ended_early,
                    )
                )
        if deal.is_done:
            await self._emit(
                ev.DealScored(
                    *base,
                    len(match.deals),
                    deal.contract.id if deal.contract else "",
                    tuple(deal.base),
                    tuple(deal.final_scores()),
                    tuple(tuple(row) for row in deal.multipliers),
                    tuple(match.totals()),
                    tuple(deal.out),
                )
            )
            if not await self._between_deals(table):
                return
        await self._after_change(table)

    async def _between_deals(self, table: Table) -> bool:
        """Deal the next deal, or finish the match; True if play goes on at this table.

        The action before it is stored already, so a failed write here must not be
        reported to the player: it is logged and retried until the store takes it."""
        match = table.match
        assert match is not None
        try:
            if match.is_over:
                await self._finish(table)
                return False
            await self._next_deal(table)
            return True
        except StoreError:
            log.exception("table %s: could not store the next deal or the result", table.table_id)
            table.driver = asyncio.create_task(self._retry_between_deals(table))
            return False

    async def _retry_between_deals(self, table: Table) -> None:
        await asyncio.sleep(RETRY_SECONDS * self._time_scale)
        async with table.lock:
            if table.status is TableStatus.PLAYING and await self._between_deals(table):
                table.driver = None  # this task ends here; the computers get their own
                await self._after_change(table)

    async def _next_deal(self, table: Table) -> None:
        match = table.match
        assert match is not None and table.match_id is not None
        number = len(match.deals)
        hands = deal_hands(random.Random(f"{table.seed}:{number}"))
        with contextlib.suppress(AlreadyStored):  # stored before a crash, not yet replayed
            await self._store.matches.append_deal(table.match_id, number, hands)
        deal = match.start_deal(hands)
        await self._emit(
            ev.DealStarted(table.table_id, table.channel_id, number + 1, deal.dealer, deal.chooser)
        )

    async def _finish(self, table: Table) -> None:
        match = table.match
        assert match is not None and table.match_id is not None
        await self._store.matches.finish_match(table.match_id, rater=self._rater)
        record = await self._store.matches.load_record(table.match_id)
        await self._emit(
            ev.MatchEnded(
                table.table_id,
                table.channel_id,
                table.match_id,
                match.players,
                tuple(match.totals()),
                tuple(match.ranking()),
                record,
            )
        )
        await self._close(table, TableStatus.FINISHED, "the match is over")

    # -- turns: timers and computers ----------------------------------------------------

    async def _after_change(self, table: Table, first_timer: float | None = None) -> None:
        """Announce whose turn it is and start their timer or their computer."""
        self._stop_timer(table)
        match = table.match
        if match is None or match.to_act is None or table.status is not TableStatus.PLAYING:
            return
        seat = match.to_act
        kind = table.turn_kind()
        assert kind is not None
        state = table.seats[seat]
        if state.computer_plays:
            seconds = None
            if table.driver is None or table.driver.done():
                table.driver = asyncio.create_task(self._drive(table))
        else:
            seconds = first_timer if first_timer is not None else table.turn_seconds()
            table.timer = asyncio.create_task(self._turn_timer(table, table.turn, seconds))
        await self._emit(
            ev.TurnStarted(table.table_id, table.channel_id, seat, kind, table.turn, seconds)
        )

    async def _turn_timer(self, table: Table, turn: int, seconds: float) -> None:
        half = seconds * self._time_scale / 2
        await asyncio.sleep(half)
        async with table.lock:
            seat = table.match.to_act if table.match else None
            if table.turn != turn or seat is None:
                return
            user_id = table.seats[seat].user_id
            if user_id is not None:
                await self._emit(
                    ev.Reminder(table.table_id, table.channel_id, seat, user_id, seconds / 2)
                )
        await asyncio.sleep(half)
        table.timer = None  # expiry acts itself; it must not cancel its own task
        with contextlib.suppress(Refusal):  # the store failed; expire_turn set a new timer
            await self.expire_turn(table.table_id, turn)

    async def expire_turn(self, table_id: int, turn: int) -> bool:
        """The turn ran out: a computer acts for the human. False if the turn had moved on."""
        table = self._tables.get(table_id)
        if table is None:
            return False
        seat = self._human_to_act(table, turn)
        if seat is None:
            return False
        # Think without the lock, so the player's own late click is not kept waiting.
        action = await self._computer_move(table, seat)
        async with table.lock:
            if self._human_to_act(table, turn) != seat:
                return False  # the player acted (or left) while the computer thought
            state = table.seats[seat]
            assert state.user_id is not None
            base = (table.table_id, table.channel_id, seat, state.user_id)

            async def stored() -> None:
                state.timeouts += 1
                await self._emit(ev.TimedOut(*base))
                if state.timeouts >= AWAY_AFTER_TIMEOUTS:
                    state.away = True
                    await self._emit(ev.SeatAway(*base))

            try:
                await self._accept(table, seat, action, by_computer=True, stored=stored)
            except Refusal:
                # Not stored: the player keeps the turn, and the timer tries again later.
                self._stop_timer(table)
                seconds = table.turn_seconds()
                table.timer = asyncio.create_task(self._turn_timer(table, turn, seconds))
                raise
            return True

    @staticmethod
    def _human_to_act(table: Table, turn: int) -> int | None:
        """The seat of the human whose turn ``turn`` still is, or None."""
        match = table.match
        if match is None or table.turn != turn or match.to_act is None:
            return None
        if table.status is not TableStatus.PLAYING:
            return None
        state = table.seats[match.to_act]
        if state.computer_plays or state.user_id is None:
            return None
        return match.to_act

    async def _drive(self, table: Table) -> None:
        """Make the computers' moves, one at a time, until a human is to act."""
        while table.status is TableStatus.PLAYING:
            async with table.lock:
                match = table.match
                if match is None or match.to_act is None:
                    return
                seat = match.to_act
                if not table.seats[seat].computer_plays:
                    return
                turn = table.turn
            if self._pace:
                await asyncio.sleep(self._pace)
            action = await self._computer_move(table, seat)
            async with self._computer_writes, table.lock:
                if table.status is not TableStatus.PLAYING:
                    return  # cancelled while it thought
                if table.turn != turn or not table.seats[seat].computer_plays:
                    continue  # a human came back or the table moved on while it thought
                by_computer = not isinstance(table.seats[seat].occupant, Computer) or (
                    table.seats[seat].vacated
                )
                try:
                    await self._accept(table, seat, action, by_computer=by_computer)
                    continue
                except Refusal:
                    log.warning("table %s: a computer move was not stored", table.table_id)
            await asyncio.sleep(RETRY_SECONDS * self._time_scale)  # the store failed; retry

    async def _computer_move(self, table: Table, seat: int) -> Action:
        match = table.match
        assert match is not None
        occupant = table.seats[seat].occupant
        level = occupant.level if isinstance(occupant, Computer) else table.settings.computer_level
        view = seat_view(match, seat)
        seed = move_seed(table.seed, table.turn)
        try:
            action = await self._decide(level, view, seed)
        except Exception:
            # A crashed worker or a player bug must not stop the table: move at random.
            log.exception(
                "table %s: the %s computer failed; moving at random", table.table_id, level
            )
            return await random_decider(level, view, seed)
        if action not in view.legal:
            log.error(
                "table %s: computer chose illegal %s; using a legal one", table.table_id, action
            )
            action = view.legal[0]
        return action

    async def settle(self) -> None:
        """Wait until no computer is thinking or about to move (for tests and the demo)."""
        while True:
            drivers = [t.driver for t in self._tables.values() if t.driver and not t.driver.done()]
            if not drivers:
                return
            await asyncio.gather(*drivers, return_exceptions=True)

    # -- lobby idle timer ---------------------------------------------------------------

    def _restart_lobby_timer(self, table: Table) -> None:
        self._stop_lobby_timer(table)
        self._lobby_timers[table.table_id] = asyncio.create_task(self._lobby_idle(table))

    def _stop_lobby_timer(self, table: Table) -> None:
        task = self._lobby_timers.pop(table.table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _lobby_idle(self, table: Table) -> None:
        await asyncio.sleep(LOBBY_IDLE_SECONDS * self._time_scale)
        async with table.lock:
            if table.status is TableStatus.LOBBY and self._tables.get(table.table_id) is table:
                await self._close(table, TableStatus.CANCELLED, "the lobby was idle for 15 minutes")

    # -- closing, restoring -------------------------------------------------------------

    async def _close(self, table: Table, status: TableStatus, reason: str) -> None:
        if table.match_id is not None and status is TableStatus.CANCELLED:
            with contextlib.suppress(Conflict):  # already finished or cancelled
                await self._store.matches.cancel_match(table.match_id)
        await self._store.tables.update_table(table.table_id, status=status)
        table.status = status
        self._stop_timer(table)
        self._stop_lobby_timer(table)
        self._tables.pop(table.table_id, None)
        self._by_channel.pop(table.channel_id, None)
        finished = status is TableStatus.FINISHED
        await self._emit(ev.TableClosed(table.table_id, table.channel_id, reason, finished))

    async def restore(self) -> int:
        """Rebuild every open table from the store and resume its timers and computers."""
        restored = 0
        for record in await self._store.tables.open_tables():
            if record.table_id in self._tables:
                continue
            try:
                await self._restore_table(record)
            except StoreError:
                # Perhaps passing (a locked file): keep the others running, try at next start.
                log.exception("table %s could not be restored", record.table_id)
                continue
            except RecordError:
                # Its stored match breaks a rule (a bug): close it so the channel is free
                # again; its actions stay for `python -m bot.store record`.
                log.exception("table %s does not replay; it is cancelled", record.table_id)
                await self._cancel_unreplayable(record)
                continue
            restored += 1
        return restored

    async def _cancel_unreplayable(self, record: TableRecord) -> None:
        self._tables.pop(record.table_id, None)
        self._by_channel.pop(record.channel_id, None)
        with contextlib.suppress(StoreError):
            if record.match_id is not None:
                await self._store.matches.cancel_match(record.match_id)
            await self._store.tables.update_table(record.table_id, status=TableStatus.CANCELLED)

    async def _restore_table(self, record: TableRecord) -> None:
        table = self._from_record(record)
        await self._restore_match(table, record)
        self._add(table)
        if table.status is TableStatus.LOBBY:
            self._restart_lobby_timer(table)
            return
        match = table.match
        assert match is not None
        async with table.lock:
            # The crash may have fallen between two deals, or before the results were stored.
            between = match.phase in (MatchPhase.NEEDS_DEAL, MatchPhase.OVER)
            if between and not await self._between_deals(table):
                return
            await self._after_change(table, first_timer=await self._time_left(table))

    async def _restore_match(self, table: Table, record: TableRecord) -> None:
        if record.match_id is None:
            for seat, (occupant, name) in enumerate(zip(record.seats, record.names, strict=True)):
                if occupant is not None:
                    table.seats[seat] = Seat(occupant, name or _name_of(occupant, seat))
            return
        info = await self._store.matches.get_match(record.match_id)
        data = await self._store.matches.load_record(record.match_id)
        table.match = await asyncio.to_thread(from_record, data)
        table.match_id, table.seed, table.turn = info.match_id, info.seed or 0, info.actions
        for seat, occupant in enumerate(record.seats):
            original = info.seats[seat]
            vacated = isinstance(occupant, Computer) and isinstance(original.occupant, Human)
            table.seats[seat] = Seat(occupant, original.name, vacated=vacated)

    async def _time_left(self, table: Table) -> float:
        assert table.match_id is not None
        info = await self._store.matches.get_match(table.match_id)
        full = table.turn_seconds()
        if info.last_action_at is None:
            return full
        spent = time.time() - info.last_action_at.timestamp()
        return max(full - spent, full * RESTORE_GRACE)

    def _from_record(self, record: TableRecord) -> Table:
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

    def _add(self, table: Table) -> None:
        self._tables[table.table_id] = table
        self._by_channel[table.channel_id] = table.table_id

    def _stop_timer(self, table: Table) -> None:
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None

    async def close(self) -> None:
        """Stop every timer and computer (the bot is shutting down; the store keeps all)."""
        for table in list(self._tables.values()):
            self._stop_timer(table)
            if table.driver is not None:
                table.driver.cancel()
        for task in self._lobby_timers.values():
            task.cancel()
        self._lobby_timers.clear()

    # -- events -------------------------------------------------------------------------

    async def _emit(self, event: ev.Event) -> None:
        try:
            await self._publish(event)
        except Exception:
            log.exception("publishing %s failed", type(event).__name__)


def _computer_name(seat: int) -> str:
    """Computers are named after their seat; the level shows on the table, not in names."""
    return f"{SEAT_NAMES[seat]} bot"


def _name_of(occupant: Human | Computer, seat: int) -> str:
    if isinstance(occupant, Computer):
        return _computer_name(seat)
    return f"<@{occupant.user_id}>"
