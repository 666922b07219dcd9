"""The live table in a real headless Chromium, beside the bot's Discord side.

The bot is the real one against the tests' fake Discord (tests/discord/discord_harness.py),
serving its pages and the live table on a local port. Ann plays on the drawn table, opened
from the "Open the table" button of her hand message; Bob plays through the Discord
buttons; two computers fill the table. Both ways act on one table.

Playwright's async API is used here, in the test's own event loop beside the bot (the
module-scoped sync browser of conftest.py would hold the loop; see its docstring): each
test launches its browser and closes it. A console error or uncaught exception on the
page fails the test, as conftest's ``page`` fixture does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

import bot.ui.pictures as pictures
from bot import i18n
from bot.engine import Card, Double, Play, Suit, from_record
from bot.render.reasons import refusal_text
from bot.store import WebAccess
from bot.tables import Refusal
from bot.web.live.socket import FrameLimit
from tests.discord.discord_harness import (
    FAST_PACING,
    GUILD_ID,
    Harness,
    User,
    act_by_buttons,
    components,
    seated_match,
    show_hand,
)
from tests.web.conftest import ARGS, CHROMIUM, PHONE, WIDE
from tests.web.live_helpers import STAND_IN, free_port, table_link

pytestmark = [pytest.mark.timeout(240), pytest.mark.long]

PAGE_CATCHES_UP = 20.0
"""Seconds a page may take to show what the table did (a moment on a quiet machine; on
a loaded one the browser can lag seconds behind)."""


@pytest.fixture
async def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """The bot serving its pages on a free port (pictures stand-ins: not looked at), its
    edits paced at the fake Discord's time scale."""
    monkeypatch.setattr(pictures, "deal_png", lambda scene: STAND_IN)
    monkeypatch.setattr(pictures, "chart_png", lambda data: STAND_IN)
    h = Harness(tmp_path, pacing=FAST_PACING)
    h.bot.settings = replace(h.bot.settings, web_port=free_port(), web_host="127.0.0.1")
    await h.start()
    assert h.parts.live is not None
    h.parts.live.socket.limit = SCRIPTED  # Ann moves the moment it is her turn
    try:
        yield h
    finally:
        await h.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"no browser at {CHROMIUM}: install Debian's chromium package")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True
        )
        yield launched
        await launched.close()


