"""Browser tests: a real headless Chromium (Debian's ``chromium``) driven by Playwright.

No browser is ever downloaded: Playwright launches the system's Chromium
(:data:`CHROMIUM`; ``.ci/run`` installs it as it installs PostgreSQL). A missing browser
fails the tests, saying what to install: a test never skips what it cannot find.

One browser per test module (and pytest-xdist worker), a fresh context and page per
test: while Playwright's synchronous API is open it leaves its event loop marked as
running in the thread, so a browser kept for the whole session would break every asyncio
test the worker runs after it; pytest closes a module's fixtures before the next module's
tests run. The ``page`` fixture fails its test on any console error or uncaught exception
(a script error, a violation of the Content-Security-Policy). :class:`Site` serves
pages and ``bot/web/static`` from an aiohttp server in a thread of its own, with the
strict CSP the bot's pages send, so what runs here is what may run there.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp import web
from playwright.sync_api import Browser, ConsoleMessage, Error, Page, sync_playwright

from tests.web.web_helpers import Filled, filled_copy, filled_template

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium (``dpkg -L chromium``)."""
ARGS = [
    "--no-sandbox",  # tests run as root in CI, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STATIC = Path(__file__).parents[2] / "bot" / "web" / "static"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of the bot's pages: no inline script or style, requests
only to the site itself (the deal viewer's deals)."""
WIDE = {"width": 1000, "height": 900}
PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"no browser at {CHROMIUM}: install Debian's chromium package")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page; the test fails on any console error or uncaught exception in it."""
    context = browser.new_context(viewport=WIDE)
    opened = context.new_page()
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"console: {message.text}")

    def crashed(error: Error) -> None:
        errors.append(f"uncaught: {error.message}")

    opened.on("console", console)
    opened.on("pageerror", crashed)
    yield opened
    context.close()
    if errors:
        pytest.fail("the page reported errors:\n" + "\n".join(errors))


class Site:
    """An aiohttp server in a thread: ``pages`` by path (HTML; JSON for a path ending
    ``.json``), ``/static/`` from ``bot/web/static``, every response with :data:`CSP`;
    ``asked`` counts the requests for each page."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self.asked: Counter[str] = Counter()
        self._loop = asyncio.new_event_loop()
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(), self._loop).result(timeout=10)

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    async def _serve(self) -> None:
        app = web.Application(middlewares=[_with_csp])
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/{path:.*}", self._page)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.SockSite(self._runner, self._socket).start()

    async def _page(self, request: web.Request) -> web.Response:
        self.asked[request.path] += 1
        text = self.pages.get(request.path)
        if text is None:
            raise web.HTTPNotFound()
        kind = "application/json" if request.path.endswith(".json") else "text/html"
        return web.Response(text=text, content_type=kind)


@web.middleware
async def _with_csp(request: web.Request, handler: web.RequestHandler) -> web.StreamResponse:
    response = await handler(request)
    response.headers["Content-Security-Policy"] = CSP
    return response


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    served = Site()
    served.start()
    yield served
    served.stop()


# A store filled with finished matches, a closed day and a scoresheet, made once a session
# (by each worker: a few seconds of play) and copied for each test, and a client of the
# pages served from it.
@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Filled]:
    return filled_template(tmp_path_factory.mktemp("filled"))


@pytest.fixture
async def filled(template: tuple[Path, Filled], tmp_path: Path) -> AsyncIterator[Filled]:
    async with filled_copy(template, tmp_path) as copy:
        yield copy


@pytest.fixture
async def client(filled: Filled, aiohttp_client):  # type: ignore[no-untyped-def]
    return await aiohttp_client(filled.app())
