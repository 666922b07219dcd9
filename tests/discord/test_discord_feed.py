"""One table's feed on its own, with a fake channel (no bot, no Discord): its table
message is edited at most once per interval, within its budget, and quick changes share
an edit, which shows the newest state; an edit that would change nothing is not sent; a
deal's last edit waits for no budget; its posts go out one at a time, in order, each
named; a restored feed waits its quiet, then posts what the channel missed. The timings
are the feed's constructor arguments, small here."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace

import pytest

from bot.engine import Card
from bot.tables import TableView
from bot.tables import events as ev
from bot.ui.answers import Answers
from bot.ui.delivery import Progress
from bot.ui.feed import ChannelFeed, FeedContext
from bot.ui.lines import SCORE_STEP
from bot.ui.pacing import EditBudget, EditPacer, Pacing
from bot.ui.table_message import TableMessage
from bot.ui.threads import Threads
from tests.discord.fakes import (
    ANN,
    CHANNEL_ID,
    TABLE_ID,
    FakeChannel,
    FakeDelivery,
    FakeHands,
    table_view,
)

INTERVAL = 0.05
PLAYS = tuple((seat, Card.parse(code)) for seat, code in enumerate(("2C", "3C", "4C", "5C")))


def gaps(sent: list) -> list[float]:
    """From the end of each request to the start of the next."""
    return [b.began - a.ended for a, b in itertools.pairwise(sent)]


def unlimited(stopping: asyncio.Event) -> EditBudget:
    """A budget that never runs out (no refill time)."""
    return EditBudget(1, 0.0, stopping)


def table_message(
    channel: FakeChannel, pacer: EditPacer, budget: EditBudget | None = None
) -> TableMessage:
    stopping = asyncio.Event()
    return TableMessage(lambda: channel, pacer, budget or unlimited(stopping), Progress(Answers()))


def lobby_message(channel: FakeChannel, stopping: asyncio.Event) -> TableMessage:
    table = table_message(channel, EditPacer(INTERVAL, stopping))
    table.view, table.message_id = table_view(started=False), 1
    return table


async def test_quick_changes_share_an_edit_and_edits_keep_their_distance():
    channel = FakeChannel(CHANNEL_ID, seconds=0.01)
    table = lobby_message(channel, asyncio.Event())
    loop = asyncio.get_running_loop()
    began = loop.time()
    try:
        for host in range(20):  # a change every 10 ms or so
            table.view = replace(table.view, host_id=host)
            table.stale.set()
            await asyncio.sleep(0.01)
        took = loop.time() - began
        await asyncio.sleep(2 * INTERVAL)
    finally:
        table.stop()
    assert 2 <= len(channel.edits) <= took / INTERVAL + 2
    assert min(gaps(channel.edits)) >= INTERVAL * 0.9, gaps(channel.edits)
    assert "<@19>" in channel.edits[-1].fields["embed"].description  # the newest state


async def test_a_slow_edit_is_not_followed_at_once():
    """The interval counts from the end of an edit (one that waited for Discord's rate
    limit, here one that took three times the interval)."""
    channel = FakeChannel(CHANNEL_ID, seconds=3 * INTERVAL)
    table = lobby_message(channel, asyncio.Event())
    try:
        for host in range(3):
            table.view = replace(table.view, host_id=host)
            table.stale.set()
            while table.stale.is_set() or len(channel.edits) < host + 1:
                await asyncio.sleep(0.005)
    finally:
        table.stop()
    assert len(channel.edits) == 3 and min(gaps(channel.edits)) >= INTERVAL * 0.9


async def test_a_stopping_bot_sends_its_last_edit_at_once():
    channel = FakeChannel(CHANNEL_ID)
    stopping = asyncio.Event()
    table = table_message(channel, EditPacer(60.0, stopping))
    table.view, table.message_id = table_view(started=False), 1
    loop = asyncio.get_running_loop()
    try:
        table.stale.set()
        while not channel.edits:  # the first edit: nothing to wait for
            await asyncio.sleep(0.005)
        table.view = replace(table.view, host_id=7)
        table.stale.set()  # the next would wait a minute...
        stopping.set()  # ...but the bot stops
        stopped = loop.time()
        async with asyncio.timeout(5):
            while len(channel.edits) < 2:
                await asyncio.sleep(0.005)
    finally:
        table.stop()
    assert loop.time() - stopped < 1.0


@pytest.mark.parametrize("wait", ["pacer", "budget"])
async def test_an_editor_cancelled_as_the_bot_stops_ends(wait):
    """A stop sets ``stopping`` and cancels the editors in the same moment: the wait
    ends cancelled, not as if the stop had merely woken it (the editor would then wait
    for the next edit forever, and so would the stop)."""
    stopping = asyncio.Event()
    pacer, budget = EditPacer(60.0, stopping), EditBudget(1, 60.0, stopping)
    pacer.edited()
    budget.spend()
    waiting = asyncio.create_task(pacer.wait_turn() if wait == "pacer" else budget.ready())
    for _ in range(3):  # the wait is under way
        await asyncio.sleep(0)
    stopping.set()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


async def test_a_deals_last_edit_shows_it_as_it_ended_without_buttons():
    channel = FakeChannel(CHANNEL_ID)
    table = table_message(channel, EditPacer(0.0, asyncio.Event()))
    view = table_view(images=False)
    table.posted(1, view)
    table.view = view
    try:
        async with table.lock:
            await table.close()
    finally:
        table.stop()
    (edit,) = channel.edits
    assert edit.fields["view"] is None
    assert edit.fields["embed"].description.endswith("**Deal over.**")


async def test_past_its_burst_a_table_message_shows_the_newest_state_once_per_refill():
    """A change every 10 ms for 0.6 s: three edits at once (the burst), then one per
    0.15 s, each showing the state as it was when sent; the last shows the last change."""
    channel = FakeChannel(CHANNEL_ID)
    stopping = asyncio.Event()
    table = table_message(channel, EditPacer(0.0, stopping), EditBudget(3, 0.15, stopping))
    table.view, table.message_id = table_view(started=False), 1
    loop = asyncio.get_running_loop()
    began = loop.time()
    changed: list[tuple[float, int]] = []  # (when, the host from then on)
    try:
        for host in range(60):
            table.view = replace(table.view, host_id=host)
            changed.append((time.monotonic(), host))
            table.stale.set()
            await asyncio.sleep(0.01)
        took = loop.time() - began
        await asyncio.sleep(0.3)
    finally:
        table.stop()
    said = [edit.fields["embed"].description for edit in channel.edits]
    assert 3 + 2 <= len(said) <= 3 + took / 0.15 + 2, len(said)
    for edit, words in zip(channel.edits, said, strict=True):  # the state as it was then
        host = [host for when, host in changed if when <= edit.began][-1]
        assert f"<@{host}>" in words, (host, words)
    assert "<@59>" in said[-1]  # the final state is shown
    late = [edit.began for edit in channel.edits[3:]]  # earned one by one
    assert (late[-1] - late[0]) / (len(late) - 1) >= 0.15 * 0.8, late


async def test_an_edit_that_would_change_nothing_is_not_sent():
    channel = FakeChannel(CHANNEL_ID)
    table = lobby_message(channel, asyncio.Event())
    try:
        for _ in range(3):
            table.stale.set()
            while table.stale.is_set():
                await asyncio.sleep(0.005)
            await asyncio.sleep(2 * INTERVAL)
    finally:
        table.stop()
    assert len(channel.edits) == 1


async def test_a_deals_last_edit_waits_for_no_budget():
    """The budget is spent for a minute; the deal ends: its last edit goes out at once."""
    channel = FakeChannel(CHANNEL_ID)
    stopping = asyncio.Event()
    table = table_message(channel, EditPacer(0.0, stopping), EditBudget(1, 60.0, stopping))
    view = table_view(images=False)
    table.posted(1, view)
    table.view = view
    loop = asyncio.get_running_loop()
    try:
        table.deadline = (view.turn, 1.0)
        table.stale.set()
        while not channel.edits:  # the one edit in hand
            await asyncio.sleep(0.005)
        began = loop.time()
        async with asyncio.timeout(1), table.lock:
            await table.close()
    finally:
        table.stop()
    assert loop.time() - began < 0.5
    assert channel.edits[-1].fields["embed"].description.endswith("**Deal over.**")


@dataclass
class Feed:
    feed: ChannelFeed
    channel: FakeChannel
    delivery: FakeDelivery
    hands: FakeHands
    closed: list[int]


@pytest.fixture
def make_feed() -> AsyncIterator[Callable[..., Feed]]:
    made: list[ChannelFeed] = []

    def make(*, last: tuple[int, int] = (0, 0), live: bool = True, seconds: float = 0.0) -> Feed:
        channel = FakeChannel(CHANNEL_ID, seconds=seconds)
        delivery, hands, closed = FakeDelivery(last), FakeHands(live=live), []
        context = FeedContext(
            channel=lambda channel_id: channel,
            hands=hands,
            delivery=delivery,
            threads=Threads(None, 0.0),  # no thread in these tests
            pacing=Pacing(edit_interval=INTERVAL, restart_quiet=0.05),
            answers=Answers(),
            stopping=asyncio.Event(),
        )
        feed = ChannelFeed(context, TABLE_ID, CHANNEL_ID, closed.append)
        made.append(feed)
        return Feed(feed, channel, delivery, hands, closed)

    yield make
    for feed in made:
        feed.close()


def trick(number: int) -> ev.TrickTaken:
    return ev.TrickTaken(TABLE_ID, CHANNEL_ID, number, PLAYS, 3, 0, False)


async def presented(f: Feed, *events: ev.Event, view: TableView | None = None) -> None:
    for event in events:
        f.feed.put(event, view or table_view(images=False))
    await f.feed.queue.join()


def scored(deal: int) -> ev.DealScored:
    zero = (0, 0, 0, 0)
    return ev.DealScored(TABLE_ID, CHANNEL_ID, deal, "queens", zero, zero, (zero,) * 4, zero, ())


def deal_started(deal: int) -> ev.DealStarted:
    return ev.DealStarted(TABLE_ID, CHANNEL_ID, deal, (deal - 1) % 4, (deal + 1) % 4)


def in_deal(deal: int) -> TableView:
    return replace(table_view(images=False), deal_number=deal)


def said(post) -> list[str]:
    """The first words of each line of a post's text (``Trick 2``, ``Deal 1 (Queens) ...``)."""
    return [line.split(":")[0] for line in (post.fields.get("content") or "").split("\n")]