class Watched:
    """A page with its console errors and every frame its socket received."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.frames: list[dict[str, Any]] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error.message}"))
        page.on("websocket", self._socket)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def states(self) -> list[dict[str, Any]]:
        return [frame["state"] for frame in self.frames if frame.get("type") == "state"]


SCRIPTED = FrameLimit(burst=1000, per_second=1000.0)
"""A scripted person's frames: a person's limit (a few a second) would close the page."""


def to_act(h: Harness) -> int | None:
    view = h.table()
    if view is None or view.to_act is None:
        return None
    return view.seats[view.to_act].user_id


async def act_on_page(
    h: Harness, watched: Watched, turn: int, *, keys: bool = False, double: bool = False
) -> None:
    """Ann's move made on the page as a person makes it: the first contract offered (the
    trump list through "Trumps…"), a pass when doubling (``double``: the first seat
    offered toggled, then Confirm), else the first legal card (``keys``: chosen with the
    arrow keys and played with Enter)."""
    page = watched.page
    await page.wait_for_selector(f'[data-my-turn="1"][data-turn="{turn}"]', timeout=10_000)
    choices = page.locator(".lt-actions .lt-choice")
    if double:
        toggle = page.locator(".lt-actions .lt-toggle").first
        await toggle.click()
        assert await toggle.get_attribute("aria-pressed") == "true"
        await page.click(".lt-actions .lt-confirm")
    elif await page.locator(".lt-actions .lt-pass").count():
        await page.click(".lt-actions .lt-pass")
    elif await choices.count():
        trumps = "lt-trumps" in (await choices.first.get_attribute("class") or "")
        await choices.first.click()
        if trumps:  # "Trumps…" opened the trump suits: the first of them
            await page.locator(".lt-actions .lt-choice[data-action]").first.click()
    elif keys:
        cards = await page.eval_on_selector_all(
            ".lt-hand .card", "cards => cards.map(c => c.classList.contains('lt-legal'))"
        )
        await page.focus('.lt-hand .card[tabindex="0"]')
        await page.keyboard.press("Home")
        for _ in range(cards.index(True)):
            await page.keyboard.press("ArrowRight")
        await page.keyboard.press("Enter")
    else:
        await page.locator(".lt-hand .card.lt-legal").first.click()
    for _ in range(500):
        view = h.table()
        if view is None or view.turn != turn:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the page's move at turn {turn} did not reach the table")


async def test_two_people_play_a_whole_match_one_on_the_page_one_by_discord(
    harness: Harness, browser: Browser
) -> None:
    h = harness
    ann, bob, table_id = await seated_match(h)
    # Without the cards' slide-in (the page honours prefers-reduced-motion): a whole
    # match of it is some 4 s of Chromium's CPU, and no script waits for it; the other
    # tests here show the page in motion.
    context = await browser.new_context(viewport=WIDE, reduced_motion="reduce")
    watched = Watched(await context.new_page())
    page = watched.page
    await page.goto(await table_link(h, ann))
    await page.wait_for_selector(".lt-hand .card")
    refused_once = reloaded = bobs_card_seen = by_keys = False
    doubled = last_seen = domino_seen = clock_seen = False
    match_id = h.table().match_id
    while h.table() is not None:
        await h.parts.service.settle()
        view = h.table()
        if view is None:
            break
        mover = to_act(h)
        if mover == bob.id:
            await h.idle()  # as Bob would, he waits for the deal's message and its button
            before = len(watched.states())  # an index into the state frames
            hand = h.parts.service.hand(table_id, bob.id)
            await act_by_buttons(h, bob)
            if not bobs_card_seen and any(isinstance(a, Play) for a in hand.view.legal):
                record = h.parts.service.record(table_id, bob.id)
                assert record is not None
                plays = record["deals"][hand.view.deal_number - 1]["plays"]
                held = {card.code for card in hand.view.hand}
                await shown_on_the_page(watched, before, next(p for p in plays if p in held))
                bobs_card_seen = True
        elif mover == ann.id:
            hand = h.parts.service.hand(table_id, ann.id)
            legal = {a.card.code for a in hand.view.legal if isinstance(a, Play)}
            illegal = [c.code for c in hand.view.hand if c.code not in legal]
            if legal and illegal and not refused_once:
                await refuse_an_illegal_tap(h, watched, table_id, ann, illegal[0])
                refused_once = True
            if legal and view.trick and not reloaded:
                await page.reload()
                await page.wait_for_selector(f'[data-my-turn="1"][data-turn="{view.turn}"]')
                shown = await page.eval_on_selector_all(
                    ".lt-trick .card", "cards => cards.map(c => c.dataset.card)"
                )
                assert shown == [card.code for _, card in view.trick]  # caught up
                reloaded = True
            if legal:
                clock_seen = clock_seen or await clock_shown(page, view.turn)
                if view.last_trick is not None and not last_seen:
                    await last_trick_on_demand(page, view)
                    last_seen = True
                if view.domino_rows and not domino_seen:
                    await domino_rows_drawn(page, view)
                    domino_seen = True
            keys = refused_once and bool(legal) and not by_keys
            double = not doubled and bool(hand.view.doubling_targets) and hand.view.my_turn
            double = double and any(isinstance(a, Double) for a in hand.view.legal)
            await act_on_page(h, watched, view.turn, keys=keys, double=double)
            by_keys = by_keys or keys
            if double:
                ann_seat = hand.view.seat
                assert any(ann_seat in pair[:2] for pair in h.table().doubled)
                doubled = True
        else:
            await asyncio.sleep(0.005)
    await h.idle()
    assert refused_once and reloaded and bobs_card_seen and by_keys
    assert doubled and last_seen and domino_seen and clock_seen
    record = await h.parts.store.matches.load_record(match_id)
    match = from_record(record)  # the record verifies: every move legal, replayed
    assert match.is_over and len(match.deals) == match.rules.deals
    # The page says the table closed: the socket's last message may reach it a moment
    # after the record is stored, so wait for the words rather than look once.
    await page.wait_for_function(
        "() => (document.querySelector('.lt-message')?.textContent || '').trim() !== ''"
    )
    await context.close()
    assert not watched.errors, watched.errors


async def clock_shown(page: Page, turn: int) -> bool:
    """The turn's timer is on the page, counting seconds within the turn's time."""
    await page.wait_for_selector(f'[data-my-turn="1"][data-turn="{turn}"]', timeout=10_000)
    words = await page.locator(".lt-clock").inner_text()
    seconds = int(words.removesuffix(" s"))
    assert words == f"{seconds} s" and 0 < seconds <= 60, words
    return True


async def last_trick_on_demand(page: Page, view: Any) -> None:
    """ "Last trick" shows the trick just taken, each card as played; pressed again, hides it."""
    button = page.locator(".lt-last-button")
    await button.click()
    played = [card.code for _, card in view.last_trick.played()]
    # The page draws what its last frame says: on a busy machine that frame may come a
    # moment after the service's view has the trick taken.
    with contextlib.suppress(PlaywrightTimeout):
        await page.wait_for_function(
            "played => [...document.querySelectorAll('.lt-last .card')]"
            ".map(c => c.dataset.card).join() === played.join()",
            arg=played,
            timeout=PAGE_CATCHES_UP * 1000,
        )
    shown = await page.eval_on_selector_all(".lt-last .card", "cs => cs.map(c => c.dataset.card)")
    assert shown == played
    assert await page.locator(".lt-last .dv-winner").count() == 1
    await button.click()
    assert await page.locator(".lt-last").is_hidden()


async def domino_rows_drawn(page: Page, view: Any) -> None:
    """Domino's rows are drawn in the middle: every card laid, in its suit's row (once
    the page has drawn the frame of ``view``: the rows grow with each card laid)."""
    expected = sorted(
        Card(Suit(suit), 14 if rank == 1 else rank).code
        for suit, low, high in view.domino_rows
        for rank in range(low, high + 1)
    )
    with contextlib.suppress(PlaywrightTimeout):  # the assert below says what differs
        await page.wait_for_function(
            "laid => [...document.querySelectorAll('.lt-domino .lt-rows .lt-row .card')]"
            ".map(c => c.dataset.card).sort().join() === laid.join()",
            arg=expected,
            timeout=PAGE_CATCHES_UP * 1000,
        )
    laid = await page.eval_on_selector_all(
        ".lt-rows .lt-row .card", "cs => cs.map(c => c.dataset.card)"
    )
    assert sorted(laid) == expected


async def shown_on_the_page(watched: Watched, after: int, card: str) -> None:
    """A card played by Discord's buttons reaches the page: a state frame after frame
    ``after`` has it in the trick or the last trick, or, at Domino, in its suit's row."""
    played = Card.parse(card)
    deadline = asyncio.get_running_loop().time() + PAGE_CATCHES_UP
    while asyncio.get_running_loop().time() < deadline:
        for state in watched.states()[after:]:
            last = state["last_trick"]["cards"] if state["last_trick"] else []
            if card in {code for _, code in state["trick"]} | {code for _, code in last}:
                return
            for letter, low, high in state["domino_rows"]:
                ranks = range(low, high + 1)
                ace_low = played.rank == 14 and 1 in ranks  # an ace laid below the 2
                if letter == played.suit.letter and (played.rank in ranks or ace_low):
                    return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{card} played on Discord never reached the page")


