"""The Activity's page in a real browser, with the Embedded App SDK's own mock of Discord
(``DiscordSDKMock``, which the page runs outside Discord when asked): it signs in through
the stand-in for Discord's OAuth2 endpoint and plays a card at a real table."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Page

from bot.tables import events as ev
from tests.web.activity_helpers import ANN, CAS, CHANNEL, GUILD, ActivitySite, activity_site

T = TypeVar("T")
MOCK_CODE = "mock_code"
"""What ``DiscordSDKMock``'s ``authorize`` answers."""


class Served:
    """An :func:`activity_site` run in an event loop of its own thread (Playwright's
    synchronous API holds this thread's)."""

    def __init__(self, folder) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._context = activity_site(folder / "bonken.sqlite3")
        self.site: ActivitySite = self.run(self._context.__aenter__())

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=30)

    def close(self) -> None:
        self.run(self._context.__aexit__(None, None, None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    running = Served(tmp_path)
    yield running
    running.close()


def _activity_url(served: Served) -> str:
    return f"{served.site.base}/.proxy/activity?mock=1&guild_id={GUILD}&channel_id={CHANNEL}"


def _my_card_played(page: Page, seconds: float = 20.0) -> str:
    """Answer the table as it asks (the first contract, no doubles) until a card of the
    hand may be played; play the first such card and name it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        legal = page.locator(".lt-in-hand.lt-legal")
        if legal.count():
            card = legal.first.get_attribute("data-card")
            assert card is not None
            legal.first.click()
            return card
        for asked in (".lt-choice[data-action]", ".lt-pass"):
            if page.locator(asked).count():
                page.locator(asked).first.click()
                break
        page.wait_for_timeout(100)
    raise AssertionError("the table never offered a card to play")


def test_the_activity_signs_in_with_the_sdks_mock_and_plays_a_card(served, page):
    site = served.site
    view = served.run(site.open_table((ANN,)))
    site.oauth.codes[MOCK_CODE] = ANN
    page.goto(_activity_url(served))
    page.wait_for_selector(".lt-in-hand", timeout=15_000)
    assert page.locator("[data-activity-status]").is_hidden()
    assert page.locator(".lt-in-hand").count() == 13
    card = _my_card_played(page)
    page.wait_for_selector(f'.lt-in-hand[data-card="{card}"]', state="detached", timeout=10_000)
    played = [e for e in list(site.events) if isinstance(e, ev.CardPlayed) and e.seat == 0]
    assert played and played[0].card.code == card
    assert site.oauth.exchanges == [MOCK_CODE]
    assert view.table_id == played[0].table_id


def test_a_person_not_at_the_table_reads_why_and_sees_no_hand(served, browser):
    site = served.site
    served.run(site.open_table((ANN,)))
    site.oauth.codes[MOCK_CODE] = CAS
    # Not the page fixture: the refused sign-in's 403 is the one console error expected.
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(error.message))
    try:
        page.goto(_activity_url(served))
        status = page.locator("[data-activity-status]")
        status.filter(has_text="not seated at this table").wait_for(timeout=15_000)
        page.wait_for_selector(".lt-root", timeout=10_000)  # the spectators' view
        page.wait_for_timeout(300)
        assert page.locator(".lt-in-hand").count() == 0
        assert page.locator(".lt-seat, [data-seat]").count() > 0
    finally:
        context.close()
    refused = "Failed to load resource: the server responded with a status of 403 (Forbidden)"
    assert errors == [refused]


def test_outside_discord_the_page_says_where_to_start_it(served, page):
    page.goto(f"{served.site.base}/.proxy/activity")
    status = page.locator("[data-activity-status]")
    status.filter(has_text="start it from Discord").wait_for(timeout=10_000)
    assert served.site.oauth.exchanges == []
