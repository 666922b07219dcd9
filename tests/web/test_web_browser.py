"""The pages in a real browser (Debian's Chromium, the ``browser`` and ``page`` fixtures
of ``conftest.py``): each page opens from the link the bot makes, without one console
error under the pages' own Content-Security-Policy (the ``page`` fixture fails a test on
any), fits a phone's width, and a forged link or a server set to off shows nothing."""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from aiohttp import web
from playwright.sync_api import Browser, Page

from bot.render.replay import caption_of, sorted_hand
from bot.render.text import player_name
from bot.review.replay import Replay
from bot.store import WebAccess, open_store
from bot.web.app import make_app
from bot.web.links import WebLinks
from bot.web.ratelimit import RateLimit
from bot.web.site import Services
from bot.web.tokens import load_signer
from tests.daily.daily_helpers import Clock
from tests.web.conftest import PHONE
from tests.web.web_helpers import GUILD, OTHER_GUILD, Filled


@dataclass
class Served:
    url: str
    filled: Filled
    links: WebLinks

    def pages(self) -> dict[str, str]:
        """Every kind of page, by the link the bot makes for it."""
        links, filled = self.links, self.filled
        day = links.day(GUILD, filled.day)
        return {
            "server": links.server(GUILD),
            "player": links.player(GUILD, 1),
            "match": links.match(GUILD, filled.finished[-1]),
            "playing": links.match(GUILD, filled.playing),
            "day": day,
            "attempt": f"{day}/attempt/{filled.attempts[0]}",
            "sheet": links.sheet(GUILD, filled.tally),
        }


@pytest.fixture(scope="module")
def served(
    template: tuple[Path, Filled], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    """The pages of a copy of the filled store (server 2 set to off), served from a thread."""
    database = tmp_path_factory.mktemp("served") / "served.sqlite3"
    shutil.copyfile(template[0], database)
    loop = asyncio.new_event_loop()  # the pages' own, in a thread: the browser has this one
    ready: dict[str, object] = {}

    async def start() -> web.AppRunner:
        store = await open_store(database)
        ready["filled"] = replace(template[1], store=store, clock=Clock(template[1].clock.now))
        settings = await store.tables.guild_settings(OTHER_GUILD)
        await store.tables.set_guild_settings(OTHER_GUILD, replace(settings, web=WebAccess.OFF))
        site_links = WebLinks("http://127.0.0.1:0", await load_signer(store.facts))
        runner = web.AppRunner(
            make_app(Services.of(store), site_links, limit=RateLimit(1e6, 10**6))
        )
        await runner.setup()
        tcp = web.TCPSite(runner, "127.0.0.1", 0)
        await tcp.start()
        port = runner.addresses[0][1]
        ready["links"] = WebLinks(f"http://127.0.0.1:{port}", await load_signer(store.facts))
        ready["store"] = store
        return runner

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    runner = asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=30)
    links, filled = ready["links"], ready["filled"]
    assert isinstance(links, WebLinks) and isinstance(filled, Filled)
    yield Served(links.base, filled, links)
    asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=10)
    asyncio.run_coroutine_threadsafe(ready["store"].close(), loop).result(timeout=10)  # type: ignore[attr-defined]
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)


@pytest.mark.parametrize(
    "kind", ["server", "player", "match", "playing", "day", "attempt", "sheet"]
)
def test_each_page_opens_from_its_link_without_an_error(served: Served, page: Page, kind: str):
    response = page.goto(served.pages()[kind])
    assert response is not None and response.status == 200
    page.wait_for_load_state("load")
    assert page.title().endswith("· Bonken")
    if kind in ("match", "attempt"):
        page.wait_for_selector(".deal-viewer .dv-caption")


def _shows(page: Page, replayed: Replay, deal: int, step: int) -> None:
    """The viewer shows point ``(deal, step)`` (once its deal has come): the record's
    hands and caption."""
    # A selector, not a function: the page's CSP forbids the eval a function needs.
    page.wait_for_selector(
        f'.deal-viewer[data-deal="{deal + 1}"][data-step="{step}"]:not([aria-busy])'
    )
    point = replayed.deal_points(deal)[step]
    names = [player_name(name) for name in replayed.match.players]
    assert page.locator(".dv-caption").inner_text() == caption_of(point, names)
    for seat in range(4):
        cards = page.locator(f'.dv-seat[data-seat="{seat}"] .dv-hand .card')
        held = cards.evaluate_all("cards => cards.map(card => card.dataset.card)")
        assert held == [card.code for card in sorted_hand(point.hands[seat])]


def test_the_match_pages_viewer_fetches_each_deal_from_the_bot(served: Served, page: Page):
    """Under the bot's own policy and routes, a link opens its point and the keys cross
    into the next deal, fetched from the bot."""
    replayed = Replay(served.filled.last_match)
    end = replayed.steps(0) - 1
    page.goto(served.pages()["match"] + f"#deal-1-step-{end - 1}")
    _shows(page, replayed, 0, end - 1)
    page.keyboard.press("ArrowRight")
    _shows(page, replayed, 0, end)
    page.keyboard.press("ArrowRight")
    _shows(page, replayed, 1, 0)
    page.locator(".dv-deal-menu select").select_option(value=str(replayed.deals - 1))
    _shows(page, replayed, replayed.deals - 1, 0)
    page.keyboard.press("ArrowLeft")
    _shows(page, replayed, replayed.deals - 2, replayed.steps(replayed.deals - 2) - 1)


@pytest.mark.parametrize("kind", ["server", "player", "match", "day", "sheet"])
def test_each_page_fits_a_phone(served: Served, browser: Browser, kind: str) -> None:
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.on("pageerror", lambda e: errors.append(e.message))
    try:
        phone.goto(served.pages()[kind])
        phone.wait_for_load_state("load")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{kind} is {width} px wide"
    finally:
        context.close()
    assert errors == []


@pytest.fixture
def refused(browser: Browser) -> Iterator[Page]:
    """A page for addresses answered 404: the browser logs that 404 itself, nothing else
    may go wrong."""
    context = browser.new_context()
    opened = context.new_page()
    errors: list[str] = []
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda e: errors.append(e.message))
    yield opened
    context.close()
    assert [e for e in errors if "status of 404" not in e] == []


def test_a_forged_link_shows_no_such_page(served: Served, refused: Page) -> None:
    page = refused
    url = served.pages()["match"]
    forged = url[:-3] + ("aaa" if not url.endswith("aaa") else "bbb")
    response = page.goto(forged)
    assert response is not None and response.status == 404
    assert "no such page" in page.inner_text("main")


def test_a_server_set_to_off_serves_nothing(served: Served, refused: Page) -> None:
    page = refused
    match = served.links.match(OTHER_GUILD, served.filled.elsewhere)
    for url in (served.links.server(OTHER_GUILD), match):
        response = page.goto(url)
        assert response is not None and response.status == 404
        assert "viewer" not in page.content()


def test_the_language_switch_speaks_dutch(served: Served, page: Page) -> None:
    page.goto(served.pages()["server"])
    page.click("text=Nederlands")
    assert page.inner_text("h1") == "Ranglijst Bonken"
    assert page.evaluate("document.documentElement.lang") == "nl"
