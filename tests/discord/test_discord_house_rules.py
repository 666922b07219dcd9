"""House rules through Discord: a table opened with a variant and house rules plays by
them to the end, every message says which rules it plays, and the server's settings give
the defaults."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

from bot.engine import HOUSE_RULES, MatchPhase, Suit, from_record, rules_for
from tests.discord.discord_harness import (
    GUILD_ID,
    OTHER_CHANNEL_ID,
    act_by_buttons,
    components,
    custom_ids,
    play_until,
    seat_state,
    show_hand,
)

EVERY_HOUSE_RULE = {
    "heart_lead": "broken",
    "first_lead": "dealer",
    "domino_doubling": "ace_or_two",
    "domino_aces": "either",
    "must_trump": "overtrump",
}
TWELVE_HOUSE = rules_for("twelve", EVERY_HOUSE_RULE)
TWELVE_LINE = (
    "12-deal game · hearts may be led once broken · the dealer leads · Domino: double only "
    "with an ace or a 2 · Domino: aces high or low · must trump and overtrump"
)


async def test_a_whole_twelve_match_with_every_house_rule_changed(harness, tmp_path):
    h = harness
    ann = h.user("Ann")
    opened = await h.slash(ann, "new", variant="twelve", **EVERY_HOUSE_RULE)
    lobby = h.hand_message(opened)
    assert f"Rules: {TWELVE_LINE}" in lobby["embeds"][0]["description"]
    assert h.table().rules is TWELVE_HOUSE
    await h.slash(ann, "start")
    await h.idle()
    while h.table() is not None:
        view, _turn = seat_state(h, ann)
        assert view.my_turn and view.rules is TWELVE_HOUSE
        await act_by_buttons(h, ann)

    posts = h.fake.channel_posts()
    deals = [p for p in posts if p["embeds"] and p["embeds"][0]["title"].startswith("Deal ")]
    assert [d["embeds"][0]["title"].split(" · ")[0] for d in deals] == [
        f"Deal {k} of 12" for k in range(1, 13)
    ]
    assert all(f"Rules: {TWELVE_LINE}" in d["embeds"][0]["description"] for d in deals)
    scored = [
        line for p in posts for line in (p["content"] or "").split("\n") if " scores: " in line
    ]
    assert [line.split(" (")[0] for line in scored] == [f"Deal {k}" for k in range(1, 13)]
    assert any("(7th and 13th trick) scores: " in line for line in scored)
    final = posts[-1]
    assert final["content"].startswith("**The match is over.** Final standings:\n1. ")
    attachment = next(a for a in final["attachments"] if a["filename"].endswith(".json"))
    record = json.loads(attachment["data"])
    assert record["variant"] == "twelve"
    assert record["house_rules"] == EVERY_HOUSE_RULE
    match = from_record(record)  # every card replays as legal under these rules
    assert match.is_over and len(match.deals) == 12 and match.rules is TWELVE_HOUSE
    for deal in match.deals:
        assert deal.chooser == (deal.dealer + 1) % 4  # twelve: left of the dealer chooses
        if deal.contract is not None and not deal.contract.domino:
            assert deal.plays[0][0] == deal.dealer  # first_lead: dealer
    assert "seventhirteenth" in {d.contract.id for d in match.deals if d.contract}
    assert any(d.contract.domino for d in match.deals if d.contract)
    assert sum(1 for d in match.deals if d.contract and d.contract.trump is not None) >= 3
    # The engine's own command accepts the record the bot attached.
    path = tmp_path / "twelve.json"
    data = attachment["data"]
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    checked = subprocess.run(
        [sys.executable, "-m", "bot.engine", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    summary = json.loads(checked.stdout)
    assert summary["complete"] and summary["totals"] == match.totals() and sum(match.totals()) == 0
    assert h.fake.rate_limited() == []
    assert [c for c in h.fake.calls if c.status >= 400] == []


async def test_the_server_settings_give_the_default_rules_and_new_changes_one(harness):
    h = harness
    boss = h.user("Boss", admin=True)
    changed = await h.admin(boss, "settings", variant="twelve", domino_doubling="ace_or_two")
    assert changed.ephemeral
    assert "Rules: **12-deal game · Domino: double only with an ace or a 2**" in changed.text
    assert "Changed: variant, Domino doubling" in changed.text
    opened = await h.slash(boss, "new")
    description = h.hand_message(opened)["embeds"][0]["description"]
    assert "Rules: 12-deal game · Domino: double only with an ace or a 2" in description
    overview = await h.slash(boss, "rules")
    assert "12 deals" in overview.text and "7th and 13th trick" in overview.text
    assert "-45 per queen" in overview.text and "ace or a 2" in overview.text
    other = await h.slash(boss, "new", channel_id=OTHER_CHANNEL_ID, heart_lead="broken")
    assert h.parts.service.table_in_channel(OTHER_CHANNEL_ID).rules is rules_for(
        "twelve", {"domino_doubling": "ace_or_two", "heart_lead": "broken"}
    )
    assert other.text  # the lobby was posted
    # Back to standard: the server's next table plays the seed text's game.
    await h.admin(boss, "settings", variant="standard", domino_doubling="any")
    await h.slash(boss, "cancel")
    await h.idle()
    opened = await h.slash(boss, "new")
    assert h.table().rules is rules_for("standard")


async def test_the_rules_command_explains_the_tables_own_rules(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new", variant="twelve", heart_lead="broken", first_lead="dealer")
    overview = await h.slash(ann, "rules")
    assert overview.ephemeral
    assert (
        "the 12-deal game" in overview.text and "The dealer leads the first trick" in overview.text
    )
    assert "A heart may not be led until a heart has been played" in overview.text
    one = await h.slash(ann, "rules", contract="seventhirteenth")
    assert one.text.startswith("**7th and 13th trick**: -50 to whoever takes the 7th trick")
    hearts = await h.slash(ann, "rules", contract="hearts")
    assert "-10 per heart" in hearts.text and "until a heart has been played" in hearts.text


async def test_an_unknown_rule_value_is_refused_politely_and_opens_nothing(harness):
    h = harness
    ann = h.user("Ann")
    refused = await h.slash(ann, "new", variant="Twelve")
    assert refused.ephemeral and "'Twelve' is not a variant I know" in refused.text
    assert "pick one from the list" in refused.text
    assert h.table() is None
    refused = await h.slash(ann, "new", first_lead="right")
    assert refused.ephemeral and "'right' is not a choice for first lead" in refused.text
    assert h.table() is None


async def test_a_forged_rule_value_in_the_server_settings_changes_nothing(harness):
    h = harness
    boss = h.user("Boss", admin=True)
    await h.admin(boss, "settings", variant="twelve")
    before = await h.parts.store.tables.guild_settings(GUILD_ID)
    refused = await h.admin(boss, "settings", heart_lead="sometimes", turn_seconds=90)
    assert refused.ephemeral and "'sometimes' is not a choice for heart lead" in refused.text
    assert await h.parts.store.tables.guild_settings(GUILD_ID) == before


async def test_rules_for_a_contract_the_tables_variant_lacks_says_so(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")  # the standard game: no 7th and 13th trick
    reply = await h.slash(ann, "rules", contract="seventhirteenth")
    assert reply.ephemeral
    assert reply.text == "This table's game (the standard game) has no such contract."


def _options(h, group: str, command: str) -> dict[str, dict]:
    spec = next(c for c in h.fake.commands if c["name"] == group)
    sub = next(o for o in spec["options"] if o["name"] == command)
    return {option["name"]: option for option in sub["options"]}


async def test_new_and_the_settings_offer_every_house_rule_as_its_declaration_says(harness):
    h = harness
    for group, command in (("bonken", "new"), ("bonken-admin", "settings")):
        options = _options(h, group, command)
        for rule in HOUSE_RULES.values():
            option = options[rule.name]
            assert option["type"] == 3 and not option.get("required")
            assert option["description"] == rule.option
            assert [(c["name"], c["value"]) for c in option["choices"]] == [
                (value.label, value.name) for value in rule.values
            ]
        assert {"domino_aces", "must_trump"} <= set(options)
    assert _options(h, "bonken", "new")["must_trump"]["description_localizations"]["nl"] == (
        "Troefspellen met een troefkleur: of wie niet kan bekennen moet troeven (en overtroeven)"
    )


async def test_the_rules_command_says_the_new_house_rules_of_the_table(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new", domino_aces="either", must_trump="overtrump")
    assert h.table().rules is rules_for(
        "standard", {"domino_aces": "either", "must_trump": "overtrump"}
    )
    overview = await h.slash(ann, "rules")
    assert "the first ace played may go next to its king or next to its 2" in overview.text
    assert "must play a higher trump if he holds one" in overview.text
    spades = await h.slash(ann, "rules", contract="trump-spades")
    assert spades.text.startswith("**Spades trumps**: +10 per trick you take. Spades are trump.")
    assert "a player who cannot follow suit must play a trump if he holds one" in spades.text
    notrump = await h.slash(ann, "rules", contract="trump-notrump")
    assert "must play a trump" not in notrump.text
    domino = await h.slash(ann, "rules", contract="domino")
    assert "an ace that could go either way goes high" in domino.text


SEED = 7
"""Seeds the table service's deals in the must-trump test."""


