"""/bonken record during a match: only what every player may know (finished deals in
full, of the deal in play only the asker's own hand, no seed); the full record, with
every hand and the seed, after the match."""

from __future__ import annotations

import json

from bot.engine import MatchPhase, from_record, to_record
from tests.discord.discord_harness import play_until, seat_state


def _file(interaction) -> dict:
    (call,) = [c for c in interaction.answers if c.files]
    ((name, data),) = call.files
    assert name == "bonken-match.json"
    return json.loads(data)


async def _full(h) -> dict:
    """The whole record as the store keeps it (every hand, the seed), as the engine
    writes it."""
    stored = await h.parts.store.matches.load_record(h.table().match_id)
    return to_record(from_record(stored), seed=stored["seed"])


async def _in_second_deal(h):
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(
        h, ann, lambda view: view.deal_number == 2 and view.phase is MatchPhase.PLAYING
    )
    return ann


async def test_a_record_during_the_match_hides_the_seed_and_the_other_hands(harness):
    h = harness
    ann = await _in_second_deal(h)
    full = await _full(h)
    me = seat_state(h, ann)[0].seat
    asked = await h.slash(ann, "record")
    document = _file(asked)
    assert "seed" not in document and str(full["seed"]) not in json.dumps(document)
    assert asked.ephemeral and "no seed" in asked.text
    first, current = document["deals"]
    assert first == full["deals"][0]  # the finished deal in full
    assert all(len(hand) == 13 for hand in first["hands"])
    assert current["hands"] == [
        hand if seat == me else None for seat, hand in enumerate(full["deals"][1]["hands"])
    ]
    assert current["plays"] == full["deals"][1]["plays"]  # the table has seen these
    # Someone who does not play sees no hand of the deal in play at all.
    onlooker = _file(await h.slash(h.user("Eve"), "record"))
    assert onlooker["deals"][1]["hands"] == [None] * 4 and "seed" not in onlooker


async def test_nothing_sent_during_the_match_carries_the_seed(harness):
    h = harness
    ann = await _in_second_deal(h)
    await h.slash(ann, "record")
    await h.slash(ann, "scores")
    seed = str((await _full(h))["seed"])
    assert not [c for c in h.fake.calls if seed in json.dumps(c.body) + repr(c.files)]


async def test_a_match_that_stopped_keeps_its_last_deal_hidden(harness):
    """The channel's last match, cancelled in its second deal: its record has the first
    deal in full and not the hands of the deal it stopped in, nor the seed."""
    h = harness
    ann = await _in_second_deal(h)
    match_id = h.table().match_id
    await h.slash(ann, "cancel")
    await h.idle()
    assert h.table() is None
    document = _file(await h.slash(ann, "record"))
    stored = await h.parts.store.matches.load_record(match_id)
    assert "seed" not in document
    assert document["deals"][0] == to_record(from_record(stored))["deals"][0]
    assert document["deals"][1]["hands"] == [None] * 4
