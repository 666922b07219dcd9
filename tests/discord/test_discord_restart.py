"""Buttons carry everything in their custom_id: after a restart, a click on a message
posted before it still works (the dynamic items are registered again at start)."""

from __future__ import annotations

import copy

from discord_harness import Harness, act_by_buttons, custom_ids, seat_state, show_hand

import bot.ui.presenter as presenter
from bot.engine import MatchPhase


async def test_a_hand_button_from_before_a_restart_still_plays(tmp_path, monkeypatch):
    monkeypatch.setattr(presenter, "EDIT_INTERVAL", 0.02)
    first = await Harness(tmp_path).start()
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

    second = await Harness(tmp_path).start()  # the same database: the table is restored
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
