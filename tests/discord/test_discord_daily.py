"""The daily deals through the real bot and a fake Discord: ``/bonken daily`` and its
buttons, the public line, ``results:``, the daily board and the admin's setting.

The fixture checks every interaction was answered within a second and nothing was
refused or rate-limited; these tests check what people see and what reached Discord."""

from __future__ import annotations

import asyncio
import gc
import random
from typing import Any

import discord

from bot.engine import Match, seat_view
from bot.ui.daily_message import DailyMove, DailyToggle
from bot.ui.pictures import DAILY_FILE
from tests.discord.discord_harness import (
    EPHEMERAL,
    FAST_PACING,
    Harness,
    Interaction,
    User,
    custom_ids,
)


def _message(h: Harness, asked: Interaction) -> dict[str, Any]:
    return h.hand_message(asked)


def _next_move(message: dict[str, Any]) -> str | None:
    """Pass in a doubling turn, else the first card whose button is enabled."""
    moves = [i for i in custom_ids(message, enabled_only=True) if i.startswith("bonken:daily:")]
    passes = [i for i in moves if i.endswith(":D:-")]
    return (passes or moves or [None])[0]


def _private(answer: Interaction) -> bool:
    """The words of the answer (a reply, or a followup after a defer) only its user sees."""
    body = answer.answers[-1].body
    data = body.get("data") if "type" in body else body
    return bool(int((data or {}).get("flags") or 0) & EPHEMERAL)


def _public(h: Harness) -> list[str]:
    """Everything the channel can see that the bot sent: posts and public followups."""
    return [
        m["content"]
        for m in h.fake.messages.values()
        if not m["flags"] & EPHEMERAL and m["content"]
    ]


async def play(h: Harness, user: User, *, moves: int | None = None) -> tuple[list[str], int]:
    """``user`` runs ``/bonken daily`` and clicks (for ``moves`` clicks, or to the end);
    what the message said after each, and the message's id."""
    started = await h.slash(user, "daily")
    assert started.ephemeral and started.callback_type == 5  # deferred, privately
    message = _message(h, started)
    seen = [message["content"]]
    made = 0
    while (move := _next_move(message)) is not None and (moves is None or made < moves):
        clicked = await h.click(user, move, message=message)
        # The same message, updated by the click's one callback: no edit after it.
        assert clicked.callback_type == 7, clicked.callback
        assert not [call for call in clicked.answers if call.method == "PATCH"]
        assert not clicked.text.startswith("⚠️"), clicked.text
        message = h.fake.messages[int(message["id"])]
        assert [a["filename"] for a in message["attachments"]] == [DAILY_FILE]
        seen.append(message["content"])
        made += 1
    return seen, int(message["id"])


async def test_two_people_play_privately_and_the_channel_gets_one_line_each(harness: Harness):
    h = harness
    ann, bob = h.user("Ann"), h.user("Bob")
    own = len(h.fake.own_calls())
    seen, message_id = await play(h, ann)
    message = h.fake.messages[message_id]
    assert message["flags"] & EPHEMERAL and h.fake.owner[message_id] == ann.id
    assert [a["filename"] for a in message["attachments"]] == [DAILY_FILE]
    assert len(seen) > 13 and message["components"] == []  # played out, no buttons left
    assert _public(h) == ["Ann played today's deals: 50% (1st of 1 so far)"]
    await play(h, bob)
    assert len(_public(h)) == 2 and _public(h)[1].startswith("Bob played today's deals: ")
    assert len(h.fake.own_calls()) == own  # no channel call: only the interactions' own
    for line in _public(h):
        assert not set("♣♦♥♠") & set(line)


