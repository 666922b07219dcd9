"""The live table across a restart of the bot: the real bot against the tests' fake
Discord (tests/discord/discord_harness.py), serving its pages on a local port, stopped
and started again on the same database, as an update restarts it.

A seat's link belongs to the browser that opened it first, also after the restart (the
claim is in the store, not in the bot's memory), and an open page's token still opens
the seat (it is signed under the secret the store keeps), so the page reconnects and
plays on.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

import bot.ui.pictures as pictures
from bot.engine import Play
from tests.discord.discord_harness import (
    Harness,
    User,
    act_by_buttons,
    seated_match,
)
from tests.web.live_helpers import STAND_IN, Socket, free_port, table_link

pytestmark = pytest.mark.timeout(120)


async def started(tmp_path: Path, port: int, earlier: Harness | None = None) -> Harness:
    """The bot serving its pages on ``port`` (``earlier``: the run it restarts)."""
    h = Harness(tmp_path, fake=None if earlier is None else earlier.fake)
    h.bot.settings = replace(h.bot.settings, web_port=port, web_host="127.0.0.1")
    return await h.start()


async def token_of(session: aiohttp.ClientSession, link: str) -> str:
    """The socket token the page at ``link`` hands this browser."""
    page = await (await session.get(link)).text()
    return page.split('data-token="', 1)[1].split('"', 1)[0]


async def test_a_seat_stays_its_browsers_and_its_page_plays_on_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pictures, "deal_png", lambda scene: STAND_IN)
    port = free_port()
    first = await started(tmp_path, port)
    ann, _bob, table_id = await seated_match(first)
    link = await table_link(first, ann)
    owner = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    passed_on = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    try:
        seat = await token_of(owner, link)
        assert seat.count(".") == 3  # a seat's token: guild, table, user, mac
        await first.stop()

        second = await started(tmp_path, port, earlier=first)
        second.users = first.users
        try:
            # The first opener after the restart is not the seat's browser: it watches.
            watch = await token_of(passed_on, link)
            assert watch != seat and watch.count(".") == 2
            assert await token_of(owner, link) == seat
            # The page that was open reconnects with the token it holds, and plays.
            url = f"ws://127.0.0.1:{port}/live/socket"
            page = await Socket.open(url, seat)
            try:
                state = (await page.next("state", timeout=10))["state"]
                hand = second.parts.service.hand(table_id, ann.id)
                assert sorted(state["hand"]) == sorted(card.code for card in hand.view.hand)
                await until_anns_card(second, ann)
                hand = second.parts.service.hand(table_id, ann.id)
                card = next(a for a in hand.view.legal if isinstance(a, Play))
                await page.send({"type": "act", "turn": hand.turn, "action": card.code})
                for _ in range(500):
                    if second.parts.service.view(table_id).turn != hand.turn:
                        break
                    await asyncio.sleep(0.01)
                assert second.parts.service.view(table_id).turn != hand.turn
            finally:
                await page.close()
        finally:
            await second.stop()
    finally:
        await owner.close()
        await passed_on.close()


async def until_anns_card(h: Harness, ann: User) -> None:
    """Play on (Ann and Bob by their buttons, the computers) until Ann is to play a card."""
    for _ in range(200):
        await h.parts.service.settle()
        view = h.table()
        mover = view.seats[view.to_act].user_id if view.to_act is not None else None
        if mover == ann.id:
            hand = h.parts.service.hand(view.table_id, ann.id)
            if any(isinstance(a, Play) for a in hand.view.legal):
                return
            await act_by_buttons(h, ann)
        elif mover is not None:
            await act_by_buttons(h, h.users["Bob"])
        else:
            await asyncio.sleep(0.01)
    raise AssertionError("Ann never came to play a card")