async def refuse_an_illegal_tap(
    h: Harness, watched: Watched, table_id: int, user: User, card: str
) -> None:
    """A tap on a dimmed card: the bot's own refusal, shown on the page; nothing moves."""
    page = watched.page
    turn = h.table().turn
    await page.wait_for_selector(f'[data-my-turn="1"][data-turn="{turn}"]')
    tapped = page.locator(f'.lt-hand .card[data-card="{card}"]')
    assert "lt-dim" in (await tapped.get_attribute("class") or "")
    await tapped.click()
    message = page.locator(".lt-message.lt-refused")
    await message.wait_for()
    with pytest.raises(Refusal) as caught:
        await h.parts.service.act(table_id, user.id, turn, Play(Card.parse(card)))
    with i18n.using("en"):
        assert await message.inner_text() == refusal_text(caught.value, h.table())
    assert h.table().turn == turn


async def test_a_page_that_loses_its_connection_reconnects_and_catches_up(
    harness: Harness, browser: Browser
) -> None:
    h = harness
    ann, bob, _table_id = await seated_match(h)
    context = await browser.new_context(viewport=WIDE)
    watched = Watched(await context.new_page())
    page = watched.page
    await page.goto(await table_link(h, ann))
    await page.wait_for_selector(".lt-hand .card")
    live = h.parts.live
    assert live is not None
    while to_act(h) != bob.id:  # the others play until Bob is to move
        if to_act(h) == ann.id:
            await act_on_page(h, watched, h.table().turn)
        await h.parts.service.settle()
    await live.hub.close()  # every socket dropped (as a network would)
    await act_by_buttons(h, bob)  # a move the page was not connected for
    turn = h.table().turn
    await page.wait_for_selector(f'[data-connected="1"][data-turn="{turn}"]', timeout=10_000)
    shown = await page.eval_on_selector_all(
        ".lt-seat",
        "seats => seats.map(s => [s.dataset.seat, s.querySelector('.lt-count')?.textContent])",
    )
    counts = h.table().cards_left
    for seat, words in shown:
        if words is not None:
            assert words.startswith(str(counts[int(seat)]))
    await context.close()
    assert not watched.errors, watched.errors


