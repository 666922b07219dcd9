"""Opening and running a table: /bonken new, join, leave, addbot, kick, start, cancel and
the lobby buttons, with the host's rights and the refusals, all through interactions."""

from __future__ import annotations

import asyncio
import copy
import itertools

import discord

from bot.store import Computer, Human, TableStatus
from tests.discord.discord_harness import EPHEMERAL, OTHER_CHANNEL_ID, P, custom_ids

NO_TABLE = "there is no Bonken table here; open one with /bonken new"
NOT_HOST = "only the host or a member with Manage Server can"


async def open_table(h, host):
    opened = await h.slash(host, "new")
    await h.idle()
    return opened, h.table()


def occupants(h):
    return [seat.occupant for seat in h.parts.service.registry.table(h.table().table_id).seats]


async def test_new_posts_a_public_lobby_message_with_its_buttons(harness):
    h = harness
    ann = h.user("Ann")
    opened, table = await open_table(h, ann)
    assert opened.callback_type == 4
    assert not opened.ephemeral
    message = h.hand_message(opened)
    tid = table.table_id
    assert custom_ids(message) == [
        f"bonken:lobby:{tid}:join",
        f"bonken:lobby:{tid}:leave",
        f"bonken:lobby:{tid}:addbot",
        f"bonken:lobby:{tid}:start",
    ]
    assert message["embeds"][0]["title"] == "Bonken table"
    assert "North: **Ann**" in message["embeds"][0]["fields"][0]["value"]
    assert table.host_id == ann.id
    assert table.messages["table"] == int(message["id"])


async def test_new_takes_the_turn_time_and_computer_level(harness):
    h = harness
    await h.slash(h.user("Ann"), "new", turn_seconds=30, computer_level="easy")
    settings = h.table().settings
    assert (settings.turn_seconds, settings.computer_level) == (30, "easy")


async def test_new_twice_in_a_channel_is_refused_privately(harness):
    h = harness
    await open_table(h, h.user("Ann"))
    again = await h.slash(h.user("Bob"), "new")
    assert again.ephemeral
    assert "this channel already has a Bonken table" in again.text


async def test_new_without_the_bots_channel_permissions_says_which_are_missing(harness):
    h = harness
    data = h._command_data("new", {})
    payload = h.fake.interaction_payload(
        2, h.user("Ann"), data, app_permissions=P(view_channel=True, send_messages=True)
    )
    refused = await h.dispatch(payload)
    assert refused.ephemeral
    assert "Embed Links, Attach Files" in refused.text
    assert h.table() is None


async def test_join_by_command_and_by_button_seats_in_order(harness):
    h = harness
    ann, bob, cid = h.user("Ann"), h.user("Bob"), h.user("Cid")
    _, table = await open_table(h, ann)
    joined = await h.slash(bob, "join")
    assert joined.ephemeral and joined.text == "You sit East."
    clicked = await h.click(cid, f"bonken:lobby:{table.table_id}:join")
    assert clicked.ephemeral and clicked.text == "You sit South."
    assert occupants(h)[:3] == [Human(ann.id), Human(bob.id), Human(cid.id)]
    await h.idle()
    lobby = h.fake.messages[table.messages["table"]]
    seats = lobby["embeds"][0]["fields"][0]["value"]
    assert "East: **Bob**" in seats and "South: **Cid**" in seats


async def test_join_twice_and_join_a_full_table_are_refused(harness):
    h = harness
    ann = h.user("Ann")
    await open_table(h, ann)
    twice = await h.slash(ann, "join")
    assert twice.ephemeral and "you are already seated at this table" in twice.text
    for name in ("Bob", "Cid", "Dan"):
        await h.slash(h.user(name), "join")
    full = await h.slash(h.user("Eve"), "join")
    assert full.ephemeral and "the table is full" in full.text


async def test_leave_by_command_and_button_frees_the_seat(harness):
    h = harness
    ann, bob, cid = h.user("Ann"), h.user("Bob"), h.user("Cid")
    _, table = await open_table(h, ann)
    await h.slash(bob, "join")
    await h.slash(cid, "join")
    left = await h.slash(bob, "leave")
    assert left.ephemeral and left.text == "You left the table."
    clicked = await h.click(cid, f"bonken:lobby:{table.table_id}:leave")
    assert clicked.ephemeral and clicked.text == "You left the table."
    assert occupants(h) == [Human(ann.id), None, None, None]


