"""Few, well-timed Discord calls: an all-computer match at full speed stays within 40 REST
calls of the bot's own per deal, and never meets a 429, with the table picture uploaded
with the deal message and each of its edits (an edit with a picture is one call too).

The fake Discord enforces the per-channel 5-requests-per-5-seconds buckets for posting and
for editing messages and sends discord.py the usual ``X-RateLimit-*`` headers. Its clocks
and the presenter's edit pacing run 100× faster than real (``time_scale=0.01``), so the
test takes seconds while the calls it counts are the ones real timing would produce.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import replace

import pytest

from bot.engine import DEALS_PER_MATCH, MatchPhase, from_record
from bot.render import text
from bot.tables import TableView
from bot.tables import events as ev
from bot.ui import posts
from bot.ui.components import lobby_view
from bot.ui.embeds import lobby_embed
from bot.ui.threads import THREAD, THREAD_WANTED
from tests.discord.discord_harness import (
    BOT_EDIT_REFILL,
    TEST_PACING,
    THREAD_PERMISSIONS,
    Call,
    Harness,
    User,
    components,
    custom_ids,
    seat_state,
    show_hand,
)

TIME_SCALE = 0.01
BUDGET_PER_DEAL = 40


@pytest.mark.parametrize("threaded", [False, True], ids=["in the channel", "in a thread"])
async def test_an_all_computer_match_at_full_speed_makes_few_calls_and_no_429(tmp_path, threaded):
    """In a thread, the posts go to the thread's own buckets and the channel's lobby
    message becomes the summary, edited at deal starts and ends: counted here too."""
    pacing = replace(
        TEST_PACING,
        edit_interval=1.0 * TIME_SCALE,
        edit_refill_intervals=BOT_EDIT_REFILL,
        archive_after=0.0,
    )
    h = await Harness(tmp_path, pacing=pacing, pace=0.0, time_scale=TIME_SCALE).start()
    try:
        # Slash commands always seat the host; an all-computer table is opened through the
        # service, as the demo does, and presented by the bot like any other.
        service = h.parts.service
        host = h.user("Host")
        channel = 1_300_000_000_000_000_009
        # What /bonken new does where the bot may open threads: a thread is wanted.
        wish = {THREAD: THREAD_WANTED} if threaded else None
        view = await service.open_table(
            1, channel, host.id, "Host", host_seated=False, messages=wish
        )
        if threaded:
            lobby = await h.bot.get_partial_messageable(channel).send(
                embed=lobby_embed(view), view=lobby_view(view.table_id)
            )
            await service.remember_message(view.table_id, "table", lobby.id)
            h.parts.presenter.adopt_message(view.table_id, lobby.id)
        for _ in range(4):
            await service.add_computer(channel, host.id)
        await h.idle()
        before = len(h.fake.calls)
        await service.start(channel, host.id)
        await h.idle()
        await asyncio.sleep(0.01)  # the thread is archived
        calls = [c for c in h.fake.calls[before:] if c.own]
        assert service.table_in_channel(channel) is None  # the match is over
        deal_posts = [
            i
            for i, c in enumerate(calls)
            if c.method == "POST"
            and (c.body.get("embeds") or [{}])[0].get("title", "").startswith("Deal ")
        ]
        assert len(deal_posts) == DEALS_PER_MATCH
        # Each deal message and its edits carry the table picture: counted in the budget.
        assert all([name for name, _ in calls[i].files] == ["table.png"] for i in deal_posts)
        uploads = [[n for n, _ in c.files] for c in calls if c.method == "PATCH" and c.files]
        assert uploads.count(["table.png"]) >= DEALS_PER_MATCH
        # The summary's last edit carries the score chart (in a thread; in the channel the
        # final standings post does).
        assert (uploads.count(["chart.png"]) > 0) == threaded
        per_deal = [
            len(calls[a:b]) for a, b in zip(deal_posts, [*deal_posts[1:], len(calls)], strict=True)
        ]
        print(f"\nREST calls per deal: {per_deal}; total {len(calls)} for table {view.table_id}")
        assert max(per_deal) <= BUDGET_PER_DEAL, per_deal
        assert len(calls) <= BUDGET_PER_DEAL * DEALS_PER_MATCH
        assert h.fake.rate_limited() == []
        assert all(c.status < 400 for c in calls)
        routes = {re.sub(r"\d+", "N", f"{c.method} {c.path}") for c in calls}
        plain = {"POST /channels/N/messages", "PATCH /channels/N/messages/N"}
        if threaded:
            assert routes == plain | {"POST /channels/N/messages/N/threads", "PATCH /channels/N"}
            (thread,) = h.fake.threads.values()
            assert thread["thread_metadata"]["archived"] is True
            assert all(
                f"/channels/{channel}/" not in c.path
                or "/threads" in c.path
                or c.path.endswith(f"/messages/{lobby.id}")
                for c in calls
            )
        else:
            assert routes <= plain
    finally:
        await h.stop()


def _per_deal(calls: list[Call]) -> list[list[Call]]:
    """The calls split at each deal message's post (the first group starts at deal 1)."""
    starts = [
        i
        for i, c in enumerate(calls)
        if c.method == "POST"
        and c.own
        and (c.body.get("embeds") or [{}])[0].get("title", "").startswith("Deal ")
    ]
    return [calls[a:b] for a, b in zip(starts, [*starts[1:], len(calls)], strict=True)]


