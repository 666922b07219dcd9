"""The scoresheet's controller on its own: a real tally service and store, a fake Discord
(interactions, the channel and the thread record what they are sent). Every entry goes
through the controls the sheet shows (their custom_ids parsed as discord.py would), so a
match entered here is entered as people at a real table would, click by click."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import emoji
import pytest

from bot.engine import Choose, rules_for
from bot.engine.tally import Doubles, Result, Tally, questions
from bot.store import Store, TallyStatus, open_store
from bot.tally import TallyService, TallyView
from bot.ui.items import claimed
from bot.ui.replies import Guard
from bot.ui.tally import TallyController
from bot.ui.tally_components import TallyButton, TallySelect
from bot.ui.tally_feed import TallyFeed
from bot.ui.tally_ids import MODAL_ID, PAIRS, Ref
from bot.ui.tally_sheet import SHEET, deal_block
from tests.discord.fakes import (
    BOT_PERMISSIONS,
    CHANNEL_ID,
    GUILD_ID,
    THREAD_ID,
    THREAD_PERMISSIONS,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    interaction,
)
from tests.sqlite_template import fresh_sqlite
from tests.tally.tally_helpers import doubling_match, entries_of

ANN, BOB, CAS, HOST, STRANGER = 101, 102, 103, 104, 999
PEOPLE = (ANN, BOB, CAS, HOST)
BUTTON = re.compile(TallyButton.__discord_ui_compiled_template__.pattern)
MENU = re.compile(TallySelect.__discord_ui_compiled_template__.pattern)


def member(user_id: int, name: str, *, bot: bool = False) -> Any:
    return SimpleNamespace(id=user_id, display_name=name, bot=bot)


class FakeThreads:
    def __init__(self) -> None:
        self.opened: list[tuple[int, int, str]] = []
        self.archived: list[int] = []

    async def open(self, channel_id: int, message_id: int, name: str) -> int | None:
        self.opened.append((channel_id, message_id, name))
        return THREAD_ID

    def archive_later(self, thread_id: int) -> None:
        self.archived.append(thread_id)


@dataclass
class Sheet:
    """One tally's controller, service and store, and the fake Discord around them."""

    store: Store
    service: TallyService
    controller: TallyController
    threads: FakeThreads
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    tally_id: int = 0

    def channel(self, channel_id: int) -> FakeChannel:
        return self.channels.setdefault(channel_id, FakeChannel(channel_id))

    async def view(self) -> TallyView:
        return await self.service.view(self.tally_id)


def controller_of(store: Store, threads: FakeThreads, channels: dict[int, FakeChannel]):
    service = TallyService(store)
    sheet = Sheet(store, service, None, threads, channels)  # type: ignore[arg-type]
    feed = TallyFeed(service, sheet.channel, threads)  # type: ignore[arg-type]
    sheet.controller = TallyController(service, store.tables, threads, sheet.channel, feed)  # type: ignore[arg-type]
    return sheet


@pytest.fixture
async def sheet(tmp_path: Path) -> AsyncIterator[Sheet]:
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        yield controller_of(store, FakeThreads(), {})


async def opened(s: Sheet, *, permissions=BOT_PERMISSIONS, **rules: str) -> FakeInteraction:
    """Ann, Bob, Cas and Oma (a guest) at a tally opened by HOST, who does not play."""
    command = interaction(HOST, "Host", app_permissions=permissions)
    players = (member(ANN, "Ann"), member(BOB, "Bob"), member(CAS, "Cas"), None)
    guests = (None, None, None, "Oma")
    await guarded(command, lambda: s.controller.open(command, players, guests, rules, None))
    posts = s.channel(THREAD_ID).posts
    shown = posts[0].fields["view"] if posts else command.answer.view
    match = MENU.fullmatch(controls(shown)[0]["custom_id"])
    assert match is not None
    s.tally_id = int(match["tally"])
    return command


async def guarded(event: FakeInteraction, work) -> None:
    await Guard(lambda _interaction: None)(event, work)  # type: ignore[arg-type]


def controls(view: discord.ui.View | None) -> list[dict[str, Any]]:
    assert view is not None
    return [item for row in view.to_components() for item in row["components"]]


