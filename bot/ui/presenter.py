"""Turning table events into channel messages, within Discord's rate limits.

The service publishes events while it holds a table's lock, so :meth:`Presenter.publish`
only snapshots the table and queues the event; one worker per channel sends in order.
The table message is never edited per event: changes mark it dirty and one editor per
channel applies the newest state at most once a second. Each deal gets a fresh message
(Discord limits edits to old messages), trick and score lines are posted as they happen,
and nothing but a reminder pings anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.render import text
from bot.store import TableStatus
from bot.tables import Refusal, TableView
from bot.tables import events as ev
from bot.tables.table import SEAT_NAMES

from .components import lobby_view, table_view
from .embeds import deal_embed, lobby_embed, seat_labels
from .hands import MATCH_OVER
from .replies import literal

if TYPE_CHECKING:
    from bot.app import BonkenBot

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0
"""Seconds between two edits of one channel's table message."""
QUIET = discord.AllowedMentions.none()
PING_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True)
TABLE_MESSAGE = "table"


class ChannelFeed:
    """One channel's queue of events, its table message and its edit pacing."""

    def __init__(self, presenter: Presenter, channel_id: int) -> None:
        self.presenter = presenter
        self.channel_id = channel_id
        self.queue: asyncio.Queue[tuple[ev.Event, TableView | None]] = asyncio.Queue()
        self.view: TableView | None = None
        self.message_id: int | None = None
        self.lobby = True
        """The table message is still the lobby message (no deal posted yet)."""
        self.closed: str | None = None
        self.dirty = asyncio.Event()
        self.last_edit = 0.0
        self.worker = asyncio.create_task(self._work())
        self.editor = asyncio.create_task(self._edit_loop())

    @property
    def channel(self) -> discord.PartialMessageable:
        return self.presenter.bot.get_partial_messageable(self.channel_id)

    async def _work(self) -> None:
        while True:
            event, view = await self.queue.get()
            if view is not None:
                self.view = view
            try:
                await self._handle(event)
            except discord.HTTPException as error:
                log.warning(
                    "channel %s: %s failed: %s", self.channel_id, type(event).__name__, error
                )
            except Exception:
                log.exception("channel %s: presenting %s failed", self.channel_id, event)
            finally:
                self.queue.task_done()
            if self.closed is not None:
                return  # the table is gone; a new table in this channel gets a new feed

    async def _handle(self, event: ev.Event) -> None:
        labels = seat_labels(self.view, short=True) if self.view else list(SEAT_NAMES)
        match event:
            case ev.DealStarted():
                await self._new_deal_message()
            case ev.TrickTaken():
                await self._post(text.trick_text(labels, event))
            case ev.DealScored():
                await self._post(text.deal_text(labels, event))
            case ev.MatchEnded(match_id=match_id, totals=totals, ranks=ranks, record=record):
                await self._post_result(labels, match_id, totals, ranks, record)
            case ev.TableClosed(reason=reason, finished=over):
                self.closed = reason
                if not over:
                    await self._post(f"The table is closed: {reason}.")
                await self._edit_now()
                await self.presenter.bot.hands.close_table(
                    event.table_id, MATCH_OVER if over else f"The table is closed: {reason}."
                )
                self.presenter.drop(self.channel_id)
            case ev.Reminder(user_id=user_id, seconds_left=left):
                await self.channel.send(
                    f"<@{user_id}>, it is your turn: {left:.0f} seconds left before a computer "
                    "plays for you.",
                    allowed_mentions=PING_USERS,
                )
            case ev.TimedOut(seat=seat):
                await self._post(f"{labels[seat]} ran out of time; a computer played for them.")
            case ev.SeatAway(seat=seat):
                await self._post(
                    f"{labels[seat]} is away: a computer plays their seat until they act again "
                    "(or use `/bonken back`)."
                )
            case ev.SeatBack(seat=seat):
                await self._post(f"{labels[seat]} is back.")
                self.dirty.set()
            case ev.LobbyChanged(what=what) if not self.lobby:
                await self._post(f"{literal(what)}.")  # someone left, was removed, took over
                self.dirty.set()
            case ev.TurnStarted(seat=seat):
                self.dirty.set()
                seat_info = self.view.seats[seat] if self.view else None
                if seat_info is not None and seat_info.user_id is not None:
                    await self.presenter.bot.hands.refresh(event.table_id, seat_info.user_id)
            case _:
                self.dirty.set()

    async def _post(self, content: str) -> None:
        await self.channel.send(content, allowed_mentions=QUIET)

    async def _new_deal_message(self) -> None:
        """Close the last deal's message and post this deal's, with the Show hand button."""
        view = self.view
        assert view is not None
        if self.message_id is not None:
            await self._edit_now(final=True)
        message = await self.channel.send(
            embed=deal_embed(view), view=table_view(view.table_id), allowed_mentions=QUIET
        )
        self.message_id, self.lobby = message.id, False
        self.last_edit = time.monotonic()
        self.dirty.clear()
        await self.presenter.remember(view.table_id, message.id)

    async def _post_result(
        self,
        labels: list[str],
        match_id: int,
        totals: tuple[int, ...],
        ranks: tuple[int, ...],
        record: dict[str, Any],
    ) -> None:
        data = json.dumps(record, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"bonken-match-{match_id}.json")
        await self.channel.send(
            "**The match is over.** Final standings:\n"
            + text.standings_text(labels, totals, ranks)
            + "\nThe match record is attached (`python -m bot.engine verify` checks it).",
            file=file,
            allowed_mentions=QUIET,
        )

    async def _edit_loop(self) -> None:
        while True:
            await self.dirty.wait()
            wait = self.last_edit + EDIT_INTERVAL - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await self._edit_now()

    async def _edit_now(self, *, final: bool = False) -> None:
        self.dirty.clear()
        view = self.view
        if view is None or self.message_id is None:
            return
        self.last_edit = time.monotonic()
        message = self.channel.get_partial_message(self.message_id)
        try:
            if self.lobby:
                lobby_open = view.status is TableStatus.LOBBY and self.closed is None
                await message.edit(
                    embed=lobby_embed(view),
                    view=lobby_view(view.table_id) if lobby_open else None,
                )
            else:
                done = self.closed or ("Deal over." if final else None)
                buttons = None if done else table_view(view.table_id)
                await message.edit(embed=deal_embed(view, closed=done), view=buttons)
        except discord.HTTPException as error:
            log.warning("channel %s: editing the table message failed: %s", self.channel_id, error)

    def close(self) -> None:
        self.worker.cancel()
        self.editor.cancel()


