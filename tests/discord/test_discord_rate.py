"""Few, well-timed Discord calls: an all-computer match at full speed stays within 40 REST
calls of the bot's own per deal, and never meets a 429.

The fake Discord enforces the per-channel 5-requests-per-5-seconds buckets for posting and
for editing messages and sends discord.py the usual ``X-RateLimit-*`` headers. Its clocks
and the presenter's edit pacing run 100× faster than real (``time_scale=0.01``), so the
test takes seconds while the calls it counts are the ones real timing would produce.
"""

from __future__ import annotations

import re

from discord_harness import Harness

import bot.ui.presenter as presenter
from bot.engine import DEALS_PER_MATCH

TIME_SCALE = 0.01
BUDGET_PER_DEAL = 40


async def test_an_all_computer_match_at_full_speed_makes_few_calls_and_no_429(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(presenter, "EDIT_INTERVAL", 1.0 * TIME_SCALE)
    h = await Harness(tmp_path, pace=0.0, time_scale=TIME_SCALE).start()
    try:
        # Slash commands always seat the host; an all-computer table is opened through the
        # service, as the demo does, and presented by the bot like any other.
        service = h.bot.service
        host = h.user("Host")
        channel = 1_300_000_000_000_000_009
        view = await service.open_table(1, channel, host.id, "Host", host_seated=False)
        for _ in range(4):
            await service.add_computer(channel, host.id)
        before = len(h.fake.calls)
        await service.start(channel, host.id)
        await h.idle()
        calls = [c for c in h.fake.calls[before:] if c.own]
        assert service.table_in_channel(channel) is None  # the match is over
        deal_posts = [
            i
            for i, c in enumerate(calls)
            if c.method == "POST"
            and (c.body.get("embeds") or [{}])[0].get("title", "").startswith("Deal ")
        ]
        assert len(deal_posts) == DEALS_PER_MATCH
        per_deal = [
            len(calls[a:b]) for a, b in zip(deal_posts, [*deal_posts[1:], len(calls)], strict=True)
        ]
        print(f"\nREST calls per deal: {per_deal}; total {len(calls)} for table {view.table_id}")
        assert max(per_deal) <= BUDGET_PER_DEAL, per_deal
        assert len(calls) <= BUDGET_PER_DEAL * DEALS_PER_MATCH
        assert h.fake.rate_limited() == []
        assert all(c.status < 400 for c in calls)
        assert {re.sub(r"\d+", "N", f"{c.method} {c.path}") for c in calls} <= {
            "POST /channels/N/messages",
            "PATCH /channels/N/messages/N",
        }
    finally:
        await h.stop()
