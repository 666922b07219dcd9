"""The table page: ``/table/<token>``, the link of the hand message's "Open the table".

A seat's link is the person's own: the first browser that opens it claims it (a
cookie of its own, whose digest the store keeps, so a restart forgets no claim) and is
given the seat's token; any other browser opening the same link (the link passed on) is
given the spectators' token instead, so it sees the table without any hand, and nothing
when the server's web setting is ``off``. A new hand message (``Show my hand``,
``/bonken hand``) frees the claim, so the person can open the table on another device.
The spectators' link (``/table/<watch token>``) opens the spectators' view while the
setting is not ``off``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets

import aiohttp_jinja2
from aiohttp import web

from bot import i18n
from bot.i18n import _
from bot.store import StoreError, WebAccess
from bot.store.live_seats import LiveSeatStore
from bot.tables import Refusal

from ..language import page_language
from ..tokens import Signer
from .hub import LiveHub
from .socket import Access
from .tokens import Ticket, read_ticket, seat_token, watch_token

log = logging.getLogger(__name__)

COOKIE = "bonken-seat-{table}"
"""The claim's cookie, one per table (a browser may hold seats at several)."""
SOCKET_PATH = "/live/socket"


class TablePage:
    """The ``/table/{token}`` handler and the claims of seat links (see the module)."""

    def __init__(self, hub: LiveHub, signer: Signer, access: Access, seats: LiveSeatStore) -> None:
        self._hub = hub
        self._signer = signer
        self._access = access
        self._seats = seats
        self._forgetting: set[asyncio.Task[None]] = set()

    async def release(self, table_id: int, user_id: int) -> None:
        """Free the claim of this person's link (he asked for a new hand message)."""
        try:
            await self._seats.release(table_id, user_id)
        except StoreError:
            log.exception("table %s: the seat link of %s could not be freed", table_id, user_id)

    def forget(self, table_id: int) -> None:
        """The table closed: its claims go (its links open nothing any more anyway)."""
        task = asyncio.create_task(self._forget(table_id))
        self._forgetting.add(task)
        task.add_done_callback(self._forgetting.discard)

    async def _forget(self, table_id: int) -> None:
        try:
            await self._seats.forget(table_id)
        except StoreError:
            log.exception("table %s: its seat claims could not be forgotten", table_id)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        query = request.query.get("lang")
        language = page_language(
            query if query in i18n.LANGUAGES else None, request.headers.get("Accept-Language")
        )
        ticket = read_ticket(self._signer, request.match_info["token"])
        if ticket is None:
            raise web.HTTPNotFound()
        try:
            view = self._hub.service.view(ticket.table_id)
        except Refusal:  # a closed table reads as any unknown page
            raise web.HTTPNotFound() from None
        if view.guild_id != ticket.guild_id:
            raise web.HTTPNotFound()
        cookie = request.cookies.get(COOKIE.format(table=ticket.table_id), "")
        token, claim = await self._token_for(ticket, cookie)
        if claim is None and not await self._watchable(ticket.guild_id):
            raise web.HTTPNotFound()
        with i18n.using(language):
            response = aiohttp_jinja2.render_template(
                "table.html",
                request,
                {
                    "title": _("Bonken table"),
                    "language": language,
                    "token": token,
                    "socket": SOCKET_PATH,
                    "languages": [
                        {"href": f"?lang={code}", "name": name, "on": code == language}
                        for code, name in (("en", "English"), ("nl", "Nederlands"))
                    ],
                },
            )
        if claim is not None and claim != cookie:
            response.set_cookie(
                COOKIE.format(table=ticket.table_id),
                claim,
                httponly=True,
                samesite="Strict",
                path="/table/",
                secure=False,
            )
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Robots-Tag"] = "noindex"
        return response

    async def _token_for(self, ticket: Ticket, cookie: str) -> tuple[str, str | None]:
        """The socket token this browser is given, and its claim (None: a spectator's)."""
        watch = watch_token(self._signer, ticket.guild_id, ticket.table_id)
        if ticket.user_id is None:
            return watch, None
        seat = seat_token(self._signer, ticket.guild_id, ticket.table_id, ticket.user_id)
        try:
            held = await self._seats.claimed(ticket.table_id, ticket.user_id)
            if held is None:
                claim = secrets.token_urlsafe(24)
                held = await self._seats.claim(ticket.table_id, ticket.user_id, _digest(claim))
                if held == _digest(claim):
                    return seat, claim
        except StoreError:
            log.exception("table %s: the seat claims could not be read", ticket.table_id)
            return watch, None  # (the seat's own browser sees it again once the store does)
        if cookie and secrets.compare_digest(held, _digest(cookie)):
            return seat, cookie
        return watch, None

    async def _watchable(self, guild_id: int) -> bool:
        try:
            return await self._access(guild_id) is not WebAccess.OFF
        except StoreError:
            return False


def _digest(claim: str) -> str:
    """What the store keeps of a claim (the claim itself opens the seat)."""
    return hashlib.sha256(claim.encode()).hexdigest()
