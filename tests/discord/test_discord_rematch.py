"""Play again: the button under the final standings opens a new table in the channel with
the finished table's computers and settings, and seats the old players who click it."""

from __future__ import annotations

from bot.store import Computer, Human
from tests.discord.discord_harness import CHANNEL_ID, custom_ids


async def _finished_table(h):  # type: ignore[no-untyped-def]
    """Ann, Bob and a hard computer at a 45-second table, then the table closes (the
    rematch reads the closed table's seats and settings from the store)."""
    ann, bob = h.user("Ann"), h.user("Bob")
    await h.slash(ann, "new", turn_seconds=45, computer_level="easy")
    await h.slash(bob, "join")
    await h.slash(ann, "addbot", level="hard")
    old = h.table().table_id
    await h.slash(ann, "cancel")
    await h.idle()
    assert h.table() is None
    return ann, bob, old


async def test_play_again_seats_the_players_who_click_it(harness):
    h = harness
    ann, bob, old = await _finished_table(h)
    button = f"bonken:again:{old}"
    standings = h.old_message(button)  # as under the final standings (see test_discord_match)
    stranger = await h.click(h.user("Eve"), button, message=standings)
    assert stranger.ephemeral and "only the players of that match" in stranger.text
    assert h.table() is None  # a refusal changes nothing

    opened = await h.click(
        bob, button, message=standings
    )  # the first click opens the table, Bob hosts
    assert not opened.ephemeral and opened.reply["embeds"][0]["title"] == "Bonken table"
    table = h.table()
    assert table.table_id != old and table.host_id == bob.id
    assert (table.settings.turn_seconds, table.settings.computer_level) == (45, "easy")
    stored = await h.parts.store.tables.get_table(table.table_id)
    assert stored.seats[:2] == (Human(bob.id), Computer("hard"))
    assert table.messages["table"] == opened.original_id  # the lobby message it posted
    assert custom_ids(h.hand_message(opened)) == [
        f"bonken:lobby:{table.table_id}:{op}" for op in ("join", "leave", "addbot", "start")
    ]

    joined = await h.click(ann, button, message=standings)
    assert joined.ephemeral and joined.text == "You sit South."
    again = await h.click(ann, button, message=standings)
    assert again.ephemeral and "already seated" in again.text
    stored = await h.parts.store.tables.get_table(table.table_id)
    assert stored.seats == (Human(bob.id), Computer("hard"), Human(ann.id), None)
    await h.idle()
    lobby = h.fake.messages[opened.original_id]["embeds"][0]["fields"][0]["value"]
    assert "South: **Ann**" in lobby and "North: **Bob**" in lobby


async def test_play_again_is_refused_while_another_match_is_played_here(harness):
    h = harness
    ann, bob, old = await _finished_table(h)
    await h.slash(bob, "new")
    await h.slash(bob, "start")
    button = f"bonken:again:{old}"
    refused = await h.click(ann, button, message=h.old_message(button))
    assert refused.ephemeral and f"a table is already open in <#{CHANNEL_ID}>" in refused.text
    assert h.table().host_id == bob.id
