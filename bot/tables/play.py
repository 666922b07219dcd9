"""Play: storing, applying and announcing one action, dealing, and finishing the match.

A checked action is stored (committed) first and only then applied, so a failed write
leaves the table as it was; the engine's :class:`~bot.engine.Outcome` says what the
action did and :func:`~bot.tables.history.outcome_events` turns it into events. Whose
turn comes next is :mod:`~bot.tables.turns`' business: :meth:`Play.accept` says whether
play goes on.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from enum import Enum

from bot.engine import Action, deal_hands
from bot.store import (
    AlreadyStored,
    ClaimLost,
    Computer,
    MatchStatus,
    Rater,
    StoreError,
    TableStatus,
)

from . import events as ev
from .closing import Closing
from .context import Context
from .errors import Refusal, TableReason
from .history import MATCH_OVER, match_ended, outcome_events
from .table import Table

log = logging.getLogger(__name__)


class Next(Enum):
    """What follows an accepted action (or an attempt to move on between deals)."""

    PLAY_ON = "play on"
    """Someone is to act: time them or let their computer move."""
    OVER = "over"
    """The match is finished and the table closed."""
    STALLED = "stalled"
    """The next deal or the result could not be stored; try again later."""


class Play:
    def __init__(self, context: Context, closing: Closing, *, rater: Rater | None) -> None:
        self._context = context
        self._closing = closing
        self._rater = rater

    async def accept(
        self,
        table: Table,
        seat: int,
        action: Action,
        *,
        by_computer: bool,
        stored: Callable[[], Awaitable[None]] | None = None,
    ) -> Next:
        """Store, apply and announce one checked action. Call with the lock held.

        ``stored`` runs once the action is safely stored, before it is applied: what the
        caller changes there (a seat coming back, a timeout counted) never happens for an
        action the store refused."""
        match, match_id = table.match, table.match_id
        assert match is not None and match_id is not None
        try:
            await self._context.store.matches.append_action(
                match_id, table.turn, seat, action, by_computer=by_computer
            )
        except AlreadyStored:
            raise Refusal("that was for an earlier turn", TableReason.STALE_TURN) from None
        except ClaimLost:
            self._closing.let_go(table)
            raise Refusal("that table is closed", TableReason.TABLE_CLOSED) from None
        except StoreError:
            log.exception("table %s: could not store action %s", table.table_id, action.code)
            raise Refusal(
                "sorry, that could not be saved; please try again", TableReason.NOT_SAVED
            ) from None
        if stored is not None:
            await stored()
        outcome = match.apply(action)
        table.turn += 1
        computer = by_computer or isinstance(table.seats[seat].occupant, Computer)
        for event in outcome_events(
            table.table_id, table.channel_id, match, outcome, by_computer=computer
        ):
            await self._context.emit(event)
        if outcome.deal_over:
            return await self.between_deals(table)
        return Next.PLAY_ON

    async def between_deals(self, table: Table) -> Next:
        """Deal the next deal, or finish the match.

        The action before it is stored already, so a failed write here must not be
        reported to the player: it is logged, and the caller tries again later."""
        match = table.match
        assert match is not None
        try:
            if match.is_over:
                await self._finish(table)
                return Next.OVER
            await self.next_deal(table)
            return Next.PLAY_ON
        except ClaimLost:
            self._closing.let_go(table)
            return Next.OVER
        except Exception:  # a failed write, or a bug: either way the table must go on
            log.exception("table %s: could not store the next deal or the result", table.table_id)
            return Next.STALLED

    async def next_deal(self, table: Table) -> None:
        match = table.match
        assert match is not None and table.match_id is not None
        number = len(match.deals)
        hands = deal_hands(random.Random(f"{table.seed}:{number}"))
        with contextlib.suppress(AlreadyStored):  # stored before a crash, not yet replayed
            await self._context.store.matches.append_deal(table.match_id, number, hands)
        deal = match.start_deal(hands)
        await self._context.emit(
            ev.DealStarted(table.table_id, table.channel_id, number + 1, deal.dealer, deal.chooser)
        )

    async def _finish(self, table: Table) -> None:
        """Store the results, close the table and announce it; safe to retry after any
        failed write, and the match is announced once, after everything is stored."""
        match = table.match
        assert match is not None and table.match_id is not None
        matches = self._context.store.matches
        info = await matches.get_match(table.match_id)
        if info.status is MatchStatus.PLAYING:  # not stored by an earlier, failed attempt
            await matches.finish_match(table.match_id, rater=self._rater)
        record = await matches.load_record(table.match_id)
        await self._closing.store_closed(table, TableStatus.FINISHED)
        await self._context.emit(
            match_ended(table.table_id, table.channel_id, table.match_id, match, record)
        )
        await self._closing.forget(table, TableStatus.FINISHED, MATCH_OVER)