async def test_a_deals_end_rides_on_the_next_deals_message_named_and_recorded(make_feed):
    """The tricks are listed on the table message as they are taken (no post each); the
    deal's end (every trick, then the scores) is the text of the next deal's message:
    one post, named and recorded as that message."""
    f = make_feed(seconds=0.01)
    await presented(f, trick(1), trick(2), trick(3), scored(1), view=in_deal(1))
    assert f.channel.posts == []
    assert [t.split(" ")[0] for t in f.feed.table.tricks] == ["1.", "2.", "3."]
    await presented(f, deal_started(2), view=in_deal(2))
    (post,) = f.channel.posts
    assert said(post) == ["Trick 1", "Trick 2", "Trick 3", "Deal 1 (Queens) scores", "  Totals"]
    assert post.fields["embed"].title.startswith("Deal 2 of 11")
    assert post.fields["nonce"] == f"bk.{TABLE_ID}.2.0"
    assert f.delivery.posted_lines == [(2, 0)]
    assert post.fields["allowed_mentions"].users is False
    assert f.feed.table.tricks == []  # the new deal's message lists its own


async def test_a_reminder_pings_and_tells_a_player_whose_hand_went_stale(make_feed):
    f = make_feed(live=False)
    view = table_view(images=False)
    await presented(f, ev.Reminder(TABLE_ID, CHANNEL_ID, 0, ANN, 30.0), view=view)
    (post,) = f.channel.posts
    assert post.fields["content"].endswith("Press **Show my hand** for your cards.")
    assert post.fields["allowed_mentions"].users is True
    assert post.fields["nonce"] == f"bk.{TABLE_ID}.remind.{view.turn}"