async def test_the_last_person_leaving_closes_the_lobby(harness):
    h = harness
    ann = h.user("Ann")
    _, table = await open_table(h, ann)
    await h.slash(ann, "leave")
    await h.idle()
    assert h.table() is None
    lobby = h.fake.messages[table.messages["table"]]
    assert custom_ids(lobby) == []  # the buttons are gone from the closed lobby
    assert "everyone left the lobby" in h.posts_text()


async def test_addbot_by_command_and_button_for_the_host(harness):
    h = harness
    ann = h.user("Ann")
    _, table = await open_table(h, ann)
    added = await h.slash(ann, "addbot", level="easy")
    assert added.ephemeral and added.text == "A computer player sits down."
    clicked = await h.click(ann, f"bonken:lobby:{table.table_id}:addbot")
    assert clicked.ephemeral
    assert occupants(h) == [Human(ann.id), Computer("easy"), Computer("normal"), None]


async def test_addbot_kick_start_cancel_are_refused_to_a_guest(harness):
    h = harness
    ann, bob = h.user("Ann"), h.user("Bob")
    _, table = await open_table(h, ann)
    await h.slash(bob, "join")
    for name, options, what in [
        ("addbot", {}, "add computer players"),
        ("kick", {"player": "0"}, "remove players"),
        ("start", {}, "start the match"),
        ("cancel", {}, "cancel the table"),
    ]:
        refused = await h.slash(bob, name, **options)
        assert refused.ephemeral, name
        assert f"{NOT_HOST} {what}" in refused.text, name
    button = await h.click(bob, f"bonken:lobby:{table.table_id}:start")
    assert button.ephemeral and f"{NOT_HOST} start the match" in button.text
    assert h.table().status is TableStatus.LOBBY
    assert occupants(h) == [Human(ann.id), Human(bob.id), None, None]


async def test_a_member_with_manage_server_may_run_the_table(harness):
    h = harness
    ann, mod = h.user("Ann"), h.user("Mod", admin=True)
    await open_table(h, ann)
    added = await h.slash(mod, "addbot")
    assert added.text == "A computer player sits down."
    cancelled = await h.slash(mod, "cancel")
    assert cancelled.ephemeral and cancelled.text == "The table is cancelled."
    assert h.table() is None


async def test_kick_offers_the_occupied_seats_and_frees_one(harness):
    h = harness
    ann, bob = h.user("Ann"), h.user("Bob")
    await open_table(h, ann)
    await h.slash(bob, "join")
    await h.slash(ann, "addbot")
    choices = await h.autocomplete(ann, "kick", "player")
    assert [c["value"] for c in choices] == ["0", "1", "2"]
    assert choices[1]["name"] == "East: Bob"
    assert [c["value"] for c in await h.autocomplete(ann, "kick", "player", player="bo")] == [
        "1",
        "2",
    ]  # "Bob" and "South bot"
    kicked = await h.slash(ann, "kick", player="1")
    assert kicked.ephemeral and kicked.text == "East's seat is freed."
    by_name = await h.slash(ann, "kick", player="south")
    assert by_name.text == "South's seat is freed."
    assert occupants(h) == [Human(ann.id), None, None, None]
    host = await h.slash(ann, "kick", player="0")
    assert "the host cannot be removed" in host.text
    nobody = await h.slash(ann, "kick", player="west")
    assert "nobody sits in that seat" in nobody.text
    typo = await h.slash(ann, "kick", player="northeast")
    assert typo.ephemeral and "there is no seat 'northeast'" in typo.text


async def test_start_by_command_fills_the_seats_and_posts_the_first_deal(harness):
    h = harness
    ann = h.user("Ann")
    _, table = await open_table(h, ann)
    started = await h.slash(ann, "start")
    assert started.ephemeral and "Show my hand" in started.text
    await h.idle()
    assert h.table().status is TableStatus.PLAYING
    assert occupants(h)[1:] == [Computer("normal")] * 3
    lobby = h.fake.messages[table.messages["table"]]
    assert custom_ids(lobby) == []  # the lobby lost its buttons
    assert lobby["embeds"][0]["footer"]["text"] == "The match has started."
    deal = h.fake.messages[h.table().messages["table"]]
    assert deal["embeds"][0]["title"].startswith("Deal 1 of 11")
    assert custom_ids(deal) == [f"bonken:hand:{table.table_id}"]


