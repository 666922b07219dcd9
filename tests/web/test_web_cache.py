"""The kept pages: a server's page kept until its server changes (or for a moment), a
finished match's for good, gzipped for a client that takes it, answered 304 by its
ETag, drawn once for readers asking at once, within a budget of bytes."""

from __future__ import annotations

import asyncio
import gzip

import pytest

from bot.store import WebAccess
from bot.web.app import make_app
from bot.web.cache import Drawn, PageCache
from bot.web.ratelimit import RateLimit
from tests.web.web_helpers import GUILD, OTHER_GUILD, Filled, finished_match

PLAIN = {"Accept-Encoding": "identity"}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def served(filled: Filled, aiohttp_client, cache: PageCache):  # type: ignore[no-untyped-def]
    app = make_app(filled.services(), filled.links, limit=RateLimit(1000, 1000), cache=cache)
    return await aiohttp_client(app)


async def page_text(client, path: str) -> str:  # type: ignore[no-untyped-def]
    response = await client.get(path)
    assert response.status == 200, path
    return await response.text()


async def test_a_kept_server_page_changes_once_a_match_of_its_server_finishes(
    filled: Filled, aiohttp_client
) -> None:
    await filled.set_access(WebAccess.PUBLIC)
    cache = PageCache(clock=Clock())
    client = await served(filled, aiohttp_client, cache)
    path = filled.links.server_path(GUILD)
    before = await page_text(client, path)
    match_id, _ = await finished_match(filled.store, 11, GUILD, 50)
    newest = filled.links.match_path(GUILD, match_id)
    assert newest not in before
    assert await page_text(client, path) == before  # kept: the store is not read again
    cache.changed(OTHER_GUILD)
    assert await page_text(client, path) == before  # another server's match
    cache.changed(GUILD)
    after = await page_text(client, path)
    assert newest in after and after != before


async def test_a_change_made_elsewhere_reaches_a_kept_page_after_its_moment(
    filled: Filled, aiohttp_client
) -> None:
    await filled.set_access(WebAccess.PUBLIC)
    clock = Clock()
    client = await served(filled, aiohttp_client, PageCache(fresh_seconds=2.0, clock=clock))
    path = filled.links.player_path(GUILD, 1)
    before = await page_text(client, path)
    match_id, _ = await finished_match(filled.store, 12, GUILD, 51)  # another process's
    newest = filled.links.match_path(GUILD, match_id)
    clock.now += 1.9
    assert await page_text(client, path) == before
    clock.now += 0.2
    # Past its moment: the kept page is served at once while it is drawn again ...
    assert await page_text(client, path) == before
    # ... and the drawing's page is served once it is done.
    for _ in range(100):
        after = await page_text(client, path)
        if after != before:
            break
        await asyncio.sleep(0.05)
    assert newest in after


async def test_each_language_and_setting_is_kept_apart(filled: Filled, aiohttp_client) -> None:
    client = await served(filled, aiohttp_client, PageCache(clock=Clock()))
    path = filled.links.server_path(GUILD)
    english = await page_text(client, path)
    assert '<html lang="nl">' in await page_text(client, path + "?lang=nl")
    await filled.set_access(WebAccess.PUBLIC)
    await asyncio.sleep(2.1)  # the setting is read again after 2 s
    public = await page_text(client, path)
    assert filled.links.match_path(GUILD, filled.finished[-1]) in public
    assert filled.links.match_path(GUILD, filled.finished[-1]) not in english


async def test_a_finished_match_is_sent_gzipped_and_answered_304_by_its_etag(
    filled: Filled, client
) -> None:
    path = filled.links.match_path(GUILD, filled.finished[0])
    plain = await client.get(path, headers=PLAIN)
    body = await plain.read()
    assert "Content-Encoding" not in plain.headers
    zipped = await client.get(path, headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    squeezed = await zipped.read()
    assert gzip.decompress(squeezed) == body and len(squeezed) < len(body) / 4
    assert zipped.headers["ETag"] != plain.headers["ETag"]  # two representations
    for response, headers in ((plain, PLAIN), (zipped, {"Accept-Encoding": "gzip"})):
        again = await client.get(
            path, headers={**headers, "If-None-Match": response.headers["ETag"]}
        )
        assert again.status == 304 and await again.read() == b""
    refused = await client.get(path, headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers


async def test_a_server_page_has_an_etag_too_and_is_not_cached_by_browsers(
    filled: Filled, client
) -> None:
    path = filled.links.server_path(GUILD)
    first = await client.get(path)
    assert first.headers["Cache-Control"] == "no-cache"
    again = await client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 304


def drawn(size: int, *, final: bool = True) -> Drawn:
    return Drawn.of(bytes(size), "image/png", final=final)


async def test_the_kept_pages_stay_within_their_budget_oldest_used_first_out() -> None:
    cache = PageCache(budget=10_000)
    drawings: list[str] = []

    async def page(name: str, size: int) -> Drawn:
        async def draw() -> Drawn:
            drawings.append(name)
            return drawn(size)

        return await cache.page((GUILD, name, "en", "link"), draw)

    for name in "abc":
        await page(name, 3_000)
    assert cache.size == 9_000
    await page("a", 3_000)  # kept, and now the newest used
    await page("d", 3_000)  # b, the oldest used, makes room
    assert cache.size == 9_000
    await page("a", 3_000)
    await page("b", 3_000)
    assert drawings == ["a", "b", "c", "d", "b"]
    await page("huge", 20_000)  # larger than the budget: served, not kept
    await page("huge", 20_000)
    assert drawings[-2:] == ["huge", "huge"] and cache.size <= 10_000


async def test_readers_asking_at_once_wait_for_one_drawing() -> None:
    cache = PageCache()
    drawings = 0
    release = asyncio.Event()

    async def draw() -> Drawn:
        nonlocal drawings
        drawings += 1
        await release.wait()
        return drawn(10)

    key = (GUILD, "/match", "en", "link")
    readers = [asyncio.create_task(cache.page(key, draw)) for _ in range(50)]
    await asyncio.sleep(0)
    readers[0].cancel()  # one reader leaves: the others still get the page
    release.set()
    pages = await asyncio.gather(*readers[1:])
    assert drawings == 1 and len({id(page) for page in pages}) == 1


async def test_a_failed_drawing_reaches_every_reader_and_is_not_kept() -> None:
    cache = PageCache()
    drawings = 0

    async def draw() -> Drawn:
        nonlocal drawings
        drawings += 1
        await asyncio.sleep(0)
        raise LookupError("no such page")

    key = (GUILD, "/gone", "en", "link")
    results = await asyncio.gather(
        *(cache.page(key, draw) for _ in range(5)), return_exceptions=True
    )
    assert all(isinstance(result, LookupError) for result in results) and drawings == 1
    with pytest.raises(LookupError):
        await cache.page(key, draw)
    assert drawings == 2 and cache.size == 0


async def test_a_cache_of_no_bytes_draws_every_page_for_its_reader() -> None:
    cache = PageCache(budget=0)
    drawings = 0

    async def draw() -> Drawn:
        nonlocal drawings
        drawings += 1
        await asyncio.sleep(0)
        return drawn(10)

    key = (GUILD, "/match", "en", "link")
    await asyncio.gather(*(cache.page(key, draw) for _ in range(5)))
    assert drawings == 5 and cache.size == 0
