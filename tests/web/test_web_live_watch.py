"""The spectators' link on Discord: someone not seated who presses **Show my hand** is
offered **Watch**, the live table without any hand, where the server allows its pages.

The real bot against the tests' fake Discord (tests/discord/discord_harness.py), serving
its pages on a local port; the link is followed as a browser would, and its socket read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

import bot.ui.pictures as pictures
from bot.store import WebAccess
from tests.discord.discord_harness import GUILD_ID, Harness, components, seated_match, show_hand
from tests.web.live_helpers import STAND_IN, Socket, free_port

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
async def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """The bot serving its pages; Ann and Bob seated, two computers, the match started."""
    monkeypatch.setattr(pictures, "deal_png", lambda scene: STAND_IN)
    h = Harness(tmp_path)
    h.bot.settings = replace(h.bot.settings, web_port=free_port(), web_host="127.0.0.1")
    await h.start()
    await seated_match(h)
    try:
        yield h
    finally:
        await h.stop()


async def test_someone_not_seated_is_offered_the_table_without_any_hand(harness: Harness) -> None:
    h = harness
    answer = await show_hand(h, h.user("Carl"))
    assert answer.ephemeral
    assert "not seated" in answer.reply["content"]
    (button,) = [c for c in components(answer.reply) if c.get("style") == 5]
    assert button["label"] == "Watch"
    async with aiohttp.ClientSession() as browser:
        page = await browser.get(button["url"])
        assert page.status == 200
        token = (await page.text()).split('data-token="', 1)[1].split('"', 1)[0]
    port = h.bot.settings.web_port
    watching = await Socket.open(f"ws://127.0.0.1:{port}/live/socket", token)
    try:
        state = (await watching.next("state", timeout=10))["state"]
    finally:
        await watching.close()
    assert state["seat"] is None and state["hand"] == [] and state["legal"] == []
    assert state["names"][:2] == ["Ann", "Bob"]  # the table itself


async def test_the_offer_speaks_dutch(harness: Harness) -> None:
    answer = await show_hand(harness, harness.user("Dirk", locale="nl"))
    assert "Je zit niet aan deze tafel" in answer.reply["content"]
    (button,) = [c for c in components(answer.reply) if c.get("style") == 5]
    assert button["label"] == "Meekijken"


async def test_no_watch_link_where_the_server_turned_its_pages_off(harness: Harness) -> None:
    h = harness
    tables = h.parts.store.tables
    settings = await tables.guild_settings(GUILD_ID)
    await tables.set_guild_settings(GUILD_ID, replace(settings, web=WebAccess.OFF))
    answer = await show_hand(h, h.user("Carl"))
    assert answer.ephemeral and "you are not seated at this table" in answer.text
    assert [c for c in components(answer.reply) if c.get("style") == 5] == []
