"""Every post exactly once, whatever stops the bot: each post carries a nonce naming what
it is, so a post that went out while discord.py was still waiting for the rate limit
(its answer had used the channel's bucket up) is not repeated by the next start; a clean
stop records it without waiting; and a table's thread is there from its first post,
however quickly the match is started or the bot stopped."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter
from dataclasses import replace

from bot.engine import from_record
from bot.ui.lines import NONCE_LIMIT, SCORE_STEP, post_nonce
from bot.ui.posts import RESTORED
from bot.ui.threads import THREAD, THREAD_WANTED
from tests.discord.discord_harness import (
    CHANNEL_ID,
    FAST_PACING,
    TEST_PACING,
    THREAD_PERMISSIONS,
    Call,
    Harness,
    seat_state,
    snowflake,
)

WINDOW = 0.5
"""Seconds (real) until the thread's bucket refills after a score line (with its tricks)."""
SCORE = re.compile(r"^Deal (\d+) \(", re.MULTILINE)
PACE = 0.05
"""Seconds a computer waits before its move while the first run plays."""


def score_line(call: Call) -> float:
    """A score line's answer uses the bucket up for :data:`WINDOW`."""
    content = str((call.body or {}).get("content"))
    return WINDOW if call.method == "POST" and SCORE.search(content) else 0.0


async def computers_in_a_thread(h: Harness) -> int:
    """An all-computer table in the channel, to play in a thread, its lobby posted as
    ``/bonken new`` posts it; started. Its id."""
    h.fake.app_permissions = THREAD_PERMISSIONS
    service = h.parts.service
    host = h.user("Host")
    view = await service.open_table(
        1,
        CHANNEL_ID,
        host.id,
        "Host",
        host_seated=False,
        messages={THREAD: THREAD_WANTED},
    )
    lobby = h.fake._create(CHANNEL_ID, {"content": "lobby"}, [])
    await service.remember_message(view.table_id, "table", int(lobby["id"]))
    h.parts.presenter.adopt_message(view.table_id, int(lobby["id"]))
    for _ in range(4):
        await service.add_computer(CHANNEL_ID, host.id)
    await service.start(CHANNEL_ID, host.id)
    return view.table_id


async def crash(h: Harness) -> None:
    """What SIGKILL does to the bot: it stops where it is; nothing more is sent, and the
    store keeps what was committed."""
    h.parts.presenter.close()
    h.bot.hands.close()
    await h.parts.service.close()
    h.parts.players.close()
    await h.parts.store.close()


def score_posted(h: Harness) -> bool:
    return any(SCORE.search(m["content"]) for m in h.fake.messages.values())


def restored_notes(h: Harness) -> list[str]:
    """The channel's "The bot restarted" posts."""
    said = [m["content"] for m in h.fake.channel_posts()]
    return [line for line in said if line.startswith("The bot restarted")]


def deals_posted(h: Harness, thread: int) -> int:
    return sum(
        bool(m["embeds"]) and m["embeds"][0].get("title", "").startswith("Deal ")
        for m in h.fake.channel_posts(thread)
    )


def last_deal_message(posts: list[dict]) -> dict:
    return [p for p in posts if p["embeds"] and p["embeds"][0]["title"].startswith("Deal ")][-1]


def every_post_once(h: Harness, thread: int) -> None:
    """The thread holds each deal's message, its trick lines and its score line once,
    and the final standings once: as many as the match's record has (a deal's trick
    lines and score line ride on the next deal's message, or the final standings)."""
    posts = h.fake.channel_posts(thread)
    final = [m for m in posts if m["content"].startswith("**The match is over.**")]
    assert len(final) == 1
    match = from_record(json.loads(final[0]["attachments"][0]["data"]))
    said: Counter[tuple[int, str]] = Counter()
    tricks: list[str] = []  # a deal's trick lines, until its score line names the deal
    for post in posts:
        for line in post["content"].split("\n"):
            if found := re.match(r"Trick (\d+):", line):
                tricks.append(found[1])
            elif found := re.match(r"Deal (\d+) \(", line):
                said.update((int(found[1]), trick) for trick in [*tricks, "score"])
                tricks = []
        title = post["embeds"][0].get("title", "") if post["embeds"] else ""
        if found := re.match(r"Deal (\d+) of", title):
            said[int(found[1]), "message"] += 1
    assert tricks == []
    wanted = Counter(
        [(n, "message") for n in range(1, len(match.deals) + 1)]
        + [(n, str(t)) for n, d in enumerate(match.deals, 1) for t in range(1, len(d.tricks) + 1)]
        + [(n, "score") for n in range(1, len(match.deals) + 1)]
    )
    assert said == wanted, (said - wanted, wanted - said)
    assert [m["id"] for m in h.fake.channel_posts()] == [str(thread)]  # the lobby alone


