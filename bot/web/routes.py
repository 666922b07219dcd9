"""The pages' routes: each checks its link's token and the server's web setting, then
builds its page in the reader's language, kept drawn when it never changes.

A path's ids, its token and the server's setting are checked before anything is read:
a forged or altered token, an id of another server, a server set to ``off`` and an
unknown id all get the same 404, so a page says nothing of what it does not show.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from datetime import date
from typing import Any
from urllib.parse import urlencode

import jinja2
from aiohttp import web

from bot import i18n
from bot.daily.calendar import parse_day
from bot.store import WebAccess
from bot.store.recent import RecentSettings

from .cache import Drawn, Key, PageCache
from .language import page_language
from .links import DAY, MATCH, PLAYER, SERVER, SHEET, WebLinks
from .pages.common import number
from .pages.day import attempt_page, day_page
from .pages.match import deal_json, match_chart, match_page
from .pages.player import player_page
from .pages.server import server_page, standings_picture
from .pages.sheet import sheet_page
from .site import BadQuery, NotThere, Page, Reader, Services

Build = Callable[[Reader, Mapping[str, str]], Awaitable[Page]]


class Pages:
    """The handlers of the pages (see the module)."""

    def __init__(
        self, services: Services, links: WebLinks, cache: PageCache, env: jinja2.Environment
    ) -> None:
        self._services = services
        self._links = links
        self._cache = cache
        self._env = env
        self._settings = RecentSettings(services.tables)

    def add_routes(self, router: web.UrlDispatcher) -> None:
        router.add_get("/g/{guild}/{token}", self.server)
        router.add_get("/g/{guild}/{token}/standings.png", self.standings)
        router.add_get("/g/{guild}/player/{user}/{token}", self.player)
        router.add_get("/g/{guild}/match/{match}/{token}", self.match)
        router.add_get("/g/{guild}/match/{match}/{token}/chart.png", self.chart)
        router.add_get("/g/{guild}/match/{match}/{token}/deal/{deal}.json", self.deal)
        router.add_get("/g/{guild}/day/{day}/{token}", self.day)
        router.add_get("/g/{guild}/day/{day}/{token}/attempt/{attempt}", self.attempt)
        router.add_get("/g/{guild}/sheet/{tally}/{token}", self.sheet)

    # -- the pages ----------------------------------------------------------------------

    async def front(self, request: web.Request) -> web.Response:
        """``/``: what these pages are (each is opened from its link in Discord)."""
        language = page_language(None, request.headers.get("Accept-Language"))
        with i18n.using(language):
            body = self._env.get_template("front.html").render(
                self._common(request, language, {"title": "Bonken"})
            )
        return web.Response(text=body, content_type="text/html")

    async def server(self, request: web.Request) -> web.Response:
        return await self._page(request, SERVER, (), lambda r, q: server_page(self._services, r, q))

    async def player(self, request: web.Request) -> web.Response:
        user = _id(request, "user")
        return await self._page(
            request, PLAYER, (user,), lambda r, q: player_page(self._services, r, user, q)
        )

    async def match(self, request: web.Request) -> web.Response:
        match = _id(request, "match")
        return await self._page(
            request, MATCH, (match,), lambda r, q: match_page(self._services, r, match, q)
        )

    async def day(self, request: web.Request) -> web.Response:
        day = _day(request)
        return await self._page(
            request, DAY, (day.isoformat(),), lambda r, q: day_page(self._services, r, day, q)
        )

    async def attempt(self, request: web.Request) -> web.Response:
        day, attempt = _day(request), _id(request, "attempt")
        return await self._page(
            request,
            DAY,
            (day.isoformat(),),
            lambda r, q: attempt_page(self._services, r, day, attempt, q),
        )

    async def sheet(self, request: web.Request) -> web.Response:
        tally = _id(request, "tally")
        return await self._page(
            request, SHEET, (tally,), lambda r, q: sheet_page(self._services, r, tally, q)
        )

    async def chart(self, request: web.Request) -> web.Response:
        """A finished match's score chart: the picture of its link's preview."""
        match = _id(request, "match")
        return await self._finished_part(
            request, match, "image/png", lambda reader: match_chart(self._services, reader, match)
        )

    async def deal(self, request: web.Request) -> web.Response:
        """A finished match's deal, every point of it, as the page's deal viewer fetches
        it: the match page's token and refusals, kept for good as the page is."""
        match, number = _id(request, "match"), _id(request, "deal")
        return await self._finished_part(
            request,
            match,
            "application/json",
            lambda reader: deal_json(self._services, reader, match, number),
        )

    async def standings(self, request: web.Request) -> web.Response:
        """The season's standings as a picture: the server page's link preview. It
        changes with every finished match: kept as the server page is, answered by its
        ETag."""
        if _query(request).keys() - {"lang"}:
            raise web.HTTPBadRequest()
        reader = await self._reader(request, SERVER, (), _query(request))

        async def draw() -> Drawn:
            try:
                png = await standings_picture(self._services, reader)
            except NotThere:
                raise web.HTTPNotFound() from None
            return Drawn.of(png, "image/png", final=False)

        drawn = await self._cache.page(_key(request, reader), draw)
        return self._respond(drawn, request, reader)

    # -- inside -------------------------------------------------------------------------

    async def _finished_part(
        self,
        request: web.Request,
        match: int,
        content_type: str,
        make: Callable[[Reader], Awaitable[bytes]],
    ) -> web.Response:
        """What a finished match's page links to besides itself (its chart, a deal's
        points): the page's token, ``lang`` alone in the query, and kept for good as the
        page is."""
        query = _query(request)
        if set(query) - {"lang"}:
            raise web.HTTPBadRequest()
        reader = await self._reader(request, MATCH, (match,), query)

        async def draw() -> Drawn:
            try:
                body = await make(reader)
            except NotThere:
                raise web.HTTPNotFound() from None
            return Drawn.of(body, content_type, final=True, compress=self._cache.keeps)

        drawn = await self._cache.page(_key(request, reader), draw)
        return self._respond(drawn, request, reader)

    async def _page(
        self, request: web.Request, kind: str, ids: tuple[object, ...], build: Build
    ) -> web.Response:
        query = _query(request)
        reader = await self._reader(request, kind, ids, query)

        async def draw() -> Drawn:
            with i18n.using(reader.language):
                try:
                    page = await build(reader, query)
                except NotThere:
                    raise web.HTTPNotFound() from None
                except BadQuery:
                    raise web.HTTPBadRequest() from None
                context = self._common(request, reader.language, page.context)
                template = self._env.get_template(page.template)
                keeps = self._cache.keeps

                def drawn() -> Drawn:
                    body = template.render(context).encode()
                    return Drawn.of(body, "text/html", final=page.final, compress=keeps)

                # A page that never changes is kept: drawn and gzipped off the event loop.
                # One drawn for its reader alone (no cache) is drawn here, as a changing
                # page is: a thread's round trip would cost more than its drawing.
                return await asyncio.to_thread(drawn) if page.final and keeps else drawn()

        drawn = await self._cache.page(_key(request, reader), draw)
        return self._respond(drawn, request, reader)

    async def _reader(
        self, request: web.Request, kind: str, ids: tuple[object, ...], query: Mapping[str, str]
    ) -> Reader:
        """Who may read this page: its token checked, its server's setting read."""
        guild = _id(request, "guild")
        token = request.match_info["token"]
        if not self._links.signer.valid(token, kind, guild, *ids):
            raise web.HTTPNotFound()
        access = await self._access(guild)
        if access is WebAccess.OFF:
            raise web.HTTPNotFound()
        language = page_language(query.get("lang"), request.headers.get("Accept-Language"))
        return Reader(guild, access, language, self._links)

    async def _access(self, guild_id: int) -> WebAccess:
        """The server's web setting, read again once it is a moment old (a change in
        Discord reaches the pages within :data:`~bot.store.recent.SETTING_SECONDS`)."""
        return (await self._settings.of(guild_id)).web

    def _respond(self, drawn: Drawn, request: web.Request, reader: Reader) -> web.Response:
        """``drawn`` for this reader: gzipped if his client takes it, 304 if he has it."""
        gzipped = drawn.gzipped is not None and _takes_gzip(request)
        # The gzipped bytes are another representation of the page: another ETag.
        etag = drawn.etag[:-1] + '-gz"' if gzipped else drawn.etag
        headers = {"ETag": etag, "Vary": "Accept-Encoding, Accept-Language"}
        headers["Cache-Control"] = (
            "public, max-age=31536000, immutable" if drawn.final else "no-cache"
        )
        if not reader.public:
            headers["X-Robots-Tag"] = "noindex"
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        body = drawn.gzipped if gzipped else drawn.body
        return web.Response(body=body, content_type=drawn.content_type, headers=headers)

    def _common(
        self, request: web.Request, language: str, context: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What the layout shows on every page: the language switch, the preview."""
        others = {k: v for k, v in request.query.items() if k != "lang"}

        def switch(lang: str) -> str:
            return f"{request.path}?{urlencode({**others, 'lang': lang})}"

        image = context.get("og_image")
        return {
            **context,
            "language": language,
            "languages": [
                {"name": i18n.LANGUAGE_NAMES[lang], "href": switch(lang), "on": lang == language}
                for lang in i18n.LANGUAGES
            ],
            "og_image": None if image is None else self._links.base + image,
        }


def _query(request: web.Request) -> dict[str, str]:
    """The query as one value a key; a repeated key or a language the bot does not
    speak is refused (400)."""
    query = request.query
    if len(query) != len(set(query)):
        raise web.HTTPBadRequest()
    if "lang" in query and query["lang"] not in i18n.LANGUAGES:
        raise web.HTTPBadRequest()
    return dict(query)


def _key(request: web.Request, reader: Reader) -> Key:
    """Where a page is kept: its server, path and query, language and web setting
    (which decides what it links to)."""
    return (reader.guild_id, request.path_qs, reader.language, reader.access.value)


def _takes_gzip(request: web.Request) -> bool:
    """Whether the reader's client takes gzip (``Accept-Encoding``, not ``q=0``)."""
    for coding in request.headers.get("Accept-Encoding", "").split(","):
        name, _, weight = coding.partition(";")
        if name.strip().lower() == "gzip":
            return weight.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def _id(request: web.Request, key: str) -> int:
    try:
        return number(request.match_info[key])
    except BadQuery:
        raise web.HTTPNotFound() from None


def _day(request: web.Request) -> date:
    try:
        return parse_day(request.match_info["day"])
    except ValueError:
        raise web.HTTPNotFound() from None