def _is_refresh(call: Call) -> bool:
    """A hand message brought up to date by the bot (not the answer to a click)."""
    return call.method == "PATCH" and call.path.startswith("/webhooks/")


def _deal_shown(call: Call) -> int | None:
    """The deal a hand refresh shows ("**Deal 3 · Queens** · ..."); None for the end."""
    found = re.match(r"\*\*Deal (\d+) ", call.body.get("content") or "")
    return int(found[1]) if found else None


async def _lit_up(h: Harness, people: tuple[User, ...], hands: dict) -> User | None:
    """Wait until one of ``people`` has their turn and their hand message shows it (the
    bot refreshed it); None once the match is over."""
    for _ in range(20_000):
        if h.table() is None:
            return None
        tid = h.table().table_id
        for user in people:
            view, turn = seat_state(h, user)
            hand = hands[user.id]
            if view.my_turn and any(f":{tid}:{turn}" in cid for cid in custom_ids(hand)):
                return user
        await asyncio.sleep(0.0005)
    raise AssertionError("no hand lit up")


async def _act_on_hand(h: Harness, user: User, hand: dict) -> None:
    """``user`` acts at once on the hand message the bot keeps current for them: the
    first contract (trumps via the trump menu), a pass, or the first enabled card."""
    view, turn = seat_state(h, user)
    tid = h.table().table_id
    assert all(f":{tid}:{turn}" in cid for cid in custom_ids(hand)), "the hand is stale"
    if view.phase is MatchPhase.CHOOSING:
        menu = next(c for c in components(hand) if c["custom_id"].startswith("bonken:choose:"))
        value = menu["options"][0]["value"]
        done = await h.select(user, menu["custom_id"], [value], message=hand)
        if value == "trumps":
            trump = next(c for c in components(hand) if c["custom_id"].startswith("bonken:trump:"))
            done = await h.select(user, trump["custom_id"], [trump["options"][0]["value"]])
    elif view.phase is MatchPhase.DOUBLING:
        done = await h.click(user, f"bonken:dblok:{tid}:{turn}:D:-:pass", message=hand)
    else:
        done = await h.click(user, custom_ids(hand, enabled_only=True)[0], message=hand)
    assert done.callback_type == 7 and not done.text.startswith("⚠️"), done.text


DEFAULT_PACE = 1.0
"""``BONKEN_PACE``'s default: seconds a computer waits before its move."""
PACED_SCALE = 0.1
"""Discord's clocks, the pace and the edits 10× faster: a deal lasts some 3 s, long beside
this machine's few milliseconds a move, so the calls counted are those of real time."""
DEFAULT_PACE_SCALE = 0.05
"""The same, 20× faster, for a whole match at the default pace: a deal lasts some 1.5 s,
its computers' waits 50 ms, still long beside a move; the budget the calls are held to
is that of the deal's measured length."""
CALLS_PER_DEAL = 12
"""The target: channel calls a deal at the default pace, two people and two computers."""
STANDINGS_WITHIN = 10.0
"""The target: seconds (Discord's) from the last card to the final standings at pace 0."""


