"""A hand message can be edited for 15 minutes only (its interaction token): before it
stops updating it says so, the turn ping tells the player to press Show my hand, and a
fresh Show my hand always works. The clock is faked; nothing waits 14 minutes."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import bot.ui.hands as hands
from bot.tables import events as ev
from tests.discord.discord_harness import CHANNEL_ID, custom_ids, show_hand


class FakeClock:
    """``time.time`` for the hand controller, ``offset`` seconds ahead of the real one."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset


async def _reminder(h, user) -> str:  # type: ignore[no-untyped-def]
    """The turn ping the channel gets for ``user`` (as the turn timer publishes it), each
    for a turn of its own (a turn's reminder is one post, whoever asks again)."""
    table = h.table()
    turn = table.turn + len(h.fake.channel_posts())
    await h.parts.presenter.publish(
        ev.Reminder(table.table_id, CHANNEL_ID, 0, user.id, 30.0), replace(table, turn=turn)
    )
    await h.idle()
    return h.fake.channel_posts()[-1]["content"]


async def test_a_hand_message_says_it_will_stop_updating_before_its_token_expires(
    harness, monkeypatch
):
    h = harness
    clock = FakeClock()
    monkeypatch.setattr(hands, "time", clock)
    monkeypatch.setattr(hands, "SWEEP_SECONDS", 0.01)
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    shown = await show_hand(h, ann)
    hand = h.hand_message(shown)
    buttons = custom_ids(hand)
    assert "Press **Show my hand**" not in await _reminder(h, ann)

    clock.offset = hands.TOKEN_LIFETIME - hands.NOTICE_SECONDS - 30  # 12.5 minutes on
    await asyncio.sleep(0.05)
    await h.idle()
    assert hands.STALE_NOTICE not in hand["content"]

    clock.offset = hands.TOKEN_LIFETIME - hands.NOTICE_SECONDS + 10  # 13 min 10 s on
    await asyncio.sleep(0.05)
    await h.idle()
    assert hand["content"].startswith(hands.STALE_NOTICE + "\n")
    assert custom_ids(hand) == buttons  # its buttons still play (a click is a new token)
    ping = await _reminder(h, ann)
    assert ping.startswith(f"<@{ann.id}>, it is your turn") and "Press **Show my hand**" in ping
    (sent,) = [c for c in h.fake.calls if c.method == "POST" and ping in str(c.body)][-1:]
    assert sent.body["allowed_mentions"]["parse"] == ["users"]  # it pings

    fresh = await show_hand(h, ann)  # a fresh Show my hand always works
    assert fresh.ephemeral and hands.STALE_NOTICE not in h.hand_message(fresh)["content"]
    assert "Press **Show my hand**" not in await _reminder(h, ann)
