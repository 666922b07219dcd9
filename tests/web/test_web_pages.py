"""What each page shows: the standings, a player, a finished match, a match in play, a
closed day and an open one, a scoresheet; the language; the server's setting; the
caching of what never changes."""

from __future__ import annotations

import io
import json
import random
import re

from PIL import Image

from bot.engine import Match, from_record
from bot.ratings import OpenSkillRater
from bot.render.labels import signed
from bot.store import Human, WebAccess
from tests.store.store_helpers import play
from tests.web.web_helpers import GUILD, Filled


async def html(client, path: str, **options) -> str:  # type: ignore[no-untyped-def]
    response = await client.get(path, **options)
    assert response.status == 200, path
    return await response.text()


def text_of(page: str) -> str:
    """The page's words, tags and spacing removed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


async def test_the_server_page_has_the_season_and_the_daily_board(filled: Filled, client):
    page = text_of(await html(client, filled.links.server_path(GUILD)))
    assert "Season 1" in page and "4 players" in page
    daily = page[page.index("Daily deals") :]
    assert "Ann" in daily and "Bob" in daily and "Cas" not in daily


async def test_each_sort_orders_by_its_column(filled: Filled, client) -> None:
    season = (await filled.store.seasons.seasons(GUILD))[0].season_id
    for sort in ("points", "wins", "average", "rating"):
        board = await filled.store.standings.leaderboard(season, sort)  # type: ignore[arg-type]
        page = await html(client, filled.links.server_path(GUILD) + f"?sort={sort}")
        standings = page[: page.index("Daily deals")]
        shown = re.findall(r'<td class="name">([^<]+)</td>', standings)
        names = {1: "Ann", 2: "Bob", 3: "Cas", 4: "Dirk"}
        assert shown == [names[row.user_id] for row in board.rows], sort


async def test_link_pages_link_to_nothing_else_and_ask_not_to_be_indexed(filled: Filled, client):
    response = await client.get(filled.links.server_path(GUILD))
    page = await response.text()
    assert response.headers["X-Robots-Tag"] == "noindex"
    assert "/match/" not in page and "/player/" not in page and "/day/" not in page


async def test_a_public_server_lists_its_pages(filled: Filled, client) -> None:
    await filled.set_access(WebAccess.PUBLIC)
    response = await client.get(filled.links.server_path(GUILD))
    page = await response.text()
    assert "X-Robots-Tag" not in response.headers
    for match_id in filled.finished:
        assert filled.links.match_path(GUILD, match_id) in page
    assert filled.links.match_path(GUILD, filled.playing) not in page  # in play: not listed
    assert filled.links.day_path(GUILD, filled.day) in page
    assert filled.links.player_path(GUILD, 1) in page
    # ... and every page it lists opens.
    for href in set(re.findall(r'href="(/g/[^"?]+)"', page)):
        assert (await client.get(href)).status == 200, href


async def test_a_player_page_shows_the_season_and_the_rating_chart(filled: Filled, client) -> None:
    season = (await filled.store.seasons.seasons(GUILD))[0]
    stats = await filled.store.standings.player_stats(season.season_id, 1)
    assert stats is not None
    page = await html(client, filled.links.player_path(GUILD, 1))
    assert "<h1>Ann</h1>" in page
    assert '<svg class="chart"' in page and "<polyline" in page  # three rated matches
    words = text_of(page)
    assert f"Matches {stats.matches} Wins {stats.wins} Points {stats.points}" in words
    assert words.count("with Bob, Cas, Dirk") == 4  # three recent matches, one scoresheet
    assert "1 match this season, kept by a scoresheet" in words


async def test_a_finished_match_shows_every_deal_and_embeds_the_viewer(filled: Filled, client):
    match_id = filled.finished[-1]
    page = await html(client, filled.links.match_path(GUILD, match_id))
    match = from_record(await filled.store.matches.load_record(match_id))
    rows = re.findall(r'<a href="#deal-(\d+)">', page)
    assert rows == [str(n) for n in range(1, len(match.deals) + 1)]
    for total in match.totals():
        assert signed(total) in page
    assert '<div class="deal-viewer" data-source="viewer-data"></div>' in page
    data = re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>', page, re.S)
    assert data is not None
    viewer = json.loads(data.group(1))
    assert len(viewer["deals"]) == len(match.deals)
    assert '<script src="/static/cards.js" defer></script>' in page
    assert '<script src="/static/viewer.js" defer></script>' in page
    assert "<script>" not in page  # no inline script
    assert f"/match/{match_id}/" in page and 'property="og:image"' in page


async def test_a_match_in_play_or_cancelled_shows_no_card(filled: Filled, client) -> None:
    playing = await html(client, filled.links.match_path(GUILD, filled.playing))
    assert "is still being played (deal 2 of 11)" in playing
    assert "viewer" not in playing and "♠" not in text_of(playing).replace("♠ Bonken", "")
    cancelled = await html(client, filled.links.match_path(GUILD, filled.cancelled))
    assert "was cancelled before its end" in cancelled
    response = await client.get(filled.links.match_path(GUILD, filled.playing))
    assert response.headers["Cache-Control"] == "no-cache"


async def test_a_closed_day_shows_its_ranking_comparisons_and_attempts(filled: Filled, client):
    page = await html(client, filled.links.day_path(GUILD, filled.day))
    words = text_of(page)
    assert "Ann" in words and "Bob" in words and "Deal 1" in words
    for attempt in filled.attempts:
        href = filled.links.day_path(GUILD, filled.day) + f"/attempt/{attempt}"
        assert href in page
        attempt_page = await html(client, href)
        assert 'class="deal-viewer"' in attempt_page


async def test_a_day_not_closed_shows_nothing_of_it(filled: Filled, client) -> None:
    filled.clock.advance(days=-2)  # the day after: still open
    page = await html(client, filled.links.day_path(GUILD, filled.day))
    assert "close at" in page and "Ann" not in page
    href = filled.links.day_path(GUILD, filled.day) + f"/attempt/{filled.attempts[0]}"
    assert (await client.get(href)).status == 404


async def test_the_scoresheet_shows_its_deals_and_changes(filled: Filled, client) -> None:
    view = await filled.services().tally.view(filled.tally)
    page = text_of(await html(client, filled.links.sheet_path(GUILD, filled.tally)))
    assert "Finished." in page
    assert "Bob took back deal 1" in page or "Bob took back what was entered of deal 1" in page
    for total in view.totals:
        assert signed(total) in page


async def test_the_reader_s_language_and_the_switch(filled: Filled, client) -> None:
    path = filled.links.server_path(GUILD)
    dutch = await html(client, path, headers={"Accept-Language": "nl-NL,nl;q=0.9,en;q=0.8"})
    assert '<html lang="nl">' in dutch
    english = await html(client, path, headers={"Accept-Language": "fr, en;q=0.5, nl;q=0.1"})
    assert '<html lang="en">' in english
    switched = await html(client, path + "?lang=nl", headers={"Accept-Language": "en"})
    assert '<html lang="nl">' in switched
    assert f'href="{path}?lang=en"' in switched


async def test_finished_pages_are_cached_with_an_etag(filled: Filled, client) -> None:
    path = filled.links.match_path(GUILD, filled.finished[0])
    first = await client.get(path)
    assert first.headers["Cache-Control"].startswith("public, max-age=31536000")
    etag = first.headers["ETag"]
    again = await client.get(path, headers={"If-None-Match": etag})
    assert again.status == 304
    server = await client.get(filled.links.server_path(GUILD))
    assert server.headers["Cache-Control"] == "no-cache"


async def test_names_are_escaped(filled: Filled, client) -> None:
    table = await filled.store.tables.create_table(GUILD, 77, 1)
    await filled.store.tables.update_table(
        table.table_id, seats={i: Human(i + 1) for i in range(4)}
    )
    names = ["<script>alert(1)</script>", "Bob & Co", 'Cas "the" Card', "Dirk"]
    info = await filled.store.matches.create_match(table.table_id, names)
    await play(filled.store, info.match_id, random.Random(1), match=Match(names))
    await filled.store.matches.finish_match(info.match_id, rater=OpenSkillRater())
    page = await html(client, filled.links.match_path(GUILD, info.match_id))
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Bob &amp; Co" in page
    server = await html(client, filled.links.server_path(GUILD))
    assert "<script>alert" not in server and "&lt;script&gt;" in server


async def test_a_server_page_previews_its_standings_as_a_picture(filled: Filled, client) -> None:
    page = await html(client, filled.links.server_path(GUILD))
    image = re.search(r'<meta property="og:image" content="([^"]+)"', page)
    assert image is not None and image.group(1).endswith("/standings.png")
    path = image.group(1).removeprefix(filled.links.base)
    response = await client.get(path)
    assert response.status == 200 and response.headers["Content-Type"] == "image/png"
    assert response.headers["Cache-Control"] == "no-cache"  # the standings change
    picture = Image.open(io.BytesIO(await response.read()))
    assert picture.size == (1200, 630)
    dutch = await client.get(path + "?lang=nl")
    assert await dutch.read() != await response.read()  # its words are the reader's
    forged = path.replace("/standings.png", "x/standings.png")
    assert (await client.get(forged)).status == 404
    assert (await client.get(path + "?sort=wins")).status == 400