@pytest.mark.long
async def test_two_people_and_two_computers_at_the_default_pace_make_few_calls(tmp_path):
    """Two people play by their hand messages as soon as it is their turn, two computers
    at the default pace, in a thread. Per deal the bot posts the deal's message and its
    score line with its tricks (the final standings after the last), edits the table
    message within its budget (and the summary in the channel), refreshes a hand at most
    once per turn of its player, and never sends a hand what it already shows. The calls
    per deal are printed beside their target; the test holds them to what the budget
    allows a deal of the length it took (this machine's load can stretch a deal)."""
    scale = DEFAULT_PACE_SCALE
    pacing = replace(TEST_PACING, edit_interval=1.0 * scale, edit_refill_intervals=BOT_EDIT_REFILL)
    h = await Harness(tmp_path, pacing=pacing, pace=DEFAULT_PACE * scale, time_scale=scale).start()
    h.fake.app_permissions = THREAD_PERMISSIONS
    try:
        ann, bob = h.user("Ann"), h.user("Bob")
        await h.slash(ann, "new")
        await h.slash(bob, "join")
        before = len(h.fake.calls)
        await h.slash(ann, "start")
        await h.idle()
        hands = {u.id: h.hand_message(await show_hand(h, u)) for u in (ann, bob)}
        turns: dict[int, int] = {}  # per deal: the people's turns
        while (mover := await _lit_up(h, (ann, bob), hands)) is not None:
            deal = seat_state(h, mover)[0].deal_number
            turns[deal] = turns.get(deal, 0) + 1
            await _act_on_hand(h, mover, hands[mover.id])
        await h.idle()
        (thread,) = h.fake.threads
        deals = _per_deal(h.fake.calls[before:])
        assert len(deals) == DEALS_PER_MATCH
        public = [sum(c.own for c in calls) for calls in deals]
        posted = [sum(c.own and c.method == "POST" for c in calls) for calls in deals]
        lasted = [(c[-1].at - c[0].at) / scale for c in deals]
        # A refresh belongs to the deal its hand shows (it need not wait for the channel).
        refreshed = [_deal_shown(c) for c in h.fake.calls[before:] if _is_refresh(c)]
        refreshes = [refreshed.count(number) for number in range(1, DEALS_PER_MATCH + 1)]
        print(
            f"\nchannel calls per deal: {public} (target <= {CALLS_PER_DEAL}); "
            f"mean {sum(public) / len(public):.1f}, total {sum(public)}"
        )
        print(f"of which posts: {posted} (the last deal's with the final standings)")
        print(f"deal seconds (Discord's clock): {[round(t) for t in lasted]}")
        print(
            f"tables one token can host at this pace (50 calls a second): "
            f"{50 / (sum(public) / sum(lasted)):.0f}"
        )
        print(f"hand refreshes per deal: {refreshes}; total {sum(refreshes)}")
        print(f"people's turns per deal: {[turns[d] for d in sorted(turns)]}")
        for calls, seconds in zip(deals, lasted, strict=True):
            own = [c for c in calls if c.own]
            posts = [c for c in own if c.method == "POST"]
            table = [c for c in own if c.method == "PATCH" and f"/channels/{thread}/" in c.path]
            summary = [c for c in own if c.method == "PATCH" and c not in table]
            assert len(posts) <= 3, [c.body.get("content") for c in posts]
            # The budget: its burst, one edit per refill, the deal's last edit.
            allowed = pacing.edit_burst + seconds * scale / pacing.edit_refill + 2
            assert len(table) <= allowed, (len(table), seconds)
            assert len(summary) <= 3
        for number, count in enumerate(refreshes, start=1):
            assert count <= turns[number], (number, refreshes, turns)
        # Never the same content twice in a row on one hand message.
        shown: dict[int | None, tuple[object, object]] = {}
        for call in h.fake.calls[before:]:
            parts = call.path.split("/")
            if _is_refresh(call):
                message = h.fake._by_token[parts[3]].original_id
                body = (call.body.get("content"), call.body.get("components"))
                assert shown.get(message) != body, "a hand was sent what it already showed"
                shown[message] = body
            elif call.path.endswith("/callback") and call.body["type"] == 7:
                data = call.body["data"]
                message = h.fake.interactions[int(parts[2])].message_id
                shown[message] = (data.get("content"), data.get("components"))
        assert h.fake.rate_limited() == []
    finally:
        await h.stop()


