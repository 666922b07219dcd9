"""Buttons carry everything in their custom_id: after a restart, a click on a message
posted before it still works (the dynamic items are registered again at start)."""

from __future__ import annotations

import copy
import logging
import re
import sqlite3
from dataclasses import replace

from bot.engine import MatchPhase, from_record
from tests.discord.discord_harness import (
    CHANNEL_ID,
    FAST_PACING,
    TEST_PACING,
    Harness,
    User,
    act_by_buttons,
    custom_ids,
    play_until,
    seat_state,
    show_hand,
)


async def test_a_hand_button_from_before_a_restart_still_plays(tmp_path):
    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        ann = first.user("Ann")
        await first.slash(ann, "new")
        await first.slash(ann, "start")
        await first.idle()
        while seat_state(first, ann)[0].phase is not MatchPhase.PLAYING:
            await act_by_buttons(first, ann)
        hand = copy.deepcopy(first.hand_message(await show_hand(first, ann)))
        _, turn = seat_state(first, ann)
    finally:
        await first.stop()

    # The same database: the table is restored.
    second = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        second.users["Ann"] = ann
        assert seat_state(second, ann)[1] == turn
        card = custom_ids(hand, enabled_only=True)[0]
        played = await second.click(ann, card, message=hand)
        assert played.callback_type == 7, played.text
        await second.idle()
        assert seat_state(second, ann)[1] > turn
    finally:
        await second.stop()


def last_card(view) -> bool:
    return view.phase is MatchPhase.PLAYING and len(view.hand) == 1


def count(h: Harness, pattern: str) -> int:
    """Channel messages whose text (content, embed titles) matches ``pattern``."""
    found = 0
    for message in h.fake.channel_posts():
        titles = " ".join(e.get("title", "") for e in message["embeds"])
        found += bool(re.search(pattern, f"{message['content']} {titles}", re.MULTILINE))
    return found


async def play_last_card_and_stop(h: Harness, ann: User) -> int:
    """Ann plays her last card of a deal, the computers end it and the next deal is
    dealt, and the bot shuts down at once, its channel queue full (every channel request
    takes 50 ms); the number of that deal."""
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, last_card)
    deal = seat_state(h, ann)[0].deal_number
    hand = h.hand_message(await show_hand(h, ann))
    h.fake.channel_delay = 0.05
    await h.click(ann, custom_ids(hand, enabled_only=True)[0], message=hand)
    await h.parts.service.settle()  # the computers end the deal; the next one is dealt
    assert seat_state(h, ann)[0].deal_number == deal + 1
    await h.stop()  # what SIGTERM and SIGINT do
    h.fake.channel_delay = 0.0
    return deal


async def test_a_clean_shutdown_sends_what_was_still_queued(tmp_path):
    first = Harness(tmp_path, pacing=FAST_PACING)
    await first.start()
    deal = await play_last_card_and_stop(first, first.user("Ann"))
    assert count(first, rf"^Deal {deal} \(.*\) scores:") == 1
    assert count(first, rf"Deal {deal + 1} of 11") == 1

    second = await Harness(tmp_path, pacing=FAST_PACING, fake=first.fake).start()
    try:
        await second.idle()  # nothing was missing: nothing is posted twice
        assert count(second, rf"^Deal {deal} \(.*\) scores:") == 1
        assert count(second, rf"Deal {deal + 1} of 11") == 1
        assert count(second, r"^The bot restarted; the table is restored\.") == 1
    finally:
        await second.stop()


async def test_what_a_shutdown_could_not_send_is_posted_after_the_restart(tmp_path):
    pacing = replace(TEST_PACING, edit_interval=0.02, drain_seconds=0.0)  # no time at all
    first = Harness(tmp_path, pacing=pacing)
    await first.start()
    ann = first.user("Ann")
    deal = await play_last_card_and_stop(first, ann)
    assert count(first, rf"Deal {deal + 1} of 11") == 0  # lost in the shutdown

    second = await Harness(tmp_path, pacing=pacing, fake=first.fake).start()
    try:
        second.users["Ann"] = ann
        await second.idle()
        played = from_record(second.parts.service.record(second.table().table_id, full=True)).deals[
            :deal
        ]
        for number in range(1, 14):  # each trick line once (with its score), none missing
            taken = sum(len(d.tricks) >= number for d in played)
            assert count(second, rf"^Trick {number}: ") == taken, number
        assert count(second, rf"^Deal {deal} \(.*\) scores:") == 1
        assert count(second, rf"Deal {deal + 1} of 11") == 1
        assert count(second, r"^The bot restarted; the table is restored\.") == 1
        # The new deal's message is the table message; the old one lost its buttons.
        table = second.table()
        assert second.fake.messages[table.messages["table"]]["embeds"][0]["title"].startswith(
            f"Deal {deal + 1} of 11"
        )
        old = [m for m in second.fake.channel_posts() if custom_ids(m)]
        assert [m["id"] for m in old] == [str(table.messages["table"])]
        assert second.fake.unexpected() == []
    finally:
        await second.stop()


