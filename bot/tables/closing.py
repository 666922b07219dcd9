"""Closing a table: store its end, stop its timers, free its channel, announce it.

Every part that may end a table (the lobby, play, recovery) is given the one
:class:`Closing`, so a table is closed the same way whatever ended it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.store import Conflict, TableStatus

from . import events as ev
from .context import Context
from .table import Table

log = logging.getLogger(__name__)


class Closing:
    def __init__(self, context: Context) -> None:
        self._context = context

    async def close(self, table: Table, status: TableStatus, reason: str) -> None:
        await self.store_closed(table, status)
        await self.forget(table, status, reason)

    async def store_closed(self, table: Table, status: TableStatus) -> None:
        store = self._context.store
        if table.match_id is not None and status is TableStatus.CANCELLED:
            with contextlib.suppress(Conflict):  # already finished or cancelled
                await store.matches.cancel_match(table.match_id)
        await store.tables.update_table(table.table_id, status=status)

    async def forget(self, table: Table, status: TableStatus, reason: str) -> None:
        """The table is closed in the store: stop its timers, free its channel, announce."""
        table.status = status
        table.stop_timer()
        table.stop_lobby_timer()
        self._context.registry.remove(table.table_id, table.channel_id)
        finished = status is TableStatus.FINISHED
        await self._context.emit(ev.TableClosed(table.table_id, table.channel_id, reason, finished))

    def let_go(self, table: Table) -> None:
        """Another bot process holds the table's claim now (:mod:`bot.store.claims`): stop
        driving it, without a word to the channel, which its new driver serves."""
        log.warning("table %s is driven by another process now; letting it go", table.table_id)
        table.stop_timer()
        table.stop_lobby_timer()
        self._context.registry.remove(table.table_id, table.channel_id)
        if table.driver is not None and table.driver is not asyncio.current_task():
            table.driver.cancel()
