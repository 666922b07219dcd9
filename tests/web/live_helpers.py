"""A table service with the live table on a web server: what the live tests drive.

:func:`live_site` opens a store, a :class:`~bot.tables.TableService` whose events go to
the live table's hub (as the bot's ``publish`` does, :mod:`bot.parts`) and to a
recorder, and serves the pages with the live table on a local port. :class:`Socket`
is one page's connection, reading every frame it is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.store import Store, WebAccess, open_store
from bot.tables import TableService, TableView
from bot.tables import events as ev
from bot.web.app import make_app
from bot.web.links import WebLinks
from bot.web.live.routes import Live
from bot.web.live.socket import FrameLimit
from bot.web.live.tokens import seat_token, watch_token
from bot.web.ratelimit import RateLimit
from bot.web.site import Services
from bot.web.tokens import load_signer
from tests.discord.discord_harness import Harness, User, components, show_hand

GUILD, CHANNEL = 1, 10
ANN, BOB = 101, 102
STAND_IN = b"\x89PNG\r\n\x1a\n"
"""A picture for the real bot's tests to send: never decoded, the fake Discord stores
what it is sent."""


def free_port() -> int:
    """A local port nobody listens on, for the real bot to serve its pages on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LiveSite:
    store: Store
    service: TableService
    live: Live
    links: WebLinks
    base: str
    events: list[ev.Event] = field(default_factory=list)

    def seat_token(self, table_id: int, user_id: int, guild: int = GUILD) -> str:
        return seat_token(self.links.signer, guild, table_id, user_id)

    def watch_token(self, table_id: int, guild: int = GUILD) -> str:
        return watch_token(self.links.signer, guild, table_id)

    @property
    def socket_url(self) -> str:
        return self.base.replace("http://", "ws://") + "/live/socket"

    async def open_table(self, users: tuple[int, ...] = (ANN,), start: bool = True) -> TableView:
        """A table hosted by ``users[0]``, the others joined, started (computers fill)."""
        view = await self.service.open_table(GUILD, CHANNEL, users[0], f"user{users[0]}")
        for user in users[1:]:
            view = await self.service.join(CHANNEL, user, f"user{user}")
        if start:
            view = await self.service.start(CHANNEL, users[0])
        return view

    async def set_access(self, access: WebAccess, guild: int = GUILD) -> None:
        settings = await self.store.tables.guild_settings(guild)
        await self.store.tables.set_guild_settings(guild, replace(settings, web=access))


@contextlib.asynccontextmanager
async def live_site(
    database: Path | str,
    *,
    pace: float = 0.0,
    time_scale: float = 1000.0,
    limit: FrameLimit | None = None,
) -> AsyncIterator[LiveSite]:
    """The live table served on a free local port (see the module); ``limit``: the
    frames a socket may send (a person's by default; scripted people need more)."""
    async with await open_store(database) as store:
        holder: list[LiveSite] = []

        async def publish(event: ev.Event, view: TableView | None) -> None:
            site = holder[0]
            site.events.append(event)
            site.live.publish(event)

        service = TableService(
            store, publish, pace=pace, time_scale=time_scale, rng=random.Random(7)
        )
        signer = await load_signer(store.facts)

        async def access(guild: int) -> WebAccess:
            return (await store.tables.guild_settings(guild)).web

        live = Live(service, signer, access, store.live_seats, limit=limit)
        links = WebLinks("http://x", signer)
        loose = RateLimit(10_000, 10_000)
        app = make_app(Services.of(store), links, limit=loose, live=live)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        base = f"http://127.0.0.1:{port}"
        holder.append(LiveSite(store, service, live, WebLinks(base, signer), base))
        try:
            yield holder[0]
        finally:
            await service.close()
            await runner.cleanup()


class Socket:
    """One page's socket: sends frames, keeps every frame it is sent."""

    def __init__(self, session: aiohttp.ClientSession, socket: aiohttp.ClientWebSocketResponse):
        self.session = session
        self.socket = socket
        self.frames: list[dict[str, Any]] = []
        self._new = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, token: str | None, language: str = "en") -> Socket:
        session = aiohttp.ClientSession()
        socket = await session.ws_connect(url)
        opened = cls(session, socket)
        if token is not None:
            await opened.send({"type": "hello", "token": token, "language": language})
        return opened

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))
                self._new.set()

    async def send(self, frame: dict[str, Any]) -> None:
        await self.socket.send_str(json.dumps(frame))

    async def next(self, kind: str, after: int = 0, timeout: float = 5.0) -> dict[str, Any]:
        """The first frame of ``kind`` from index ``after`` on, waiting for it."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for frame in self.frames[after:]:
                if frame["type"] == kind:
                    return frame
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0 or (self.socket.closed and self._reader.done()):
                raise AssertionError(f"no {kind} frame; got {[f['type'] for f in self.frames]}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), min(left, 0.2))

    def states(self) -> list[dict[str, Any]]:
        return [frame["state"] for frame in self.frames if frame["type"] == "state"]

    async def closed(self, timeout: float = 5.0) -> int | None:
        """Wait for the bot to close the socket; its close code."""
        await asyncio.wait_for(self._reader, timeout)
        return self.socket.close_code

    async def close(self) -> None:
        await self.socket.close()
        await self._reader
        await self.session.close()


async def table_link(h: Harness, user: User) -> str:
    """The "Open the table" link of ``user``'s hand message (the real bot's)."""
    message = h.hand_message(await show_hand(h, user))
    links = [c for c in components(message) if c.get("style") == 5]
    assert [c["label"] for c in links] == ["Open the table"]
    return str(links[0]["url"])
