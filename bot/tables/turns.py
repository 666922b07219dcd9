"""Turns: whose move it is, the human's timer and the computers that move by themselves.

Part of :class:`~bot.tables.service.TableService`. A computer thinks without holding the
table's lock and applies its move only if the turn is still the one it thought about.
"""

from __future__ import annotations

import asyncio
import logging

from bot.engine import Action, seat_view
from bot.store import Computer, TableStatus

from . import events as ev
from .base import ServiceState
from .computers import move_seed, random_decider
from .errors import Refusal
from .table import Table

log = logging.getLogger(__name__)

AWAY_AFTER_TIMEOUTS = 2
RETRY_SECONDS = 2.0
"""A computer whose move could not be stored tries again after this long."""


class TurnKeeping(ServiceState):
    """After every change: announce whose turn it is, then time the human or let the
    computer move; and the timer's expiry, when a computer moves for the human."""

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
        try:
            await self.expire_turn(table.table_id, turn)
        except Refusal:
            pass  # the store failed; expire_turn timed the turn again
        except Exception:
            # Never die silently: the player would keep the turn forever.
            log.exception("table %s: the turn's timeout failed; timing it again", table.table_id)
            async with table.lock:
                if table.timer is None and self._human_to_act(table, turn) is not None:
                    self._time_again(table, turn)

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
                self._time_again(table, turn)
                raise
            return True

    def _time_again(self, table: Table, turn: int) -> None:
        """The timeout was not carried out: the player keeps the turn, timed afresh."""
        self._stop_timer(table)
        table.timer = asyncio.create_task(self._turn_timer(table, turn, table.turn_seconds()))

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
        """Make the computers' moves, one at a time, until a human is to act.

        It never stops while its table plays: a move the store refused (a full disk, say)
        or anything unexpected is logged and tried again after ``RETRY_SECONDS``, so the
        table goes on by itself once the cause is gone."""
        while table.status is TableStatus.PLAYING:
            try:
                if not await self._computer_turn(table):
                    return
                continue
            except Refusal as refusal:
                log.warning(
                    "table %s: a computer move was not stored (%s); retrying",
                    table.table_id,
                    refusal,
                )
            except Exception:
                log.exception("table %s: the computers' turn failed; retrying", table.table_id)
            await asyncio.sleep(RETRY_SECONDS * self._time_scale)

    async def _computer_turn(self, table: Table) -> bool:
        """One computer's move; False if no computer is to act (the driver's work is done).

        Raises :class:`Refusal` if the store did not take the move."""
        async with table.lock:
            match = table.match
            if match is None or match.to_act is None:
                return False
            seat = match.to_act
            if not table.seats[seat].computer_plays:
                return False
            turn = table.turn
        if self._pace:
            await asyncio.sleep(self._pace)
        action = await self._computer_move(table, seat)
        async with self._computer_writes, table.lock:
            if table.status is not TableStatus.PLAYING:
                return False  # cancelled while it thought
            if table.turn != turn or not table.seats[seat].computer_plays:
                return True  # a human came back or the table moved on while it thought
            by_computer = not isinstance(table.seats[seat].occupant, Computer) or (
                table.seats[seat].vacated
            )
            await self._accept(table, seat, action, by_computer=by_computer)
        return True

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

    def _stop_timer(self, table: Table) -> None:
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
