"""Recovery: rebuild every open table from the store after a restart and resume it.

Given the lobby (an idle lobby's timer), play (a crash between two deals) and turns
(the timers and computers it resumes). A match that finished just before the stop is
told again on request (:meth:`Recovery.restore_end`), since its end may not have been
shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable

from bot.engine import Phase, RecordError, from_record
from bot.store import Computer, Human, StoreError, TableRecord, TableStatus

from . import events as ev
from .context import Context
from .history import MATCH_OVER, match_ended, recent_lines
from .lobby import Lobby
from .play import Next, Play
from .table import Seat, Table, default_name, table_from_record, view_of
from .turns import Turns

log = logging.getLogger(__name__)

RESTORE_GRACE = 0.2
"""After a restart a human gets at least this share of the turn time back."""


class Recovery:
    """``restore()`` at start: every open table replayed from its stored actions."""

    def __init__(
        self,
        context: Context,
        lobby: Lobby,
        play: Play,
        turns: Turns,
        owns_guild: Callable[[int], bool],
    ) -> None:
        """``owns_guild``: whether this process serves the guild (its shard is ours)."""
        self._context = context
        self._owns_guild = owns_guild
        self._lobby = lobby
        self._play = play
        self._turns = turns

    async def restore(self) -> int:
        """Rebuild every open table of this process's guilds from the store and resume its
        timers and computers; a table another live process has claimed is left to it."""
        restored = 0
        store = self._context.store
        for record in await store.tables.open_tables():
            if self._context.registry.get(record.table_id) is not None:
                continue
            if not self._owns_guild(record.guild_id):
                continue
            try:
                if not await store.claims.claim(record.table_id):
                    log.warning("table %s is driven by another process", record.table_id)
                    continue
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

    async def restore_end(self, table_id: int, match_id: int) -> bool:
        """Publish the end of a finished match again, as it was: its last deals' lines
        (with ``TableRestored``), its result and the table's closing. The process stopped
        between storing the results and showing them; the front end shows what it had
        not. False if the table is not finished or not this process's."""
        store = self._context.store
        try:
            record = await store.tables.get_table(table_id)
            if record.status is not TableStatus.FINISHED or not self._owns_guild(record.guild_id):
                return False
            table = table_from_record(record)
            await self._restore_match(table, dataclasses.replace(record, match_id=match_id))
            data = await store.matches.load_record(match_id)
        except (StoreError, RecordError):
            # Its end stays untold; the bot starts all the same (tried again next start).
            log.exception("the end of table %s (match %s) cannot be told", table_id, match_id)
            return False
        match = table.match
        assert match is not None
        ids = (table.table_id, table.channel_id)
        view = view_of(table)
        for event in (
            ev.TableRestored(*ids, recent_lines(*ids, match)),
            match_ended(*ids, match_id, match, data),
            ev.TableClosed(*ids, MATCH_OVER, finished=True),
        ):
            await self._context.emit(event, view)
        return True

    async def _cancel_unreplayable(self, record: TableRecord) -> None:
        store = self._context.store
        self._context.registry.remove(record.table_id, record.channel_id)
        with contextlib.suppress(StoreError):
            if record.match_id is not None:
                await store.matches.cancel_match(record.match_id)
            await store.tables.update_table(record.table_id, status=TableStatus.CANCELLED)

    async def _restore_table(self, record: TableRecord) -> None:
        table = table_from_record(record)
        await self._restore_match(table, record)
        self._context.registry.add(table)
        ids = (table.table_id, table.channel_id)
        lines = () if table.match is None else recent_lines(*ids, table.match)
        await self._context.emit(ev.TableRestored(*ids, lines))
        if table.status is TableStatus.LOBBY:
            self._lobby.restart_idle_timer(table)
            return
        match = table.match
        assert match is not None
        async with table.lock:
            # The crash may have fallen between two deals, or before the results were stored.
            if match.phase in (Phase.NEEDS_DEAL, Phase.OVER):
                after = await self._play.between_deals(table)
                if after is not Next.PLAY_ON:
                    await self._turns.carry_on(table, after)
                    return
            await self._turns.after_change(table, first_timer=await self._time_left(table))

    async def _restore_match(self, table: Table, record: TableRecord) -> None:
        if record.match_id is None:
            for seat, (occupant, name) in enumerate(zip(record.seats, record.names, strict=True)):
                if occupant is not None:
                    table.seats[seat] = Seat(occupant, name or default_name(occupant, seat))
            return
        store = self._context.store
        info = await store.matches.get_match(record.match_id)
        data = await store.matches.load_record(record.match_id)
        table.match = await asyncio.to_thread(from_record, data)
        if table.match.rules is not table.rules:  # a table stored before its rules were
            table.settings = dataclasses.replace(table.settings, rules=table.match.rules)
        table.match_id, table.seed, table.turn = info.match_id, info.seed or 0, info.actions
        for seat, occupant in enumerate(record.seats):
            original = info.seats[seat]
            vacated = isinstance(occupant, Computer) and isinstance(original.occupant, Human)
            table.seats[seat] = Seat(occupant, original.name, vacated=vacated)

    async def _time_left(self, table: Table) -> float:
        assert table.match_id is not None
        info = await self._context.store.matches.get_match(table.match_id)
        full = table.turn_seconds()
        if info.last_action_at is None:
            return full
        spent = time.time() - info.last_action_at.timestamp()
        return max(full - spent, full * RESTORE_GRACE)
