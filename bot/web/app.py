"""The web application: its routes, its guard, and serving it beside the bot or alone.

``make_app`` builds an ``aiohttp.web`` application over the bot's services; the bot
runs it in its own event loop (:class:`WebServer`), and ``python -m bot web`` runs it
alone (:mod:`bot.web.alone`). Nothing a reader sends is logged as an error: a bad link
or query is a short 404 or 400 page, too many requests a 429.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.typedefs import Middleware

from bot import i18n

from .activity import ActivityPages
from .cache import PageCache
from .language import page_language
from .links import WebLinks
from .live.routes import Live
from .ratelimit import RateLimit
from .routes import Pages
from .security import add_headers, client_address, malformed
from .site import Services

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
STATIC = HERE / "static"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class CannotServe(Exception):
    """The pages cannot be served (the port is taken, say): the operator's one line."""


def make_app(
    services: Services,
    links: WebLinks,
    *,
    limit: RateLimit | None = None,
    cache: PageCache | None = None,
    live: Live | None = None,
    activity: ActivityPages | None = None,
) -> web.Application:
    """The pages over ``services``, linked by ``links``; ``limit`` is the per-address
    rate limit (a default one; the benchmark passes a loose one), ``cache`` the kept
    pages of finished matches and closed days; ``live`` the live table and
    ``activity`` the Discord Activity (which shows it, so it needs ``live``)."""
    takes_body = activity.takes_body if activity is not None else _no_body
    app = web.Application(
        middlewares=[_guard(limit or RateLimit(), takes_body)], client_max_size=1024
    )
    env = PageEnvironment(
        loader=jinja2.PackageLoader("bot.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # the templates ship with the package: no stat per page
    )
    app[aiohttp_jinja2.APP_KEY] = env  # (as aiohttp_jinja2.setup keeps its own)
    env.globals.update(_=i18n._, ngettext=i18n.ngettext)
    # Compiled, and the catalogues read, now: the first pages of a process would otherwise
    # do it in the event loop, tens of milliseconds while the tables play.
    for name in env.list_templates():
        env.get_template(name)
    for language in i18n.LANGUAGES:
        i18n.translations(language)
    pages = Pages(services, links, cache or PageCache(), env)
    app.router.add_get("/healthz", _healthz)
    app.router.add_get("/", pages.front if activity is None else _front(pages, activity))
    app.router.add_static("/static", STATIC, append_version=False)
    pages.add_routes(app.router)
    if live is not None:
        live.add_routes(app)
        if activity is not None:
            activity.add_routes(app, live.socket.handle, str(STATIC))
    app.on_response_prepare.append(add_headers)
    return app


class PageEnvironment(jinja2.Environment):
    """The pages' templates. What a page shows is dicts (a row of the standings, a deal
    of the score table), and ``row.name`` reads such a dict's key at once: Jinja's own
    way tries the attribute first and catches the AttributeError of every value shown,
    about a microsecond each, some 0.1 ms of a server page drawn for its reader. (So a
    key shadows a dict's method of the same name; the templates call none.)"""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._kept: dict[str, jinja2.Template] = {}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)

    def get_template(
        self,
        name: str | jinja2.Template,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        """A template kept by its name once loaded, when templates are not reloaded (a
        page asks for two or three, its own and those it extends and includes; Jinja's
        own cache takes a lock, a weak reference and a reordering for each)."""
        if globals is not None or type(name) is not str or self.auto_reload:
            return super().get_template(name, parent, globals)
        if parent is not None:
            name = self.join_path(name, parent)
        kept = self._kept.get(name)
        if kept is None:
            kept = self._kept[name] = super().get_template(name)
        return kept


async def _healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok")


def _front(pages: Pages, activity: ActivityPages) -> Handler:
    """``/``: the front page, or Discord launching the Activity."""

    async def front(request: web.Request) -> web.StreamResponse:
        if activity.launched(request):
            return await activity.launch(request)
        return await pages.front(request)

    return front


def _no_body(request: web.Request) -> bool:
    return False


def _guard(limit: RateLimit, takes_body: Callable[[web.Request], bool]) -> Middleware:
    """Refuses first what no page takes: a method other than GET or HEAD, or a body,
    except the one request ``takes_body`` allows (the Activity's sign-in)."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        posted = takes_body(request)
        if request.method not in ("GET", "HEAD") and not posted:
            return short_page(request, 405, headers={"Allow": "GET, HEAD"})
        if not limit.allow(client_address(request)):
            return short_page(request, 429, headers={"Retry-After": "10"})
        if malformed(request, body=posted) is not None:
            return short_page(request, 400)
        try:
            return await handler(request)
        except web.HTTPException as error:
            if error.status < 400:
                raise
            return short_page(request, error.status)

    return guard


SHORT_WORDS = {
    400: i18n.N_("This address is not one the bot makes."),
    404: i18n.N_("There is no such page, or its link is not the one the bot gave."),
    405: i18n.N_("Pages can only be read here."),
    429: i18n.N_("Too many requests at once: wait a moment and try again."),
}


def short_page(
    request: web.Request, status: int, headers: dict[str, str] | None = None
) -> web.Response:
    """A short page for a refused request, in the reader's language."""
    language = page_language(None, request.headers.get("Accept-Language"))
    with i18n.using(language):
        words = i18n._(SHORT_WORDS.get(status, SHORT_WORDS[404]))
        response = aiohttp_jinja2.render_template(
            "error.html",
            request,
            {"title": words, "words": words, "status": status, "language": language},
            status=status,
        )
    response.headers.update(headers or {})
    response.headers["X-Robots-Tag"] = "noindex"
    response.headers["Cache-Control"] = "no-store"
    return response


class WebServer:
    """The pages served on ``host:port`` in the running event loop, until ``close``."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        # No access log: every link carries its page's token, which a log would keep.
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        self._host, self._port = host, port

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            raise CannotServe(
                f"cannot serve the pages on {self._host}:{self._port} "
                f"(BONKEN_WEB_HOST, BONKEN_WEB_PORT): {error.strerror or error}"
            ) from None
        log.info("serving the web pages on %s:%d", self._host, self._port)

    async def close(self) -> None:
        await asyncio.shield(self._runner.cleanup())
