"""The replay through the bot: after a match, /bonken replay and the summary's Replay
button show it point by point; its buttons step through a deal and across deals, for
anyone and after a restart; a match in play, an unknown match, another server's match
and a forged button are refused privately and change nothing."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.render.replay import REPLAY_SIZE
from bot.review import Replay
from bot.store import MatchStatus
from tests.discord.conftest import ACK_LIMIT
from tests.discord.discord_harness import (
    EPHEMERAL,
    FAST_PACING,
    Harness,
    Interaction,
    components,
    custom_ids,
    seat_state,
)


async def play_out(h: Harness) -> int:
    """Ann and three computers play a whole match (Ann's moves straight through the
    service, the first legal action: this is about what comes after); its match id."""
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    table = h.table()
    match_id = table.match_id
    while h.table() is not None:
        view, turn = seat_state(h, ann)
        await h.parts.service.act(table.table_id, ann.id, turn, view.legal[0])
        await h.idle()
    return match_id


def shown(h: Harness, answer: Interaction) -> dict:  # type: ignore[type-arg]
    """The replay message an answer made or edited, as it is now."""
    return h.hand_message(answer)


def picture(h: Harness, message: dict) -> bytes:  # type: ignore[type-arg]
    return h.fake.attachment(message, "replay.png")


def step_text(message: dict) -> str:  # type: ignore[type-arg]
    return message["embeds"][0]["description"].splitlines()[-1]


def button(message: dict, op: str) -> dict:  # type: ignore[type-arg]
    return next(c for c in components(message) if c["custom_id"].endswith(f":{op}"))


async def test_replay_steps_through_a_deal_and_across_deals_for_anyone(harness):
    h = harness
    match_id = await play_out(h)
    ann, bob = h.user("Ann"), h.user("Bob")

    # The final standings carry Replay beside Play again; it opens privately.
    final = h.fake.channel_posts()[-1]
    assert f"bonken:replay:{match_id}" in custom_ids(final)
    opened = await h.click(bob, f"bonken:replay:{match_id}", message=final)
    message = shown(h, opened)
    assert message["flags"] & EPHEMERAL
    assert "Deal 1 · " in message["embeds"][0]["description"]
    assert "step 0 of " in step_text(message)
    first = picture(h, message)
    assert Image.open(io.BytesIO(first)).size == REPLAY_SIZE
    assert button(message, "first")["disabled"] and button(message, "back")["disabled"]
    menu = next(c for c in components(message) if c["type"] == 3)
    assert len(menu["options"]) == 11
    assert menu["options"][3]["label"].startswith("Deal 4 · ")

    # One forward, one back: the same picture again; each step edits that message.
    forward = await h.click(bob, button(message, "next")["custom_id"], message=message)
    assert forward.callback_type == 6 and forward.original_id == int(message["id"])
    message = shown(h, forward)
    assert "step 1 of " in step_text(message) and picture(h, message) != first
    back = await h.click(bob, button(message, "back")["custom_id"], message=message)
    message = shown(h, back)
    assert "step 0 of " in step_text(message) and picture(h, message) == first

    # The end of the deal, then forward into the next deal's start, and back again.
    end = await h.click(bob, button(message, "last")["custom_id"], message=message)
    message = shown(h, end)
    assert button(message, "last")["disabled"] and not button(message, "next")["disabled"]
    steps = step_text(message)
    across = await h.click(bob, button(message, "next")["custom_id"], message=message)
    message = shown(h, across)
    assert "Deal 2 · " in message["embeds"][0]["description"]
    assert "step 0 of " in step_text(message)
    returned = await h.click(bob, button(message, "back")["custom_id"], message=message)
    message = shown(h, returned)
    assert "Deal 1 · " in message["embeds"][0]["description"] and step_text(message) == steps

    # The menu of deals, by anyone (Ann, on a public replay she asked for).
    public = await h.slash(ann, "replay", public=True)
    message = shown(h, public)
    assert not message["flags"] & EPHEMERAL
    menu = next(c for c in components(message) if c["type"] == 3)
    picked = await h.select(bob, menu["custom_id"], ["10"], message=message)
    assert picked.callback_type == 6
    message = shown(h, picked)
    assert "Deal 11 · " in message["embeds"][0]["description"]
    last = await h.click(bob, button(message, "last")["custom_id"], message=message)
    message = shown(h, last)
    assert button(message, "next")["disabled"]  # the match's last point: nothing beyond

    # The newest finished match here is the default; the list offers it by its players.
    choices = await h.autocomplete(ann, "replay", "match")
    assert [c["value"] for c in choices] == [str(match_id)]
    assert "Ann" in choices[0]["name"] and "East bot" in choices[0]["name"]


async def test_the_replay_works_after_a_restart(tmp_path):
    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        match_id = await play_out(first)
        ann = first.user("Ann")
        opened = await first.slash(ann, "replay")
        message = shown(first, opened)
        before = picture(first, message)
    finally:
        await first.stop()
    second = await Harness(tmp_path, pacing=FAST_PACING, fake=first.fake).start()
    try:
        second.users["Ann"] = ann
        forward = await second.click(ann, button(message, "next")["custom_id"], message=message)
        assert forward.callback_type == 6 and not forward.text.startswith("⚠️")
        message = shown(second, forward)
        assert "step 1 of " in step_text(message) and picture(second, message) != before
        assert str(match_id) in message["embeds"][0]["title"]
    finally:
        await second.stop()
    assert all(
        i.latency is not None and i.latency < ACK_LIMIT for i in second.fake.interactions.values()
    )


async def test_refusals_are_private_and_change_nothing(harness):
    h = harness
    ann = h.user("Ann")
    # Nothing finished here yet.
    nothing = await h.slash(ann, "replay")
    assert nothing.ephemeral and "no match played with cards has finished" in nothing.text
    # A match in play.
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    playing = h.table().match_id
    still = f"match {playing} is still being played (deal 1 of 11); it can be looked at"
    in_play = await h.slash(ann, "replay", match=str(playing))
    assert in_play.ephemeral and still in in_play.text
    here = await h.slash(ann, "replay")
    assert here.ephemeral and still in here.text
    forged_in_play = h.old_message(f"bonken:rp:{playing}:0.1:next")
    clicked = await h.click(ann, f"bonken:rp:{playing}:0.1:next", message=forged_in_play)
    assert clicked.ephemeral and still in clicked.text
    assert forged_in_play["embeds"] == [] and "edits" not in forged_in_play

    # An unknown match, a typed word.
    unknown = await h.slash(ann, "replay", match="999")
    assert unknown.ephemeral and "there is no match 999 on this server" in unknown.text
    typed = await h.slash(ann, "replay", match="the last one")
    assert typed.ephemeral and "pick one from the list" in typed.text


async def test_another_servers_match_and_forged_buttons_are_refused(harness):
    h = harness
    match_id = await play_out(h)
    ann = h.user("Ann")
    # The match is moved to another server: for this one it is unknown.
    store = h.parts.store
    info = await store.matches.get_match(match_id)
    assert info.status is MatchStatus.FINISHED
    async with store.db.writing() as session:
        await session.execute(
            "UPDATE tables SET guild_id = ? WHERE table_id = ?", (42, info.table_id)
        )
    other = await h.slash(ann, "replay", match=str(match_id))
    assert other.ephemeral and f"there is no match {match_id} on this server" in other.text
    assert await h.autocomplete(ann, "replay", "match") == []
    async with store.db.writing() as session:
        await session.execute(
            "UPDATE tables SET guild_id = ? WHERE table_id = ?", (info.guild_id, info.table_id)
        )

    # Forged buttons: a point the match does not have, a deal beyond it, a menu value.
    opened = await h.slash(ann, "replay")
    message = shown(h, opened)
    before = json.dumps(message, sort_keys=True, default=repr)
    for forged in (f"bonken:rp:{match_id}:0.99:next", f"bonken:rp:{match_id}:40.0:back"):
        old = h.old_message(forged)
        clicked = await h.click(ann, forged, message=old)
        # Refused before the click is acknowledged, as a deal beyond the match is.
        assert clicked.ephemeral and "does not lead to a point of this match" in clicked.text
        assert "edits" not in old
    animate = h.old_message(f"bonken:rpa:{match_id}:30")
    clicked = await h.click(ann, f"bonken:rpa:{match_id}:30", message=animate)
    assert clicked.ephemeral and "does not lead to a point of this match" in clicked.text
    menu = h.old_message(f"bonken:rpd:{match_id}", menu=True)
    picked = await h.select(ann, f"bonken:rpd:{match_id}", ["x"], message=menu)
    assert picked.ephemeral and "does not lead to a point of this match" in picked.text
    # A malformed one is claimed by no button: answered as no longer valid.
    malformed = h.old_message(f"bonken:rp:{match_id}:00.1:next")
    clicked = await h.click(ann, f"bonken:rp:{match_id}:00.1:next", message=malformed)
    assert clicked.ephemeral and "no longer valid" in clicked.text
    assert json.dumps(message, sort_keys=True, default=repr) == before


async def test_a_deal_is_animated_and_posted_in_the_channel(harness):
    h = harness
    match_id = await play_out(h)
    ann = h.user("Ann")
    opened = await h.slash(ann, "replay")
    message = shown(h, opened)
    animate = f"bonken:rpa:{match_id}:0"
    assert animate in custom_ids(message)
    shared = await h.click(ann, animate, message=message)
    assert shared.callback_type == 5 and not shared.ephemeral
    posted = shown(h, shared)
    gif = Image.open(io.BytesIO(h.fake.attachment(posted, "deal.gif")))
    replay = Replay.from_record(await h.parts.store.matches.load_record(match_id))
    assert gif.format == "GIF" and gif.n_frames == replay.steps(0)  # every point of deal 1
    assert posted["content"].startswith(f"Deal 1 of match {match_id}, every card in order")
