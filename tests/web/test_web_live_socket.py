"""The live table's socket and page: each bad input gets a clear error frame or a close
with a reason, and changes nothing; a move goes through the service's own checks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot import i18n
from bot.engine import Play
from bot.render.reasons import refusal_text
from bot.store import WebAccess
from bot.tables import Refusal
from bot.web.live import socket as live_socket
from tests.web.live_helpers import ANN, BOB, GUILD, LiveSite, Socket, live_site


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[LiveSite]:
    async with live_site(tmp_path / "live.sqlite") as opened:
        yield opened


async def ann_to_play(site: LiveSite) -> int:
    """A table of Ann and three computers, played by Ann until she is to play a card."""
    view = await site.open_table((ANN,))
    table_id = view.table_id
    while True:
        await site.service.settle()
        hand = site.service.hand(table_id, ANN)
        if any(isinstance(action, Play) for action in hand.view.legal):
            return table_id
        await site.service.act(table_id, ANN, hand.turn, hand.view.legal[0])


async def errors_of(socket: Socket, count: int) -> list[dict[str, object]]:
    """The socket's error frames, once ``count`` have come (or after two seconds)."""
    for _ in range(100):
        errors = [frame for frame in socket.frames if frame["type"] == "error"]
        if len(errors) >= count:
            return errors
        await asyncio.sleep(0.02)
    return errors


def position(site: LiveSite, table_id: int) -> tuple[int, object]:
    return site.service.view(table_id).turn, site.service.record(table_id, full=True)


async def test_the_seat_gets_his_hand_and_a_spectator_none(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    ann = await Socket.open(site.socket_url, site.seat_token(table_id, ANN))
    watcher = await Socket.open(site.socket_url, site.watch_token(table_id))
    mine, theirs = (await ann.next("state"))["state"], (await watcher.next("state"))["state"]
    hand = site.service.hand(table_id, ANN).view
    assert mine["seat"] == hand.seat and sorted(mine["hand"]) == sorted(c.code for c in hand.hand)
    assert mine["legal"] and set(mine["legal"]) <= {f"P:{code}" for code in mine["hand"]}
    assert theirs["seat"] is None and theirs["hand"] == [] and theirs["legal"] == []
    assert theirs["cards_left"] == mine["cards_left"] and theirs["trick"] == mine["trick"]
    await ann.close()
    await watcher.close()


@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        "1.1.101.AAAAAAAAAAAAAAAAAAAAAA",  # a forged mac
        None,  # no token at all
    ],
)
async def test_a_bad_token_is_closed_with_a_reason(site: LiveSite, token: str | None) -> None:
    table_id = await ann_to_play(site)
    before = position(site, table_id)
    socket = await Socket.open(site.socket_url, None)
    await socket.send({"type": "hello", "token": token, "language": "nl"})
    assert await socket.closed() == live_socket.BAD_TOKEN
    with i18n.using("nl"):
        assert socket.frames == [
            {"type": "error", "code": "4001", "words": i18n._(live_socket.CLOSES[4001])}
        ]
    assert socket.socket.close_code == 4001
    assert position(site, table_id) == before
    await socket.session.close()


