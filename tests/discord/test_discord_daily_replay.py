"""The replay of a closed day's deals, through the menu under its results and the step
buttons: a real daily service and store, a fake Discord (see
test_discord_daily_controller.py). A click goes through the real item: its custom_id is
parsed by the ``DynamicItem``'s template and its callback runs in the real guard."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import pytest
from PIL import Image

from bot.render.text import contract_name
from bot.store import open_store
from bot.ui.daily_replay import PICTURE_FILE, DailyReplayMenu, DailyReplayStep
from tests.daily.daily_helpers import Clock
from tests.discord.daily_helpers import (
    ANN,
    BOB,
    CAS,
    Daily,
    daily_user,
    new_daily,
    play_through,
    shown,
)
from tests.discord.fakes import GUILD_ID, FakeInteraction, Sent
from tests.sqlite_template import fresh_sqlite

DAY = "2026-12-02"


@pytest.fixture
async def daily(tmp_path) -> AsyncIterator[Daily]:
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        yield new_daily(store, Clock())


async def results(daily: Daily, user_id: int, when: str | None = DAY) -> Sent:
    asked = daily_user(daily, user_id, f"User {user_id}")
    await daily.controller.results(asked, when)
    return shown(asked)


def menu_of(edit: Sent) -> tuple[str, list[tuple[str, str]]]:
    """The menu's custom_id and its options (label, value)."""
    assert edit.view is not None, "no menu under the results"
    (row,) = edit.view.to_components()
    (select,) = row["components"]
    return select["custom_id"], [(o["label"], o["value"]) for o in select["options"]]


async def choose(daily: Daily, user_id: int, custom_id: str, value: str) -> FakeInteraction:
    """A choice in the menu ``custom_id``, rebuilt and run as discord.py would."""
    chose = daily_user(daily, user_id, f"User {user_id}", data={"values": [value]})
    match = DailyReplayMenu.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    item = await DailyReplayMenu.from_custom_id(chose, None, match)  # type: ignore[arg-type]
    await item.callback(chose)  # type: ignore[arg-type]
    return chose


async def press(daily: Daily, user_id: int, custom_id: str, **options: Any) -> FakeInteraction:
    clicked = daily_user(daily, user_id, f"User {user_id}", **options)
    match = DailyReplayStep.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    item = await DailyReplayStep.from_custom_id(clicked, None, match)  # type: ignore[arg-type]
    await item.callback(clicked)  # type: ignore[arg-type]
    return clicked


def picture(asked: FakeInteraction) -> Image.Image:
    (sent,) = [s for s in asked.response.later if s.files]
    (file,) = sent.files
    assert file.filename == PICTURE_FILE
    file.fp.seek(0)
    return Image.open(io.BytesIO(file.fp.read()))


def refusal(asked: FakeInteraction) -> str:
    """The words of a private refusal, wherever it went (a followup or the answer)."""
    texts = [f.content for f in asked.followup.sent if f.ephemeral]
    texts += [e.content for e in asked.edits if e.content]
    texts += [s.content for s in asked.response.sent if s.ephemeral and s.content]
    assert texts, "nothing was said"
    return str(texts[-1])


async def test_the_menu_comes_only_once_the_day_has_closed(daily: Daily):
    await play_through(daily, ANN, "Ann")
    await play_through(daily, BOB, "Bob")
    assert (await results(daily, ANN)).view is None  # played, but the day is open

    daily.clock.advance(days=2)
    edit = await results(daily, CAS)
    custom_id, options = menu_of(edit)
    assert custom_id == f"bonken:drm:{DAY}"
    stored = await daily.store.daily.day(GUILD_ID, daily.service.today().fromisoformat(DAY))
    assert stored is not None
    deals = len(stored.deals)
    assert len(options) == 2 * deals  # both attempts finished every deal
    first = contract_name(stored.deals[0].contract)
    assert sum(label.endswith(f"· deal 1 · {first}") for label, _ in options) == 2
    assert {label.split(" · ")[0] for label, _ in options} == {"Ann", "Bob"}
    assert edit.file_names == [f"daily-{DAY}.json"]  # the file is still there