async def sheet_controls(s: Sheet) -> list[dict[str, Any]]:
    """What the sheet offers now: its controls as the last edit (or post) showed them."""
    from bot.ui.tally_sheet import sheet_controls as build

    return controls(build(await s.view()))


def find(items: list[dict[str, Any]], op: str) -> dict[str, Any]:
    return next(i for i in items if f":{op}:" in i["custom_id"])


async def on(
    s: Sheet, user: int, custom_id: str, values: list[str] | None = None, *, message=None
) -> FakeInteraction:
    """``user`` clicks the control ``custom_id`` (on the sheet unless ``message``)."""
    view = await s.view()
    message = message or FakeMessage(id=view.messages[SHEET])
    event = interaction(
        user, data={"custom_id": custom_id, "values": values or []}, message=message
    )
    button, menu = BUTTON.fullmatch(custom_id), MENU.fullmatch(custom_id)
    if button is not None:
        ref = Ref.parsed(button)
        await guarded(event, lambda: s.controller.button(event, ref, button["op"]))
    else:
        assert menu is not None, custom_id
        ref = Ref.parsed(menu)
        await guarded(event, lambda: s.controller.pick(event, ref, menu["op"], values or []))
    return event


async def submit(s: Sheet, user: int, modal: discord.ui.Modal, counts, *, message=None):
    """``user`` fills in the result form ``modal`` with ``counts`` (texts as typed)."""
    match = MODAL_ID.fullmatch(modal.custom_id)
    assert match is not None
    values = {f"c{seat}": str(count) for seat, count in enumerate(counts)}
    view = await s.view()
    message = message or FakeMessage(id=view.messages[SHEET])
    event = interaction(user, message=message)
    ref = Ref.parsed(match)
    await guarded(event, lambda: s.controller.counts(event, ref, values))
    return event


def refused(event: FakeInteraction) -> str:
    answer = event.answer
    assert answer.kind == "send" and answer.ephemeral, answer
    assert answer.content is not None and answer.content.startswith("⚠️"), answer.content
    return answer.content


# -- entering a deal as the table does --------------------------------------------------


async def enter_deal(s: Sheet, entries: list[Any], people: tuple[int, int, int]) -> FakeInteraction:
    """One deal's contract, doubles and result, each by its person, through the sheet;
    the result's interaction."""
    choose, doubles, result = entries
    assert isinstance(choose, Choose) and isinstance(doubles, Doubles)
    menu = find(await sheet_controls(s), "con")
    assert choose.contract in {o["value"] for o in menu["options"]}
    event = await on(s, people[0], menu["custom_id"], [choose.contract])
    assert event.answer.kind == "edit", event.answer
    view = await s.view()
    assert view.current is not None
    order = view.current.doubling_order
    pairs = [
        str(PAIRS.index((seat, named)))
        for seat, turn in zip(order, doubles.turns, strict=True)
        for named in sorted(turn)
    ]
    items = await sheet_controls(s)
    if pairs:
        event = await on(s, people[1], find(items, "dbl")["custom_id"], pairs)
        if event.answer.kind == "send":  # ace_or_two: the players' word, privately asked
            (ok,) = controls(event.answer.view)
            event = await on(s, people[1], ok["custom_id"], message=FakeMessage(flags=_ephemeral()))
    else:
        event = await on(s, people[1], find(items, "pass")["custom_id"])
    assert event.answer.kind == "edit", event.answer
    return await enter_result(s, people[2], result)


def _ephemeral() -> discord.MessageFlags:
    return discord.MessageFlags(ephemeral=True)


async def enter_result(s: Sheet, user: int, result: Result) -> FakeInteraction:
    view = await s.view()
    assert view.current is not None
    asked = questions(view.current.contract)
    event = await give_result(s, user, await sheet_controls(s), asked, result.as_dict(), None)
    assert event.answer.kind == "edit", event.answer
    if len(asked) > 1 and asked[0].counts:  # answered on the private message of the jacks
        assert event.answer.content == "Entered."
    else:
        assert event.answer.embed is not None
    return event


