"""Every bad request to the pages: a short 404 or 400 page (or 405, 429), the same
for a forged link as for an unknown id, nothing logged as an error, and every response
with the strict Content-Security-Policy."""

from __future__ import annotations

import logging

import pytest

from bot.store import WebAccess
from bot.web.ratelimit import RateLimit
from bot.web.security import CONTENT_SECURITY_POLICY
from bot.web.tokens import Signer
from tests.web.web_helpers import GUILD, OTHER_GUILD, Filled


async def status_of(client, path: str, **options) -> int:  # type: ignore[no-untyped-def]
    response = await client.get(path, **options)
    body = (await response.read()).decode(errors="replace")
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    if response.status >= 400:
        assert "<script" not in body and len(body) < 3000  # a short page
    return response.status


def every_page(filled: Filled) -> list[str]:
    links = filled.links
    return [
        links.server_path(GUILD),
        links.player_path(GUILD, 1),
        links.match_path(GUILD, filled.finished[0]),
        links.chart_path(GUILD, filled.finished[0]),
        links.deal_path(GUILD, filled.finished[0], 1),
        links.day_path(GUILD, filled.day),
        links.day_path(GUILD, filled.day) + f"/attempt/{filled.attempts[0]}",
        links.sheet_path(GUILD, filled.tally),
    ]


async def test_every_page_opens_from_its_link(filled: Filled, client) -> None:
    for path in every_page(filled):
        assert await status_of(client, path) == 200, path


@pytest.mark.parametrize("which", range(8))
async def test_a_forged_or_altered_token_opens_nothing(filled: Filled, client, which: int) -> None:
    path = every_page(filled)[which]
    token = next(part for part in path.split("/") if len(part) == 22)
    altered = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert await status_of(client, path.replace(token, altered)) == 404
    assert await status_of(client, path.replace(token, "x" * 22)) == 404
    assert await status_of(client, path.replace(token, "")) == 404


async def test_an_id_alone_opens_nothing(filled: Filled, client) -> None:
    assert await status_of(client, f"/g/{GUILD}") == 404
    assert await status_of(client, f"/g/{GUILD}/match/{filled.finished[0]}") == 404


async def test_a_token_made_under_another_secret_has_expired(filled: Filled, client) -> None:
    old = Signer(b"an earlier secret")
    assert await status_of(client, f"/g/{GUILD}/{old.token('server', GUILD)}") == 404


async def test_a_token_of_one_page_does_not_open_another(filled: Filled, client) -> None:
    links = filled.links
    match_token = links.match_path(GUILD, filled.finished[0]).rsplit("/", 1)[1]
    other = filled.finished[1]
    assert await status_of(client, f"/g/{GUILD}/match/{other}/{match_token}") == 404
    player_token = links.player_path(GUILD, 1).rsplit("/", 1)[1]
    assert await status_of(client, f"/g/{GUILD}/player/2/{player_token}") == 404


async def test_another_servers_match_is_unknown_under_this_servers_link(filled: Filled, client):
    # A link the bot would make for server 1 naming server 2's match: validly signed,
    # still refused, since the match is not server 1's.
    path = filled.links.match_path(GUILD, filled.elsewhere)
    assert await status_of(client, path) == 404
    assert await status_of(client, filled.links.match_path(OTHER_GUILD, filled.elsewhere)) == 200


async def test_unknown_ids_are_404(filled: Filled, client) -> None:
    links = filled.links
    assert await status_of(client, links.match_path(GUILD, 999_999)) == 404
    assert await status_of(client, links.sheet_path(GUILD, 999_999)) == 404
    day = links.day_path(GUILD, filled.day)
    assert await status_of(client, f"{day}/attempt/999999") == 404
    assert await status_of(client, links.chart_path(GUILD, filled.playing)) == 404


async def test_malformed_paths_are_404(filled: Filled, client) -> None:
    token = filled.links.server_path(GUILD).rsplit("/", 1)[1]
    for path in (
        f"/g/abc/{token}",
        f"/g/-1/{token}",
        f"/g/{'9' * 30}/{token}",
        f"/g/{GUILD}/match/1e3/{token}",
        f"/g/{GUILD}/day/2026-13-45/{token}",
        f"/g/{GUILD}/day/yesterday/{token}",
        "/g/",
        "/nothing/here",
        "/static/../bot/settings.py",
        "/static/nothing.js",
    ):
        assert await status_of(client, path) == 404, path


async def test_malformed_queries_are_400(filled: Filled, client) -> None:
    server = filled.links.server_path(GUILD)
    match = filled.links.match_path(GUILD, filled.finished[0])
    for path in (
        f"{server}?lang=fr",
        f"{server}?lang=en&lang=nl",
        f"{server}?page=two",
        f"{server}?season=x",
        f"{server}?what=ever",
        f"{match}?sort=points",
        f"{server}?sort={'a' * 300}",
    ):
        assert await status_of(client, path) == 400, path


async def test_a_sort_or_season_that_is_not_there_is_404(filled: Filled, client) -> None:
    server = filled.links.server_path(GUILD)
    other = await filled.store.seasons.seasons(OTHER_GUILD)
    assert await status_of(client, f"{server}?sort=luck") == 404
    assert await status_of(client, f"{server}?season={other[0].season_id}") == 404
    assert await status_of(client, f"{server}?page=99") == 404


async def test_oversized_requests_are_400(filled: Filled, client) -> None:
    server = filled.links.server_path(GUILD)
    assert await status_of(client, server + "/" + "a" * 400) == 400
    response = await client.get(server, data=b"x" * 5000)
    assert response.status in (400, 413)
    response = await client.get(server, headers={"X-Big": "y" * 20_000})
    assert response.status in (400, 431)


async def test_only_reading_is_allowed(filled: Filled, client) -> None:
    response = await client.post(filled.links.server_path(GUILD))
    assert response.status == 405
    assert response.headers["Allow"] == "GET, HEAD"


async def test_a_server_set_to_off_serves_nothing(filled: Filled, client) -> None:
    await filled.set_access(WebAccess.OFF)
    for path in every_page(filled):
        assert await status_of(client, path) == 404, path
    assert await status_of(client, filled.links.match_path(OTHER_GUILD, filled.elsewhere)) == 200


async def test_too_many_requests_from_one_address_get_429(filled: Filled, aiohttp_client) -> None:
    client = await aiohttp_client(filled.app(limit=RateLimit(rate=0.001, burst=5)))
    statuses = [await status_of(client, "/healthz") for _ in range(8)]
    assert statuses == [200] * 5 + [429] * 3
    response = await client.get("/healthz")
    assert response.headers["Retry-After"]


async def test_nothing_a_reader_sends_is_logged_as_an_error(
    filled: Filled, client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server = filled.links.server_path(GUILD)
    for path in (f"{server}x", f"{server}?lang=xx", "/g/1/" + "z" * 500, "/%ff%fe"):
        await client.get(path)
    await client.post(server, data=b"x")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
