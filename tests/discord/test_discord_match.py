"""A whole match, one person and three computers, played the way a person would: slash
commands and clicks on one hand message that the bot keeps current, to the standings."""

from __future__ import annotations

import json

from bot.engine import DEALS_PER_MATCH, Double, MatchPhase, from_record
from bot.ui.hands import MATCH_OVER
from tests.discord.discord_harness import (
    CHANNEL_ID,
    EPHEMERAL,
    components,
    custom_ids,
    seat_state,
    show_hand,
)


async def test_one_person_and_three_computers_play_a_match_to_the_final_standings(harness):
    h = harness
    ann = h.user("Ann")
    opened = await h.slash(ann, "new")
    await h.slash(ann, "start")
    await h.idle()
    tid = h.table().table_id
    hand = h.hand_message(await show_hand(h, ann))  # the one hand message Ann keeps open
    used = {"select": 0, "choose": 0, "pass button": 0, "pass": 0, "toggle": 0, "double": 0}
    moves = 0
    while h.table() is not None:
        view, turn = seat_state(h, ann)
        assert view.my_turn, "with three computers the table only ever waits for Ann"
        assert all(f":{tid}:{turn}" in cid for cid in custom_ids(hand)), "hand is stale"
        if view.phase is MatchPhase.CHOOSING:
            if used["select"] <= used["choose"]:  # alternate the menu and the command
                menu = next(c for c in components(hand) if c["type"] == 3)
                value = menu["options"][0]["value"]
                await h.select(ann, menu["custom_id"], [value], message=hand)
                if value == "trumps":
                    trump = next(c for c in components(hand) if c["type"] == 3)
                    await h.select(ann, trump["custom_id"], [trump["options"][-1]["value"]])
                used["select"] += 1
            else:
                offered = await h.autocomplete(ann, "choose", "contract")
                chosen = await h.slash(ann, "choose", contract=offered[-1]["value"])
                assert chosen.ephemeral and chosen.text.startswith("You chose")
                used["choose"] += 1
        elif view.phase is MatchPhase.DOUBLING:
            targets = sorted({t for a in view.legal if isinstance(a, Double) for t in a.targets})
            way = view.deal_number % 4
            if way == 0 and targets:
                await h.click(ann, f"bonken:dbl:{tid}:{turn}:D:-:{targets[0]}", message=hand)
                await h.click(ann, f"bonken:dblok:{tid}:{turn}:D:{targets[0]}", message=hand)
                used["toggle"] += 1
            elif way == 1 and targets:
                doubled = await h.slash(ann, "double", player=str(targets[-1]))
                assert doubled.ephemeral and doubled.text.startswith("You doubled")
                used["double"] += 1
            elif way == 2:
                passed = await h.slash(ann, "pass")
                assert passed.ephemeral and passed.text == "You passed."
                used["pass"] += 1
            else:
                await h.click(ann, f"bonken:dblok:{tid}:{turn}:D:-:pass", message=hand)
                used["pass button"] += 1
        else:
            await h.click(ann, custom_ids(hand, enabled_only=True)[0], message=hand)
        moves += 1
        await h.idle()
    assert moves >= 2 * DEALS_PER_MATCH  # at least a doubling turn and a card each deal
    assert all(used.values()), used

    # The channel: the lobby, one message per deal, tricks, scores, then the standings.
    posts = h.fake.channel_posts()
    deals = [p for p in posts if p["embeds"] and p["embeds"][0]["title"].startswith("Deal ")]
    assert len(deals) == DEALS_PER_MATCH
    assert all(custom_ids(d) == [] for d in deals)  # every deal message was closed
    assert all("Deal over." in json.dumps(d["embeds"]) for d in deals[:-1])
    final = posts[-1]
    assert final["content"].startswith("**The match is over.** Final standings:\n1. ")
    attachment, chart = final["attachments"]  # the record, and the score chart
    assert attachment["filename"].startswith("bonken-match-")
    match_id = attachment["filename"].removeprefix("bonken-match-").removesuffix(".json")
    assert custom_ids(final) == [
        f"bonken:again:{tid}",
        f"bonken:replay:{match_id}",
        f"bonken:review:{match_id}",
    ]
    assert chart["filename"] == "chart.png"
    record = json.loads(attachment["data"])
    match = from_record(record)
    assert match.is_over and len(match.deals) == DEALS_PER_MATCH
    for seat, name in enumerate(
        ["**Ann**", "**East bot** 🤖", "**South bot** 🤖", "**West bot** 🤖"]
    ):
        line = next(line for line in final["content"].splitlines() if name in line)
        assert line.endswith(f"{match.totals()[seat]:+d}") or str(match.totals()[seat]) in line
    lobby = h.fake.messages[int(h.hand_message(opened)["id"])]
    assert lobby["embeds"][0]["footer"]["text"] == "The match has started."
    # The hand message says the match is over; /bonken record still has the match.
    assert hand["content"] == MATCH_OVER.format(place=CHANNEL_ID) and custom_ids(hand) == []
    # The seed predicts every deal: only the final post, after the match, carried it.
    seed = str(record["seed"])
    carrying = [c for c in h.fake.calls if seed in json.dumps(c.body) + repr(c.files)]
    assert len(carrying) == 1 and carrying[0].files
    again = await h.slash(ann, "record")
    assert again.ephemeral and json.loads(again.answers[0].files[0][1]) == record
    assert again.text.startswith("The match record (`bonken-record/1`)")

    # Discord's side: every interaction answered at once, nothing refused by Discord.
    interactions = list(h.fake.interactions.values())
    assert all(i.latency is not None and i.latency < 1.0 for i in interactions)
    assert max(i.latency for i in interactions) < 3.0
    assert h.fake.rate_limited() == []
    assert [c for c in h.fake.calls if c.status >= 400] == []
    private = [i for i in interactions if i.callback_type == 4 and i is not opened]
    assert all(i.reply["flags"] & EPHEMERAL for i in private)
