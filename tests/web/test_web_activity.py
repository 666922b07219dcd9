"""The Discord Activity's sign-in: a code exchanged with Discord (a stand-in here) for the
person's seat at the table of the Activity's channel, and nothing for anyone else."""

from __future__ import annotations

import re

import aiohttp
import pytest

from bot.store import WebAccess
from bot.web.live.tokens import Ticket, read_ticket
from tests.web.activity_helpers import (
    ANN,
    BOB,
    CAS,
    CHANNEL,
    CLIENT_ID,
    GUILD,
    THREAD_ID,
    ActivitySite,
    activity_site,
)
from tests.web.live_helpers import Socket


async def _sign_in(
    site: ActivitySite,
    code: str,
    *,
    channel: int = CHANNEL,
    guild: int = GUILD,
    path: str = "/.proxy/activity/session",
    language: str = "en",
) -> tuple[int, dict[str, str]]:
    body = {"code": code, "guild_id": str(guild), "channel_id": str(channel)}
    headers = {"Accept-Language": language}
    async with (
        aiohttp.ClientSession() as http,
        http.post(site.base + path, json=body, headers=headers) as response,
    ):
        return response.status, await response.json()


@pytest.fixture
async def site(tmp_path):
    async with activity_site(tmp_path / "bonken.sqlite3") as served:
        yield served


async def test_a_seated_person_gets_his_seats_token_which_opens_his_hand(site):
    view = await site.open_table((ANN, BOB))
    site.oauth.codes["good"] = BOB
    status, answer = await _sign_in(site, "good")
    assert status == 200
    assert read_ticket(site.signer, answer["token"]) == Ticket(GUILD, view.table_id, BOB)
    # The live table's socket, under /.proxy as the Activity reaches it, plays his seat.
    socket = await Socket.open(site.base.replace("http", "ws") + "/.proxy/live/socket", None)
    try:
        await socket.send({"type": "hello", "token": answer["token"], "language": "en"})
        state = (await socket.next("state"))["state"]
        assert state["seat"] == 1 and len(state["hand"]) == 13
    finally:
        await socket.close()


async def test_the_proxy_may_pass_the_sign_in_on_without_its_prefix(site):
    await site.open_table((ANN,))
    site.oauth.codes["good"] = ANN
    status, answer = await _sign_in(site, "good", path="/activity/session")
    assert status == 200 and "token" in answer


async def test_a_table_playing_in_a_thread_is_the_threads_activitys(site):
    view = await site.open_table((ANN,), thread=True)
    site.oauth.codes["good"] = ANN
    status, answer = await _sign_in(site, "good", channel=THREAD_ID)
    assert status == 200
    assert read_ticket(site.signer, answer["token"]) == Ticket(GUILD, view.table_id, ANN)


async def test_a_code_discord_refuses_signs_in_nobody(site):
    await site.open_table((ANN,))
    status, answer = await _sign_in(site, "forged")
    assert status == 401 and set(answer) == {"error"}
    assert "Discord did not confirm who you are" in answer["error"]
    assert site.oauth.exchanges == ["forged"]


async def test_a_code_used_twice_is_refused_the_second_time_without_asking_discord(site):
    await site.open_table((ANN,))
    site.oauth.codes["once"] = ANN
    first, _ = await _sign_in(site, "once")
    status, answer = await _sign_in(site, "once")
    assert first == 200
    assert status == 409 and set(answer) == {"error"}
    assert "already used" in answer["error"]
    assert site.oauth.exchanges == ["once"]


async def test_a_person_not_at_the_table_gets_no_seat_only_the_spectators_view(site):
    view = await site.open_table((ANN, BOB))
    site.oauth.codes["cas"] = CAS
    status, answer = await _sign_in(site, "cas")
    assert status == 403 and "token" not in answer
    assert "You are not seated at this table" in answer["error"]
    assert read_ticket(site.signer, answer["watch"]) == Ticket(GUILD, view.table_id, None)


async def test_a_server_with_its_pages_off_shows_a_stranger_nothing(site):
    await site.open_table((ANN,))
    await site.set_access(WebAccess.OFF)
    site.oauth.codes["cas"] = CAS
    status, answer = await _sign_in(site, "cas")
    assert status == 403 and set(answer) == {"error"}


async def test_no_table_in_the_channel_or_another_servers_is_said(site):
    await site.open_table((ANN,))
    site.oauth.codes.update(elsewhere=ANN, other_server=ANN)
    for code, where in (("elsewhere", {"channel": 99}), ("other_server", {"guild": 2})):
        status, answer = await _sign_in(site, code, **where)  # type: ignore[arg-type]
        assert status == 404 and set(answer) == {"error"}
        assert "There is no Bonken table in this channel" in answer["error"]


async def test_discord_out_of_reach_is_said_and_nobody_signed_in(site):
    await site.open_table((ANN,))
    site.oauth.codes["good"] = ANN
    site.oauth.down = True
    status, answer = await _sign_in(site, "good")
    assert status == 502 and set(answer) == {"error"}


async def test_the_refusals_speak_dutch(site):
    await site.open_table((ANN,))
    status, answer = await _sign_in(site, "forged", language="nl")
    assert status == 401 and "Discord" in answer["error"]
    assert "did not confirm" not in answer["error"]


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"code": "x", "guild_id": 1, "channel_id": "10"}',
        b'{"code": 5, "guild_id": "1", "channel_id": "10"}',
        b'{"guild_id": "1", "channel_id": "10"}',
        b'{"code": "x", "guild_id": "1", "channel_id": "1' + b"0" * 30 + b'"}',
    ],
)
async def test_a_body_the_page_never_sends_is_refused_before_discord_is_asked(site, body):
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            site.base + "/.proxy/activity/session",
            data=body,
            headers={"Content-Type": "application/json"},
        ) as response,
    ):
        assert response.status == 400
        assert set(await response.json()) == {"error"}
    assert site.oauth.exchanges == []


async def test_only_the_sign_in_takes_a_post(site):
    async with aiohttp.ClientSession() as http:
        async with http.post(site.base + "/", json={"code": "x"}) as response:
            assert response.status == 405
        async with http.get(site.base + "/.proxy/activity/session") as response:
            assert response.status == 405


async def test_discords_launch_goes_on_to_the_activitys_page(site):
    query = "frame_id=f1&instance_id=i1&channel_id=10&guild_id=1&platform=desktop"
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{site.base}/?{query}", allow_redirects=False) as response,
    ):
        assert response.status == 302
        assert response.headers["Location"] == f"/.proxy/activity?{query}"


async def test_the_page_has_no_inline_script_and_lets_discord_frame_it(site):
    async with (
        aiohttp.ClientSession() as http,
        http.get(site.base + "/.proxy/activity?lang=nl") as response,
    ):
        html = await response.text()
        policy = response.headers["Content-Security-Policy"]
        assert response.status == 200 and "X-Frame-Options" not in response.headers
    assert "frame-ancestors https://discord.com" in policy and "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert scripts and all('src="/.proxy/static/' in attrs and not body for attrs, body in scripts)
    assert all(href.startswith("/.proxy/") for href in re.findall(r'href="([^"]+)"', html))
    assert f'data-client-id="{CLIENT_ID}"' in html and 'lang="nl"' in html
    async with (
        aiohttp.ClientSession() as http,
        http.get(site.base + "/.proxy/static/activity.js") as response,
    ):
        assert response.status == 200 and "DiscordSDKMock" not in html
