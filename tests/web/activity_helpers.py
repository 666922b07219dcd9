"""The Discord Activity's server with a stand-in for Discord's OAuth2 endpoint.

:class:`FakeOAuth` answers as Discord does: ``POST /oauth2/token`` takes a code it gave
(once: a second use is ``invalid_grant``) with the application's id and secret, and
``GET /users/@me`` says whose the access token is. :func:`activity_site` serves the
pages, the live table and the Activity over a table service, with the Activity's
sign-in pointed at the stand-in.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from aiohttp import web

from bot.settings import ActivitySettings
from bot.store import Store, WebAccess, open_store
from bot.tables import TableService, TableView
from bot.tables import events as ev
from bot.ui.threads import THREAD
from bot.web.activity import ActivityPages
from bot.web.app import make_app
from bot.web.links import WebLinks
from bot.web.live.routes import Live
from bot.web.ratelimit import RateLimit
from bot.web.site import Services
from bot.web.tokens import Signer, load_signer

CLIENT_ID, SECRET = 4242, "the-client-secret"
GUILD, CHANNEL, THREAD_ID = 1, 10, 11
ANN, BOB, CAS = 101, 102, 103


@dataclass
class FakeOAuth:
    """Discord's OAuth2 endpoint as the Activity's sign-in meets it."""

    codes: dict[str, int] = field(default_factory=dict)
    """The codes Discord gave, and to whom."""
    exchanges: list[str] = field(default_factory=list)
    """Every code presented to ``/oauth2/token``, in order."""
    used: set[str] = field(default_factory=set)
    down: bool = False
    """Answer 503 to everything (Discord out of reach)."""

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/oauth2/token", self._token)
        app.router.add_get("/users/@me", self._me)
        return app

    async def _token(self, request: web.Request) -> web.Response:
        if self.down:
            return web.json_response({"message": "unavailable"}, status=503)
        form = await request.post()
        code = str(form.get("code", ""))
        self.exchanges.append(code)
        client = (form.get("client_id"), form.get("client_secret"))
        if client != (str(CLIENT_ID), SECRET):
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        if code not in self.codes or code in self.used:
            return web.json_response({"error": "invalid_grant"}, status=400)
        self.used.add(code)
        return web.json_response(
            {"access_token": f"token-{code}", "token_type": "Bearer", "scope": "identify"}
        )

    async def _me(self, request: web.Request) -> web.Response:
        token = request.headers.get("Authorization", "").removeprefix("Bearer token-")
        if token not in self.used:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response({"id": str(self.codes[token]), "username": "someone"})


@dataclass
class ActivitySite:
    store: Store
    service: TableService
    signer: Signer
    oauth: FakeOAuth
    base: str
    events: list[ev.Event] = field(default_factory=list)
    """Every event of the table service, in order."""

    async def open_table(
        self, users: tuple[int, ...] = (ANN,), *, start: bool = True, thread: bool = False
    ) -> TableView:
        """A table hosted by ``users[0]`` in :data:`CHANNEL` (playing in the thread
        :data:`THREAD_ID` when ``thread``), the others joined, started."""
        view = await self.service.open_table(GUILD, CHANNEL, users[0], f"user{users[0]}")
        if thread:
            await self.service.remember_message(view.table_id, THREAD, THREAD_ID)
        for user in users[1:]:
            view = await self.service.join(CHANNEL, user, f"user{user}")
        if start:
            view = await self.service.start(CHANNEL, users[0])
        return view

    async def set_access(self, access: WebAccess) -> None:
        settings = await self.store.tables.guild_settings(GUILD)
        await self.store.tables.set_guild_settings(GUILD, replace(settings, web=access))


async def _serve(app: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}"


@contextlib.asynccontextmanager
async def activity_site(database: Path | str, *, pace: float = 0.0) -> AsyncIterator[ActivitySite]:
    """The pages with the live table and the Activity on a free local port, signing in
    against a :class:`FakeOAuth` on another."""
    oauth = FakeOAuth()
    discord, discord_url = await _serve(oauth.app())
    async with await open_store(database) as store:
        lives: list[Live] = []
        events: list[ev.Event] = []

        async def publish(event: ev.Event, view: TableView | None) -> None:
            events.append(event)
            lives[0].publish(event)

        service = TableService(store, publish, pace=pace, time_scale=1000.0, rng=random.Random(7))
        signer = await load_signer(store.facts)

        async def access(guild: int) -> WebAccess:
            return (await store.tables.guild_settings(guild)).web

        lives.append(Live(service, signer, access, store.live_seats))
        settings = ActivitySettings(CLIENT_ID, SECRET, discord_url)
        activity = ActivityPages(settings, service, signer, access, thread_role=THREAD)
        app = make_app(
            Services.of(store),
            WebLinks("http://x", signer),
            limit=RateLimit(10_000, 10_000),
            live=lives[0],
            activity=activity,
        )
        runner, base = await _serve(app)
        try:
            yield ActivitySite(store, service, signer, oauth, base, events)
        finally:
            await service.close()
            await runner.cleanup()
            await discord.cleanup()
