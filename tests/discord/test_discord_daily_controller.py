"""The daily deals' front end on its own: a real daily service and store, a clock moved by
hand, and a fake Discord (interactions record their answers, edits and followups). A
click goes through the real button: its custom_id is parsed by the ``DynamicItem``'s
template and its callback runs in the real guard, as discord.py would run it.

What the service itself guarantees (the same moves give the same game, refusals change
nothing in the store, matchpoints) is proved in tests/daily; these tests are about what
the person sees and what reaches Discord."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from functools import partial

import discord
import pytest

from bot.engine import Phase
from bot.render.text import contract_name
from bot.store import GuildSettings, TableSettings, open_store
from bot.ui.daily_message import DailyMove
from bot.ui.pictures import DAILY_FILE
from tests.daily.daily_helpers import Clock
from tests.discord.daily_helpers import (
    ANN,
    BOB,
    CAS,
    Daily,
    click,
    daily_user,
    new_daily,
    next_move,
    play_through,
    shown,
    start,
)
from tests.discord.fakes import GUILD_ID, FakeInteraction, Sent
from tests.sqlite_template import fresh_sqlite


@pytest.fixture
async def daily(tmp_path) -> AsyncIterator[Daily]:
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        yield new_daily(store, Clock())


def _moves(content: str, name: str) -> str:
    """A message's words with the person's own name taken out (two people's compared)."""
    return content.replace(name, "<name>")


async def test_daily_answers_privately_with_the_picture_and_the_persons_moves(daily: Daily):
    asked = await start(daily, ANN, "Ann")
    (answer,) = asked.response.sent
    assert answer.kind == "defer" and answer.ephemeral  # acknowledged before any thinking
    edit = shown(asked)
    assert edit.file_names == [DAILY_FILE]
    assert edit.embed is not None and edit.embed.image.url == f"attachment://{DAILY_FILE}"
    attempt_id, step = _attempt_and_step(edit)
    view = await daily.service.turn(attempt_id, ANN, step)
    legal = {action.code for action in view.seat.legal}
    offered = {i.split(":", 4)[4] for i in edit.custom_ids(enabled_only=True) if ":daily:" in i}
    assert offered <= legal and offered
    if view.seat.phase is Phase.PLAYING:
        assert {i.rsplit(":", 1)[1] for i in edit.custom_ids()} == {
            card.code for card in view.seat.hand
        }
    assert asked.followup.sent == []  # nothing for anyone else


def _attempt_and_step(edit: Sent) -> tuple[int, int]:
    first = edit.custom_ids()[0]
    match = re.match(r"bonken:daily(?:dbl)?:(\d+):(\d+):", first)
    assert match is not None
    return int(match[1]), int(match[2])


async def test_each_click_edits_the_same_message_and_the_end_posts_one_public_line(daily: Daily):
    edit = shown(await start(daily, ANN, "Ann"))
    clicks = []
    while edit.custom_ids(enabled_only=True):
        clicked = await click(daily, ANN, next_move(edit))
        (answer,) = clicked.response.sent
        assert answer.kind == "edit" and clicked.edits == []  # the click's one answer
        assert answer.file_names == [DAILY_FILE] and answer.content
        clicks.append(clicked)
        edit = shown(clicked)
    *playing, last = clicks
    assert all(c.followup.sent == [] for c in playing)  # nothing public while playing
    (line,) = last.followup.sent
    assert not line.ephemeral
    assert line.content == "Ann played today's deals: 50% (1st of 1 so far)"
    assert "You have played today's deals" in (edit.content or "")
    assert edit.custom_ids() == []  # a finished attempt has no buttons


async def test_an_answer_not_ready_in_time_is_acknowledged_first_then_shown(daily: Daily):
    """Past the controller's time (here none at all) the click is acknowledged, then its
    message edited: words, picture and buttons, as ``/bonken daily`` shows them then."""
    edit = shown(await start(daily, ANN, "Ann"))
    daily.controller.answer_within = 0.0
    clicked = await click(daily, ANN, next_move(edit))
    (answer,) = clicked.response.sent
    assert answer.kind == "defer" and answer.content is None  # the clicked message stays
    (slow,) = clicked.edits
    assert slow.custom_ids() != edit.custom_ids() and slow.file_names == [DAILY_FILE]
    resumed = shown(await start(daily, ANN, "Ann"))
    assert (slow.content, slow.custom_ids()) == (resumed.content, resumed.custom_ids())
    assert slow.files[0].fp.read() == resumed.files[0].fp.read()  # the same picture


async def test_a_click_discord_made_long_ago_is_acknowledged_at_once(daily: Daily):
    """A click 2.5 s old by its id (an event loop far behind) has no time left for its
    answer to be the callback; a bot clock far off Discord's is not trusted for that."""
    edit = shown(await start(daily, ANN, "Ann"))
    attempt_id, step = _attempt_and_step(edit)
    late = discord.utils.utcnow() - timedelta(seconds=2.5)
    late_click = daily_user(daily, ANN, "Ann", created_at=late)
    late_click.response.hold = asyncio.Event()  # its acknowledgement on its way
    move = DailyMove(attempt_id, step, next_move(edit).split(":", 4)[4])
    clicking = asyncio.create_task(move.callback(late_click))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    # Acknowledged before its move is played: if Discord refused the late answer, the
    # same button would still play the move.
    assert len(await daily.store.daily.moves(attempt_id)) == step
    late_click.response.hold.set()
    await clicking
    clicked = late_click
    assert clicked.answer.kind == "defer" and len(clicked.edits) == 1
    assert len(await daily.store.daily.moves(attempt_id)) > step
    skewed = discord.utils.utcnow() - timedelta(hours=2)
    clicked = await click(daily, ANN, next_move(shown(clicked)), created_at=skewed)
    assert clicked.answer.kind == "edit" and clicked.edits == []
    ahead = discord.utils.utcnow() + timedelta(seconds=5)  # made "later" than now
    clicked = await click(daily, ANN, next_move(shown(clicked)), created_at=ahead)
    assert clicked.answer.kind == "edit" and clicked.edits == []


async def test_two_people_making_the_same_moves_see_the_same_messages_across_a_restart(
    daily: Daily,
):
    """Ann plays through; Bob makes the same moves, but the bot restarts halfway: his
    messages say word for word what Ann's said (the computers answered the same)."""
    ann = await play_through(daily, ANN, "Ann")
    edit = shown(await start(daily, BOB, "Bob"))
    bob = [edit.content or ""]
    now = daily
    while edit.custom_ids(enabled_only=True):
        if len(bob) == len(ann) // 2:
            now = daily.restarted()
        edit = shown(await click(now, BOB, next_move(edit)))
        bob.append(edit.content or "")
    assert len(bob) == len(ann)
    for a, b in zip(ann[:-1], bob[:-1], strict=True):
        assert _moves(a, "Ann") == _moves(b, "Bob")
    assert "So far: 50%, 1st of 2." in bob[-1]  # the same scores: a tie


async def test_a_second_attempt_the_same_day_is_refused_privately(daily: Daily):
    await play_through(daily, ANN, "Ann")
    again = await start(daily, ANN, "Ann")
    assert refused(again) == "⚠️ you have played today's deals already: one attempt a day"


async def test_someone_elses_finished_or_forged_button_is_refused_and_changes_nothing(
    daily: Daily,
):
    ann = shown(await start(daily, ANN, "Ann"))
    attempt_id, step = _attempt_and_step(ann)
    move = next_move(ann)
    before = await daily.store.daily.moves(attempt_id)

    # Each refused before the click is acknowledged: the refusal is its private answer.
    bob = await click(daily, BOB, move)
    assert refused(bob) == "⚠️ these are someone else's daily deals"

    forged = await click(daily, ANN, f"bonken:daily:999:{step}:{move.split(':', 4)[4]}")
    assert refused(forged) == "⚠️ this button belongs to no daily deals"

    code = move.split(":", 4)[4]
    stale = await click(daily, ANN, f"bonken:daily:{attempt_id}:{step + 5}:{code}")
    assert caught_up(stale) == ann.content  # its message brought up to date instead
    assert await daily.store.daily.moves(attempt_id) == before
    assert bob.edits == forged.edits == stale.edits == []

    await play_through(daily, CAS, "Cas")
    done = await daily.store.daily.attempt_of(GUILD_ID, daily.service.today(), CAS)
    assert done is not None
    moves = await daily.store.daily.moves(done.attempt_id)
    late = await click(daily, CAS, f"bonken:daily:{done.attempt_id}:{len(moves)}:D:-")
    assert refused(late) == "⚠️ you have finished these deals"
    assert late.edits == [] and await daily.store.daily.moves(done.attempt_id) == moves


async def test_a_move_clicked_twice_at_once_is_played_once(daily: Daily):
    """Both clicks pass the check before either is played: the second, when its move is
    to be played, finds it played and shows where the attempt stands, saying so."""
    edit = shown(await start(daily, ANN, "Ann"))
    attempt_id, step = _attempt_and_step(edit)
    move = next_move(edit)
    first, second = await asyncio.gather(click(daily, ANN, move), click(daily, ANN, move))
    assert first.answer.kind == "edit" and first.answer.file_names == [DAILY_FILE]
    assert caught_up(second) == first.answer.content
    assert second.answer.file_names == [DAILY_FILE]
    assert second.answer.custom_ids() == first.answer.custom_ids()
    moves = await daily.store.daily.moves(attempt_id)
    assert moves[step].action.code == move.split(":", 4)[4]
    assert shown(await start(daily, ANN, "Ann")).content == first.answer.content
    assert len(await daily.store.daily.moves(attempt_id)) == len(moves)


async def test_a_doubling_toggle_shows_the_choice_and_plays_nothing(daily: Daily):
    edit = shown(await start(daily, ANN, "Ann"))
    while not any(":dailydbl:" in i for i in edit.custom_ids()):
        assert edit.custom_ids(enabled_only=True), "no doubling turn with a choice came"
        edit = shown(await click(daily, ANN, next_move(edit)))
    attempt_id, step = _attempt_and_step(edit)
    before = await daily.store.daily.moves(attempt_id)
    toggle = next(i for i in edit.custom_ids() if ":dailydbl:" in i)
    seat = int(toggle.rsplit(":", 1)[1])
    toggled = await click(daily, ANN, toggle)
    (answer,) = toggled.response.sent
    assert answer.kind == "edit" and answer.view is not None
    labels = {
        item["custom_id"]: item["label"]
        for row in answer.view.to_components()
        for item in row["components"]
    }
    confirm = f"bonken:daily:{attempt_id}:{step}:D:{seat}:ok"
    assert labels[confirm] == "Confirm"
    assert any(label.startswith("✓ ") for label in labels.values())
    assert await daily.store.daily.moves(attempt_id) == before  # nothing played yet
    confirmed = await click(daily, ANN, confirm)
    moves = await daily.store.daily.moves(attempt_id)
    assert moves[len(before)].action.code == f"D:{seat}"
    assert shown(confirmed).content != edit.content


async def test_a_message_left_behind_is_brought_up_to_date_by_its_next_click(daily: Daily):
    """A message whose update never reached Discord (a callback refused as late: the
    move stored, the message not changed) has no newer one to go to: a click on it,
    a card or a doubling toggle, shows where the attempt stands and plays nothing."""
    behind = shown(await start(daily, ANN, "Ann"))
    edit = shown(await click(daily, ANN, next_move(behind)))
    while not any(":dailydbl:" in i for i in edit.custom_ids()):
        assert edit.custom_ids(enabled_only=True), "no doubling turn with a choice came"
        behind, edit = edit, shown(await click(daily, ANN, next_move(edit)))
    attempt_id, _step = _attempt_and_step(edit)
    played = await daily.store.daily.moves(attempt_id)
    card = await click(daily, ANN, next_move(behind))
    assert caught_up(card) == edit.content
    assert card.answer.custom_ids() == edit.custom_ids()
    assert card.answer.file_names == [DAILY_FILE]
    toggle = next(i for i in edit.custom_ids() if ":dailydbl:" in i)
    attempt, step, rest = toggle.removeprefix("bonken:dailydbl:").split(":", 2)
    older = await click(daily, ANN, f"bonken:dailydbl:{attempt}:{int(step) - 1}:{rest}")
    assert caught_up(older) == edit.content
    assert await daily.store.daily.moves(attempt_id) == played
    dutch = await click(daily, ANN, next_move(behind), locale="nl")
    assert (dutch.answer.content or "").startswith(
        "⚠️ die knop hoorde bij een eerder moment van je potjes; zo staan ze nu\n"
    )


CAUGHT_UP = "that button was for an earlier point of your deals; this is where they stand"


def caught_up(answered: FakeInteraction) -> str:
    """The words of a click's message brought up to date instead of playing the click:
    its one answer, the message updated, under the line saying so; nothing after it."""
    answer = answered.answer
    assert answer.kind == "edit" and answered.edits == [] and answered.response.later == []
    notice, _, content = (answer.content or "").partition("\n")
    assert notice == f"⚠️ {CAUGHT_UP}"
    return content


def refused(answered: FakeInteraction) -> str | None:
    """The words of a refusal said before the acknowledgement: the click's one answer,
    private, with nothing after it."""
    answer = answered.answer
    assert answer.kind == "send" and answer.ephemeral and answered.response.later == []
    return answer.content


async def test_the_date_turning_while_someone_plays(daily: Daily):
    """Begun just before midnight, the attempt plays on the next day for the day it
    began, ``/bonken daily`` resumes it; at the end of that next day it closes."""
    daily.clock.now = datetime(2026, 12, 2, 23, 59, tzinfo=UTC)
    edit = shown(await start(daily, ANN, "Ann"))
    daily.clock.advance(minutes=2)
    edit = shown(await click(daily, ANN, next_move(edit)))
    assert "Yesterday's deals" in (edit.content or "")
    resumed = shown(await start(daily, ANN, "Ann"))
    assert resumed.content == edit.content and resumed.custom_ids() == edit.custom_ids()
    daily.clock.now = datetime(2026, 12, 4, 0, 0, tzinfo=UTC)
    late = await click(daily, ANN, next_move(edit))
    assert refused(late) == (
        "⚠️ the results of that day have closed, so its deals can no longer be played"
    )


async def test_results_are_hidden_until_played_and_shown_to_all_once_closed(daily: Daily):
    await play_through(daily, ANN, "Ann")
    results = daily_user(daily, BOB, "Bob")
    await daily.controller.results(results, None)
    (answer,) = results.response.sent
    assert answer.kind == "defer" and answer.ephemeral
    text = shown(results).embed.description  # type: ignore[union-attr]
    assert "1. Ann 50%" in text
    assert "Each deal's comparison shows once you have played these deals." in text
    assert "Deal 1" not in text and shown(results).file_names == []
    stored = await daily.store.daily.day(GUILD_ID, daily.service.today())
    assert stored is not None
    assert not any(contract_name(deal.contract) in text for deal in stored.deals)
    assert not set("♣♦♥♠") & set(text)  # no card of the day

    await play_through(daily, BOB, "Bob")
    played = daily_user(daily, BOB, "Bob")
    await daily.controller.results(played, None)
    text = shown(played).embed.description  # type: ignore[union-attr]
    assert "Deal 1, " in text and "best" in text

    daily.clock.advance(days=2)
    closed = daily_user(daily, CAS, "Cas")
    await daily.controller.results(closed, "2026-12-02")
    edit = shown(closed)
    assert "Deal 1, " in edit.embed.description  # type: ignore[union-attr]
    assert edit.file_names == ["daily-2026-12-02.json"]


async def test_a_bad_or_future_date_is_refused_privately(daily: Daily):
    for when, words in [
        ("2026-13-01", "⚠️ write the date as YYYY-MM-DD, for example 2026-12-02"),
        ("2026-12-03", "⚠️ that day has not begun yet"),
    ]:
        asked = daily_user(daily, ANN, "Ann")
        await daily.front.guard(asked, partial(daily.controller.results, asked, when))
        assert refused(asked) == words  # before any "thinking"


async def test_the_message_speaks_the_persons_language_and_the_line_the_servers(daily: Daily):
    """Ann's Discord speaks Dutch, the server English; Bob's the other way round."""

    async def play_in(user_id: int, name: str, locale: str, guild_locale: str) -> tuple[str, str]:
        options = {"locale": locale, "guild_locale": guild_locale}
        asked = daily_user(daily, user_id, name, **options)
        await daily.front.guard(asked, lambda: daily.controller.start(asked))
        edit = first = shown(asked)
        while edit.custom_ids(enabled_only=True):
            clicked = daily_user(daily, user_id, name, **options)
            move = next_move(edit)
            match = DailyMove.__discord_ui_compiled_template__.fullmatch(move)
            assert match is not None
            item = await DailyMove.from_custom_id(clicked, None, match)  # type: ignore[arg-type]
            await item.callback(clicked)  # type: ignore[arg-type]
            edit = shown(clicked)
        (line,) = clicked.followup.sent
        return first.content or "", line.content or ""

    message, line = await play_in(ANN, "Ann", "nl", "en-US")
    assert message.startswith("**Dagpotjes · De potjes van vandaag · potje 1 van 4**")
    assert line == "Ann played today's deals: 50% (1st of 1 so far)"
    message, line = await play_in(BOB, "Bob", "en-US", "nl")
    assert message.startswith("**Daily deals · Today's deals · deal 1 of 4**")
    assert line == "Bob speelde de potjes van vandaag: 50% (1e van 2 tot nu toe)"


async def test_a_server_that_wants_no_pictures_gets_the_words_alone(daily: Daily):
    await daily.store.tables.set_guild_settings(
        GUILD_ID, GuildSettings(table_defaults=TableSettings(images=False))
    )
    edit = shown(await start(daily, ANN, "Ann"))
    assert edit.file_names == [] and edit.embed is None
    assert edit.content is not None and edit.content.startswith("**Daily deals · ")
    assert edit.custom_ids(enabled_only=True)  # the moves are there all the same
