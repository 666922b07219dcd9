"""A finished match's deals as the viewer fetches them (``.../deal/N.json``): each deal's
points as the match record has them, in the page's language, kept for good and answered
304 by their ETag; the match page's refusals (a forged token, a server set to ``off``, a
match in play), and 404 for a deal the match does not have."""

from __future__ import annotations

import json
import re

from bot.engine import from_record
from bot.review.replay import Replay
from bot.store import WebAccess
from bot.web.viewer import deal_facts, match_deal
from tests.web.web_helpers import GUILD, Filled


async def _viewer(client, path: str) -> dict:  # type: ignore[no-untyped-def]
    response = await client.get(path)
    assert response.status == 200
    found = re.search(
        r'<script type="application/json" id="viewer-data">(.*?)</script>',
        await response.text(),
        re.S,
    )
    assert found is not None
    return json.loads(found.group(1))


async def test_each_deal_the_page_names_is_served_as_the_record_has_it(filled: Filled, client):
    match_id = filled.finished[-1]
    record = await filled.store.matches.load_record(match_id)
    replayed = Replay.from_record(record)
    viewer = await _viewer(client, filled.links.match_path(GUILD, match_id))
    assert len(viewer["deals"]) == len(from_record(record).deals)
    for number, deal in enumerate(viewer["deals"], 1):
        assert "steps" not in deal  # the page carries no point: each deal is fetched
        assert deal["href"] == filled.links.deal_path(GUILD, match_id, number) + "?lang=en"
        response = await client.get(deal["href"])
        assert response.status == 200
        assert response.content_type == "application/json"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.headers["X-Robots-Tag"] == "noindex"
        points = await response.json()
        facts = deal_facts(replayed, number - 1)
        assert points == match_deal(facts, replayed.match.players, replayed.deals, "en")
        played = from_record(record).deals[number - 1]
        assert points["steps"][-1]["final"] == list(played.final_scores())


async def test_a_deal_speaks_the_language_it_is_asked_in(filled: Filled, client) -> None:
    path = filled.links.deal_path(GUILD, filled.finished[0], 1)
    dutch = await (await client.get(path + "?lang=nl")).json()
    assert dutch["heading"].startswith("Potje 1 van ")
    viewer = await _viewer(client, filled.links.match_path(GUILD, filled.finished[0]) + "?lang=nl")
    assert viewer["deals"][0]["href"].endswith("/deal/1.json?lang=nl")


async def test_a_deal_is_answered_304_by_its_etag_and_gzipped_when_taken(filled: Filled, client):
    path = filled.links.deal_path(GUILD, filled.finished[0], 2)
    plain = {"Accept-Encoding": "identity"}
    first = await client.get(path, headers=plain)
    body = await first.read()
    again = await client.get(path, headers={**plain, "If-None-Match": first.headers["ETag"]})
    assert again.status == 304 and await again.read() == b""
    zipped = await client.get(path, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.headers["ETag"] != first.headers["ETag"]
    assert await zipped.read() == body  # the client unzips it: the same deal


async def test_a_deal_the_match_does_not_have_is_404(filled: Filled, client) -> None:
    match_id = filled.finished[0]
    deals = len(from_record(await filled.store.matches.load_record(match_id)).deals)
    page = filled.links.match_path(GUILD, match_id)
    for deal in ("0", str(deals + 1), "-1", "1e3", "abc", "9" * 30, ""):
        response = await client.get(f"{page}/deal/{deal}.json")
        assert response.status == 404, deal
    assert (await client.get(f"{page}/deal/{deals}.json")).status == 200


async def test_a_bad_query_is_400(filled: Filled, client) -> None:
    path = filled.links.deal_path(GUILD, filled.finished[0], 1)
    for query in ("?lang=fr", "?lang=en&lang=nl", "?step=3"):
        assert (await client.get(path + query)).status == 400, query


async def test_a_forged_token_or_another_match_opens_no_deal(filled: Filled, client) -> None:
    path = filled.links.deal_path(GUILD, filled.finished[0], 1)
    token = path.split("/")[5]
    assert (await client.get(path.replace(token, "x" * len(token)))).status == 404
    other = path.replace(f"/match/{filled.finished[0]}/", f"/match/{filled.finished[1]}/")
    assert (await client.get(other)).status == 404


async def test_a_match_in_play_shows_no_deal(filled: Filled, client) -> None:
    path = filled.links.deal_path(GUILD, filled.playing, 1)
    assert (await client.get(path)).status == 404


async def test_a_server_set_to_off_serves_no_deal(filled: Filled, client) -> None:
    await filled.set_access(WebAccess.OFF)
    for number in (1, 2):
        response = await client.get(filled.links.deal_path(GUILD, filled.finished[0], number))
        assert response.status == 404
        assert "steps" not in await response.text()