async def give_result(
    s: Sheet, user: int, items, asked, answers: dict[str, Any], message
) -> FakeInteraction:
    """Answer a deal's questions through the controls ``items`` (on ``message``; None:
    the sheet): the count forms one after the other, or the menu of who took it."""
    if not asked[0].counts:
        value = ".".join(str(answers[q.key]) for q in asked)
        return await on(s, user, find(items, "one")["custom_id"], [value], message=message)
    opened_form = await on(s, user, find(items, "res")["custom_id"], message=message)
    assert opened_form.answer.kind == "modal"
    event = await submit(s, user, opened_form.answer.modal, answers[asked[0].key], message=message)
    if len(asked) == 1:
        return event
    # The kings are checked and kept by the next form's button, on a private message.
    assert event.answer.ephemeral or event.answer.kind == "edit"  # a private message
    assert "Now the jacks." in event.answer.content
    private = message or FakeMessage(flags=_ephemeral())
    (next_form,) = controls(event.answer.view)
    second = await on(s, user, next_form["custom_id"], message=private)
    assert second.answer.kind == "modal"
    return await submit(s, user, second.answer.modal, answers[asked[1].key], message=private)


@pytest.mark.parametrize(
    ("variant", "house", "seed"),
    [("standard", {}, 3), ("twelve", {}, 5), ("standard", {"domino_doubling": "ace_or_two"}, 8)],
)
async def test_a_match_entered_through_the_sheet_scores_as_the_engine_played_it(
    sheet: Sheet, variant: str, house: dict[str, str], seed: int
) -> None:
    s = sheet
    await opened(s, variant=variant, **house)
    match = doubling_match(seed, rules_for(variant, house))
    entries = list(entries_of(match))
    for number in range(match.rules.deals):
        turn = [PEOPLE[(number + i) % 4] for i in range(3)]
        entered = entries[3 * number : 3 * number + 3]
        last = await enter_deal(s, entered, tuple(turn))  # type: ignore[arg-type]
    view = await s.view()
    # The finished sheet keeps the last deal's details beside the final standings.
    shown = [a.embed for a in (*last.response.sent, *last.response.later) if a.embed]
    edited = [e.fields["embed"] for e in s.channel(CHANNEL_ID).edits if "embed" in e.fields]
    sheet_text = (shown or edited)[-1].description or ""
    deals = match.rules.deals
    assert f"Deal {deals} of {deals}" in sheet_text and "Final standings" in sheet_text
    assert deal_block(view, view.deals[-1]) in sheet_text
    assert view.status is TallyStatus.FINISHED
    assert [d.final_scores() for d in view.deals] == [d.final_scores() for d in match.deals]
    assert list(view.totals) == match.totals()
    # The thread (here the channel) was told: final standings, the chart, the record.
    (final,) = s.channel(CHANNEL_ID).posts
    embed = final.fields["embed"]
    assert embed.title == "The match is over" and "Final standings" in embed.description
    names = [f.filename for f in final.fields["files"]]
    assert names == [f"bonken-tally-{view.tally_id}.json", "chart.png"]
    # The sheet's last state has no controls: a finished sheet takes nothing more.
    assert view.messages[SHEET]


async def test_the_sheet_names_who_deals_chooses_and_entered_what(sheet: Sheet) -> None:
    s = sheet
    command = await opened(s)
    answer = command.answer
    assert answer.kind == "send" and not answer.ephemeral and answer.embed is not None
    assert "Deal 1 of 11 · Ann deals, Cas chooses" in answer.embed.description
    assert "Cas, which contract do you choose?" in answer.embed.description
    menu = find(controls(answer.view), "con")
    event = await on(s, BOB, menu["custom_id"], ["queens"])
    description = event.answer.embed.description
    assert "Cas chose Queens (entered by Bob)" in description
    assert "Who doubled whom?" in description
    dbl = find(controls(event.answer.view), "dbl")
    labels = [o["label"] for o in dbl["options"]]
    assert labels[:4] == [
        "Oma doubles Ann",
        "Oma doubles Bob",
        "Oma doubles Cas",
        "Ann doubles or redoubles Oma",
    ]
    assert labels[-1] == "Cas redoubles Bob" and len(labels) == 12


# -- bad input ---------------------------------------------------------------------------


async def unchanged(s: Sheet, event_of) -> str:
    """Run a bad entry: it is refused privately, naming what is wrong, and the sheet is
    as it was."""
    before = await s.view()
    event = await event_of()
    after = await s.view()
    assert after == before
    return refused(event)


