"""The Discord Activity: the live table's page inside Discord, and who is signing in.

Discord shows an Activity as a page of the application's URL mapping (the developer
portal's, docs/operating.md): the launch loads ``/`` with Discord's query
(``frame_id``, ``instance_id``, ``channel_id``...), which is sent on to the Activity's
page, ``/.proxy/activity``. Every address the page uses is under ``/.proxy/`` (its
script, the sign-in, the live table's socket), as Discord's sandbox wants; Discord's
proxy may pass them on with the prefix or without it, so each is served both ways.

The page's script (``static/activity.js``, built from ``activity/``) asks the Embedded
App SDK for a sign-in code and posts it to ``/.proxy/activity/session``. There the code
is exchanged with Discord for the person's id (:mod:`bot.web.oauth`) and the Activity is
tied to the table open in the channel it was launched from, or to the table playing in
that thread: a person seated there gets his seat's token for the live table
(:func:`~bot.web.live.tokens.seat_token`). A code Discord refuses, one used before, no
table there, or a person not seated at it gets a clear sentence and no seat token; one
not seated gets the spectators' token beside it when the server's web setting shows
tables to anyone with their link.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from bot import i18n
from bot.i18n import N_, _
from bot.settings import ActivitySettings
from bot.store import StoreError, WebAccess
from bot.tables import TableService, TableView

from .language import page_language
from .live.page import SOCKET_PATH
from .live.tokens import seat_token, watch_token
from .oauth import DiscordSignIn, SignInFailed, SignInFailure
from .security import CONTENT_SECURITY_POLICY
from .tokens import Signer

PROXY = "/.proxy"
PAGE = "/activity"
SESSION = "/activity/session"
DISCORD_FRAMES = "https://discord.com https://*.discord.com https://*.discordsays.com"
"""Who may show the page in a frame: Discord's clients and its Activity proxy."""
POLICY = CONTENT_SECURITY_POLICY.replace(
    "frame-ancestors 'none'", f"frame-ancestors {DISCORD_FRAMES}"
)
"""The page's Content-Security-Policy: the pages' own (its requests to this server, the
sign-in and the socket, are ``connect-src 'self'`` as every page's), and Discord's frames
around it."""
MAX_BODY = 1024

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Access = Callable[[int], Awaitable[WebAccess]]

REFUSALS = {
    SignInFailure.REFUSED: (
        401,
        N_("Discord did not confirm who you are. Close the Activity and open it again."),
    ),
    SignInFailure.SPENT: (
        409,
        N_("This sign-in was already used. Close the Activity and open it again."),
    ),
    SignInFailure.UNREACHABLE: (
        502,
        N_("Discord could not be asked who you are just now. Try again in a moment."),
    ),
}
NO_TABLE = N_(
    "There is no Bonken table in this channel now. Open one with `/bonken new`, then "
    "start the Activity again."
)
NOT_SEATED = N_(
    "You are not seated at this table, so you cannot play here. Take a seat with "
    "`/bonken join` or the lobby's Join button, then open the Activity again."
)
BAD_REQUEST = N_("This sign-in request is not one the Activity makes.")


def paths(path: str) -> tuple[str, str]:
    """A path as Discord's proxy may pass it on: with its ``/.proxy`` prefix, and without."""
    return PROXY + path, path


