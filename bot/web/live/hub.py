"""Every open live-table socket, and the pushes that keep each one's page current.

The hub is told of every event the table service publishes, the way the Discord
presenter is (the bot's one ``publish`` callback hands each event to both, see
:mod:`bot.parts`). An event of a table with sockets marks the table to push; one task
per table then sends every socket the table as its person may see it now
(:func:`~bot.web.live.state.table_state`), so a burst of events makes one push of
the latest state and a slow socket never holds up the service.

It also keeps what a page needs that no view holds: when each table's turn started and
for how long (the ``TurnStarted`` events), for the timer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from bot import i18n
from bot.tables import Refusal, TableService, TableView
from bot.tables import events as ev

from .state import table_state, words
from .tokens import Ticket

log = logging.getLogger(__name__)

CLOSED = 4000
"""The close code when the table is gone (its match finished, or it was cancelled)."""


@dataclass(eq=False)
class Watcher:
    """One open socket: whom it is for, in which language, what it was sent last."""

    socket: web.WebSocketResponse
    ticket: Ticket
    language: str
    sent: str = ""


@dataclass
class TurnClock:
    turn: int
    seconds: float
    started: float = field(default_factory=time.monotonic)

    def left(self, turn: int) -> float | None:
        if turn != self.turn:
            return None
        return max(0.0, self.seconds - (time.monotonic() - self.started))


class LiveHub:
    """The sockets of every table (see the module)."""

    def __init__(
        self, service: TableService, after_act: Callable[[int, int], None] | None = None
    ) -> None:
        """``after_act(table_id, user_id)``: told when a person acted from a page (the
        bot brings his Discord hand message up to date)."""
        self.service = service
        self.after_act = after_act or (lambda table_id, user_id: None)
        self._watchers: dict[int, set[Watcher]] = {}
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._clocks: dict[int, TurnClock] = {}
        self._closing: set[asyncio.Task[None]] = set()

    # -- what the service tells --------------------------------------------------------

    def publish(self, event: ev.Event) -> None:
        """One event of the service (it never waits: the push runs as its own task)."""
        table_id = event.table_id
        if isinstance(event, ev.TurnStarted):
            if event.seconds is None:
                self._clocks.pop(table_id, None)
            else:
                self._clocks[table_id] = TurnClock(event.turn, event.seconds)
        if isinstance(event, ev.TableClosed):
            self._clocks.pop(table_id, None)
            watchers = self._watchers.pop(table_id, set())
            if watchers:
                task = asyncio.create_task(self._close_all(watchers, event.reason))
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
            return
        if table_id in self._watchers:
            self.push_soon(table_id)

    def push_soon(self, table_id: int) -> None:
        task = self._pending.get(table_id)
        if task is not None and not task.done():
            self._again.add(table_id)
            return
        self._pending[table_id] = asyncio.create_task(self._push_until_current(table_id))

    async def _push_until_current(self, table_id: int) -> None:
        try:
            while True:
                self._again.discard(table_id)
                await self._push(table_id)
                if table_id not in self._again:
                    return
        finally:
            if self._pending.get(table_id) is asyncio.current_task():
                del self._pending[table_id]

    async def _push(self, table_id: int) -> None:
        """Send each socket of the table its state now, if it changed: the table's view
        is read once, each (person, language) state built and encoded once, and every
        socket's frame written at once, each in its own task (a socket whose peer reads
        slowly waits alone)."""
        watchers = list(self._watchers.get(table_id, ()))
        if not watchers:
            return
        try:
            view = self.service.view(table_id)
        except Refusal:
            return  # (the table closed meanwhile: its sockets are told so)
        frames: dict[tuple[int | None, str], tuple[str, bytes]] = {}
        sends = []
        for watcher in watchers:
            key = (watcher.ticket.user_id, watcher.language)
            frame = frames.get(key)
            if frame is None:
                text = self.state_frame(watcher.ticket, watcher.language, view)
                frame = frames[key] = (text, text.encode())
            if frame[0] != watcher.sent:
                watcher.sent = frame[0]
                sends.append(self._send(watcher, *frame))
        if sends:
            await asyncio.gather(*sends)

    async def _send(self, watcher: Watcher, frame: str, data: bytes) -> None:
        """Write ``frame`` (``data``, its UTF-8) as the socket's text frame."""
        try:
            await watcher.socket.send_frame(data, WSMsgType.TEXT)
        except (ConnectionError, RuntimeError):
            self.forget(watcher)  # (its own handler ends when the socket does)

    async def _close_all(self, watchers: set[Watcher], reason: str) -> None:
        for watcher in watchers:
            with i18n.using(watcher.language):
                words_ = i18n._(reason)
            try:
                await watcher.socket.send_str(json.dumps({"type": "closed", "words": words_}))
                await watcher.socket.close(code=CLOSED, message=b"table closed")
            except (ConnectionError, RuntimeError):
                continue

    # -- the sockets -------------------------------------------------------------------

    def state_frame(self, ticket: Ticket, language: str, view: TableView | None = None) -> str:
        """The ``state`` frame for ``ticket``'s person now (a ``Refusal`` if the table
        is gone), from the table's ``view`` if it was read already. A person no longer
        seated there is sent what a spectator is."""
        if view is None:
            view = self.service.view(ticket.table_id)
        hand = None
        if ticket.user_id is not None:
            try:
                hand = self.service.hand(ticket.table_id, ticket.user_id)
            except Refusal:
                hand = None
        clock = self._clocks.get(ticket.table_id)
        left = None if clock is None else clock.left(view.turn)
        state = table_state(view, hand, language, left)
        return json.dumps({"type": "state", "state": state}, separators=(",", ":"))

    def words_frame(self, language: str) -> str:
        return json.dumps({"type": "words", "words": words(language)}, separators=(",", ":"))

    def watch(self, watcher: Watcher) -> None:
        self._watchers.setdefault(watcher.ticket.table_id, set()).add(watcher)

    def forget(self, watcher: Watcher) -> None:
        watchers = self._watchers.get(watcher.ticket.table_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.ticket.table_id]

    def count(self) -> int:
        """Open sockets (for the benchmark and the logs)."""
        return sum(len(watchers) for watchers in self._watchers.values())

    async def close(self) -> None:
        """Close every socket (the bot stops)."""
        for table_id in list(self._watchers):
            for watcher in self._watchers.pop(table_id):
                await watcher.socket.close(code=1001, message=b"the bot is stopping")
