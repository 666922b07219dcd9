"""The picture a daily click is answered with is the picture of the state the message
shows, as if drawn fresh: the parts kept from earlier pictures, the person's own and
other people's, never show a stale or someone else's state; drawn in the drawing
processes (:mod:`bot.ui.drawing`) as in the bot's own thread, byte for byte."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import weakref
from collections.abc import AsyncIterator

import discord
import pytest

from bot import i18n
from bot.daily import AttemptView
from bot.render.daily import daily_scene
from bot.render.deal_image import deal_png
from bot.render.draw import png
from bot.store import open_store
from bot.ui.drawing import DrawingProcesses
from bot.ui.pictures import DAILY_FILE, attachment, daily_picture
from tests.daily.daily_helpers import Clock
from tests.discord.daily_helpers import ANN, BOB, Daily, click, new_daily, next_move, shown, start
from tests.discord.fakes import Sent
from tests.render.render_helpers import drawn_fresh
from tests.sqlite_template import fresh_sqlite

pytestmark = pytest.mark.real_pictures


@pytest.fixture(params=[0, 1], ids=["thread", "process"])
async def daily(tmp_path, request) -> AsyncIterator[Daily]:
    """The controller drawing in its picture thread, or in a drawing process."""
    drawing = DrawingProcesses(request.param)
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        try:
            yield new_daily(store, Clock(), drawing)
        finally:
            drawing.close()


def picture(edit: Sent) -> bytes:
    (file,) = edit.files
    assert file.filename == DAILY_FILE
    return file.fp.getvalue()  # type: ignore[attr-defined]


async def pictures_match_their_state(daily: Daily, user_id: int, name: str) -> int:
    """``user_id`` plays through by the buttons; each message's picture is checked
    against the fresh drawing of the attempt as the service has it then. The clicks."""
    edit = shown(await start(daily, user_id, name))
    clicks = 0
    while moves := edit.custom_ids(enabled_only=True):
        attempt_id, step = (int(part) for part in moves[0].split(":")[2:4])
        view = await daily.service.turn(attempt_id, user_id, step)
        assert picture(edit) == png(drawn_fresh(daily_scene(view, i18n.DEFAULT)))
        edit = shown(await click(daily, user_id, next_move(edit)))
        clicks += 1
    return clicks


async def test_every_click_shows_the_picture_of_its_own_state_drawn_fresh(daily: Daily):
    # Ann's pictures are drawn from parts kept as she plays; Bob plays the same deals
    # after her, so most of his parts (the computers' plates, the cards) are hers.
    assert await pictures_match_their_state(daily, ANN, "Ann") > 10
    drawing = daily.controller.drawing
    kept = drawing.kept
    clicks = await pictures_match_their_state(daily, BOB, "Bob")
    assert clicks > 10
    if drawing.used:
        # Bob clicks as Ann did: the same points of the deals, so the same pictures
        # (his plate says "You" as hers did), every one kept from hers, not drawn again.
        assert drawing.kept - kept == clicks + 1  # (and the first, before a click)


async def test_a_drawing_process_killed_between_clicks_is_replaced(tmp_path):
    drawing = DrawingProcesses(1)
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        try:
            daily = new_daily(store, Clock(), drawing)
            edit = shown(await start(daily, ANN, "Ann"))
            assert picture(edit)
            kill_the_drawing_processes()
            edit = shown(await click(daily, ANN, next_move(edit)))
            attempt_id, step = (int(part) for part in next_move(edit).split(":")[2:4])
            view = await daily.service.turn(attempt_id, ANN, step)
            assert picture(edit) == png(drawn_fresh(daily_scene(view, i18n.DEFAULT)))
        finally:
            drawing.close()


async def test_a_drawing_process_killed_while_drawing_fails_that_picture_only(tmp_path):
    """The picture under way fails (the click shows its text: ``daily_picture`` gives
    None); the next is drawn by a new process, the same bytes as drawn here."""
    drawing = DrawingProcesses(1)
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        view = await new_daily(store, Clock()).service.play(1, ANN, "Ann")
    try:
        scene = daily_scene(view, i18n.DEFAULT)
        under_way = asyncio.create_task(daily_picture(scene, drawing))
        await asyncio.sleep(0)  # sent: a new process draws its first picture for a while
        kill_the_drawing_processes()
        assert await under_way is None
        assert await drawing.deal_png(scene) == deal_png(scene)
    finally:
        drawing.close()


async def test_a_picture_asked_for_again_is_kept_in_the_bots_process(tmp_path):
    """The same scene again is answered from the bot's own recent pictures: no process
    is asked (none runs any more), the same bytes, counted as kept."""
    drawing = DrawingProcesses(1)
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        view = await new_daily(store, Clock()).service.play(1, ANN, "Ann")
    try:
        scene = daily_scene(view, i18n.DEFAULT)
        first = await drawing.deal_png(scene)
        drawing.close()
        for process in multiprocessing.active_children():
            process.join(5)
        assert not multiprocessing.active_children()
        assert await drawing.deal_png(scene) == first == deal_png(scene)
        assert not multiprocessing.active_children()
        assert (drawing.drawn, drawing.kept) == (2, 1)
    finally:
        drawing.close()


async def test_a_picture_asked_for_while_it_is_drawn_is_drawn_once_for_both(tmp_path):
    """Two clicks reaching the same point at once: one scene sent to the process, both
    given its bytes, the second counted as kept; a picture that fails fails for both."""
    drawing = DrawingProcesses(1)
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        view = await new_daily(store, Clock()).service.play(1, ANN, "Ann")
    try:
        scene = daily_scene(view, i18n.DEFAULT)
        asked = [asyncio.create_task(drawing.deal_png(scene)) for _ in range(2)]
        await asyncio.sleep(0.01)
        (worker,) = drawing._workers
        assert worker is not None and worker.load == 1  # one scene on its way
        assert await asyncio.gather(*asked) == [deal_png(scene)] * 2
        assert (drawing.drawn, drawing.kept) == (2, 1)

        other = daily_scene(await new_daily_view(tmp_path), "nl")
        kill_the_drawing_processes()
        await asyncio.sleep(0.1)  # its end read: the next picture starts a new process
        failing = [asyncio.create_task(daily_picture(other, drawing)) for _ in range(2)]
        await asyncio.sleep(0)  # sent: a new process draws its first picture for a while
        kill_the_drawing_processes()
        assert await asyncio.gather(*failing) == [None, None]  # the words alone, both
        assert await drawing.deal_png(other) == deal_png(other)  # drawn anew
    finally:
        drawing.close()


async def new_daily_view(tmp_path) -> AttemptView:
    """Bob's attempt begun in a store of its own."""
    async with await open_store(fresh_sqlite(tmp_path / "other.sqlite3")) as store:
        return await new_daily(store, Clock()).service.play(1, BOB, "Bob")


def kill_the_drawing_processes() -> None:
    for process in multiprocessing.active_children():
        process.kill()
        process.join()


def test_a_sent_attachment_is_freed_at_once_not_by_the_collector():
    """discord.py closes a file it has sent by setting the file's own ``close`` on it,
    a reference cycle; an attachment's bytes go all the same as soon as nothing holds
    them (under load they waited for the collector's rare full passes)."""
    file = attachment(b"\x89PNG", DAILY_FILE)
    with discord.http.handle_message_parameters(file=file):
        pass  # sent: discord.py closes the file on leaving
    assert file.fp.read() == b"\x89PNG"  # still readable, as before
    held = weakref.ref(file.fp)
    gc.disable()
    try:
        del file
        assert held() is None
    finally:
        gc.enable()
