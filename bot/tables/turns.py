"""Turns: a human's action, whose move it is next, the human's timer and the computers
that move by themselves.

Given the :class:`~bot.tables.play.Play` that stores and applies actions. A computer
thinks without holding the table's lock and applies its move only if the turn is still
the one it thought about.
"""

from __future__ import annotations

import asyncio
import logging

from bot.engine import Action, IllegalAction, Phase, Reason, seat_view
from bot.store import Computer, TableStatus

from . import events as ev
from .computers import Decider, move_seed, random_decider
from .context import Context, seated
from .errors import Refusal, TableReason
from .play import Next, Play
from .table import Table

log = logging.getLogger(__name__)

AWAY_AFTER_TIMEOUTS = 2
RETRY_SECONDS = 2.0
"""A computer whose move could not be stored tries again after this long."""
COMPUTER_WRITES = 8
"""Computer moves being stored at once, over all tables. The store writes one action at
a time, in turn; without this bound every table's computer would queue a write, and a
human's action would wait behind all of them (hundreds at 500 busy tables). With it, a
human's action waits behind at most this many computer moves."""


def on_turn(table: Table, user_id: int, turn: int | None, phase: Phase | None = None) -> int:
    """The seat of ``user_id`` if it is their turn ``turn`` (the number their button
    carried; None: now), and the match is in ``phase`` if one is given; else the refusal
    that says why not. The one check of whose turn it is, for an action and for what
    leads to one (a menu of trumps, a doubling's targets)."""
    if table.match is None or table.status is not TableStatus.PLAYING:
        raise Refusal("the match has not started yet", TableReason.NOT_STARTED)
    seat = seated(table, user_id)
    if turn is not None and turn != table.turn:
        raise Refusal("that was for an earlier turn", TableReason.STALE_TURN)
    to_act = table.match.to_act
    if to_act != seat:
        whose = "nobody's" if to_act is None else f"{table.seats[to_act].name}'s"
        raise Refusal(
            f"it is not your turn; it is {whose} turn", TableReason.NOT_YOUR_TURN, seat=to_act
        )
    if phase is not None and table.turn_kind() is not phase:
        raise Refusal("you cannot do that now", Reason.WRONG_PHASE)
    return seat