async def test_the_phone_width_and_dutch(harness: Harness, browser: Browser) -> None:
    h = harness
    ann, _bob, _table_id = await seated_match(h)
    context = await browser.new_context(viewport=PHONE, locale="nl-NL")
    watched = Watched(await context.new_page())
    page = watched.page
    await page.goto(await table_link(h, ann) + "?lang=nl")
    await page.wait_for_selector(".lt-hand .card")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing wider than the phone
    assert await page.locator(".lt-last-button").inner_text() == "Laatste slag"
    await context.close()
    assert not watched.errors, watched.errors


async def test_a_spectator_sees_the_table_and_no_hand(harness: Harness, browser: Browser) -> None:
    h = harness
    _ann, _bob, table_id = await seated_match(h)
    link = await h.parts.web.table_watch(GUILD_ID, table_id)
    assert link is not None
    context = await browser.new_context(viewport=WIDE)
    watched = Watched(await context.new_page())
    page = watched.page
    await page.goto(link)
    await page.wait_for_selector('.lt-watching[data-connected="1"] .lt-seat .lt-back')
    assert await page.locator(".lt-hand").is_hidden()
    assert await page.locator(".lt-hand .card").count() == 0
    assert "You are watching" in await page.locator(".lt-turn").inner_text()
    names = await page.eval_on_selector_all(".lt-name", "names => names.map(n => n.textContent)")
    assert {"Ann", "Bob"} <= set(names)  # every seat, nobody's "(you)"
    await context.close()
    assert not watched.errors, watched.errors


async def test_no_table_link_where_the_server_turned_its_pages_off(harness: Harness) -> None:
    h = harness
    ann, _bob, _table_id = await seated_match(h)
    tables = h.parts.store.tables
    settings = await tables.guild_settings(GUILD_ID)
    await tables.set_guild_settings(GUILD_ID, replace(settings, web=WebAccess.OFF))
    message = h.hand_message(await show_hand(h, ann))
    assert [c for c in components(message) if c.get("style") == 5] == []
    assert any(c.get("custom_id", "").startswith("bonken:") for c in components(message))
