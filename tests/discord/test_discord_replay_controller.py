"""The replay controller on its own: a real store with finished matches, a fake Discord
(the interactions record their answers). The command and the buttons end here; the
harness tests (test_discord_replay.py) cover the way there."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from PIL import Image

from bot.archive import ArchiveReason, ArchiveRefusal, FinishedMatchService
from bot.render.replay import REPLAY_SIZE
from bot.review import Address
from bot.store import Store, open_store
from bot.ui.replay import Replays
from tests.discord.fakes import ANN, CHANNEL_ID, GUILD_ID, FakeInteraction, interaction
from tests.sqlite_template import fresh_sqlite
from tests.store.store_helpers import finished_match, seated_table


@dataclass
class Setup:
    store: Store
    replays: Replays
    match_id: int
    steps: int
    """The points of the match's first deal."""


@pytest.fixture
async def setup(tmp_path) -> AsyncIterator[Setup]:
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        match_id, match = await finished_match(store, 4, guild_id=GUILD_ID, channel_id=CHANNEL_ID)
        first = match.deals[0]
        steps = 1 + 1 + len(first.doubling) + len(first.plays)
        archive = FinishedMatchService(store.matches)
        yield Setup(store, Replays(archive, store.tables), match_id, steps)


def _edited(clicked: FakeInteraction):  # type: ignore[no-untyped-def]
    (edit,) = clicked.response.later
    assert edit.kind == "original"
    return edit


async def test_the_command_answers_privately_with_the_first_point_and_its_buttons(setup: Setup):
    asked = interaction(ANN)
    await setup.replays.open(asked, None, public=False)  # the newest finished match here
    (deferred,) = asked.response.sent
    assert deferred.kind == "defer" and deferred.thinking and deferred.ephemeral
    edit = _edited(asked)
    m, end = setup.match_id, setup.steps - 1
    assert edit.embed is not None and edit.embed.title == f"Replay of match {m}"
    assert edit.embed.description is not None
    assert edit.embed.description.endswith(f"· step 0 of {end}")
    assert edit.view is not None
    ids = [item["custom_id"] for row in edit.view.to_components() for item in row["components"]]
    assert ids == [
        f"bonken:rp:{m}:0.0:first",
        f"bonken:rp:{m}:0.0:back",
        f"bonken:rp:{m}:0.1:next",
        f"bonken:rp:{m}:0.{end}:last",
        f"bonken:rpa:{m}:0",
        f"bonken:rpd:{m}",
    ]
    items = [item for row in edit.view.to_components() for item in row["components"]]
    assert [bool(item.get("disabled")) for item in items[:4]] == [True, True, False, False]
    (file,) = edit.files
    assert file.filename == "replay.png"
    assert Image.open(io.BytesIO(file.fp.read())).size == REPLAY_SIZE


async def test_a_step_edits_the_clicked_message_and_crosses_into_the_next_deal(setup: Setup):
    m, end = setup.match_id, setup.steps - 1
    clicked = interaction(ANN)
    await setup.replays.step(clicked, m, Address(0, end))
    (deferred,) = clicked.response.sent
    assert deferred.kind == "defer" and not deferred.thinking  # the clicked message changes
    edit = _edited(clicked)
    assert edit.embed is not None and f"step {end} of {end}" in (edit.embed.description or "")
    assert edit.view is not None
    ids = [item["custom_id"] for row in edit.view.to_components() for item in row["components"]]
    assert f"bonken:rp:{m}:1.0:next" in ids  # forward from a deal's end: the next deal


async def _refused(work, reason: ArchiveReason) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ArchiveRefusal) as caught:
        await work
    assert caught.value.reason is reason


async def test_refusals_come_before_any_answer_and_change_nothing(setup: Setup):
    m = setup.match_id
    elsewhere = interaction(ANN, guild_id=GUILD_ID + 1)
    await _refused(setup.replays.step(elsewhere, m, Address(0, 1)), ArchiveReason.UNKNOWN)
    unknown = interaction(ANN)
    await _refused(setup.replays.open(unknown, "999", public=True), ArchiveReason.UNKNOWN)
    table = await seated_table(setup.store, guild_id=GUILD_ID, channel_id=CHANNEL_ID + 1)
    playing = await setup.store.matches.create_match(table.table_id, ["A", "B", "C", "D"])
    in_play = interaction(ANN)
    await _refused(setup.replays.animate(in_play, playing.match_id, 0), ArchiveReason.IN_PLAY)
    beyond = interaction(ANN)
    await _refused(setup.replays.animate(beyond, m, 11), ArchiveReason.NO_SUCH_POINT)
    menu = interaction(ANN)
    await _refused(setup.replays.go_to_deal(menu, m, "-1"), ArchiveReason.NO_SUCH_POINT)
    button = interaction(ANN, guild_id=GUILD_ID + 1)
    await _refused(setup.replays.open_match(button, m), ArchiveReason.UNKNOWN)
    forged = interaction(ANN)  # a step of a real deal that the deal does not have
    await _refused(setup.replays.step(forged, m, Address(0, 60)), ArchiveReason.NO_SUCH_POINT)
    for refused in (elsewhere, unknown, in_play, beyond, menu, button, forged):
        assert refused.response.sent == [] and refused.response.later == []
