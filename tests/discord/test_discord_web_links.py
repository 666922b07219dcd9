"""The "On the web" buttons: the final standings and the leaderboard link
to their pages when the bot has an address for them and the server allows it; the
pages they link open; ``/bonken-admin settings web:off`` takes the buttons away."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.store import Human, SeatResult, WebAccess
from bot.store.bulk import add_finished_matches
from bot.web.app import make_app
from bot.web.links import WebLinks
from bot.web.site import Services
from bot.web.tokens import load_signer
from tests.discord.discord_harness import CHANNEL_ID, FAST_PACING, GUILD_ID, Harness, components

BASE = "https://bonken.example.org"


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path, pacing=FAST_PACING)  # Discord's clocks and edits both 100× faster
    h.bot.settings = replace(h.bot.settings, web_url=BASE)  # links, no pages served here
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


async def computers_only(h: Harness) -> None:
    """An all-computer match in the harness's server, played to its end."""
    host = h.user("Host")
    await h.parts.service.open_table(GUILD_ID, CHANNEL_ID, host.id, "Host", host_seated=False)
    for _ in range(4):
        await h.parts.service.add_computer(CHANNEL_ID, host.id)
    await h.parts.service.start(CHANNEL_ID, host.id)
    await h.idle()


def web_links(message: dict) -> list[str]:  # type: ignore[type-arg]
    return [c["url"] for c in components(message) if c.get("style") == 5]


async def opened(h: Harness, url: str) -> str:
    """The page a link opens, served from the bot's own store."""
    store = h.parts.store
    links = WebLinks(BASE, await load_signer(store.facts))
    async with TestClient(TestServer(make_app(Services.of(store), links))) as client:
        response = await client.get(url.removeprefix(BASE))
        assert response.status == 200, url
        return await response.text()


async def test_the_final_standings_link_to_the_match_page(harness: Harness) -> None:
    h = harness
    await computers_only(h)
    await h.idle()
    final = h.fake.channel_posts()[-1]
    assert final["content"].startswith("**The match is over.**")
    (url,) = web_links(final)
    assert url.startswith(f"{BASE}/g/{GUILD_ID}/match/")
    button = next(c for c in components(final) if c.get("style") == 5)
    assert button["label"] == "On the web"
    page = await opened(h, url)
    assert "North bot" in page and "Scores deal by deal" in page


async def test_the_leaderboard_links_to_the_server_page_unless_the_server_is_off(
    harness: Harness,
) -> None:
    h = harness
    await computers_only(h)
    await h.idle()
    ann, boss = h.user("Ann"), h.user("Boss", admin=True)
    board = await h.slash(ann, "leaderboard")
    (server_url,) = web_links(board.reply)
    assert server_url.startswith(f"{BASE}/g/{GUILD_ID}/")
    assert "Bonken standings" in await opened(h, server_url)
    changed = await h.admin(boss, "settings", web=WebAccess.OFF.value)
    assert "Web pages: **off**" in changed.text
    assert (await h.parts.store.tables.guild_settings(GUILD_ID)).web is WebAccess.OFF
    assert web_links((await h.slash(ann, "leaderboard")).reply) == []
    await h.admin(boss, "settings", web=WebAccess.PUBLIC.value)
    assert web_links((await h.slash(ann, "leaderboard")).reply) == [server_url]


async def test_without_an_address_no_message_carries_a_link(tmp_path: Path) -> None:
    h = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        await computers_only(h)
        await h.idle()
        assert web_links(h.fake.channel_posts()[-1]) == []
        assert h.parts.pages is None
    finally:
        await h.stop()


async def test_the_leaderboard_keeps_its_link_page_after_page(harness: Harness) -> None:
    h = harness
    store = h.parts.store
    users = [h.user(f"P{i}") for i in range(12)]
    table = await store.tables.create_table(GUILD_ID, CHANNEL_ID + 99, users[0].id)
    season = await store.seasons.start_season(GUILD_ID, "Twelve")
    matches = [
        [
            SeatResult(
                seat=seat,
                name=user.name,
                occupant=Human(user.id),
                points=10 * (4 * n + seat),
                rank=4 - seat,
                deal_points=(),
                takeovers=0,
            )
            for seat, user in enumerate(users[4 * n : 4 * n + 4])
        ]
        for n in range(3)
    ]
    await add_finished_matches(store.db, table.table_id, season.season_id, matches)
    board = await h.slash(users[0], "leaderboard")
    message = h.hand_message(board)
    (url,) = web_links(message)
    following = next(
        c["custom_id"] for c in components(message) if "next" in c.get("custom_id", "")
    )
    await h.click(users[1], following, message=message)
    assert "Players 11–12 of 12" in message["embeds"][0]["footer"]["text"]
    assert web_links(message) == [url]
