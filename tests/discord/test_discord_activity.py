"""Play in an Activity: the lobby offers it where the application has Activities on and
the operator gave its OAuth2 client, and its click opens the Activity in the channel."""

from __future__ import annotations

import copy

import pytest

from bot.settings import ActivitySettings
from tests.discord.conftest import FAST_PACING
from tests.discord.discord_harness import EMBEDDED, LAUNCH_ACTIVITY, FakeDiscord, Harness

CLIENT = ActivitySettings(client_id=4242, client_secret="secret")


async def _started(tmp_path, *, flags: int, activity: ActivitySettings | None) -> Harness:
    fake = FakeDiscord()
    fake.application_flags = flags
    return await Harness(tmp_path, fake=fake, pacing=FAST_PACING, activity=activity).start()


async def _lobby(h: Harness):
    opened = await h.slash(h.user("Ann"), "new")
    await h.idle()
    return h.hand_message(opened), h.table().table_id


async def test_the_lobby_offers_the_activity_and_its_click_launches_it(tmp_path):
    h = await _started(tmp_path, flags=EMBEDDED, activity=CLIENT)
    try:
        message, tid = await _lobby(h)
        button = f"bonken:activity:{tid}"
        assert button in [c.get("custom_id") for c in _buttons(message)]
        launched = await h.click(h.user("Bob"), button)
        assert launched.callback_type == LAUNCH_ACTIVITY
        # A join edits the lobby: the button stays.
        await h.click(h.user("Bob"), f"bonken:lobby:{tid}:join")
        await h.idle()
        edited = h.fake.messages[int(message["id"])]
        assert button in [c.get("custom_id") for c in _buttons(edited)]
    finally:
        await h.stop()
    assert h.fake.refused() == []


@pytest.mark.parametrize(
    ("flags", "activity"), [(0, CLIENT), (EMBEDDED, None)], ids=["activities off", "no client"]
)
async def test_no_offer_without_both_halves(tmp_path, flags, activity):
    h = await _started(tmp_path, flags=flags, activity=activity)
    try:
        message, _ = await _lobby(h)
        assert not [c for c in _buttons(message) if "activity" in c.get("custom_id", "")]
    finally:
        await h.stop()


async def test_an_old_lobbys_activity_button_is_refused_privately(tmp_path):
    h = await _started(tmp_path, flags=EMBEDDED, activity=CLIENT)
    try:
        message, tid = await _lobby(h)
        message = copy.deepcopy(message)  # the lobby as it was, before the cancel's edit
        await h.slash(h.user("Ann"), "cancel")
        await h.idle()
        refused = await h.click(h.user("Bob"), f"bonken:activity:{tid}", message=message)
        assert refused.callback_type == 4 and refused.ephemeral
        assert "closed" in refused.text
    finally:
        await h.stop()


def _buttons(message):
    return [c for row in message.get("components", []) for c in row.get("components", [])]