class Presenter:
    """The service's ``publish`` callback for Discord: one :class:`ChannelFeed` per channel."""

    def __init__(self, bot: BonkenBot) -> None:
        self.bot = bot
        self._feeds: dict[int, ChannelFeed] = {}

    async def publish(self, event: ev.Event) -> None:
        feed = self._feeds.get(event.channel_id)
        if feed is None:
            feed = self._feeds[event.channel_id] = ChannelFeed(self, event.channel_id)
            view = self._view(event.table_id)
            if view is not None:
                feed.message_id = view.messages.get(TABLE_MESSAGE)
                feed.lobby = view.match_id is None
        feed.queue.put_nowait((event, self._view(event.table_id)))

    def _view(self, table_id: int) -> TableView | None:
        try:
            return self.bot.service.view(table_id)
        except Refusal:
            return None

    def adopt_message(self, channel_id: int, table_id: int, message_id: int) -> None:
        """The lobby message a command posted itself becomes the channel's table message."""
        feed = self._feeds.get(channel_id)
        if feed is not None:
            feed.message_id = message_id
            feed.dirty.set()

    async def remember(self, table_id: int, message_id: int) -> None:
        with contextlib.suppress(Refusal):  # the table closed meanwhile: nothing to keep
            await self.bot.service.remember_message(table_id, TABLE_MESSAGE, message_id)

    def drop(self, channel_id: int) -> None:
        feed = self._feeds.pop(channel_id, None)
        if feed is not None:
            feed.editor.cancel()  # the worker, the caller, ends by itself

    async def idle(self) -> None:
        """Wait until every queued event has been presented (tests, shutdown)."""
        for feed in list(self._feeds.values()):
            await feed.queue.join()

    def close(self) -> None:
        for feed in self._feeds.values():
            feed.close()
        self._feeds.clear()