async def test_bad_input_gets_a_private_answer_naming_what_is_wrong(sheet: Sheet) -> None:
    s = sheet
    await opened(s)
    con = find(await sheet_controls(s), "con")["custom_id"]
    # A stranger, and a contract the chooser may not choose (a forged value).
    text = await unchanged(s, lambda: on(s, STRANGER, con, ["queens"]))
    assert "only the players at this table" in text
    text = await unchanged(s, lambda: on(s, ANN, con, ["seventhirteenth"]))
    assert "there is no such contract" in text
    await on(s, ANN, con, ["queens"])
    # A double the rules forbid: Cas, the chooser, names Ann, who did not double him.
    dbl = find(await sheet_controls(s), "dbl")["custom_id"]
    text = await unchanged(s, lambda: on(s, ANN, dbl, [str(PAIRS.index((2, 0)))]))
    assert "Cas" in text and "Ann" in text
    await on(s, ANN, find(await sheet_controls(s), "pass")["custom_id"])
    form = (await on(s, BOB, find(await sheet_controls(s), "res")["custom_id"])).answer.modal
    assert form is not None
    # Counts that do not add up, negative, absurd, not a number.
    text = await unchanged(s, lambda: submit(s, BOB, form, (1, 1, 1, 0)))
    assert "the queens add up to 3, but there are 4" in text
    text = await unchanged(s, lambda: submit(s, BOB, form, (-1, 2, 2, 1)))
    assert "Ann" in text and "-1" in text
    text = await unchanged(s, lambda: submit(s, BOB, form, (99, 0, 0, 0)))
    assert "99" in text
    text = await unchanged(s, lambda: submit(s, BOB, form, ("x", 1, 1, 2)))
    assert "Ann" in text and "'x'" in text
    await submit(s, BOB, form, (1, 1, 1, 1))
    # A form or a menu of an older sheet is stale once the sheet changed.
    text = await unchanged(s, lambda: submit(s, BOB, form, (1, 1, 1, 1)))
    assert "the sheet has changed" in text
    text = await unchanged(s, lambda: on(s, ANN, dbl, ["0"]))
    assert "the sheet has changed" in text
    # A contract already played (a forged value: the menu offers only what is left).
    con = find(await sheet_controls(s), "con")["custom_id"]
    text = await unchanged(s, lambda: on(s, ANN, con, ["queens"]))
    assert "Queens" in text


async def test_a_cancelled_sheet_refuses_every_button(sheet: Sheet) -> None:
    s = sheet
    await opened(s)
    con = find(await sheet_controls(s), "con")["custom_id"]
    cancel = find(await sheet_controls(s), "cancel")["custom_id"]
    asked = await on(s, STRANGER, cancel)
    assert "only the players at this table" in refused(asked)
    asked = await on(s, ANN, cancel)
    assert asked.answer.ephemeral and "Cancel this scoresheet?" in asked.answer.content
    (ok,) = controls(asked.answer.view)
    done = await on(s, ANN, ok["custom_id"], message=FakeMessage(flags=_ephemeral()))
    assert done.answer.kind == "edit" and done.answer.content == "The scoresheet is cancelled."
    view = await s.view()
    assert view.status is TallyStatus.CANCELLED
    (sheet_edit,) = s.channel(CHANNEL_ID).edits
    assert (
        sheet_edit.fields["view"] is None and "cancelled" in sheet_edit.fields["embed"].description
    )
    (line,) = s.channel(CHANNEL_ID).posts
    assert line.fields["content"] == "✎ Ann cancelled the scoresheet"
    text = await unchanged(s, lambda: on(s, BOB, con, ["queens"]))
    assert "closed" in text


