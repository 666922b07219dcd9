"""One live-table socket: its token first, then a person's moves, every frame checked.

The frames (JSON text, at most :data:`MAX_FRAME` bytes):

- page → bot: ``{"type": "hello", "token": T, "language": "en"|"nl"}`` first, within
  :data:`HELLO_SECONDS`; then ``{"type": "act", "turn": N, "action": CODE}`` with the
  engine's action code (``P:QS``, ``C:no-tricks``, ``D:13``, ``D:-``) and the turn
  the page was shown, as a Discord button carries it.
- bot → page: ``{"type": "words", ...}`` once, then ``{"type": "state", "state":
  ...}`` (:mod:`bot.web.live.state`: always the whole table as this person may see
  it, so a page that reconnects is current with its first frame); ``{"type":
  "refused", "words": ...}`` when the service refuses a move (the bot's own sentence,
  as a Discord button would get); ``{"type": "error", "code": ..., "words": ...}`` for
  a frame that is not one; ``{"type": "closed", "words": ...}`` when the table ends.

A token that does not check, a table that is gone, a server whose web setting is
``off`` (for spectators), no hello in time, or a flood of frames closes the socket with
a code and a reason (:data:`CLOSES`); an oversized frame is closed by aiohttp (1009).
Nothing a socket sends changes a table except an ``act`` the service accepts, through
:meth:`~bot.tables.TableService.act` and its checks, as a Discord button's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from bot import i18n
from bot.engine import parse_action
from bot.i18n import N_, _
from bot.render.reasons import refusal_text
from bot.store import StoreError, WebAccess
from bot.tables import Refusal
from bot.web.tokens import Signer

from .hub import LiveHub, Watcher
from .tokens import Ticket, read_ticket

MAX_FRAME = 1024
"""Bytes of a frame at most (an action is about 60)."""
HELLO_SECONDS = 10.0
BURST, PER_SECOND = 12, 4.0
"""Frames a page may send at once, and how many a second after that (a person plays a
card a second at most; a page sends one frame a move). Tests and the benchmark, whose
scripted people move at once, pass looser ones (:class:`FrameLimit`)."""
HEARTBEAT = 25.0
"""Seconds between pings, so proxies keep the socket open and a dead one is noticed."""

BAD_TOKEN, GONE, NOT_ALLOWED, NO_HELLO, FLOOD = 4001, 4004, 4003, 4008, 4029
CLOSES: dict[int, str] = {
    BAD_TOKEN: N_("This link is not one the bot made."),
    GONE: N_("This table is closed."),
    NOT_ALLOWED: N_("This server does not show its tables on the web."),
    NO_HELLO: N_("The page did not say who it is for."),
    FLOOD: N_("Too many messages at once: reload the page."),
}
ERRORS: dict[str, str] = {
    "malformed": N_("That message is not one the page sends."),
    "watching": N_("You are watching this table: only its players can play."),
    "hello": N_("This page already said who it is for."),
}

Access = Callable[[int], Awaitable[WebAccess]]


@dataclass(frozen=True)
class FrameLimit:
    """How many frames a socket may send: ``burst`` at once, ``per_second`` after."""

    burst: int = BURST
    per_second: float = PER_SECOND


class Bucket:
    """A token bucket of a :class:`FrameLimit`."""

    def __init__(self, limit: FrameLimit) -> None:
        self.limit = limit
        self.level, self.at = float(limit.burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.limit.burst, self.level + (now - self.at) * self.limit.per_second)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class LiveSocket:
    """The ``/live/socket`` handler (see the module)."""

    def __init__(
        self, hub: LiveHub, signer: Signer, access: Access, limit: FrameLimit | None = None
    ) -> None:
        self._hub = hub
        self._signer = signer
        self._access = access
        self.limit = limit or FrameLimit()
        """What each socket opened from now on may send (tests of scripted people, who
        move as soon as it is their turn, loosen it)."""

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(
            max_msg_size=MAX_FRAME, heartbeat=HEARTBEAT, autoping=True, compress=False
        )
        await socket.prepare(request)
        language = i18n.DEFAULT
        try:  # (asyncio.timeout: on 3.11 wait_for may drop a cancellation, see pacing.py)
            async with asyncio.timeout(HELLO_SECONDS):
                hello = await socket.receive()
        except TimeoutError:
            return await _close(socket, NO_HELLO, language)
        frame = _frame(hello)
        if frame is None or frame.get("type") != "hello":
            return await _close(socket, NO_HELLO, language)
        if frame.get("language") in i18n.LANGUAGES:
            language = str(frame["language"])
        ticket = read_ticket(self._signer, frame.get("token"))
        if ticket is None:
            return await _close(socket, BAD_TOKEN, language)
        refused = await self._refused(ticket)
        if refused is not None:
            return await _close(socket, refused, language)
        watcher = Watcher(socket, ticket, language)
        try:
            first = self._hub.state_frame(ticket, language)
        except Refusal:
            return await _close(socket, GONE, language)
        await socket.send_str(self._hub.words_frame(language))
        watcher.sent = first
        await socket.send_str(first)
        self._hub.watch(watcher)
        try:
            await self._serve(watcher)
        finally:
            self._hub.forget(watcher)
        return socket

    async def _refused(self, ticket: Ticket) -> int | None:
        """Why this ticket opens nothing now (a close code), or None."""
        try:
            view = self._hub.service.view(ticket.table_id)
        except Refusal:
            return GONE
        if view.guild_id != ticket.guild_id:
            return BAD_TOKEN
        if ticket.user_id is None:
            try:
                access = await self._access(ticket.guild_id)
            except StoreError:
                return NOT_ALLOWED
            if access is WebAccess.OFF:
                return NOT_ALLOWED
        return None

    async def _serve(self, watcher: Watcher) -> None:
        socket, bucket = watcher.socket, Bucket(self.limit)
        async for message in socket:
            if not bucket.take():
                await _close(socket, FLOOD, watcher.language)
                return
            frame = _frame(message)
            kind = None if frame is None else frame.get("type")
            if frame is None or kind not in ("act", "hello"):
                await _error(watcher, "malformed")
            elif kind == "hello":
                await _error(watcher, "hello")
            else:
                await self._act(watcher, frame)

    async def _act(self, watcher: Watcher, frame: dict[str, Any]) -> None:
        turn, code = frame.get("turn"), frame.get("action")
        if not isinstance(turn, int) or isinstance(turn, bool) or not isinstance(code, str):
            await _error(watcher, "malformed")
            return
        try:
            action = parse_action(code)
        except ValueError:
            await _error(watcher, "malformed")
            return
        ticket = watcher.ticket
        if ticket.user_id is None:
            await _error(watcher, "watching")
            return
        try:
            await self._hub.service.act(ticket.table_id, ticket.user_id, turn, action)
        except Refusal as refusal:
            await self._refuse(watcher, refusal)
            return
        self._hub.after_act(ticket.table_id, ticket.user_id)

    async def _refuse(self, watcher: Watcher, refusal: Refusal) -> None:
        try:
            view = self._hub.service.view(watcher.ticket.table_id)
        except Refusal:
            view = None
        with i18n.using(watcher.language):
            words = refusal_text(refusal, view)
        await _send(watcher.socket, {"type": "refused", "words": words})
        self._hub.push_soon(watcher.ticket.table_id)  # (the page may be behind: catch up)


def _frame(message: Any) -> dict[str, Any] | None:
    """A text frame's JSON object, or None."""
    if message.type is not WSMsgType.TEXT:
        return None
    try:
        data = json.loads(message.data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


async def _send(socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_str(json.dumps(data))


async def _error(watcher: Watcher, code: str) -> None:
    with i18n.using(watcher.language):
        words = _(ERRORS[code])
    await _send(watcher.socket, {"type": "error", "code": code, "words": words})


async def _close(socket: web.WebSocketResponse, code: int, language: str) -> web.WebSocketResponse:
    """Close with ``code`` and its reason (in English: a close reason is at most 123
    bytes, for the logs), the reason in ``language`` sent first as an error frame."""
    with i18n.using(language):
        words = _(CLOSES[code])
    await _send(socket, {"type": "error", "code": str(code), "words": words})
    await socket.close(code=code, message=CLOSES[code].encode()[:120])
    return socket