async def test_start_by_button_and_lobby_commands_after_the_start(harness):
    h = harness
    ann, bob = h.user("Ann"), h.user("Bob")
    _, table = await open_table(h, ann)
    # What a client still shows while the lobby message is being edited.
    lobby = copy.deepcopy(h.find_message(ann, f"bonken:lobby:{table.table_id}:start"))
    started = await h.click(ann, f"bonken:lobby:{table.table_id}:start", message=lobby)
    assert started.ephemeral
    await h.idle()
    late = await h.slash(ann, "addbot")
    assert late.ephemeral and "the match has already started" in late.text
    full = await h.click(bob, f"bonken:lobby:{table.table_id}:join", message=lobby)
    assert full.ephemeral and "the match is under way and no seat is free" in full.text


async def test_cancel_closes_the_table_and_the_old_lobby_buttons_are_refused(harness):
    h = harness
    ann = h.user("Ann")
    _, table = await open_table(h, ann)
    lobby = copy.deepcopy(h.fake.messages[table.messages["table"]])
    cancelled = await h.slash(ann, "cancel")
    assert cancelled.ephemeral and cancelled.text == "The table is cancelled."
    await h.idle()
    assert "The table is closed: the table was cancelled." in h.posts_text()
    stale = await h.click(h.user("Bob"), f"bonken:lobby:{table.table_id}:join", message=lobby)
    assert stale.ephemeral and "this table is closed" in stale.text
    # A new table in the channel does not answer the old table's buttons either.
    await open_table(h, ann)
    old = await h.click(h.user("Bob"), f"bonken:lobby:{table.table_id}:join", message=lobby)
    assert "this table is closed" in old.text


async def test_every_lobby_command_without_a_table_says_how_to_open_one(harness):
    h = harness
    ann = h.user("Ann")
    for name, options in [
        ("join", {}),
        ("leave", {}),
        ("addbot", {}),
        ("kick", {"player": "1"}),
        ("start", {}),
        ("cancel", {}),
        ("hand", {}),
        ("choose", {"contract": "no-tricks"}),
        ("double", {"player": "1"}),
        ("pass", {}),
        ("back", {}),
        ("scores", {}),
    ]:
        refused = await h.slash(ann, name, **options)
        assert refused.ephemeral, name
        assert refused.reply["flags"] & EPHEMERAL
        assert NO_TABLE in refused.text, (name, refused.text)
    # A table elsewhere does not count for this channel.
    await h.slash(ann, "new", channel_id=OTHER_CHANNEL_ID)
    assert NO_TABLE in (await h.slash(ann, "start")).text


async def test_lobby_edits_are_coalesced_to_one_a_second(tmp_path):
    """Four joins and leaves within a moment: the lobby message is edited at most once a
    second (with Discord's real clock and the presenter's real pacing)."""
    from tests.discord.discord_harness import Harness

    h = await Harness(tmp_path, time_scale=1.0).start()
    try:
        ann = h.user("Ann")
        _, table = await open_table(h, ann)
        for name in ("Bob", "Cid", "Dan"):
            await h.slash(h.user(name), "join")
        await h.slash(h.user("Bob"), "leave")
        await asyncio.sleep(1.3)
        await h.idle()
        path = f"/channels/{table.channel_id}/messages/{table.messages['table']}"
        edits = [call.at for call in h.fake.calls if call.method == "PATCH" and call.path == path]
        assert 1 <= len(edits) <= 2
        assert all(b - a >= 0.95 for a, b in itertools.pairwise(edits))
        lobby = h.fake.messages[table.messages["table"]]
        seats = lobby["embeds"][0]["fields"][0]["value"]
        assert "East: *empty*" in seats and "West: **Dan**" in seats
        assert h.fake.rate_limited() == []
    finally:
        await h.stop()


async def test_the_bot_asks_for_no_privileged_intents(harness):
    intents = harness.bot.intents
    assert not intents.members and not intents.presences and not intents.message_content
    assert intents.guilds
    assert intents.value == discord.Intents(guilds=True).value