# -- changes -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 4, 19])  # deal 1: kings and jacks, Domino, queens
async def test_undo_and_a_correction_recompute_the_sheet_and_say_who(
    sheet: Sheet, seed: int
) -> None:
    s = sheet
    await opened(s)
    match = doubling_match(seed)
    entries = list(entries_of(match))
    for number in range(3):
        await enter_deal(s, entries[3 * number : 3 * number + 3], (ANN, BOB, CAS))
    # Undo the third deal.
    undone = await on(s, BOB, find(await sheet_controls(s), "undo")["custom_id"])
    assert undone.answer.kind == "edit"
    view = await s.view()
    assert len(view.deals) == 2 and view.current is None  # the whole last deal
    assert "Bob took back" in s.channel(CHANNEL_ID).posts[-1].fields["content"]
    # Correct deal 1: same contract, nobody doubled, a different result, step by step.
    first = view.deals[0]
    fix = find(await sheet_controls(s), "fix")
    assert [o["value"] for o in fix["options"]] == ["2", "1"]
    step = await on(s, CAS, fix["custom_id"], ["1"])
    assert step.answer.ephemeral and "Correcting deal 1" in step.answer.content
    private = FakeMessage(flags=_ephemeral())
    step = await on(
        s,
        CAS,
        find(controls(step.answer.view), "con")["custom_id"],
        [first.contract.id],
        message=private,
    )
    assert step.answer.kind == "edit"
    step = await on(s, CAS, find(controls(step.answer.view), "pass")["custom_id"], message=private)
    asked = questions(first.contract)
    corrected: dict[str, Any] = {
        q.key: (0, 0, 0, q.total) if q.counts else 3 for q in asked
    }  # Oma took everything there was to take
    done = await give_result(s, CAS, controls(step.answer.view), asked, corrected, private)
    assert done.answer.kind == "edit" and done.answer.content == "Deal 1 corrected."
    # The engine's own tally of the corrected entries gives the same sheet.
    tally = Tally(view.names, rules=view.rules)
    tally.apply(Choose(first.contract.id))
    tally.apply(Doubles((frozenset(),) * 4))
    tally.apply(Result.of(corrected))
    for entry in entries[3:8]:
        tally.apply(entry)
    after = await s.view()
    assert [d.final_scores() for d in after.deals] == [d.final_scores() for d in tally.deals]
    assert list(after.totals) == tally.totals()
    post = s.channel(CHANNEL_ID).posts[-1].fields["content"]
    assert post.startswith("✎ Cas corrected deal 1") and "No doubles" not in post
    assert "entered by Cas" in post


async def test_a_restart_in_the_middle_of_a_deal_keeps_what_was_acknowledged(
    tmp_path: Path,
) -> None:
    channels: dict[int, FakeChannel] = {}
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        s = controller_of(store, FakeThreads(), channels)
        await opened(s)
        await on(s, ANN, find(await sheet_controls(s), "con")["custom_id"], ["hearts"])
        dbl = find(await sheet_controls(s), "dbl")["custom_id"]
        acknowledged = await on(s, BOB, dbl, [str(PAIRS.index((3, 0)))])
        assert acknowledged.answer.kind == "edit"
        tally_id = s.tally_id
    async with await open_store(tmp_path / "bonken.sqlite3") as store:  # a new process
        s = controller_of(store, FakeThreads(), channels)
        s.tally_id = tally_id
        view = await s.view()
        assert view.current is not None and view.current.contract.id == "hearts"
        assert view.current.multipliers[3][0] == 1  # Oma doubled Ann
        # The button of the sheet as it was before the restart still works.
        items = await sheet_controls(s)
        form = (await on(s, CAS, find(items, "res")["custom_id"])).answer.modal
        done = await submit(s, CAS, form, (4, 3, 3, 3))
        assert done.answer.kind == "edit"
        assert len((await s.view()).deals) == 1


# -- opening -----------------------------------------------------------------------------


async def test_opening_refuses_a_seat_without_one_player_and_a_bot(sheet: Sheet) -> None:
    s = sheet
    for players, guests, words in [
        ((member(ANN, "Ann"), None, None, None), ("Oma", None, None, None), "seat 1: name one"),
        ((None, None, None, None), ("A", "B", "C", None), "seat 4: name one"),
        ((member(7, "Robo", bot=True), None, None, None), (None, "B", "C", "D"), "a bot cannot"),
        ((None, None, None, None), ("A", "B", "C", "D" * 40), "at most 32 characters"),
        ((member(ANN, "Ann"), member(ANN, "Ann"), None, None), (None, None, "C", "D"), "one seat"),
    ]:
        command = interaction(HOST)
        await guarded(
            command,
            lambda c=command, p=players, g=guests: s.controller.open(c, p, g, {}, None),
        )
        assert words in refused(command)
    command = interaction(HOST)
    await guarded(
        command,
        lambda: s.controller.open(
            command, (None,) * 4, ("A", "B", "C", "D"), {"variant": "x"}, None
        ),
    )
    assert "not a variant" in refused(command)


