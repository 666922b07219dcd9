"""A whole match kept by a scoresheet, through the real bot and discord.py: the command,
its thread, every click and form as Discord delivers them, each answered in time; the
last deal finishes it into the season, and ``/bonken stats`` counts it as played at a
real table."""

from __future__ import annotations

from typing import Any

from bot.engine import Choose
from bot.engine.tally import Doubles, questions
from bot.ui.tally_ids import PAIRS
from tests.discord.discord_harness import (
    ACK_DEADLINE,
    EPHEMERAL,
    GUILD_ID,
    THREAD_PERMISSIONS,
    Harness,
    Interaction,
    components,
)
from tests.tally.tally_helpers import doubling_match, entries_of


def sheet_of(h: Harness) -> dict[str, Any]:
    """The scoresheet: the public message carrying a scoresheet's controls."""
    for message_id in sorted(h.fake.messages, reverse=True):
        message = h.fake.messages[message_id]
        if message["flags"] & EPHEMERAL:
            continue
        if any(c.get("custom_id", "").startswith("bonken:tally:") for c in components(message)):
            return message
    raise AssertionError("no scoresheet")


def control(message: dict[str, Any], op: str) -> dict[str, Any]:
    return next(c for c in components(message) if f":{op}:" in c.get("custom_id", ""))


def answered_in_time(*interactions: Interaction) -> None:
    for interaction in interactions:
        assert interaction.latency is not None and interaction.latency < ACK_DEADLINE


async def test_a_whole_match_entered_click_by_click_counts_in_the_season(harness: Harness) -> None:
    h = harness
    h.fake.app_permissions = THREAD_PERMISSIONS
    ann, bob, cas = h.user("Ann"), h.user("Bob"), h.user("Cas")
    opened = await h.command(
        ann, "tally", "new", player1=ann, player2=bob, player3=cas, guest4="Oma"
    )
    answered_in_time(opened)
    assert "Scoresheet of Ann, Bob, Cas, Oma" in opened.text
    await h.idle()
    sheet = sheet_of(h)
    thread = h.fake.thread_of(int(h.hand_message(opened)["id"]))
    assert thread is not None and int(sheet["channel_id"]) == int(thread["id"])
    service = h.parts.tally.service
    tally_id = int(control(sheet, "con")["custom_id"].split(":")[2])
    match = doubling_match(11)
    entries = list(entries_of(match))
    people = [ann, bob, cas]
    clicks: list[Interaction] = []
    for number in range(match.rules.deals):
        choose, doubles, result = entries[3 * number : 3 * number + 3]
        assert isinstance(choose, Choose) and isinstance(doubles, Doubles)
        who = people[number % 3]
        sheet = sheet_of(h)
        clicks.append(
            await h.select(
                who, control(sheet, "con")["custom_id"], [choose.contract], message=sheet
            )
        )
        view = await service.view(tally_id)
        assert view.current is not None
        order = view.current.doubling_order
        pairs = [
            str(PAIRS.index((seat, named)))
            for seat, turn in zip(order, doubles.turns, strict=True)
            for named in sorted(turn)
        ]
        sheet = sheet_of(h)
        if pairs:
            clicks.append(await h.select(who, control(sheet, "dbl")["custom_id"], pairs))
        else:
            clicks.append(await h.click(who, control(sheet, "pass")["custom_id"]))
        asked = questions(view.current.contract)
        answers = result.as_dict()
        sheet = sheet_of(h)
        undo = control(sheet, "undo")["custom_id"]
        if asked[0].counts:
            form = await h.click(who, control(sheet, "res")["custom_id"], message=sheet)
            values = {f"c{seat}": str(n) for seat, n in enumerate(answers[asked[0].key])}
            clicks.extend([form, submitted := await h.submit(who, form, values)])
            if len(asked) > 1:
                private = h.hand_message(submitted)
                jacks = control(private, "res")
                form = await h.click(who, jacks["custom_id"], message=private)
                values = {f"c{seat}": str(n) for seat, n in enumerate(answers[asked[1].key])}
                clicks.extend([form, await h.submit(who, form, values)])
        else:
            value = ".".join(str(answers[q.key]) for q in asked)
            clicks.append(await h.select(who, control(sheet, "one")["custom_id"], [value]))
        await h.idle()
        assert len((await service.view(tally_id)).deals) == number + 1, clicks[-1].text
    answered_in_time(*clicks)
    assert all(not (c.reply.get("flags", 0) & EPHEMERAL and "⚠️" in c.text) for c in clicks)
    view = await service.view(tally_id)
    assert list(view.totals) == match.totals()
    await h.idle()
    # The thread has the final standings, the chart and the record; the sheet is closed.
    final = [
        m
        for m in h.fake.messages.values()
        if int(m["channel_id"]) == int(thread["id"])
        and m["embeds"]
        and m["embeds"][0].get("title") == "The match is over"
    ]
    assert len(final) == 1
    names = sorted(a["filename"] for a in final[0]["attachments"])
    assert names == ["bonken-tally-1.json", "chart.png"]
    closed = h.fake.messages[int(sheet["id"])]
    assert not list(components(closed)) and "Final standings" in closed["embeds"][0]["description"]
    summary = h.fake.messages[int(h.hand_message(opened)["id"])]
    assert "Final standings" in summary["content"]
    # It counts in the season: Ann's stats say one match, at a real table.
    stats = await h.slash(ann, "stats")
    assert "At a real table" in stats.text and "1 match, kept by a scoresheet" in stats.text
    # A button of the finished sheet is refused privately, and nothing changes.
    late = await h.click(bob, undo, message=h.old_message(undo))
    assert late.reply["flags"] & EPHEMERAL and "closed" in late.text
    assert (await service.view(tally_id)).version == view.version
    assert not h.fake.rate_limited()


async def test_a_sheet_takes_the_server_s_defaults_and_its_own_rules(harness: Harness) -> None:
    h = harness
    boss = h.user("Boss", admin=True)
    await h.admin(boss, "settings", domino_doubling="ace_or_two")
    opened = await h.command(
        boss, "tally", "new", guest1="A", guest2="B", guest3="C", guest4="D", variant="twelve"
    )
    answered_in_time(opened)
    sheet = sheet_of(h)  # no thread permission here: the sheet is the command's answer
    assert int(sheet["id"]) == int(h.hand_message(opened)["id"])
    description = sheet["embeds"][0]["description"]
    assert "Real cards · 12-deal game · Domino: double only with an ace or a 2" in description
    assert "Deal 1 of 12 · A deals, B chooses" in description  # the variant's rotation


async def test_a_server_keeps_scoresheets_out_of_its_ratings(harness: Harness) -> None:
    h = harness
    boss = h.user("Boss", admin=True)
    changed = await h.admin(boss, "settings", rate_scoresheets=False)
    assert "change the ratings: **no**" in changed.text
    assert "Changed: scoresheets in the ratings" in changed.text
    await h.admin(boss, "settings", turn_seconds=90)  # another change keeps it
    settings = await h.parts.store.tables.guild_settings(GUILD_ID)
    assert settings.rate_tallies is False and settings.table_defaults.turn_seconds == 90
