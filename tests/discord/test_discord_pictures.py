"""Pictures in the channel: the deal message carries the table picture and its edits
replace it, the final standings and ``/bonken scores`` carry the score chart, a picture
that cannot be drawn leaves the text as it was, and a server or table may turn them off."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
from dataclasses import replace

import pytest
from PIL import Image

import bot.ui.pictures as pictures
from bot.engine import DEALS_PER_MATCH, Phase
from bot.render import cards
from bot.render.chart import SIZE as CHART_SIZE
from bot.render.chart import chart_png
from bot.render.frame import SIZE
from bot.render.table_image import TRICK_CARDS
from bot.ui.pictures import chart_of_record, chart_of_scores
from tests.discord.discord_harness import (
    TEST_PACING,
    Harness,
    play_until,
)

pytestmark = pytest.mark.real_pictures

CARD_WHITE = (252, 251, 247)


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def card_at(image: Image.Image, centre: tuple[int, int]) -> bool:
    """A card's face lies there: most of the box is the face's white."""
    x, y = centre
    w, h = cards.BIG
    data = image.crop((x - w // 2 + 6, y - h // 2 + 6, x + w // 2 - 6, y + h // 2 - 6)).tobytes()
    white = sum(
        all(abs(data[i + k] - CARD_WHITE[k]) < 24 for k in range(3)) for i in range(0, len(data), 3)
    )
    return white / (len(data) // 3) > 0.5


def table_message(h: Harness) -> dict:
    return h.fake.messages[h.table().messages["table"]]


async def test_the_deal_message_shows_the_table_and_its_edits_replace_the_picture(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.phase is Phase.PLAYING and len(v.trick) >= 1)
    await h.idle()
    message = table_message(h)
    (embed,) = message["embeds"]
    assert embed["image"]["url"] == "attachment://table.png"
    assert [a["filename"] for a in message["attachments"]] == ["table.png"]  # replaced, not added
    assert message["edits"] >= 1
    image = png(h.fake.attachment(message, "table.png"))
    assert image.size == SIZE
    view = h.table()
    played = {seat for seat, _card in view.trick}
    assert played
    for seat in range(4):
        assert card_at(image, TRICK_CARDS[seat]) == (seat in played), seat
    # The picture was uploaded with the post and with the edits, one request each.
    uploads = [c for c in h.fake.calls if c.files and c.own]
    assert all([name for name, _ in c.files] == ["table.png"] for c in uploads)


async def test_the_final_standings_carry_the_chart_of_the_match(tmp_path):
    pacing = replace(TEST_PACING, edit_interval=0.01)
    h = await Harness(tmp_path, pacing=pacing).start()
    try:
        service, host = h.parts.service, h.user("Host")
        channel = 1_300_000_000_000_000_009
        view = await service.open_table(1, channel, host.id, "Host", host_seated=False)
        for _ in range(4):
            await service.add_computer(channel, host.id)
        await service.start(channel, host.id)
        await h.idle()
        final = next(
            m for m in h.fake.channel_posts(channel) if "The match is over" in m["content"]
        )
        record_file, chart_file = final["attachments"]
        assert record_file["filename"] == "bonken-match-1.json"
        assert chart_file["filename"] == "chart.png"
        assert final["embeds"][0]["image"]["url"] == "attachment://chart.png"
        chart = h.fake.attachment(final, "chart.png")
        assert png(chart).size == CHART_SIZE
        record = json.loads(h.fake.attachment(final, record_file["filename"]))
        assert len(record["deals"]) == DEALS_PER_MATCH
        # It is this match's chart: every deal's scores after doubling, the seats' names.
        assert chart == chart_png(chart_of_record(_named(view, record), record))
    finally:
        await h.stop()


def _named(view, record):  # type: ignore[no-untyped-def]
    """``view`` with the seats named as the record names its players."""

    seats = tuple(
        dataclasses.replace(seat, name=name)
        for seat, name in zip(view.seats, record["players"], strict=True)
    )
    return dataclasses.replace(view, seats=seats)


async def test_scores_shows_the_chart_of_the_finished_deals(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.deal_number == 2)
    scores = await h.slash(ann, "scores")
    assert scores.ephemeral
    reply = h.hand_message(scores)
    assert reply["embeds"][0]["image"]["url"] == "attachment://chart.png"
    chart = h.fake.attachment(reply, "chart.png")
    assert png(chart).size == CHART_SIZE
    # The chart of the one finished deal (the deal in play is not on it yet).
    view = h.table()
    data = chart_of_scores(view, h.parts.service.scores(view.table_id))
    assert data.contracts == (h.parts.service.scores(view.table_id)[0][1],)
    assert chart == chart_png(data)


async def test_a_picture_that_cannot_be_drawn_leaves_the_text_and_the_game_goes_on(
    harness, monkeypatch, caplog
):
    def broken(scene):  # type: ignore[no-untyped-def]
        raise RuntimeError("no ink")

    monkeypatch.setattr(pictures, "deal_png", broken)
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    with caplog.at_level(logging.ERROR, logger="bot.ui.pictures"):
        await h.slash(ann, "start")
        await play_until(h, ann, lambda v: v.phase is Phase.PLAYING and len(v.trick) >= 1)
        await play_until(h, ann, lambda v: v.deal_number == 2)
    message = table_message(h)
    (embed,) = message["embeds"]
    assert embed["title"].startswith("Deal 2 of") and "image" not in embed
    assert message["attachments"] == []
    assert any("drawing table" in r.getMessage() for r in caplog.records)
    assert any(r.exc_info and "no ink" in str(r.exc_info[1]) for r in caplog.records)
    assert "Deal 1 (" in h.posts_text()  # the first deal was played and scored


async def test_a_server_turns_pictures_off_and_a_table_may_turn_them_back_on(harness):
    h = harness
    admin, ann = h.user("Admin", admin=True), h.user("Ann")
    shown = await h.admin(admin, "settings")
    assert "Pictures: **on" in shown.text
    changed = await h.admin(admin, "settings", images=False)
    assert changed.text.startswith("Changed: pictures") and "Pictures: **off" in changed.text

    await h.slash(ann, "new")
    assert h.table().settings.images is False
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.phase is Phase.PLAYING and len(v.trick) >= 1)
    await h.idle()
    message = table_message(h)
    assert message["attachments"] == [] and "image" not in message["embeds"][0]
    assert not any(c.files for c in h.fake.calls)  # nothing was drawn or uploaded
    await h.slash(ann, "cancel")
    await h.idle()

    await h.slash(ann, "new", images=True)
    assert h.table().settings.images is True
    await h.slash(ann, "start")
    await h.idle()
    assert [a["filename"] for a in table_message(h)["attachments"]] == ["table.png"]
