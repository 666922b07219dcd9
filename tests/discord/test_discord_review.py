"""/bonken review and the Review button: a private message that shows the review's
progress, then its summary and a menu of the deals; done once, then shown from the
store; refused politely for a match in play, an unknown match, another server's match
and a player who did not play; a forged button or menu changes nothing."""

from __future__ import annotations

import asyncio
import re

from bot.store import Computer, Human, ReviewStatus
from tests.discord.discord_harness import CHANNEL_ID, GUILD_ID, components, custom_ids
from tests.store.store_helpers import finished_match

OTHER_GUILD = GUILD_ID + 1


async def _finished(h, user, *, guild_id: int = GUILD_ID, seed: int = 60) -> int:  # type: ignore[no-untyped-def]
    """A finished match in the harness's channel, ``user`` at South (seat 0) and three
    computers, as the store keeps it after the table closed."""
    seats = (Human(user.id), Computer("normal"), Computer("normal"), Computer("normal"))
    match_id, _ = await finished_match(
        h.parts.store, seed, seats, channel_id=CHANNEL_ID, guild_id=guild_id
    )
    return match_id


def _message(h, interaction):  # type: ignore[no-untyped-def]
    return h.fake.messages[interaction.original_id]


async def _summary_shown(h, interaction):  # type: ignore[no-untyped-def]
    """Wait until the review's message shows the summary (an embed); return it."""

    def shown():  # type: ignore[no-untyped-def]
        message = _message(h, interaction)
        return message if message.get("embeds") else None

    return await h.fake.wait_for(shown, timeout=60)


async def test_review_shows_its_progress_then_the_summary_and_a_menu_of_deals(harness):
    h = harness
    ann = h.user("Ann")
    match_id = await _finished(h, ann)
    asked = await h.slash(ann, "review")  # the channel's newest finished match, Ann's own
    assert asked.callback_type == 5 and asked.ephemeral  # acknowledged at once, privately
    summary = await _summary_shown(h, asked)
    progress = [
        call.body.get("content") or ""
        for call in asked.answers
        if call.method == "PATCH" and isinstance(call.body, dict)
    ]
    assert any(re.search(r"deal \d+ of 11…", text) for text in progress), progress
    embed, *positions = summary["embeds"]
    assert embed["title"] == f"Review of Ann · match {match_id}"
    assert "points lost to mistakes in" in embed["description"]
    assert "Luck of the hands dealt" in embed["description"]
    assert "With all cards known" in embed["description"]
    (costliest,) = [f for f in embed["fields"] if f["name"] == "The costliest decisions"]
    assert costliest["value"].startswith("1. deal ") and " instead of " in costliest["value"]
    assert summary["content"] in (None, "")
    # Each costliest decision's position, drawn by the replay (all hands face up).
    costliest_lines = costliest["value"].split("\n")
    assert len(positions) == len(costliest_lines) == len(summary["attachments"])
    for rank, (position, line) in enumerate(zip(positions, costliest_lines, strict=True), 1):
        assert position["image"]["url"] == f"attachment://review-{rank}.png"
        assert line.startswith(position["title"])  # "1. deal 4 (Queens), trick 3"
        picture = h.fake.attachment(summary, f"review-{rank}.png")
        assert picture.startswith(b"\x89PNG")
    menu = f"bonken:rvdeal:{match_id}:0"
    assert custom_ids(summary) == [menu]
    (select,) = [c for c in components(summary) if c["custom_id"] == menu]
    assert [o["value"] for o in select["options"]] == ["summary", *map(str, range(11))]
    stored = await h.parts.store.reviews.get(match_id, 0)
    assert stored is not None and stored.status is ReviewStatus.DONE

    deal = await h.select(ann, menu, ["3"], message=summary)
    assert deal.callback_type == 7  # the same message, now deal 4's decisions
    (shown,) = _message(h, asked)["embeds"]
    assert _message(h, asked)["attachments"] == []
    assert shown["author"]["name"].startswith("Deal 4 · ")
    assert " instead of " in shown["description"] or "No decision" in shown["description"]
    back = await h.select(ann, menu, ["summary"], message=_message(h, asked))
    assert back.callback_type == 6  # acknowledged, then the summary and its pictures again
    again = await _summary_shown(h, back)
    assert again["embeds"][0]["description"] == embed["description"]
    assert len(again["attachments"]) == len(positions)

    # The Review button under the final standings: from the store, at once.
    button = f"bonken:review:{match_id}"
    clicked = await h.click(ann, button, message=h.old_message(button))
    assert clicked.ephemeral
    again = _message(h, clicked)
    assert again["embeds"][0]["description"] == embed["description"]
    assert not any(
        "deal 1 of 11" in ((c.body or {}).get("content") or "")
        for c in clicked.answers
        if isinstance(c.body, dict)
    )