async def test_a_threaded_server_keeps_the_sheet_in_a_thread_of_its_own(sheet: Sheet) -> None:
    s = sheet
    command = await opened(s, permissions=THREAD_PERMISSIONS)
    assert command.answer.content.startswith("📝 Scoresheet of Ann, Bob, Cas, Oma")
    ((channel, message, name),) = s.threads.opened
    assert (channel, message) == (CHANNEL_ID, command.message.id)
    assert name == "Scoresheet · Ann, Bob, Cas, Oma"
    (sheet_post,) = s.channel(THREAD_ID).posts
    view = await s.view()
    assert view.messages[SHEET] == sheet_post.message_id
    assert "Deal 1 of 11" in sheet_post.fields["embed"].description
    # Cancelled, its thread is told and archived a while later.
    asked = await on(s, ANN, find(await sheet_controls(s), "cancel")["custom_id"])
    (ok,) = controls(asked.answer.view)
    await on(s, ANN, ok["custom_id"], message=FakeMessage(flags=_ephemeral()))
    assert s.channel(THREAD_ID).posts[-1].fields["content"] == "✎ Ann cancelled the scoresheet"
    assert s.threads.archived == [THREAD_ID]


async def test_the_chart_is_shown_privately_after_a_defer(sheet: Sheet) -> None:
    s = sheet
    await opened(s)
    match = doubling_match(2)
    entries = list(entries_of(match))
    await enter_deal(s, entries[:3], (ANN, BOB, CAS))
    event = await on(s, STRANGER, find(await sheet_controls(s), "chart")["custom_id"])
    assert event.answer.kind == "defer" and event.answer.ephemeral
    (sent,) = event.followup.sent
    assert sent.file_names == ["chart.png"] and sent.ephemeral


async def test_every_control_of_a_sheet_is_one_discord_takes(sheet: Sheet) -> None:
    """At every step of a twelve-deal match: custom_ids fit and are claimed, menus have
    1-25 options, at most five rows, real emoji."""
    s = sheet
    await opened(s, variant="twelve")
    match = doubling_match(6, rules_for("twelve"))
    entries = list(entries_of(match))
    for number in range(4):
        seen = await sheet_controls(s)
        for item in seen:
            assert len(item["custom_id"]) <= 100 and claimed(item["custom_id"])
            assert 1 <= len(item.get("options", [None])) <= 25
            if item.get("emoji"):
                assert emoji.is_emoji(item["emoji"]["name"])
        await enter_deal(s, entries[3 * number : 3 * number + 3], (ANN, BOB, CAS))


class Killed(BaseException):
    """The process dies here (nothing after it in this process runs, as after a kill)."""


async def test_a_crash_between_an_entry_and_its_post_posts_the_line_once_at_the_start(
    tmp_path: Path,
) -> None:
    """An undo is stored, then the bot dies before its line reaches the sheet's thread;
    the next start posts that line, once, under the name the first try gave it (so a
    post Discord took just before the crash is answered with the message already
    there), and a second start posts nothing more."""
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        s = controller_of(store, FakeThreads(), {})
        await opened(s)
        match = doubling_match(3)
        entries = list(entries_of(match))
        await enter_deal(s, entries[:3], (ANN, BOB, CAS))
        dying = s.channel(CHANNEL_ID)
        tried: list[dict[str, Any]] = []

        async def dies(**fields: Any) -> FakeMessage:
            tried.append(fields)
            raise Killed

        dying.send = dies  # type: ignore[method-assign]
        with pytest.raises(Killed):
            await on(s, BOB, find(await sheet_controls(s), "undo")["custom_id"])
        view = await s.view()
        assert view.version == 4 and len(view.changes) == 1  # the undo is stored
        assert len(tried) == 1

        for start in range(2):
            again = controller_of(store, FakeThreads(), {})
            assert await again.controller.feed.restore(lambda guild: guild == GUILD_ID) == 1
            posted = again.channel(CHANNEL_ID).posts
            if start == 0:
                (line,) = posted
                assert "Bob took back" in line.fields["content"]
                assert line.fields["nonce"] == tried[0]["nonce"]
            else:
                assert posted == []  # the first start's post was recorded
        elsewhere = controller_of(store, FakeThreads(), {})
        assert await elsewhere.controller.feed.restore(lambda guild: False) == 0