async def test_a_restored_feed_waits_its_quiet_then_posts_only_what_the_channel_missed(
    make_feed,
):
    f = make_feed(last=(1, 0))  # deal 1's message was recorded before the restart
    view = table_view(images=False)
    started = asyncio.get_running_loop().time()
    missed = (ev.DealStarted(TABLE_ID, CHANNEL_ID, 1, 0, 2), trick(1), trick(2), trick(3))
    await presented(f, ev.TableRestored(TABLE_ID, CHANNEL_ID, missed), view=view)
    contents = [p.fields["content"] for p in f.channel.posts]
    assert len(contents) == 1  # the deal's message was shown: not posted again
    assert contents[0].startswith("The bot restarted; the table is restored.")
    assert f.channel.posts[0].began - started >= 0.05  # one quiet window first
    assert f.delivery.posted_lines == []
    assert f.feed.table.tricks[0].startswith("1. 2♣ 3♣ 4♣ 5♣")  # its table message lists all
    assert len(f.feed.table.tricks) == 3
    # The deal's end, when it comes, carries the tricks taken before the restart.
    await presented(f, trick(4), scored(1), view=view)
    await presented(f, deal_started(2), view=in_deal(2))
    assert said(f.channel.posts[-1])[:4] == [f"Trick {n}" for n in range(1, 5)]