def _void_with_a_trump(view) -> bool:
    """Ann's turn in a suit trump deal: she cannot follow suit and holds a trump and
    another card."""
    contract = view.contract
    if view.phase is not MatchPhase.PLAYING or contract is None or contract.trump is None:
        return False
    if not view.trick:
        return False
    led = view.trick[0][1].suit
    suits = {card.suit for card in view.hand}
    return led not in suits and contract.trump in suits and len(suits) > 1


async def test_under_must_trump_only_trumps_can_be_pressed_and_a_forged_discard_is_refused(
    harness,
):
    h = harness
    ann = h.user("Ann", locale="nl")
    h.parts.service.lobby._rng.seed(SEED)  # the same deals every run: the position comes
    await h.slash(ann, "new", must_trump="yes")
    await h.slash(ann, "start")
    await play_until(h, ann, _void_with_a_trump)
    view, turn = seat_state(h, ann)
    trump: Suit = view.contract.trump
    hand = h.hand_message(await show_hand(h, ann))
    tid = h.table().table_id
    enabled = custom_ids(hand, enabled_only=True)
    assert enabled and all(cid.endswith(trump.letter) for cid in enabled)
    discard = next(card for card in view.hand if card.suit is not trump)
    cid = f"bonken:play:{tid}:{turn}:P:{discard.code}"
    forged = copy.deepcopy(hand)
    for c in components(forged):
        c["disabled"] = False
    refused = await h.click(ann, cid, message=forged)
    assert refused.ephemeral
    assert refused.text.endswith("je kunt niet bekennen, dus je moet troeven: je hebt troef")
    assert seat_state(h, ann)[1] == turn


async def test_the_server_settings_make_the_new_house_rules_every_new_tables_default(harness):
    h = harness
    boss = h.user("Boss", admin=True)
    changed = await h.admin(boss, "settings", domino_aces="either", must_trump="yes")
    assert changed.ephemeral
    assert "Changed: Domino aces, must trump" in changed.text
    assert "Rules: **Standard game · Domino: aces high or low · must trump**" in changed.text
    stored = await h.parts.store.tables.guild_settings(GUILD_ID)
    expected = rules_for("standard", {"domino_aces": "either", "must_trump": "yes"})
    assert stored.table_defaults.rules is expected
    await h.slash(boss, "new")
    assert h.table().rules is expected
    other = await h.slash(boss, "new", channel_id=OTHER_CHANNEL_ID, must_trump="no")
    assert other.text
    assert h.parts.service.table_in_channel(OTHER_CHANNEL_ID).rules is rules_for(
        "standard", {"domino_aces": "either"}
    )
    refused = await h.admin(boss, "settings", must_trump="always")
    assert refused.ephemeral and "'always' is not a choice for must trump" in refused.text
    assert (await h.parts.store.tables.guild_settings(GUILD_ID)).table_defaults.rules is expected
