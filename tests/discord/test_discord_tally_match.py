"""A whole match kept by a scoresheet, through the real bot and discord.py: the command,
its thread, every click and form as Discord delivers them, each answered in time; the
last deal finishes it into the season, and ``/bonken stats`` counts it as played at a
real table."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import i18n
from bot.engine import Choose, rules_for
from bot.engine.tally import Doubles, questions
from bot.ui.tally_ids import PAIRS
from tests.discord.discord_harness import (
    ACK_DEADLINE,
    EPHEMERAL,
    GUILD_ID,
    THREAD_PERMISSIONS,
    Harness,
    Interaction,
    User,
    components,
)
from tests.discord.language_helpers import Pseudo, texts_of, unmarked
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


async def enter_match(
    h: Harness, people: list[User], match: Any, tally_id: int, deals: range | None = None
) -> tuple[list[Interaction], str]:
    """The deals (all by default) of a played ``match``, entered click by click by
    ``people`` in turn: the clicks, and the undo button of the sheet before the last
    result."""
    service = h.parts.tally.service
    entries = list(entries_of(match))
    clicks: list[Interaction] = []
    undo = ""
    for number in deals or range(match.rules.deals):
        choose, doubles, result = entries[3 * number : 3 * number + 3]
        assert isinstance(choose, Choose) and isinstance(doubles, Doubles)
        who = people[number % len(people)]
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
            if clicks[-1].reply.get("flags", 0) & EPHEMERAL:  # Domino: the players' word
                asked_word = h.hand_message(clicks[-1])
                clicks.append(await h.click(who, control(asked_word, "dok")["custom_id"]))
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
    return clicks, undo


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
    clicks, undo = await enter_match(h, [ann, bob, cas], match, tally_id)
    answered_in_time(*clicks)
    assert all(not (c.reply.get("flags", 0) & EPHEMERAL and "⚠️" in c.text) for c in clicks)
    view = await service.view(tally_id)
    assert list(view.totals) == match.totals()
    assert [d.final_scores() for d in view.deals] == [d.final_scores() for d in match.deals]
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


@pytest.fixture
async def pseudo(harness: Harness):  # type: ignore[no-untyped-def]
    """The harness with Dutch replaced by the pseudo-locale that marks every string."""
    i18n.install("nl", Pseudo())
    try:
        yield harness
    finally:
        i18n.install("nl", None)


async def test_every_text_of_a_scoresheet_comes_from_the_catalogue(pseudo: Harness) -> None:
    """A whole twelve-deal match with Domino doubles confirmed, a refusal, an undo, a
    correction begun, the chart, in a Dutch server whose Dutch is marked: nothing the
    bot sent has a word outside the marks."""
    h = pseudo
    h.fake.guild_locale = "nl"
    h.fake.app_permissions = THREAD_PERMISSIONS
    ann, bob = h.user("Ann", locale="nl"), h.user("Bob", locale="nl")
    stranger = h.user("Dirk", locale="nl")
    await h.command(
        ann,
        "tally",
        "new",
        player1=ann,
        player2=bob,
        guest3="Cas",
        guest4="Oma",
        variant="twelve",
        domino_doubling="ace_or_two",
    )
    await h.idle()
    sheet = sheet_of(h)
    tally_id = int(control(sheet, "con")["custom_id"].split(":")[2])
    await h.select(stranger, control(sheet, "con")["custom_id"], ["hearts"], message=sheet)
    await h.select(ann, control(sheet, "con")["custom_id"], ["hearts"], message=sheet)
    await h.click(bob, control(sheet_of(h), "undo")["custom_id"])
    await h.idle()
    match = doubling_match(3, rules_for("twelve", {"domino_doubling": "ace_or_two"}))
    assert any(
        d.contract is not None and d.contract.domino and any(d.doubling) for d in match.deals
    )
    await enter_match(h, [ann, bob], match, tally_id, range(2))
    sheet = sheet_of(h)
    await h.click(stranger, control(sheet, "chart")["custom_id"])
    fix = control(sheet, "fix")["custom_id"]
    step = h.hand_message(await h.select(bob, fix, ["1"], message=sheet))
    first = match.deals[0].contract
    assert first is not None
    step = h.hand_message(await h.select(bob, control(step, "con")["custom_id"], [first.id]))
    await h.click(bob, control(step, "pass")["custom_id"])
    await h.idle()
    await enter_match(h, [ann, bob], match, tally_id, range(2, match.rules.deals))
    await h.slash(ann, "stats")
    await h.admin(h.user("Root", admin=True, locale="nl"), "settings")
    await h.idle()
    names = {"Ann", "Bob", "Cas", "Oma", "Dirk", "Root", "Season 1"}
    leaks = []
    for call in h.fake.calls:
        if "/commands" in call.path:
            continue
        for text in texts_of(call.body):
            left = unmarked(text, names)
            if re.search(r"[^\W\d_]{2,}", left):
                leaks.append((text, left.strip()))
    assert not leaks, "\n".join(f"{left!r} in {text!r}" for text, left in leaks)
    assert any("⟦The match is over⟧" in t for c in h.fake.calls for t in texts_of(c.body))