async def test_an_altered_or_another_tables_token_opens_nothing(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    token = site.seat_token(table_id, ANN)
    altered = token[:-1] + ("A" if token[-1] != "A" else "B")
    elsewhere = site.seat_token(table_id, ANN, guild=GUILD + 1)  # signed, another server's
    for bad, code in ((altered, live_socket.BAD_TOKEN), (elsewhere, live_socket.BAD_TOKEN)):
        socket = await Socket.open(site.socket_url, bad)
        assert await socket.closed() == code
        assert [frame["type"] for frame in socket.frames] == ["error"]
        await socket.session.close()
    gone = await Socket.open(site.socket_url, site.seat_token(table_id + 50, ANN))
    assert await gone.closed() == live_socket.GONE
    await gone.session.close()


async def test_no_hello_in_time_or_a_first_frame_that_is_not_one(
    site: LiveSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_socket, "HELLO_SECONDS", 0.2)
    silent = await Socket.open(site.socket_url, None)
    assert await silent.closed() == live_socket.NO_HELLO
    await silent.session.close()
    rude = await Socket.open(site.socket_url, None)
    await rude.socket.send_str("hello?")
    assert await rude.closed() == live_socket.NO_HELLO
    await rude.session.close()


async def test_malformed_frames_get_an_error_and_change_nothing(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    ann = await Socket.open(site.socket_url, site.seat_token(table_id, ANN))
    state = (await ann.next("state"))["state"]
    before = position(site, table_id)
    bad_frames = [
        "not json",
        "[1, 2]",
        json.dumps({"type": "shout"}),
        json.dumps({"type": "act", "turn": "7", "action": "P:QS"}),
        json.dumps({"type": "act", "turn": True, "action": "P:QS"}),
        json.dumps({"type": "act", "turn": state["turn"], "action": "P:ZZ"}),
        json.dumps({"type": "act", "turn": state["turn"], "action": 5}),
        json.dumps({"type": "act", "turn": state["turn"]}),
        json.dumps({"type": "hello", "token": site.watch_token(table_id)}),
    ]
    for frame in bad_frames:
        await ann.socket.send_str(frame)
    await ann.socket.send_bytes(b"\x00\x01")
    errors = await errors_of(ann, len(bad_frames) + 1)
    assert {f["code"] for f in errors} == {"malformed", "hello"}
    assert position(site, table_id) == before
    assert not ann.socket.closed
    await ann.close()


async def test_an_oversized_frame_closes_the_socket(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    before = position(site, table_id)
    ann = await Socket.open(site.socket_url, site.seat_token(table_id, ANN))
    await ann.next("state")
    await ann.socket.send_str(json.dumps({"type": "act", "turn": 1, "action": "P:" + "Q" * 2000}))
    assert await ann.closed() == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    assert position(site, table_id) == before
    await ann.session.close()


async def test_a_flood_of_frames_is_closed_with_a_reason(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    ann = await Socket.open(site.socket_url, site.seat_token(table_id, ANN))
    state = (await ann.next("state"))["state"]
    illegal = next(code for code in state["hand"] if f"P:{code}" not in state["legal"])
    before = position(site, table_id)
    for _ in range(live_socket.BURST + 20):
        if ann.socket.closed:
            break
        await ann.send({"type": "act", "turn": state["turn"], "action": f"P:{illegal}"})
    assert await ann.closed() == live_socket.FLOOD
    assert ann.frames[-1]["code"] == str(live_socket.FLOOD)
    assert position(site, table_id) == before
    await ann.session.close()


async def test_a_move_is_checked_as_a_buttons_and_refused_in_the_bots_words(
    site: LiveSite,
) -> None:
    view = await site.open_table((ANN, BOB))
    table_id = view.table_id
    await site.service.settle()
    ann = await Socket.open(site.socket_url, site.seat_token(table_id, ANN), language="nl")
    bob = await Socket.open(site.socket_url, site.seat_token(table_id, BOB))
    watcher = await Socket.open(site.socket_url, site.watch_token(table_id))
    await ann.next("state")
    await bob.next("state")
    await watcher.next("state")
    view = site.service.view(table_id)
    on_turn = ANN if view.seats[view.to_act].user_id == ANN else BOB
    waiting, waiter = (bob, BOB) if on_turn == ANN else (ann, ANN)
    hand = site.service.hand(table_id, on_turn)
    before = position(site, table_id)

    # not his turn: the service's refusal, worded as the bot words it
    await waiting.send({"type": "act", "turn": view.turn, "action": hand.view.legal[0].code})
    refused = await waiting.next("refused")
    with pytest.raises(Refusal) as caught:
        await site.service.act(table_id, waiter, view.turn, hand.view.legal[0])
    language = "nl" if waiter == ANN else "en"
    with i18n.using(language):
        assert refused["words"] == refusal_text(caught.value, site.service.view(table_id))
    # a spectator cannot act at all; a stale turn is refused
    await watcher.send({"type": "act", "turn": view.turn, "action": hand.view.legal[0].code})
    assert (await watcher.next("error"))["code"] == "watching"
    mover = ann if on_turn == ANN else bob
    await mover.send({"type": "act", "turn": view.turn - 1, "action": hand.view.legal[0].code})
    assert (await mover.next("refused"))["words"]
    assert position(site, table_id) == before

    # his own move on his turn goes through, and every socket is shown it
    seen = len(watcher.frames)
    await mover.send({"type": "act", "turn": view.turn, "action": hand.view.legal[0].code})
    await site.service.settle()
    moved = await watcher.next("state", after=seen)
    assert moved["state"]["turn"] > view.turn
    for socket in (ann, bob, watcher):
        await socket.close()


async def test_spectators_need_the_server_to_show_its_pages(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    await site.set_access(WebAccess.OFF)
    watcher = await Socket.open(site.socket_url, site.watch_token(table_id))
    assert await watcher.closed() == live_socket.NOT_ALLOWED
    await watcher.session.close()
    async with aiohttp.ClientSession() as session:
        page = await session.get(site.links.table_watch(GUILD, table_id))
        assert page.status == 404


async def test_a_closed_table_closes_its_sockets_with_its_reason(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    ann = await Socket.open(site.socket_url, site.seat_token(table_id, ANN))
    await ann.next("state")
    link = site.links.table_seat(GUILD, table_id, ANN)
    async with aiohttp.ClientSession() as session:
        assert (await session.get(link)).status == 200  # claimed
        assert await site.store.live_seats.claimed(table_id, ANN) is not None
        await site.service.cancel(site.service.view(table_id).channel_id, ANN)
        assert (await session.get(link)).status == 404
    for _ in range(100):  # the table's claims go with it (a task of their own)
        if await site.store.live_seats.claimed(table_id, ANN) is None:
            break
        await asyncio.sleep(0.01)
    assert await site.store.live_seats.claimed(table_id, ANN) is None
    closed = await ann.next("closed")
    assert closed["words"]
    assert await ann.closed() == 4000
    await ann.session.close()
    again = await Socket.open(site.socket_url, site.seat_token(table_id, ANN))
    assert await again.closed() == live_socket.GONE
    await again.session.close()


async def test_a_seat_link_passed_on_opens_only_the_spectators_view(site: LiveSite) -> None:
    table_id = await ann_to_play(site)
    link = site.links.table_seat(GUILD, table_id, ANN)
    seat, watch = site.seat_token(table_id, ANN), site.watch_token(table_id)
    jars = aiohttp.CookieJar(unsafe=True), aiohttp.CookieJar(unsafe=True)  # (an IP address)
    async with (
        aiohttp.ClientSession(cookie_jar=jars[0]) as first,
        aiohttp.ClientSession(cookie_jar=jars[1]) as second,
    ):
        opened = await (await first.get(link)).text()
        assert f'data-token="{seat}"' in opened
        assert f'data-token="{seat}"' in await (await first.get(link)).text()  # a reload
        passed_on = await (await second.get(link)).text()
        assert f'data-token="{watch}"' in passed_on and seat not in passed_on
        await site.live.release(table_id, ANN)  # a new hand message: the next opener claims it
        assert f'data-token="{seat}"' in await (await second.get(link)).text()
        assert f'data-token="{watch}"' in await (await first.get(link)).text()
        forged = await first.get(link[:-1] + ("A" if link[-1] != "A" else "B"))
        assert forged.status == 404
        page = await first.get(link)
        assert "connect-src 'self'" in page.headers["Content-Security-Policy"]
        assert "<script>" not in await page.text()
