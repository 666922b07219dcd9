"""Surprises: an unexpected error is logged with its context and answered with an apology
(never Discord's "This interaction failed"); the token never reaches a log line."""

from __future__ import annotations

import logging

from bot.ui.replies import APOLOGY
from tests.discord.discord_harness import TOKEN, show_hand


def boom(*args, **kwargs):
    raise RuntimeError("the database fell over")


async def test_a_command_that_fails_unexpectedly_apologises_and_logs_the_traceback(
    harness, monkeypatch, caplog
):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    monkeypatch.setattr(h.parts.service, "join", boom)
    with caplog.at_level(logging.ERROR):
        failed = await h.slash(h.user("Bob"), "join")
    assert failed.ephemeral and failed.text == APOLOGY
    assert failed.latency < 1.0
    (record,) = [r for r in caplog.records if r.exc_info]
    assert record.exc_info[0] is RuntimeError
    message = record.getMessage()
    assert f"user={h.user('Bob').id}" in message and f"channel={h.table().channel_id}" in message
    assert "'name': 'join'" in message  # the command and its options


async def test_a_button_that_fails_unexpectedly_apologises(harness, monkeypatch, caplog):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    monkeypatch.setattr(h.parts.hands, "_render", boom)
    with caplog.at_level(logging.ERROR):
        failed = await show_hand(h, ann)
    assert failed.ephemeral and failed.text == APOLOGY
    assert any(r.exc_info and r.exc_info[0] is RuntimeError for r in caplog.records)
    assert "custom_id" in caplog.text and "bonken:hand:" in caplog.text


async def test_an_out_of_range_option_that_slips_past_discord_is_refused(harness):
    h = harness
    refused = await h.slash(h.user("Ann"), "new", turn_seconds=5)
    assert refused.ephemeral and "the turn time must be 15-600 seconds" in refused.text
    level = await h.slash(h.user("Ann"), "new", computer_level="godlike")
    assert level.ephemeral and level.text.startswith("⚠️")
    assert h.table() is None


async def test_a_payload_discord_would_never_send_gets_an_apology(harness, caplog):
    h = harness
    with caplog.at_level(logging.ERROR):
        failed = await h.slash(h.user("Ann"), "new", turn_seconds="soon")
    assert failed.ephemeral and failed.text == APOLOGY
    assert "TypeError" in caplog.text
    assert h.table() is None


async def test_an_error_outside_the_commands_guard_still_gets_an_apology(
    harness, monkeypatch, caplog
):
    """The cog's error handler is the last net: a bug before a command's own guard."""

    async def unguarded(interaction, work):
        await work()

    monkeypatch.setattr(harness.bot.get_cog("Bonken"), "guard", unguarded)
    monkeypatch.setattr(harness.parts.service, "open_table", boom)
    with caplog.at_level(logging.ERROR):
        failed = await harness.slash(harness.user("Ann"), "new")
    assert failed.ephemeral and failed.text == APOLOGY
    user = harness.user("Ann")
    assert f"command /bonken new failed: user={user.id} guild=" in caplog.text
    assert "RuntimeError: the database fell over" in caplog.text


async def test_an_error_after_the_answer_apologises_in_a_followup(harness, monkeypatch):
    h = harness
    ann = h.user("Ann")

    async def answer_then_fail(interaction, *args):
        await interaction.response.send_message("working on it", ephemeral=True)
        raise RuntimeError("late failure")

    monkeypatch.setattr(h.parts.lobby, "open", answer_then_fail)
    failed = await h.slash(ann, "new")
    followups = [
        c for c in failed.answers if c.method == "POST" and c.path.startswith("/webhooks/")
    ]
    assert len(followups) == 1
    assert followups[0].body["content"] == APOLOGY and followups[0].body["flags"] & 64


async def test_the_token_never_appears_in_the_logs(tmp_path, caplog):
    from tests.discord.discord_harness import Harness

    caplog.set_level(logging.DEBUG)
    h = await Harness(tmp_path).start()
    try:
        ann = h.user("Ann")
        await h.slash(ann, "new")
        await h.slash(ann, "start")
        await h.idle()
        await show_hand(h, ann)
        await h.slash(ann, "new", turn_seconds="x")  # an error, with its traceback
        logging.getLogger("test").info("settings: %r", h.settings)
    finally:
        await h.stop()
    assert len(caplog.records) > 20  # discord.py's debug logging was on
    assert all(c.authorization == f"Bot {TOKEN}" for c in h.fake.calls if c.own)
    assert TOKEN not in caplog.text
    assert "token=" not in repr(h.settings)