async def test_killed_while_discord_py_waits_for_the_bucket_after_a_post(tmp_path):
    # The restart waits the window out.
    pacing = replace(TEST_PACING, edit_interval=0.02, restart_quiet=WINDOW)
    # Paced, so the match is still in its first deal when the bot is killed (a restart
    # posts what is missing of the last two deals).
    first = await Harness(tmp_path, pacing=pacing, pace=PACE).start()
    first.fake.last_in_window = score_line
    table_id = await computers_in_a_thread(first)
    await first.fake.wait_for(lambda: score_posted(first))
    (thread,) = first.fake.threads
    scored = next(m for m in first.fake.channel_posts(thread) if SCORE.search(m["content"]))
    ended = int(SCORE.search(scored["content"])[1])
    # Discord made the post; discord.py sleeps before handing its answer back, so the
    # presenter has not recorded it, nor the message the deal's end rides on (the next
    # deal's), nor any part of it posted before it (a deal's end too long for one post).
    recorded = await first.parts.store.delivery.last_posted(table_id)
    assert recorded is not None and recorded < (ended + 1, 0)
    names = [m.get("nonce") for m in first.fake.channel_posts(thread)]
    unrecorded = names[names.index(post_nonce(table_id, *recorded)) + 1 :]
    assert unrecorded[-1] == scored["nonce"]
    await crash(first)

    first.fake.last_in_window = None
    second = await Harness(tmp_path, pacing=pacing, fake=first.fake).start()
    try:
        await second.idle()
        assert second.table() is None  # the match was played to its end
        every_post_once(second, thread)
        # The restart made again exactly the posts that had gone out unrecorded (one, or
        # more if the deal's end took several), under the same names, and Discord answered
        # each with the message already there.
        again = second.fake.deduplicated
        assert [call.body["nonce"] for call in again] == unrecorded
        assert SCORE.search(again[-1].body["content"])[1] == str(ended)
        assert second.fake.rate_limited() == []
    finally:
        await second.stop()


async def test_a_clean_stop_does_not_wait_out_the_bucket_and_posts_nothing_twice(tmp_path):
    """Ann plays with three computers; the answer to a deal's message (carrying the last
    deal's end) uses the bucket up for 30 s while the deal goes on. Then it is Ann's turn
    and nothing else is to be posted: the stop does not wait for discord.py's sleep; the
    next start posts the message again by its name, and Discord answers with the one it
    has (a deal's message is recorded with its id, which only the answer gives)."""
    pacing = replace(TEST_PACING, edit_interval=0.02, restart_quiet=0.05)
    first = await Harness(tmp_path, pacing=pacing).start()
    first.fake.app_permissions = THREAD_PERMISSIONS
    ann = first.user("Ann")
    await first.slash(ann, "new")
    await first.slash(ann, "start")
    await first.idle()
    service = first.parts.service
    table_id = first.table().table_id
    (thread,) = first.fake.threads
    exhausted: list[Call] = []

    def in_a_deal_going_on(call: Call) -> float:
        said = str((call.body or {}).get("content"))
        if exhausted or call.method != "POST" or not SCORE.search(said):
            return 0.0
        exhausted.append(call)
        return 30.0

    first.fake.last_in_window = in_a_deal_going_on

    def caught_up() -> bool:
        """The thread shows the deal in play, after the score of each deal before."""
        view = service.view(table_id)
        posts = first.fake.channel_posts(thread)
        scores = sum(bool(SCORE.search(p["content"])) for p in posts)
        return deals_posted(first, thread) == view.deal_number == scores + 1

    while not exhausted:  # Ann acts once all is posted, until a post waits for its bucket
        view, turn = seat_state(first, ann)
        await service.act(table_id, ann.id, turn, view.legal[0])
        await service.settle()
        await first.fake.wait_for(lambda: exhausted or caught_up())
    assert seat_state(first, ann)[0].my_turn  # and nothing more to post
    stopping = time.monotonic()
    await first.stop()  # what SIGTERM and SIGINT do
    assert time.monotonic() - stopping < 5  # not the 30 s discord.py sleeps
    (line,) = exhausted
    deal = int(SCORE.search(line.body["content"])[1])

    first.fake.last_in_window = None
    first.fake.buckets.clear()  # (the 30 s are over)
    second = await Harness(tmp_path, pacing=pacing, fake=first.fake).start()
    try:
        # The deal before it was the last recorded: the message is asked for again.
        assert await second.parts.store.delivery.last_posted(table_id) == (deal, 0)
        second.users["Ann"] = ann
        await second.idle()
        said = [m["content"] for m in second.fake.channel_posts(thread)]
        assert said.count(line.body["content"]) == 1
        (again,) = second.fake.deduplicated
        assert again.body["nonce"] == post_nonce(table_id, deal + 1, 0)
    finally:
        await second.stop()