async def test_a_score_line_missed_by_a_restart_is_posted_with_its_deals_tricks(make_feed):
    f = make_feed(last=(1, 0))
    view = table_view(images=False)
    missed = (ev.DealStarted(TABLE_ID, CHANNEL_ID, 1, 0, 2), trick(1), trick(2), scored(1))
    await presented(f, ev.TableRestored(TABLE_ID, CHANNEL_ID, missed), view=view)
    score, notice = (p.fields["content"] for p in f.channel.posts)
    assert [line.split(":")[0] for line in score.split("\n")][:3] == [
        "Trick 1",
        "Trick 2",
        "Deal 1 (Queens) scores",
    ]
    assert notice.startswith("The bot restarted")
    assert f.delivery.posted_lines == [(1, SCORE_STEP)]


async def test_a_deals_end_missed_by_a_restart_rides_on_the_deal_in_plays_message(make_feed):
    f = make_feed(last=(1, 0))
    missed = (deal_started(1), trick(1), trick(2), scored(1), deal_started(2))
    await presented(f, ev.TableRestored(TABLE_ID, CHANNEL_ID, missed), view=in_deal(2))
    message, notice = f.channel.posts
    assert said(message)[:3] == ["Trick 1", "Trick 2", "Deal 1 (Queens) scores"]
    assert message.fields["embed"].title.startswith("Deal 2 of 11")
    assert message.fields["nonce"] == f"bk.{TABLE_ID}.2.0"
    assert notice.fields["content"].startswith("The bot restarted")
    assert f.delivery.posted_lines == [(2, 0)]


async def test_an_end_that_rode_on_a_past_deals_message_goes_alone_under_its_name(make_feed):
    """Two deals behind: deal 2's message cannot be rebuilt, so deal 1's end, which rode
    on it, is posted alone under its name (Discord answers with the message if it went
    out); deal 2's end rides on deal 3's message."""
    f = make_feed(last=(1, 0))
    missed = (deal_started(1), trick(1), scored(1), deal_started(2), trick(1), trick(2), scored(2))
    missed += (deal_started(3),)
    await presented(f, ev.TableRestored(TABLE_ID, CHANNEL_ID, missed), view=in_deal(3))
    alone, message, notice = f.channel.posts
    assert said(alone)[:2] == ["Trick 1", "Deal 1 (Queens) scores"]
    assert "embed" not in alone.fields and alone.fields["nonce"] == f"bk.{TABLE_ID}.2.0"
    assert said(message)[:3] == ["Trick 1", "Trick 2", "Deal 2 (Queens) scores"]
    assert message.fields["nonce"] == f"bk.{TABLE_ID}.3.0"
    assert f.delivery.posted_lines == [(2, 0), (3, 0)]
    assert notice.fields["content"].startswith("The bot restarted")


async def test_the_score_line_follows_the_tricks_and_a_closed_table_tells_the_hands(make_feed):
    f = make_feed()
    zero = (0, 0, 0, 0)
    scored = ev.DealScored(TABLE_ID, CHANNEL_ID, 1, "queens", zero, zero, (zero,) * 4, zero, ())
    closed = ev.TableClosed(TABLE_ID, CHANNEL_ID, "the table was cancelled")
    await presented(f, trick(1), scored, closed)
    assert f.delivery.posted_lines == [(1, SCORE_STEP)]
    assert f.channel.posts[-1].fields["content"] == "The table is closed: the table was cancelled."
    assert f.hands.closed == [(TABLE_ID, "the table was cancelled", "en", CHANNEL_ID)]
    assert f.closed == [TABLE_ID]  # the presenter drops the feed