class Turns:
    """After every change: announce whose turn it is, then time the human or let the
    computer move; the timer's expiry, when a computer moves for the human."""

    def __init__(self, context: Context, play: Play, *, decide: Decider, pace: float) -> None:
        """``pace``: seconds a computer waits before each move, so people can follow."""
        self._context = context
        self._play = play
        self._decide = decide
        self.pace = pace
        self._computer_writes = asyncio.Semaphore(COMPUTER_WRITES)

    # -- a human acts -------------------------------------------------------------------

    async def act(self, table: Table, user_id: int, turn: int | None, action: Action) -> None:
        """A human's action. ``turn`` is the number their button carried (None: now)."""
        async with table.lock:
            seat = on_turn(table, user_id, turn)
            assert table.match is not None
            try:
                table.match.check(action, seat)
            except IllegalAction as error:
                raise Refusal.illegal(error, action) from None

            async def stored() -> None:
                await self._bring_back(table, seat)
                table.seats[seat].timeouts = 0

            after = await self._play.accept(table, seat, action, by_computer=False, stored=stored)
            await self.carry_on(table, after)

    async def take_back(self, table: Table, user_id: int) -> None:
        """The player takes their seat back from the computer."""
        async with table.lock:
            seat = seated(table, user_id)
            if not table.seats[seat].away:
                raise Refusal("you are playing your seat already", TableReason.PLAYING_ALREADY)
            await self._bring_back(table, seat)
            await self.after_change(table)

    async def _bring_back(self, table: Table, seat: int) -> None:
        state = table.seats[seat]
        if state.away:
            state.away = False
            state.timeouts = 0
            assert state.user_id is not None
            await self._context.emit(
                ev.SeatBack(table.table_id, table.channel_id, seat, state.user_id)
            )

    # -- what comes next ----------------------------------------------------------------

    async def carry_on(self, table: Table, after: Next) -> None:
        """Go on after an action or a deal: time the next turn, or retry a failed write
        between deals (the driver task does, until the store takes it)."""
        if after is Next.PLAY_ON:
            await self.after_change(table)
        elif after is Next.STALLED:
            table.stop_timer()
            table.driver = asyncio.create_task(self._retry_between_deals(table))

    async def _retry_between_deals(self, table: Table) -> None:
        await asyncio.sleep(RETRY_SECONDS * self._context.time_scale)
        async with table.lock:
            if table.status is not TableStatus.PLAYING:
                return
            after = await self._play.between_deals(table)
            if after is Next.PLAY_ON:
                table.driver = None  # this task ends here; the computers get their own
            await self.carry_on(table, after)

    async def after_change(self, table: Table, first_timer: float | None = None) -> None:
        """Announce whose turn it is and start their timer or their computer."""
        table.stop_timer()
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
        await self._context.emit(
            ev.TurnStarted(table.table_id, table.channel_id, seat, kind, table.turn, seconds)
        )

    # -- the human's timer --------------------------------------------------------------

    async def _turn_timer(self, table: Table, turn: int, seconds: float) -> None:
        half = seconds * self._context.time_scale / 2
        await asyncio.sleep(half)
        async with table.lock:
            seat = table.match.to_act if table.match else None
            if table.turn != turn or seat is None:
                return
            user_id = table.seats[seat].user_id
            if user_id is not None:
                await self._context.emit(
                    ev.Reminder(table.table_id, table.channel_id, seat, user_id, seconds / 2)
                )
        await asyncio.sleep(half)
        table.timer = None  # expiry acts itself; it must not cancel its own task
        try:
            await self.expire_turn(table, turn)
        except Refusal:
            pass  # the store failed; expire_turn timed the turn again
        except Exception:
            # Never die silently: the player would keep the turn forever.
            log.exception("table %s: the turn's timeout failed; timing it again", table.table_id)
            async with table.lock:
                if table.timer is None and _human_to_act(table, turn) is not None:
                    self._time_again(table, turn)

    async def expire_turn(self, table: Table, turn: int) -> bool:
        """The turn ran out: a computer acts for the human. False if the turn had moved on."""
        seat = _human_to_act(table, turn)
        if seat is None:
            return False
        # Think without the lock, so the player's own late click is not kept waiting.
        action = await self._computer_move(table, seat)
        async with table.lock:
            if _human_to_act(table, turn) != seat:
                return False  # the player acted (or left) while the computer thought
            state = table.seats[seat]
            assert state.user_id is not None
            base = (table.table_id, table.channel_id, seat, state.user_id)

            async def stored() -> None:
                state.timeouts += 1
                await self._context.emit(ev.TimedOut(*base))
                if state.timeouts >= AWAY_AFTER_TIMEOUTS:
                    state.away = True
                    await self._context.emit(ev.SeatAway(*base))

            try:
                after = await self._play.accept(
                    table, seat, action, by_computer=True, stored=stored
                )
            except Refusal:
                self._time_again(table, turn)
                raise
            await self.carry_on(table, after)
            return True

    def _time_again(self, table: Table, turn: int) -> None:
        """The timeout was not carried out: the player keeps the turn, timed afresh."""
        table.stop_timer()
        table.timer = asyncio.create_task(self._turn_timer(table, turn, table.turn_seconds()))

    # -- the computers ------------------------------------------------------------------

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
            await asyncio.sleep(RETRY_SECONDS * self._context.time_scale)

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
        if self.pace:
            await asyncio.sleep(self.pace)
        action = await self._computer_move(table, seat)
        async with self._computer_writes, table.lock:
            if table.status is not TableStatus.PLAYING:
                return False  # cancelled while it thought
            if table.turn != turn or not table.seats[seat].computer_plays:
                return True  # a human came back or the table moved on while it thought
            by_computer = not isinstance(table.seats[seat].occupant, Computer) or (
                table.seats[seat].vacated
            )
            after = await self._play.accept(table, seat, action, by_computer=by_computer)
            await self.carry_on(table, after)
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
                "table %s: computer chose illegal %s; using a legal one",
                table.table_id,
                action.code,
            )
            action = view.legal[0]
        return action

    async def settle(self) -> None:
        """Wait until no computer is thinking or about to move (for tests and the demo)."""
        while True:
            drivers = [
                t.driver for t in self._context.registry.all() if t.driver and not t.driver.done()
            ]
            if not drivers:
                return
            await asyncio.gather(*drivers, return_exceptions=True)


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