async def test_a_choice_shows_that_deal_at_its_end_and_steps_back_and_forward(daily: Daily):
    await play_through(daily, ANN, "Ann")
    daily.clock.advance(days=2)
    custom_id, options = menu_of(await results(daily, CAS))
    label, value = options[1]  # Ann's deal 2
    assert label.startswith("Ann · deal 2 · ")

    chose = await choose(daily, CAS, custom_id, value)
    answer = chose.answer
    assert answer.kind == "defer" and answer.ephemeral
    edit = shown(chose)
    assert edit.embed is not None and edit.embed.title == label
    steps = edit.embed.description
    assert steps is not None and steps.startswith("step ") and steps.split()[1] == steps.split()[3]
    assert picture(chose).size[0] > 100
    enabled = edit.custom_ids(enabled_only=True)
    attempt = value.split(".")[0]
    assert enabled == [
        f"bonken:drs:{DAY}:{attempt}:1.0:first",
        f"bonken:drs:{DAY}:{attempt}:1.{int(steps.split()[1]) - 1}:back",
    ]

    back = await press(daily.restarted(), CAS, enabled[1])  # rebuilt from the store
    assert back.answer.kind == "defer" and not back.answer.ephemeral  # edits its message
    moved = shown(back)
    assert moved.embed is not None
    assert moved.embed.description == f"step {int(steps.split()[1]) - 1} of {steps.split()[3]}"
    assert any(i.endswith(":next") for i in moved.custom_ids(enabled_only=True))
    assert picture(back).tobytes() != picture(chose).tobytes()


async def test_refused_before_the_day_closes_even_with_a_forged_menu(daily: Daily):
    await play_through(daily, ANN, "Ann")
    attempts = await daily.store.daily.day_scores(GUILD_ID, daily.service.today())
    (ann,) = attempts
    custom_id = f"bonken:drm:{DAY}"
    chose = await choose(daily, BOB, custom_id, f"{ann.attempt_id}.0")
    assert "⚠️" in refusal(chose)
    assert not any(s.files for s in chose.response.later)  # no picture of the deal
    stepped = await press(daily, BOB, f"bonken:drs:{DAY}:{ann.attempt_id}:0.3:next")
    assert "⚠️" in refusal(stepped)
    assert not any(s.files for s in stepped.response.later)


async def test_forged_ids_and_other_servers_are_refused(daily: Daily):
    await play_through(daily, ANN, "Ann")
    daily.clock.advance(days=2)
    custom_id, options = menu_of(await results(daily, CAS))
    value = options[0][1]
    attempt = value.split(".")[0]
    forged = [
        (custom_id, f"{int(attempt) + 99}.0"),  # no such attempt
        (custom_id, f"{attempt}.40"),  # no such deal
        (custom_id, "drop table"),
        ("bonken:drm:2026-12-01", value),  # another day
    ]
    for menu, chosen in forged:
        chose = await choose(daily, CAS, menu, chosen)
        assert "⚠️" in refusal(chose), (menu, chosen)
        assert not any(s.files for s in chose.response.later)
    elsewhere = daily_user(daily, CAS, "Cas", guild_id=GUILD_ID + 1, data={"values": [value]})
    match = DailyReplayMenu.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    item = await DailyReplayMenu.from_custom_id(elsewhere, None, match)  # type: ignore[arg-type]
    await item.callback(elsewhere)  # type: ignore[arg-type]
    assert "⚠️" in refusal(elsewhere) and not any(s.files for s in elsewhere.response.later)

    stepped = await press(daily, CAS, f"bonken:drs:{DAY}:{attempt}:0.99:next")
    assert "⚠️" in refusal(stepped)
    assert not any(s.files for s in stepped.response.later)
    assert (
        DailyReplayStep.__discord_ui_compiled_template__.fullmatch(
            f"bonken:drs:{DAY}:{attempt}:00.1:next"
        )
        is None
    )


async def test_the_menu_and_the_replay_speak_the_readers_language(daily: Daily):
    await play_through(daily, ANN, "Ann")
    daily.clock.advance(days=2)
    asked = daily_user(daily, CAS, "Cas", locale="nl")
    await daily.front.guard(asked, lambda: daily.controller.results(asked, DAY))
    custom_id, options = menu_of(shown(asked))
    assert all(" · potje " in label for label, _ in options)
    chose = daily_user(daily, CAS, "Cas", locale="nl", data={"values": [options[0][1]]})
    match = DailyReplayMenu.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    item = await DailyReplayMenu.from_custom_id(chose, None, match)  # type: ignore[arg-type]
    await item.callback(chose)  # type: ignore[arg-type]
    edit = shown(chose)
    assert edit.embed is not None and edit.embed.description is not None
    assert edit.embed.description.startswith("stap ")
    assert edit.view is not None
    labels = [item.get("label") for row in edit.view.to_components() for item in row["components"]]
    assert labels == ["Begin van het potje", "Terug", "Verder", "Einde van het potje"]