async def test_a_match_started_before_its_lobby_is_stored_plays_in_its_thread(harness):
    """``/bonken start`` while ``/bonken new`` still waits for Discord's copy of the lobby
    message (its id not stored yet): the first deal waits for the lobby, and the thread
    opens on it; nothing of the match goes to the channel."""
    h = harness
    h.fake.app_permissions = THREAD_PERMISSIONS
    h.fake.request_delay = lambda method, path: 0.3 if path.endswith("/@original") else 0.0
    ann = h.user("Ann")
    opening = asyncio.create_task(h.slash(ann, "new"))
    lobby = await h.fake.wait_for(
        lambda: next((m for m in h.fake.messages.values() if m["embeds"]), None)
    )
    started = await h.slash(ann, "start")
    assert "in a thread" in started.text
    await opening
    h.fake.request_delay = None
    await h.idle()
    thread = h.fake.thread_of(int(lobby["id"]))
    assert thread is not None
    public = [m for m in h.fake.messages.values() if not m["flags"] & 64]
    assert [m["id"] for m in public if int(m["channel_id"]) == CHANNEL_ID] == [lobby["id"]]
    deal = h.fake.messages[h.table().messages["table"]]
    assert deal["channel_id"] == thread["id"]


async def test_a_thread_made_before_a_crash_is_found_again(tmp_path):
    """The bot was killed after Discord opened the thread and before the bot stored it:
    opening it again is refused (the message has its thread), and that thread, whose id
    is the lobby message's, is the table's."""
    h = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        h.fake.app_permissions = THREAD_PERMISSIONS
        ann = h.user("Ann")
        lobby = h.hand_message(await h.slash(ann, "new"))
        made = {"name": "Bonken", "auto_archive_duration": 60}
        h.fake._start_thread(CHANNEL_ID, int(lobby["id"]), made)  # the killed run's
        await h.slash(ann, "start")
        await h.idle()
        assert [c.status for c in h.fake.calls if c.path.endswith("/threads")] == [400]
        table = h.table()
        assert table.messages["thread"] == int(lobby["id"]) == table.messages["summary"]
        assert h.fake.messages[table.messages["table"]]["channel_id"] == lobby["id"]
        assert h.fake.channel_posts() == []  # (the lobby is a command's answer)
    finally:
        await h.stop()


def test_a_post_s_name_is_what_it_is_and_fits_discord() -> None:
    assert post_nonce(42, 3, 7) == "bk.42.3.7"
    assert post_nonce(42, 3, SCORE_STEP) != post_nonce(42, 3, 7)
    assert post_nonce(42, 3, 7) != post_nonce(43, 3, 7)
    table = snowflake()  # an id as long as they come: the name is a hash of it
    long = post_nonce(table, "restored", 10**6)
    assert len(long) <= NONCE_LIMIT
    assert long == post_nonce(table, "restored", 10**6)
    assert long != post_nonce(table, "restored", 10**6 + 1)


async def test_a_stop_during_a_restored_channel_s_quiet_does_not_wait_for_it(tmp_path):
    """A restored channel keeps quiet for a rate-limit window before it posts; stopped
    meanwhile, the bot does not wait the quiet out (nor the drain's limit): the posts are
    made by the next start, once."""
    pacing = replace(FAST_PACING, drain_seconds=10.0)  # (its restart quiet is short)
    first = await Harness(tmp_path, pacing=pacing).start()
    ann = first.user("Ann")
    await first.slash(ann, "new")
    await first.slash(ann, "start")
    await first.idle()
    await first.stop()

    long_quiet = replace(pacing, restart_quiet=30.0)
    quiet = await Harness(tmp_path, fake=first.fake, pacing=long_quiet).start()
    stopping = time.monotonic()
    await quiet.stop()
    assert time.monotonic() - stopping < 2
    assert restored_notes(quiet) == []

    third = await Harness(tmp_path, fake=first.fake, pacing=pacing).start()
    try:
        await third.idle()
        assert restored_notes(third) == [RESTORED]
    finally:
        await third.stop()
