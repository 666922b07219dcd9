"""The table service: acting at a table, storing and announcing what happened.

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
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import (
    Action,
    Choose,
    Double,
    IllegalAction,
    Play,
    SeatView,
    deal_hands,
    public_record,
    seat_view,
    to_record,
)
from bot.store import (
    AlreadyStored,
    Computer,
    Conflict,
    MatchStatus,
    Rater,
    Store,
    StoreError,
    TableRecord,
    TableStatus,
)

from . import events as ev
from .base import Publish
from .computers import Decider, random_decider
from .errors import Refusal
from .history import deal_scored, trick_taken
from .lobby import LobbyActions
from .recovery import Recovery
from .table import Table, TableView, view_of
from .turns import RETRY_SECONDS, TurnKeeping

log = logging.getLogger(__name__)

COMPUTER_WRITES = 8
"""Computer moves being stored at once, over all tables. The store writes one action at
a time, in turn; without this bound every table's computer would queue a write, and a
human's action would wait behind all of them (hundreds at 500 busy tables). With it, a
human's action waits behind at most this many computer moves."""


class TableService(LobbyActions, TurnKeeping, Recovery):
    """Every table of the bot. Public methods raise :class:`Refusal` for bad requests.

    The lobby, the turns and recovery live in their own modules (the parts this class is
    made of); here are the lookups, the acting, and storing and announcing each action."""

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

    def record(
        self, table_id: int, user_id: int | None = None, *, full: bool = False
    ) -> dict[str, Any] | None:
        """The table's match so far as ``user_id`` may see it (None before it starts):
        finished deals in full, the deal in play with only their own hand, no seed.

        ``full`` is the whole record with every hand and the seed, which predicts every
        deal still to come: for the operator and tests, never for a player while the
        match is played (the finished match's record comes with ``MatchEnded``)."""
        table = self._table(table_id)
        if table.match is None:
            return None
        if full:
            return to_record(table.match, seed=table.seed)
        viewer = None if user_id is None else table.seat_of(user_id)
        return public_record(table.match, viewer)

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
                await self._emit(trick_taken(*base, deal, deal.tricks[-1]))
        if deal.is_done:
            await self._emit(deal_scored(*base, match, len(match.deals) - 1))
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
        except Exception:  # a failed write, or a bug: either way the table must go on
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
        """Store the results, close the table and announce it; safe to retry after any
        failed write, and the match is announced once, after everything is stored."""
        match = table.match
        assert match is not None and table.match_id is not None
        info = await self._store.matches.get_match(table.match_id)
        if info.status is MatchStatus.PLAYING:  # not stored by an earlier, failed attempt
            await self._store.matches.finish_match(table.match_id, rater=self._rater)
        record = await self._store.matches.load_record(table.match_id)
        await self._store_closed(table, TableStatus.FINISHED)
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
        await self._forget(table, TableStatus.FINISHED, "the match is over")

    # -- closing ------------------------------------------------------------------------

    async def _close(self, table: Table, status: TableStatus, reason: str) -> None:
        await self._store_closed(table, status)
        await self._forget(table, status, reason)

    async def _store_closed(self, table: Table, status: TableStatus) -> None:
        if table.match_id is not None and status is TableStatus.CANCELLED:
            with contextlib.suppress(Conflict):  # already finished or cancelled
                await self._store.matches.cancel_match(table.match_id)
        await self._store.tables.update_table(table.table_id, status=status)

    async def _forget(self, table: Table, status: TableStatus, reason: str) -> None:
        """The table is closed in the store: stop its timers, free its channel, announce."""
        table.status = status
        self._stop_timer(table)
        self._stop_lobby_timer(table)
        self._tables.pop(table.table_id, None)
        self._by_channel.pop(table.channel_id, None)
        finished = status is TableStatus.FINISHED
        await self._emit(ev.TableClosed(table.table_id, table.channel_id, reason, finished))

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
