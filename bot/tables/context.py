"""What every part of the table service is given: the store, the way out for events, the
clock's scale, and the registry of open tables.

Each part (:mod:`~bot.tables.lobby`, :mod:`~bot.tables.turns`, :mod:`~bot.tables.play`,
:mod:`~bot.tables.recovery`, :mod:`~bot.tables.closing`) gets a :class:`Context` and the
other parts it calls, explicitly, when the service builds it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.store import Store

from . import events as ev
from .errors import Refusal, TableReason
from .table import Table, TableView, view_of

log = logging.getLogger(__name__)

Publish = Callable[[ev.Event, TableView | None], Awaitable[None]]
"""A front end's way in: each event with the table's public view as it was when the
event happened (None once the table is closed), so rendering never calls back into the
service or races the next change."""


class Registry:
    """The open tables, by id and by channel; the lookups refuse politely."""

    def __init__(self) -> None:
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}

    def get(self, table_id: int) -> Table | None:
        return self._tables.get(table_id)

    def table(self, table_id: int) -> Table:
        table = self._tables.get(table_id)
        if table is None:
            raise Refusal("that table is closed", TableReason.TABLE_CLOSED)
        return table

    def find_in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self._tables[table_id]

    def in_channel(self, channel_id: int) -> Table:
        table = self.find_in_channel(channel_id)
        if table is None:
            raise Refusal("there is no Bonken table in this channel", TableReason.NO_TABLE)
        return table

    def all(self) -> list[Table]:
        return list(self._tables.values())

    def is_open(self, table: Table) -> bool:
        return self._tables.get(table.table_id) is table

    def add(self, table: Table) -> None:
        self._tables[table.table_id] = table
        self._by_channel[table.channel_id] = table.table_id

    def remove(self, table_id: int, channel_id: int) -> None:
        self._tables.pop(table_id, None)
        self._by_channel.pop(channel_id, None)


def seated(table: Table, user_id: int) -> int:
    """The seat of ``user_id`` at ``table``, or a refusal."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("you are not seated at this table", TableReason.NOT_SEATED)
    return seat


@dataclass
class Context:
    """The shared means: ``time_scale`` multiplies every timer (turns, the idle lobby,
    retries); ``publish`` gets every event, in order, through :meth:`emit`."""

    store: Store
    publish: Publish
    time_scale: float = 1.0
    registry: Registry = field(default_factory=Registry)

    async def emit(self, event: ev.Event, view: TableView | None = None) -> None:
        """Publish ``event`` with its table's view (``view``: of a table no longer in the
        registry); a front end's failure is logged, never the table's problem."""
        table = self.registry.get(event.table_id)
        if table is not None:
            view = view_of(table)
        try:
            await self.publish(event, view)
        except Exception:
            log.exception("publishing %s failed", type(event).__name__)