async def test_an_open_hand_lights_up_after_a_restart_and_the_channel_is_told(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    ann, bob = first.user("Ann"), first.user("Bob")
    await first.slash(ann, "new")
    await first.slash(bob, "join")
    await first.slash(ann, "start")
    await play_until(first, bob, lambda v: v.phase is MatchPhase.PLAYING, others=(ann,))
    hands = {u.name: first.hand_message(await show_hand(first, u)) for u in (ann, bob)}
    assert not seat_state(first, ann)[0].my_turn
    await first.stop()

    second = await Harness(tmp_path, pacing=FAST_PACING, fake=first.fake).start()
    try:
        second.users.update(Ann=ann, Bob=bob)
        await second.idle()
        assert count(second, r"^The bot restarted; the table is restored\. Press") == 1
        # Bob plays from his hand message of before the restart; then (the computers
        # having played) Ann's hand message of before the restart lights up by itself.
        await play_until(second, ann, lambda v: True, others=(bob,))
        _, turn = seat_state(second, ann)
        tid = second.table().table_id
        shown = second.fake.messages[int(hands["Ann"]["id"])]
        assert all(f":{tid}:{turn}:" in cid for cid in custom_ids(shown)), "Ann's hand is stale"
        assert "**Your turn**" in shown["content"]
    finally:
        await second.stop()
    # Tokens are credentials: no log line has one (discord.py's debug lines included).
    tokens = [i.token for i in first.fake.interactions.values()]
    lines = [r.getMessage() for r in caplog.records]
    assert any("/webhooks/" in line for line in lines)  # (the requests were logged)
    assert not [line for line in lines if any(token in line for token in tokens)]


async def test_an_expired_hand_token_is_dropped_and_never_used(tmp_path):
    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    ann = first.user("Ann")
    await first.slash(ann, "new")
    await first.slash(ann, "start")
    await play_until(first, ann, lambda v: v.phase is MatchPhase.PLAYING)
    shown = await show_hand(first, ann)
    played = await first.click(ann, custom_ids(first.hand_message(shown), enabled_only=True)[0])
    await first.idle()
    await first.stop()
    with sqlite3.connect(first.settings.database_path) as conn:  # 15 minutes went by
        conn.execute("UPDATE hand_links SET expires_at = expires_at - 15 * 60 * 1000")

    before = len(first.fake.calls)
    second = await Harness(tmp_path, pacing=FAST_PACING, fake=first.fake).start()
    try:
        second.users["Ann"] = ann
        await second.idle()
        assert seat_state(second, ann)[0].my_turn  # her turn: a valid token would be used
        after = second.fake.calls[before:]
        assert [c for c in after if played.token in c.path or shown.token in c.path] == []
        assert await second.parts.store.delivery.hand_links(second.table().table_id) == []
    finally:
        await second.stop()


async def test_a_restarted_bot_waits_out_the_rate_limit_window_its_last_run_used(tmp_path):
    """The first run drains its queue into the channel's window on its way down; the new
    process cannot know, so it keeps the channel quiet for one window: no 429."""
    scale = 0.2  # a 1 s window: long enough that a restart falls inside it
    pacing = replace(TEST_PACING, edit_interval=0.02, restart_quiet=5.0 * scale)
    # It plays at the usual scale: a deal in 1 s windows takes long.
    first = Harness(tmp_path, pacing=pacing)
    await first.start()
    await play_last_card_and_stop(first, first.user("Ann"))
    # Its last posts used the whole window up, as a drain into a busy channel does.
    first.fake.time_scale = scale
    first.fake.use_up_window(CHANNEL_ID)
    second = await Harness(tmp_path, pacing=pacing, fake=first.fake).start()
    try:
        await second.idle(quiet=0.3)
        assert count(second, r"^The bot restarted; the table is restored\.") == 1
        assert second.fake.rate_limited() == []
    finally:
        await second.stop()