async def test_one_person_at_pace_0_sees_every_trick_and_the_standings_soon_after(tmp_path):
    """Ann plays with three computers at pace 0 (each as soon as it is her turn), in a
    thread. Reading the whole thread afterwards finds every trick of the match, each
    once, as the trick's own line, in the order played; and the final standings are
    posted within :data:`STANDINGS_WITHIN` seconds (Discord's clock) of the last card,
    the thread's posts never queueing behind its rate limit."""
    scale = PACED_SCALE
    pacing = replace(TEST_PACING, edit_interval=1.0 * scale, edit_refill_intervals=BOT_EDIT_REFILL)
    h = await Harness(tmp_path, pacing=pacing, pace=0.0, time_scale=scale).start()
    h.fake.app_permissions = THREAD_PERMISSIONS
    presenter = h.parts.presenter
    publish = presenter.publish
    tricks: list[str] = []
    last_card = 0.0

    async def watched(event: ev.Event, view: TableView | None) -> None:
        nonlocal last_card
        if isinstance(event, ev.CardPlayed):
            last_card = time.monotonic()
        if isinstance(event, ev.TrickTaken):
            tricks.append(text.trick_text(posts.labels(view), event))
        await publish(event, view)

    presenter.publish = watched  # type: ignore[method-assign]
    try:
        ann = h.user("Ann")
        await h.slash(ann, "new")
        await h.slash(ann, "start")
        await h.idle()
        hands = {ann.id: h.hand_message(await show_hand(h, ann))}
        while await _lit_up(h, (ann,), hands) is not None:
            await _act_on_hand(h, ann, hands[ann.id])
        await h.idle()
        (thread,) = h.fake.threads
        thread_posts = [
            c
            for c in h.fake.calls
            if c.own and c.method == "POST" and c.path == f"/channels/{thread}/messages"
        ]
        final = next(
            c for c in thread_posts if "**The match is over.**" in (c.body.get("content") or "")
        )
        delay = (final.at - last_card) / scale
        print(
            f"\nfinal standings {delay:.1f} s after the last card (target <= "
            f"{STANDINGS_WITHIN:.0f} s); {len(thread_posts)} posts in the thread"
        )
        assert delay <= STANDINGS_WITHIN
        said = [
            line
            for message in h.fake.channel_posts(thread)
            for line in (message["content"] or "").split("\n")
            if line.startswith("Trick ")
        ]
        (standings,) = [
            m for m in h.fake.channel_posts(thread) if "**The match is over.**" in m["content"]
        ]
        record = from_record(json.loads(standings["attachments"][0]["data"]))
        assert len(tricks) == sum(len(deal.tricks) for deal in record.deals)
        assert said == tricks
        # Each deal's message ends showing its contract and the deal over, the last too.
        titles = [
            (m["embeds"][0]["title"], m["embeds"][0]["description"])
            for m in h.fake.channel_posts(thread)
            if m.get("embeds") and m["embeds"][0]["title"].startswith("Deal ")
        ]
        assert [title.split(" · ")[0] for title, _ in titles] == [
            f"Deal {n} of {DEALS_PER_MATCH}" for n in range(1, DEALS_PER_MATCH + 1)
        ]
        assert [title.split(" · ")[1] for title, _ in titles] == [
            text.contract_name(deal.contract) for deal in record.deals if deal.contract
        ]
        assert all(words.endswith("**Deal over.**") for _, words in titles[:-1])
        assert titles[-1][1].endswith("**the match is over**")
        assert h.fake.rate_limited() == []
    finally:
        await h.stop()