async def test_a_click_leaves_nothing_for_the_cyclic_collector(harness: Harness):
    """A click's discord.py objects (its interaction and response, the view rebuilt from
    its message, the button) are freed as soon as the click is over: under load, left in
    reference cycles, they reached the collector's full passes (``bot/ui/front.py``)."""
    h = harness
    ann = h.user("Ann")
    message = _message(h, await h.slash(ann, "daily"))
    gc.collect()
    gc.disable()  # nothing collected meanwhile: whatever the clicks leave in cycles stays
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(3):
            move = _next_move(message)
            assert move is not None
            await h.click(ann, move, message=message)
            message = h.fake.messages[int(message["id"])]
        gc.collect()
        left = [
            type(thing).__name__
            for thing in gc.garbage
            if isinstance(thing, discord.Interaction | discord.ui.View | DailyMove | DailyToggle)
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []


async def test_the_same_moves_give_the_same_game_across_a_restart_and_a_busy_pool(tmp_path):
    """Ann plays through; Bob makes the same clicks while the bot's player pool is busy
    with hard searches, and the bot restarts halfway: his messages say what Ann's did."""
    first = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        ann, bob = first.user("Ann"), first.user("Bob")
        annsaw, _ = await play(first, ann)
        match = Match(["a", "b", "c", "d"])
        match.deal_random(random.Random(5))
        view = seat_view(match, match.to_act or 0)
        pool = first.parts.players
        searches = [asyncio.create_task(pool.decide("hard", view, seed, 0.3)) for seed in range(4)]
        bobsaw, _ = await play(first, bob, moves=len(annsaw) // 2)
        await asyncio.gather(*searches)
    finally:
        await first.stop()
    second = await Harness(tmp_path, pacing=FAST_PACING, fake=first.fake).start()
    try:
        bob = second.users.setdefault("Bob", bob)
        resumed = await second.slash(bob, "daily")  # the old message would do as well
        message = _message(second, resumed)
        assert message["content"] == bobsaw[-1]
        while (move := _next_move(message)) is not None:
            await second.click(bob, move, message=message)
            message = second.fake.messages[int(message["id"])]
            bobsaw.append(message["content"])
    finally:
        await second.stop()
    assert len(bobsaw) == len(annsaw)
    for a, b in zip(annsaw[:-1], bobsaw[:-1], strict=True):
        assert a == b  # the person is "you": the same words, the same computers' cards


async def test_a_click_whose_answer_is_slow_is_acknowledged_first_then_its_message_edited(
    harness: Harness,
):
    """An answer not ready within the controller's time (here none at all: a picture
    behind many, a slow store) is not kept from Discord's 3 seconds: the click is
    acknowledged, then the message edited with the same words, picture and buttons."""
    h = harness
    ann = h.user("Ann")
    _, message_id = await play(h, ann, moves=1)
    h.parts.daily.answer_within = 0.0
    message = dict(h.fake.messages[message_id])  # (the fake edits it in place)
    move = _next_move(message)
    assert move is not None
    clicked = await h.click(ann, move, message=message)
    assert clicked.callback_type == 6, clicked.callback  # acknowledged, nothing shown yet
    (edit,) = [call for call in clicked.answers if call.method == "PATCH"]
    assert edit.path.endswith("/messages/@original") and clicked.original_id == message_id
    edited = h.fake.messages[message_id]
    assert edited["content"] == edit.body["content"]
    assert custom_ids(edited) != custom_ids(message)  # the next move's buttons
    assert [a["filename"] for a in edited["attachments"]] == [DAILY_FILE]
    assert edited["attachments"][0]["id"] != message["attachments"][0]["id"]  # drawn anew
    assert edited["flags"] & EPHEMERAL


async def test_buttons_that_are_not_theirs_to_press_are_refused_and_change_nothing(
    harness: Harness,
):
    h = harness
    ann, bob = h.user("Ann"), h.user("Bob")
    _, message_id = await play(h, ann, moves=1)
    message = h.fake.messages[message_id]
    move = _next_move(message)
    assert move is not None
    before = dict(message)
    someone_elses = await h.click(bob, move, message=message)  # as if he could see it
    forged = move.replace("bonken:daily:", "bonken:daily:9", 1)
    no_attempt = await h.click(ann, forged, message=h.old_message(forged))
    mangled = await h.click(ann, "bonken:daily:1:x", message=h.old_message("bonken:daily:1:x"))
    for answer, words in [
        (someone_elses, "these are someone else's daily deals"),
        (no_attempt, "this button belongs to no daily deals"),
        (mangled, "this daily deals button is no longer valid; `/bonken daily` brings"),
    ]:
        assert _private(answer) and words in answer.text, answer.text
    assert h.fake.messages[message_id] == before
    await play(h, ann)
    again = await h.slash(ann, "daily")
    assert "you have played today's deals already" in again.text


async def test_results_are_offered_by_day_and_hidden_until_played(harness: Harness):
    h = harness
    ann, bob = h.user("Ann"), h.user("Bob")
    await play(h, ann)
    days = await h.autocomplete(bob, "daily", "results")
    assert days[0]["name"].startswith("today's deals (") and len(days) == 7
    hidden = await h.slash(bob, "daily", results=days[0]["value"])
    assert hidden.ephemeral and "1. Ann 50%" in hidden.text
    assert "Each deal's comparison shows once you have played" in hidden.text
    await play(h, bob)
    shown = await h.slash(bob, "daily", results=days[0]["value"])
    assert "Deal 1, " in shown.text and "best " in shown.text


async def test_the_daily_board_and_the_admins_number_of_deals(harness: Harness):
    h = harness
    boss, ann = h.user("Boss", admin=True), h.user("Ann")
    refused = await h.admin(ann, "settings", daily_deals=2)
    assert refused.ephemeral and "Manage Server" in refused.text
    changed = await h.admin(boss, "settings", daily_deals=2)
    assert "Daily deals: **2** a day" in changed.text
    seen, _ = await play(h, ann)
    assert "deal 1 of 2" in seen[0]
    board = await h.slash(ann, "leaderboard", daily=True)
    assert not board.ephemeral
    assert "Daily board" in board.text and "– Ann 50% (1 day)" in board.text