class ActivityPages:
    """The Activity's page and its sign-in (see the module)."""

    def __init__(
        self,
        settings: ActivitySettings,
        service: TableService,
        signer: Signer,
        access: Access,
        *,
        thread_role: str,
    ) -> None:
        """``access(guild)``: the server's web setting (no spectators' view when it is
        ``off``); ``thread_role``: the role under which the Discord front end keeps a
        table's thread among its messages, so an Activity started in a thread finds its
        table (the front end's word for it, handed in, as the finished matches get it)."""
        self._thread_role = thread_role
        self._settings = settings
        self._service = service
        self._signer = signer
        self._access = access
        self._sign_in = DiscordSignIn(settings)

    def add_routes(self, app: web.Application, socket: Handler, static: str) -> None:
        """The page, the sign-in, and under ``/.proxy`` the live table's ``socket`` and
        the ``static`` folder."""
        for path in paths(PAGE):
            app.router.add_get(path, self.page)
        for path in paths(SESSION):
            app.router.add_post(path, self.session)
        app.router.add_get(PROXY + SOCKET_PATH, socket)
        app.router.add_static(PROXY + "/static", static, append_version=False)
        app.on_cleanup.append(self._close)

    def takes_body(self, request: web.Request) -> bool:
        """Whether ``request`` is the sign-in, the one request here that has a body."""
        return request.method == "POST" and request.path in paths(SESSION)

    def launched(self, request: web.Request) -> bool:
        """Whether ``request`` for ``/`` is Discord starting the Activity."""
        return "frame_id" in request.query and "instance_id" in request.query

    async def launch(self, request: web.Request) -> web.StreamResponse:
        """Discord's launch of ``/``: on to the page, with Discord's query."""
        raise web.HTTPFound(f"{PROXY}{PAGE}?{request.query_string}")

    async def page(self, request: web.Request) -> web.Response:
        """The Activity's page: the live table's place, and the words its script says."""
        language = self._language(request)
        with i18n.using(language):
            response = aiohttp_jinja2.render_template(
                "activity.html",
                request,
                {
                    "title": _("Bonken table"),
                    "language": language,
                    "client_id": self._settings.client_id,
                    "session": PROXY + SESSION,
                    "socket": PROXY + SOCKET_PATH,
                },
            )
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Robots-Tag"] = "noindex"
        return response

    async def session(self, request: web.Request) -> web.Response:
        """The sign-in: a code and the Activity's channel in, a seat's token out."""
        with i18n.using(self._language(request)):
            asked = await _asked(request)
            if asked is None:
                return _refused(400, _(BAD_REQUEST))
            code, guild_id, channel_id = asked
            try:
                user_id = await self._sign_in.user_id(code)
            except SignInFailed as failed:
                status, words = REFUSALS[failed.failure]
                return _refused(status, _(words))
            view = self._table_at(guild_id, channel_id)
            if view is None:
                return _refused(404, _(NO_TABLE))
            if not any(s.user_id == user_id and not s.vacated for s in view.seats):
                watch = None
                if await self._watchable(view.guild_id):
                    watch = watch_token(self._signer, view.guild_id, view.table_id)
                return _refused(403, _(NOT_SEATED), watch=watch)
            token = seat_token(self._signer, view.guild_id, view.table_id, user_id)
            return _answer(200, {"token": token, "table": view.table_id})

    def _table_at(self, guild_id: int, channel_id: int) -> TableView | None:
        """The table open in the channel, or playing in the thread, the Activity is in."""
        view = self._service.table_in_channel(channel_id)
        if view is None:
            view = next(
                (
                    t
                    for t in self._service.tables()
                    if t.messages.get(self._thread_role) == channel_id
                ),
                None,
            )
        return view if view is not None and view.guild_id == guild_id else None

    async def _watchable(self, guild_id: int) -> bool:
        """As the live table's page: spectators see a table unless the server set ``off``."""
        try:
            return await self._access(guild_id) is not WebAccess.OFF
        except StoreError:
            return False

    def _language(self, request: web.Request) -> str:
        asked = request.query.get("lang")
        return page_language(
            asked if asked in i18n.LANGUAGES else None, request.headers.get("Accept-Language")
        )

    async def _close(self, app: web.Application) -> None:
        await self._sign_in.close()


async def _asked(request: web.Request) -> tuple[str, int, int] | None:
    """The sign-in's code, server and channel, or None for a body the page never sends."""
    if request.content_type != "application/json" or (request.content_length or 0) > MAX_BODY:
        return None
    try:
        body: Any = json.loads(await request.read())
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(body, dict):
        return None
    code, guild, channel = (
        body.get("code"),
        _snowflake(body, "guild_id"),
        _snowflake(body, "channel_id"),
    )
    if not isinstance(code, str) or guild is None or channel is None:
        return None
    return code, guild, channel


def _snowflake(body: dict[str, Any], key: str) -> int | None:
    """A Discord id as the SDK gives it (a string of digits), or None."""
    value = body.get(key)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        return int(value)
    return None


def _refused(status: int, words: str, *, watch: str | None = None) -> web.Response:
    body: dict[str, Any] = {"error": words}
    if watch is not None:
        body["watch"] = watch
    return _answer(status, body)


def _answer(status: int, body: dict[str, Any]) -> web.Response:
    return web.json_response(body, status=status, headers={"Cache-Control": "no-store"})
