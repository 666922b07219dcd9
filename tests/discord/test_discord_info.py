"""/bonken scores, rules and record: private look-ups."""

from __future__ import annotations

import json

from bot.engine import CONTRACTS, MatchPhase
from tests.discord.discord_harness import act_by_buttons, play_until, seat_state


async def test_rules_overview_and_one_contract_are_private(harness):
    h = harness
    ann = h.user("Ann")
    overview = await h.slash(ann, "rules")
    assert overview.ephemeral and "**Bonken** · the standard game · 4 players" in overview.text
    one = await h.slash(ann, "rules", contract="queens")
    assert one.ephemeral and one.text.startswith(f"**{CONTRACTS['queens'].name}**: ")
    registered = h._command("rules")["options"][0]
    assert {c["value"] for c in registered["choices"]} == {*CONTRACTS, "seventhirteenth"}


async def test_scores_before_and_after_a_deal(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    early = await h.slash(ann, "scores")
    assert early.ephemeral and "no deal has been scored yet" in early.text
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.deal_number == 2)
    scores = await h.slash(h.user("Eve"), "scores")  # anyone in the channel may look
    assert scores.ephemeral
    embed = scores.reply["embeds"][0]
    assert embed["title"] == "Scores so far (after doubling)"
    contract = h.parts.service.scores(h.table().table_id)[0][1]
    assert CONTRACTS[contract].name in embed["description"]
    assert "North: Ann" in embed["footer"]["text"]


async def test_record_of_the_match_so_far_is_a_private_file(harness):
    h = harness
    ann = h.user("Ann")
    nothing = await h.slash(ann, "record")
    assert nothing.ephemeral and "no match has been played here yet" in nothing.text
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    if seat_state(h, ann)[0].phase is MatchPhase.CHOOSING:
        await act_by_buttons(h, ann)
    record = await h.slash(ann, "record")
    assert record.ephemeral
    (call,) = [c for c in record.answers if c.files]
    name, data = call.files[0]
    assert name == "bonken-match.json"
    document = json.loads(data)
    assert document["format"] == "bonken-record/1"
    assert document == h.parts.service.record(h.table().table_id, ann.id)
