"""The channel presenter: each deal's message ends showing that deal, table-message
edits stay spaced after a slow one, and a hand lights up without waiting for the
channel's posts."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import replace

from bot.engine import CONTRACTS, DEALS_PER_MATCH, MatchPhase, from_record
from bot.render.text import domino_rows_text
from tests.discord.discord_harness import (
    CHANNEL_ID,
    TEST_PACING,
    Harness,
    custom_ids,
    play_until,
    seat_state,
    show_hand,
)


async def computers_only(h: Harness, channel: int = CHANNEL_ID) -> None:
    """An all-computer table opened through the service (slash commands seat the host)."""
    host = h.user("Host")
    await h.parts.service.open_table(1, channel, host.id, "Host", host_seated=False)
    for _ in range(4):
        await h.parts.service.add_computer(channel, host.id)
    await h.parts.service.start(channel, host.id)


def deal_messages(h: Harness) -> list[dict]:
    return [
        p
        for p in h.fake.channel_posts()
        if p["embeds"] and p["embeds"][0]["title"].startswith("Deal ")
    ]


async def test_each_closed_deal_message_shows_its_own_deal_as_it_ended(harness):
    h = harness
    await computers_only(h)
    await h.idle()
    final = h.fake.channel_posts()[-1]
    match = from_record(json.loads(final["attachments"][0]["data"]))
    messages = deal_messages(h)
    assert len(messages) == DEALS_PER_MATCH
    totals = [0, 0, 0, 0]
    for number, (message, deal) in enumerate(zip(messages, match.deals, strict=True), 1):
        embed = message["embeds"][0]
        assert embed["title"] == f"Deal {number} of 11 · {CONTRACTS[deal.contract.id].name}"
        closed = "**the match is over**" if number == DEALS_PER_MATCH else "**Deal over.**"
        assert embed["description"].endswith(closed)
        assert custom_ids(message) == []
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        names = [f"**{seat} bot** 🤖" for seat in ("North", "East", "South", "West")]
        if deal.contract.domino:  # no tricks: the four suit rows and who went out
            assert "trick" not in fields["This deal"] and "Trick" not in fields
            rows = [(int(suit), *row) for suit, row in deal.domino_rows().items()]
            out = ", ".join(names[seat] for seat in deal.out)
            assert fields["On the table"] == f"{domino_rows_text(rows)}\nOut, in order: {out}"
        else:
            tricks = [
                int(line.split("(")[1].split()[0]) for line in fields["This deal"].splitlines()
            ]
            assert sum(tricks) == len(deal.tricks)
            # The running list: every trick of the deal, its cards in order, who took it.
            listed = fields["Tricks"].splitlines()
            assert len(listed) == len(deal.tricks)
            for n, (line, trick) in enumerate(zip(listed, deal.tricks, strict=True), 1):
                cards = " ".join(card.label for _, card in trick.played())
                assert line.startswith(f"{n}. {cards} · {names[trick.winner]}"), line
            assert all(
                ("(1 trick)" in line) == (count == 1)
                for line, count in zip(fields["This deal"].splitlines(), tricks, strict=True)
            )
        # The doubling as it ended: each pair doubled, or that nobody doubled.
        pairs = sum(1 for i in range(4) for j in range(i + 1, 4) if deal.multipliers[i][j])
        if pairs:
            assert len(fields["Doubling"].splitlines()) == pairs
        else:
            assert fields.get("Doubling", "nobody doubled") == "nobody doubled"
        totals = [t + s for t, s in zip(totals, deal.final_scores(), strict=True)]
        assert fields["Match totals"].splitlines() == [
            f"{name}: {points:+d}" for name, points in zip(names, totals, strict=True)
        ]


async def test_table_message_edits_stay_spaced_after_a_rate_limit_wait(tmp_path):
    """Edits wanted every 10 ms, 5 allowed per 100 ms: discord.py waits for the bucket,
    and the edit after that wait must still keep its distance from the one before."""
    interval = 0.01
    pacing = replace(TEST_PACING, edit_interval=interval)
    h = await Harness(tmp_path, pacing=pacing, pace=0.002, time_scale=0.02).start()
    try:
        await computers_only(h)
        for _ in range(2000):
            if len(deal_messages(h)) >= 3:
                break
            await asyncio.sleep(0.01)
        await h.parts.service.cancel(CHANNEL_ID, h.user("Host").id)
        await h.idle()
        edits = [c.at for c in h.fake.calls if c.method == "PATCH" and c.path.startswith("/ch")]
        gaps = [b - a for a, b in itertools.pairwise(edits)]
        assert max(gaps) > 3 * interval  # discord.py did wait for the bucket
        assert min(gaps) >= interval * 0.9, sorted(gaps)[:5]
        assert h.fake.rate_limited() == []
    finally:
        await h.stop()


def leads(view) -> bool:
    return view.phase is MatchPhase.PLAYING and not view.trick and len(view.hand) > 1


async def test_a_hand_lights_up_without_waiting_behind_the_channels_posts(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, leads)
    hand = h.hand_message(await show_hand(h, ann))
    h.fake.channel_delay = 0.3  # each post and edit in the channel takes 0.3 s
    played = await h.click(ann, custom_ids(hand, enabled_only=True)[0], message=hand)
    for _ in range(200):  # the computers finish the trick (a post) and Ann is to act
        refreshes = [c for c in played.answers if c.path.endswith("/messages/@original")]
        if refreshes:
            break
        await asyncio.sleep(0.01)
    assert refreshes, "the hand was never refreshed"
    assert refreshes[0].at - played.acked_at < 0.2
    assert seat_state(h, ann)[0].my_turn
    h.fake.channel_delay = 0.0
    await h.idle()
