"""A table lives in its own thread: the match's posts go to a public thread opened on the
lobby message, which stays in the channel as the match's summary. Without the thread
permissions, in a thread, or where the server chose so, the table plays in its channel.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from bot.engine import DEALS_PER_MATCH, MatchPhase
from tests.discord.discord_harness import (
    CHANNEL_ID,
    EPHEMERAL,
    FAST_PACING,
    GUILD_ID,
    PUBLIC_THREAD,
    TEST_PACING,
    THREAD_PERMISSIONS,
    Harness,
    User,
    components,
    custom_ids,
    play_until,
    seat_state,
    show_hand,
    snowflake,
)

ARCHIVE_AFTER = 0.05


def public_in(h: Harness, channel_id: int) -> list[dict]:
    """Every public message in a channel or thread: the bot's posts and the public
    answers to commands (the lobby message), oldest first, as they are now."""
    return [
        m
        for m in h.fake.messages.values()
        if int(m["channel_id"]) == channel_id and not m["flags"] & EPHEMERAL
    ]


def titles(messages: list[dict]) -> list[str]:
    return [m["embeds"][0].get("title", "") for m in messages if m["embeds"]]


async def open_and_start(h: Harness, ann: User, *others: User) -> tuple[int, int]:
    """Ann opens a table in the channel, ``others`` join, Ann starts it; (the lobby
    message, the thread)."""
    opened = await h.slash(ann, "new")
    lobby_id = int(h.hand_message(opened)["id"])
    for user in others:
        await h.slash(user, "join")
    started = await h.slash(ann, "start")
    assert "in a thread" in started.text, started.text
    await h.idle()
    thread = h.fake.thread_of(lobby_id)
    assert thread is not None, "no thread was opened on the lobby message"
    return lobby_id, int(thread["id"])


async def lit_up(h: Harness, ann: User, hand: dict) -> bool:
    """Wait until it is Ann's turn and her hand message shows it; False once the match
    is over."""
    for _ in range(20_000):
        if h.table() is None:
            return False
        view, turn = seat_state(h, ann)
        ids = custom_ids(hand, enabled_only=True)
        if view.my_turn and ids and all(f":{h.table().table_id}:{turn}" in c for c in ids):
            return True
        await asyncio.sleep(0.0005)
    raise AssertionError("Ann's hand never lit up")


async def play_out(h: Harness, ann: User) -> None:
    """Ann plays the match to its end on one hand message, as soon as it is her turn:
    the first contract (trumps via its menu), a pass, the first card she may play."""
    hand = h.hand_message(await show_hand(h, ann))
    while await lit_up(h, ann, hand):
        view, turn = seat_state(h, ann)
        tid = h.table().table_id
        if view.phase is MatchPhase.CHOOSING:
            menu = next(c for c in components(hand) if c["type"] == 3)
            value = menu["options"][0]["value"]
            await h.select(ann, menu["custom_id"], [value], message=hand)
            if value == "trumps":
                trump = next(c for c in components(hand) if c["type"] == 3)
                await h.select(ann, trump["custom_id"], [trump["options"][0]["value"]])
        elif view.phase is MatchPhase.DOUBLING:
            await h.click(ann, f"bonken:dblok:{tid}:{turn}:D:-:pass", message=hand)
        else:
            await h.click(ann, custom_ids(hand, enabled_only=True)[0], message=hand)
    await h.idle()


@pytest.mark.pacing(archive_after=ARCHIVE_AFTER)
async def test_a_match_plays_in_its_thread_and_the_channel_keeps_one_message(harness):
    h = harness
    h.fake.app_permissions = THREAD_PERMISSIONS
    ann = h.user("Ann")
    lobby_id, thread_id = await open_and_start(h, ann)
    thread = h.fake.threads[thread_id]
    assert thread["type"] == PUBLIC_THREAD and int(thread["parent_id"]) == CHANNEL_ID
    assert thread["name"] == "Bonken · Ann, East bot, South bot, West bot"
    table = h.table()
    assert table.channel_id == CHANNEL_ID  # the table still belongs to its channel
    assert h.fake.messages[table.messages["table"]]["channel_id"] == str(thread_id)

    # Every command works from inside the thread: the thread's table is found.
    hand = await h.slash(ann, "hand", channel_id=thread_id)
    assert hand.ephemeral and custom_ids(h.hand_message(hand)), hand.text
    scores = await h.slash(ann, "scores", channel_id=thread_id)
    assert scores.ephemeral and "no Bonken table" not in scores.text, scores.text

    await play_out(h, ann)
    await asyncio.sleep(ARCHIVE_AFTER * 3)
    await h.idle()

    # The channel: one message, the lobby, now the summary with the final standings.
    (summary,) = public_in(h, CHANNEL_ID)
    assert int(summary["id"]) == lobby_id
    embed = summary["embeds"][0]
    assert embed["title"] == "Bonken · the match is over"
    assert f"<#{thread_id}>" in embed["description"]
    standings = next(f for f in embed["fields"] if f["name"] == "Final standings")
    assert standings["value"].startswith("1. ") and "**Ann**" in standings["value"]
    # With the score chart, attached by the summary's last edit (no extra call).
    assert [a["filename"] for a in summary["attachments"]] == ["chart.png"]
    assert embed["image"]["url"] == "attachment://chart.png"
    assert custom_ids(summary) == []
    # Since the thread opened, edited only at deal starts (with the totals so far), not
    # per trick, and at the end with the standings.
    opened = next(i for i, c in enumerate(h.fake.calls) if c.path.endswith("/threads"))
    summary_edits = [
        c
        for c in h.fake.calls[opened:]
        if c.method == "PATCH" and c.path == f"/channels/{CHANNEL_ID}/messages/{lobby_id}"
    ]
    assert len(summary_edits) <= DEALS_PER_MATCH + 1, len(summary_edits)
    own_in_channel = [
        c for c in h.fake.own_calls() if c.path.startswith(f"/channels/{CHANNEL_ID}/")
    ]
    assert {c.method for c in own_in_channel} == {"POST", "PATCH"}
    assert [c.path for c in own_in_channel if c.method == "POST"] == [
        f"/channels/{CHANNEL_ID}/messages/{lobby_id}/threads"
    ]

    # The thread: every deal, trick and score line, and the standings with the record.
    posts = public_in(h, thread_id)
    deals = [t for t in titles(posts) if t.startswith("Deal ")]
    assert [t.split(" · ")[0] for t in deals] == [f"Deal {n} of 11" for n in range(1, 12)]
    said = [line for p in posts for line in p["content"].split("\n")]
    assert sum(line.startswith("Trick ") for line in said) >= DEALS_PER_MATCH
    final = posts[-1]
    assert final["content"].startswith("**The match is over.** Final standings:")
    assert final["attachments"][0]["filename"].startswith("bonken-match-")
    # Archived a while after the end; no table answers from the thread any more.
    assert h.fake.threads[thread_id]["thread_metadata"]["archived"] is True
    after = await h.slash(ann, "hand", channel_id=thread_id)
    assert "no Bonken table" in after.text

    # Play again, clicked under the standings in the thread: the lobby is in the channel,
    # and the rematch plays in a thread of its own again.
    again = await h.click(ann, f"bonken:again:{table.table_id}", message=final)
    assert again.ephemeral and f"<#{CHANNEL_ID}>" in again.text, again.text
    await h.idle()
    rematch = h.table()
    assert rematch is not None and rematch.table_id != table.table_id
    lobby = h.fake.messages[rematch.messages["table"]]
    assert int(lobby["channel_id"]) == CHANNEL_ID
    assert lobby["embeds"][0]["title"] == "Bonken table"
    started = await h.slash(ann, "start")
    assert "in a thread" in started.text, started.text


async def test_buttons_and_autocomplete_in_the_thread_find_its_table(harness):
    h = harness
    h.fake.app_permissions = THREAD_PERMISSIONS
    ann, bob = h.user("Ann"), h.user("Bob")
    _lobby_id, thread_id = await open_and_start(h, ann, bob)
    # Show my hand on the deal message in the thread: the click comes from the thread.
    shown = await show_hand(h, ann)
    assert shown.channel_id == thread_id
    assert shown.ephemeral and custom_ids(h.hand_message(shown)), shown.text
    seats = await h.autocomplete(ann, "kick", "player", channel_id=thread_id)
    assert {c["name"] for c in seats} >= {"North: Ann", "East: Bob"}, seats
    left = await h.slash(bob, "leave", channel_id=thread_id)
    assert "a computer plays your seat" in left.text, left.text
    # A new table cannot be opened in the thread of a table.
    again = await h.slash(bob, "new", channel_id=thread_id)
    assert again.ephemeral and "already" in again.text, again.text


async def test_without_thread_permissions_the_table_plays_in_the_channel(harness):
    h = harness  # the harness's bot may not create threads
    ann = h.user("Ann")
    await h.slash(ann, "new")
    started = await h.slash(ann, "start")
    assert "thread" not in started.text
    await h.idle()
    assert h.fake.threads == {}
    assert "thread" not in h.table().messages
    deal = h.fake.messages[h.table().messages["table"]]
    assert deal["channel_id"] == str(CHANNEL_ID)
    assert titles(h.fake.channel_posts())[0].startswith("Deal 1 of 11")


async def test_when_discord_refuses_the_thread_the_match_plays_in_the_channel(harness):
    h = harness
    h.fake.app_permissions = THREAD_PERMISSIONS
    h.fake.thread_refused.add(CHANNEL_ID)  # e.g. a channel override the bot cannot see
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    assert h.fake.threads == {}
    assert "thread" not in h.table().messages
    assert titles(h.fake.channel_posts())[0].startswith("Deal 1 of 11")
    await play_until(h, ann, lambda v: v.phase is MatchPhase.PLAYING)
    hand = await h.slash(ann, "hand")
    assert custom_ids(h.hand_message(hand)), hand.text
    # The refused request is the only one Discord refused.
    assert [c.status for c in h.fake.calls if c.status >= 400] == [403]


async def test_a_table_opened_in_a_thread_plays_there(harness):
    h = harness
    h.fake.app_permissions = THREAD_PERMISSIONS
    starter = h.fake._create(CHANNEL_ID, {"content": "talk about cards here"}, [])
    h.fake._start_thread(
        CHANNEL_ID, int(starter["id"]), {"name": "cards", "auto_archive_duration": 60}
    )
    thread_id = int(starter["id"])
    ann = h.user("Ann")
    await h.slash(ann, "new", channel_id=thread_id)
    started = await h.slash(ann, "start", channel_id=thread_id)
    assert "thread" not in started.text
    await h.idle()
    table = h.parts.service.table_in_channel(thread_id)
    assert table is not None and "thread" not in table.messages
    assert len(h.fake.threads) == 1  # no thread in a thread
    assert titles(h.fake.channel_posts(thread_id))[0].startswith("Deal 1 of 11")


async def test_a_restart_mid_match_finds_the_thread(tmp_path):
    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        first.fake.app_permissions = THREAD_PERMISSIONS
        ann = first.user("Ann")
        lobby_id, thread_id = await open_and_start(first, ann)
        await play_until(first, ann, lambda v: v.phase is MatchPhase.PLAYING)
        deal = seat_state(first, ann)[0].deal_number
    finally:
        await first.stop()
    fake = first.fake
    before = len(fake.calls)

    second = await Harness(tmp_path, pacing=FAST_PACING, fake=fake).start()
    try:
        second.users["Ann"] = ann
        await second.idle()
        # The restart notice goes to the thread, nothing new to the channel.
        restored = public_in(second, thread_id)[-1]
        assert restored["content"].startswith("The bot restarted"), restored["content"]
        assert [m["id"] for m in public_in(second, CHANNEL_ID)] == [str(lobby_id)]
        assert len(fake.threads) == 1
        assert not any(c.path.endswith("/threads") for c in fake.calls[before:])
        # Ann plays on from the thread: her hand, then the next deal's message.
        shown = await second.slash(ann, "hand", channel_id=thread_id)
        assert custom_ids(second.hand_message(shown)), shown.text
        await play_until(second, ann, lambda v: v.deal_number > deal)
        table = second.table()
        assert fake.messages[table.messages["table"]]["channel_id"] == str(thread_id)
        summary = fake.messages[lobby_id]["embeds"][0]
        assert summary["title"] == f"Bonken · deal {deal + 1} of 11", summary["title"]
    finally:
        await second.stop()


# -- the server's settings -----------------------------------------------------------------


async def test_server_settings_show_their_values_and_new_tables_take_them(harness):
    h = harness
    h.fake.app_permissions = THREAD_PERMISSIONS
    admin, ann = h.user("Admin", admin=True), h.user("Ann")
    shown = await h.admin(admin, "settings")
    assert shown.ephemeral
    assert "Turn time: **60 s**" in shown.text and "Computer level: **normal**" in shown.text
    assert "a thread of its own" in shown.text and "Changed" not in shown.text

    changed = await h.admin(admin, "settings", turn_seconds=90, where="channel")
    assert changed.ephemeral and changed.text.startswith("Changed: turn time, where a match")
    assert "Turn time: **90 s**" in changed.text and "the channel the table" in changed.text
    assert "Computer level: **normal**" in changed.text  # not given: unchanged
    again = await h.admin(admin, "settings", computer_level="easy")
    assert "Turn time: **90 s**" in again.text and "Computer level: **easy**" in again.text

    await h.slash(ann, "new")
    table = h.table()
    assert (table.settings.turn_seconds, table.settings.computer_level) == (90, "easy")
    await h.slash(ann, "start")
    await h.idle()
    assert h.fake.threads == {}  # the server chose the channel, though threads are allowed
    assert titles(h.fake.channel_posts())[0].startswith("Deal 1 of 11")


async def test_only_manage_server_changes_the_settings(harness):
    h = harness
    ann = h.user("Ann")
    refused = await h.admin(ann, "settings", where="channel")
    assert refused.ephemeral and "Manage Server" in refused.text
    settings = await h.parts.store.tables.guild_settings(GUILD_ID)
    assert settings.place.value == "thread"
    bad = await h.admin(h.user("Admin", admin=True), "settings", where="forum")
    assert bad.ephemeral and "thread, channel" in bad.text, bad.text


async def test_a_restart_before_the_thread_opened_opens_it_on_the_lobby(tmp_path):
    """The match started, but the bot stopped before the thread was opened (the first
    deal's message not posted): after the restart the thread opens on the lobby message
    as it would have, and the lobby becomes the summary."""
    # No time to send anything at the stop.
    pacing = replace(TEST_PACING, edit_interval=0.02, drain_seconds=0.0)
    first = await Harness(tmp_path, pacing=pacing).start()
    fake = first.fake
    fake.app_permissions = THREAD_PERMISSIONS
    ann = first.user("Ann")
    try:
        lobby_id = int(first.hand_message(await first.slash(ann, "new"))["id"])
        await first.idle()
        fake.channel_delay = 0.2
        await first.slash(ann, "start")
    finally:
        await first.stop()
    fake.channel_delay = 0.0
    assert fake.threads == {}

    second = await Harness(tmp_path, pacing=pacing, fake=fake).start()
    try:
        second.users["Ann"] = ann
        await second.idle()
        thread = fake.thread_of(lobby_id)
        assert thread is not None
        table = second.table()
        assert table.messages["thread"] == int(thread["id"])
        assert fake.messages[table.messages["table"]]["channel_id"] == thread["id"]
        summary = fake.messages[lobby_id]
        assert summary["embeds"][0]["title"] == "Bonken · deal 1 of 11"
        assert custom_ids(summary) == []  # the lobby's buttons are gone
    finally:
        await second.stop()


def record_file(interaction) -> dict:  # type: ignore[no-untyped-def]
    (call,) = [c for c in interaction.answers if c.files]
    ((name, data),) = call.files
    assert name == "bonken-match.json"
    return json.loads(data)


async def test_the_record_is_found_in_the_match_s_thread_and_in_its_channel(tmp_path):
    """During the match the record says where the full one will be (the thread); after
    it, ``/bonken record`` in the thread (open a while yet) and in the lobby's channel
    both give the finished match's full record, also with a rematch's lobby open and
    after a restart (which forgets the thread was a table's)."""
    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        h = first
        h.fake.app_permissions = THREAD_PERMISSIONS
        ann = h.user("Ann")
        _lobby_id, thread_id = await open_and_start(h, ann)
        table_id = h.table().table_id
        during = await h.slash(ann, "record", channel_id=thread_id)
        assert f"posted in <#{thread_id}> when the match ends" in during.text, during.text
        await play_out(h, ann)
        assert h.fake.threads[thread_id]["thread_metadata"]["archived"] is False
        # Ann's hand message says where the standings are: the thread.
        over = [m for m in h.fake.messages.values() if m["content"].startswith("This match")]
        assert [m["content"] for m in over] == [
            f"This match is over; the final standings are in <#{thread_id}>."
        ]
        final = public_in(h, thread_id)[-1]
        full = json.loads(final["attachments"][0]["data"])
        assert "seed" in full
        for where in (thread_id, CHANNEL_ID):
            asked = await h.slash(ann, "record", channel_id=where)
            assert asked.ephemeral and record_file(asked) == full, asked.text
        await h.click(ann, f"bonken:again:{table_id}", message=final)  # a rematch's lobby
        assert h.table() is not None
        assert record_file(await h.slash(ann, "record")) == full
    finally:
        await first.stop()
    second = await Harness(tmp_path, pacing=FAST_PACING, fake=first.fake).start()
    try:
        second.users["Ann"] = ann
        assert record_file(await second.slash(ann, "record", channel_id=thread_id)) == full
        nowhere = await second.slash(ann, "record", channel_id=snowflake())
        assert "no match has been played here yet" in nowhere.text
    finally:
        await second.stop()
