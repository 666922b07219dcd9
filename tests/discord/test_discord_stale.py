"""Every click gets an answer: a button or menu whose custom_id no item of the bot claims
(an older version's, a malformed one), or a menu sent with no value, is refused
privately instead of leaving the user with Discord's "This interaction failed"."""

from __future__ import annotations

import logging

import pytest

from bot.engine import MatchPhase
from bot.ui.items import FEATURES, stale_words
from tests.discord.discord_harness import play_until, seat_state, show_hand

STALE = stale_words("bonken:play:")
"""What a stale or mangled button of the table is told (its hand command)."""


async def _started(h):
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    return ann, h.table().table_id, seat_state(h, ann)[1]


@pytest.mark.parametrize(
    "custom_id",
    [
        "bonken:play:1",
        "bonken:play:{table}:{turn}:ZZ",  # an unknown card code
        "bonken:play:{table}:{turn}:1C",
        "bonken:lobby:{table}:explode",
        "bonken:dbl:{table}:{turn}:0:7",  # no seat 7
        "bonken:dbl:{table}:{turn}:D:31:1",  # not an action code (seats unsorted)
        "bonken:dblok:{table}:{turn}:D:",
        "bonken:play:{table}:{turn}:C:QS",
        "bonken:hand:",
    ],
)
async def test_a_button_nothing_claims_is_refused_privately(harness, caplog, custom_id):
    h = harness
    ann, table, turn = await _started(h)
    custom_id = custom_id.format(table=table, turn=turn)
    before = seat_state(h, ann)
    with caplog.at_level(logging.WARNING):
        answer = await h.click(ann, custom_id, message=h.old_message(custom_id))
    assert answer.ephemeral and answer.text == f"⚠️ {STALE}"
    assert seat_state(h, ann) == before  # nothing changed
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    ("custom_id", "command"),
    [
        ("bonken:lb:1:2:loudest:0:3:next", "`/bonken leaderboard`"),
        ("bonken:tally:1:2:nonsense", "`/bonken tally new`"),
        ("bonken:daily:1:x", "`/bonken daily`"),
        ("bonken:drs:2026-12-02:1:0.x:next", "`/bonken daily results:`"),
        ("bonken:rp:1:00.1:next", "`/bonken replay`"),
        ("bonken:review:x", "`/bonken review`"),
        ("bonken:play:{table}:{turn}:ZZ", "`/bonken hand`"),
    ],
)
async def test_a_mangled_button_names_its_own_features_command(harness, custom_id, command):
    """A daily button is not told to use ``/bonken hand``: each feature's stale or
    mangled button names the command that brings that feature's message back."""
    h = harness
    ann, table, turn = await _started(h)
    custom_id = custom_id.format(table=table, turn=turn)
    answer = await h.click(ann, custom_id, message=h.old_message(custom_id))
    assert answer.ephemeral and command in answer.text
    others = {f.stale for f in FEATURES} - {stale_words(custom_id)}
    assert all(answer.text != f"⚠️ {words}" for words in others)


async def test_a_button_of_no_feature_is_told_to_use_the_newest_message(harness):
    h = harness
    ann, _, _ = await _started(h)
    custom_id = "x" * 100
    answer = await h.click(ann, custom_id, message=h.old_message(custom_id))
    assert (
        answer.ephemeral
        and answer.text == "⚠️ this button is no longer valid; use the newest message"
    )


async def test_a_menu_nothing_claims_is_refused_privately(harness):
    h = harness
    ann, table, turn = await _started(h)
    custom_id = f"bonken:choose:{table}:{turn}:extra"
    answer = await h.select(ann, custom_id, ["x"], message=h.old_message(custom_id, menu=True))
    assert answer.ephemeral and answer.text == f"⚠️ {STALE}"


async def test_a_menu_sent_without_a_value_is_refused_politely_without_a_traceback(harness, caplog):
    h = harness
    ann, table, _ = await _started(h)
    await play_until(h, ann, lambda view: view.phase is MatchPhase.CHOOSING)
    turn = seat_state(h, ann)[1]
    hand = h.hand_message(await show_hand(h, ann))
    with caplog.at_level(logging.WARNING):
        answer = await h.select(ann, f"bonken:choose:{table}:{turn}", [], message=hand)
    assert answer.ephemeral and answer.text == "⚠️ nothing was selected"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert seat_state(h, ann)[1] == turn


async def test_a_button_of_the_bot_is_answered_once(harness):
    """The catch-all leaves claimed clicks alone (a second answer would be refused by
    Discord, which the harness fixture checks)."""
    h = harness
    ann, _, _ = await _started(h)
    shown = await show_hand(h, ann)
    assert shown.ephemeral and STALE not in shown.text
    assert len([c for c in shown.answers if c.path.endswith("/callback")]) == 1


@pytest.mark.parametrize("phase", [MatchPhase.DOUBLING, MatchPhase.PLAYING])
async def test_a_button_posted_before_the_action_codes_still_acts(harness, phase):
    """Buttons now carry the engine's action code (``P:QS``, ``D:13``, ``D:-``); one
    posted before (a bare card code, a seat bit mask) is still read the same way."""
    h = harness
    ann, table, _ = await _started(h)
    await play_until(h, ann, lambda view: view.phase is phase)
    view, turn = seat_state(h, ann)
    if phase is MatchPhase.DOUBLING:
        custom_id = f"bonken:dblok:{table}:{turn}:0:pass"
    else:
        custom_id = f"bonken:play:{table}:{turn}:{view.legal[0].card.code}"
    answer = await h.click(ann, custom_id, message=h.old_message(custom_id))
    assert not answer.text.startswith("⚠️"), answer.text
    assert seat_state(h, ann)[1] > turn  # the action was taken
