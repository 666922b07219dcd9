"""The public table message shows the game: Domino's suit rows and who went out, whose
turn it is with a countdown (or a computer thinking), names one way; the doubling
settlement in each player's own words; /bonken scores in columns; /bonken help."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time

from bot.engine import DEALS_PER_MATCH, MatchPhase
from bot.engine.cards import RANK_NAMES
from bot.render.text import settlement_text
from bot.tables import events as ev
from bot.ui.embeds import deal_embed
from tests.discord.discord_harness import CHANNEL_ID, custom_ids, play_until, seat_state, show_hand


def _table_embed(h) -> dict:  # type: ignore[no-untyped-def]
    return h.fake.messages[h.table().messages["table"]]["embeds"][0]


def _fields(embed: dict) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed["fields"]}


async def test_a_domino_deal_shows_its_suit_rows_and_who_went_out_in_public(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.contract is not None and v.contract.domino and v.plays)
    await h.idle()
    view, _ = seat_state(h, ann)
    embed = _table_embed(h)
    assert embed["title"] == f"Deal {view.deal_number} of {DEALS_PER_MATCH} · Domino"
    fields = _fields(embed)
    rows = [  # what every player may see, as the engine has it
        f"{suit.symbol} {RANK_NAMES[low - 2]}–{RANK_NAMES[high - 2]}"
        for suit, (low, high) in sorted(view.domino_rows.items())
    ]
    assert fields["On the table"].splitlines()[0] == ", ".join(rows)
    names = [f"**{n}**" for n in ("Ann", "East bot** 🤖", "South bot** 🤖", "West bot** 🤖")]
    if view.domino_out:
        out = ", ".join(names[seat] for seat in view.domino_out)
        assert fields["On the table"].splitlines()[1] == f"Out, in order: {out}"
    assert "trick" not in fields["This deal"]  # no "(0 tricks)" in Domino


async def test_a_persons_turn_has_a_countdown_and_a_computers_turn_says_thinking(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new", turn_seconds=60)
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.plays)  # Ann is to play a card
    await h.idle()
    before = time.time()
    description = _table_embed(h)["description"]
    found = re.search(
        r"▶ \*\*Ann\*\*, your turn to play \(time runs out <t:(\d+):R>\)\.", description
    )
    assert found, description
    assert before - 5 <= int(found[1]) <= before + 60
    computer = dataclasses.replace(h.table(), to_act=1)  # East, a computer, to act
    assert "▶ **East bot** 🤖 is thinking..." in deal_embed(computer).description


def test_the_doubling_settlement_says_what_it_moved_for_each_player():
    names = ["Ann", "Bob", "Cid", "Dan"]
    multipliers = ((0, 1, 0, 0), (1, 0, 2, 0), (0, 2, 0, 0), (0, 0, 0, 0))
    scored = ev.DealScored(1, CHANNEL_ID, 1, "queens", (-30, 0, 0, -60), (), multipliers, (), ())
    assert settlement_text(names, scored).splitlines() == [
        "Ann -30 from the double with Bob",
        "Bob +30 from the double with Ann",  # Bob × Cid redoubled moved nothing: left out
    ]


async def test_scores_are_in_aligned_columns_and_the_deal_in_progress_is_marked(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.deal_number == 2 and v.contract is not None)
    scores = await h.slash(ann, "scores")
    description = scores.reply["embeds"][0]["description"]
    block = description.split("```")[1].strip("\n").splitlines()
    assert len({len(line) for line in block}) == 1, block  # every row as wide
    assert block[0].split()[2:] == ["Ann", "East", "bot", "South", "bot", "West", "bot"]
    assert block[2].split()[0] == "2" and " * " in block[2] and " * " not in block[1]
    assert "in progress" in description


async def test_help_is_private_and_explains_the_bot_in_short_sections(harness):
    h = harness
    helped = await h.slash(h.user("Ann"), "help")
    assert helped.ephemeral
    (embed,) = helped.reply["embeds"]
    names = [field["name"] for field in embed["fields"]]
    assert 3 <= len(names) <= 6
    text = helped.text
    for words in ("Show my hand", "Confirm", "/bonken back", "/bonken record", "Play again"):
        assert words in text, words


async def test_the_double_command_names_the_players_doubled(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.phase is MatchPhase.DOUBLING and v.seat != v.chooser)
    doubled = await h.slash(ann, "double", player="1")
    assert doubled.ephemeral and doubled.text == "You doubled **East bot** 🤖."


async def test_no_choose_menu_is_left_on_the_hand_after_a_computer_chose_for_the_player(
    harness, monkeypatch
):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    await play_until(h, ann, lambda v: v.phase is MatchPhase.CHOOSING)
    hand = h.hand_message(await show_hand(h, ann))
    assert "Choose the contract" in hand["content"]
    _, turn = seat_state(h, ann)
    monkeypatch.setattr(
        h.parts.service.turns, "pace", 5.0
    )  # the computers after her take their time
    assert await h.parts.service.expire_turn(h.table().table_id, turn)  # Ann's time ran out
    await asyncio.sleep(0.2)  # (not idle: that waits for the computers)
    assert "Choose the contract" not in hand["content"]
    assert not any(cid.startswith("bonken:choose:") for cid in custom_ids(hand))
    assert "your turn to choose" not in _table_embed(h)["description"]


async def test_a_refusal_names_the_player_not_a_seat_number(harness):
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")

    def undoubled(view) -> list[int]:  # type: ignore[no-untyped-def]
        return [s for s in range(4) if s != view.seat and view.multipliers[s][view.seat] != 1]

    await play_until(
        h,
        ann,
        lambda v: v.phase is MatchPhase.DOUBLING and v.seat == v.chooser and undoubled(v),
    )
    view, _ = seat_state(h, ann)
    target = undoubled(view)[0]
    refused = await h.slash(ann, "double", player=str(target))
    name = h.table().seats[target].name
    assert refused.ephemeral and refused.text.endswith(f"and {name} did not")
    assert "seat" not in refused.text.split("redouble")[-1]