async def test_a_review_is_refused_for_a_match_in_play_an_unknown_or_another_servers(harness):
    h = harness
    ann, bob = h.user("Ann"), h.user("Bob")
    mine = await _finished(h, ann)
    theirs = await _finished(h, ann, guild_id=OTHER_GUILD, seed=61)
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    playing = h.table().match_id
    await h.idle()

    in_play = await h.slash(ann, "review", match=str(playing))
    assert in_play.ephemeral
    assert re.search(rf"match {playing} is still being played \(deal \d+ of 11\)", in_play.text)
    unknown = await h.slash(ann, "review", match="987654321")
    assert unknown.ephemeral and "there is no match 987654321 on this server" in unknown.text
    other = await h.slash(ann, "review", match=str(theirs))
    assert other.ephemeral and f"there is no match {theirs} on this server" in other.text
    huge = await h.slash(ann, "review", match="9" * 30)
    assert huge.ephemeral and "on this server" in huge.text
    stranger = await h.slash(bob, "review", match=str(mine))
    assert stranger.ephemeral and f"Bob did not play in match {mine}" in stranger.text
    assert await h.parts.store.reviews.unfinished() == []  # nothing was queued
    for match_id in (mine, theirs, playing):
        for seat in range(4):
            assert await h.parts.store.reviews.get(match_id, seat) is None

    # Autocomplete offers this server's finished matches only.
    offered = await h.autocomplete(ann, "review", "match")
    assert [choice["value"] for choice in offered] == [str(mine)]
    assert offered[0]["name"].startswith(f"#{mine} · ") and "Ann" in offered[0]["name"]


async def test_a_forged_review_button_or_menu_changes_nothing(harness):
    h = harness
    ann = h.user("Ann")
    mine = await _finished(h, ann)
    theirs = await _finished(h, ann, guild_id=OTHER_GUILD, seed=62)
    forged = f"bonken:review:{theirs}"
    clicked = await h.click(ann, forged, message=h.old_message(forged))
    assert clicked.ephemeral and f"there is no match {theirs} on this server" in clicked.text
    menu = f"bonken:rvdeal:{mine}:0"  # a review nobody asked for yet
    picked = await h.select(ann, menu, ["x"], message=h.old_message(menu, menu=True))
    assert picked.ephemeral and "that review is not ready yet" in picked.text
    other_menu = f"bonken:rvdeal:{theirs}:0"
    picked = await h.select(ann, other_menu, ["x"], message=h.old_message(other_menu, menu=True))
    assert picked.ephemeral and "on this server" in picked.text
    nonsense = "bonken:review:12x"
    unclaimed = await h.click(ann, nonsense, message=h.old_message(nonsense))
    assert unclaimed.ephemeral and "no longer valid" in unclaimed.text
    assert await h.parts.store.reviews.unfinished() == []
    for match_id in (mine, theirs):
        assert await h.parts.store.reviews.get(match_id, 0) is None


def test_the_progress_says_the_place_in_line_or_the_deal_in_work():
    from bot.review.service import ReviewTicket
    from bot.ui.review_posts import progress_text

    waiting = ReviewTicket(12, 0, ReviewStatus.QUEUED, place=2)
    assert progress_text(waiting, "Ann") == (
        "⏳ Review of Ann · match 12: other reviews run first; this one is number 2 in line. "
        "This message shows it when it is ready."
    )
    running = ReviewTicket(12, 0, ReviewStatus.RUNNING, deals_done=3, deals=11)
    assert progress_text(running, "Ann") == "⏳ Review of Ann · match 12: deal 4 of 11…"
    failed = ReviewTicket(12, 0, ReviewStatus.QUEUED, failed=True)
    assert "could not be finished; please ask again later" in progress_text(failed, "Ann")


async def test_a_review_running_when_the_bot_stopped_is_finished_after_its_start(tmp_path):
    from tests.discord.discord_harness import FAST_PACING, REVIEW, Harness

    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        ann = first.user("Ann")
        match_id = await _finished(first, ann)
        reviews = first.parts.store.reviews
        await reviews.request(match_id, 0, GUILD_ID, REVIEW.to_json())
        await reviews.mark_running(match_id, 0)  # as a stop in the middle of it leaves it
    finally:
        await first.stop()
    second = await Harness(tmp_path, pacing=FAST_PACING, fake=first.fake).start()
    try:
        reviews = second.parts.store.reviews

        async def done():  # type: ignore[no-untyped-def]
            state = await reviews.get(match_id, 0)
            return state if state.status is ReviewStatus.DONE else None

        for _ in range(600):
            state = await done()
            if state is not None:
                break
            await asyncio.sleep(0.05)
        assert state is not None and state.deals_done == 11
        second.users["Ann"] = ann
        shown = await second.slash(ann, "review", match=str(match_id))
        summary = await _summary_shown(second, shown)
        assert summary["embeds"][0]["title"] == f"Review of Ann · match {match_id}"
    finally:
        await second.stop()
