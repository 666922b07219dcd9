"""The pictures as Discord attachments: drawn off the event loop, never in the way.

Rendering is pure (``bot.render``) and cached per scene; here it runs in a worker thread
so the event loop keeps answering interactions meanwhile. One thread draws every
picture, one after another: the fonts and caches are shared, and FreeType's font faces
are not safe to use from two threads at once. A deal picture is pasted from parts kept
from earlier pictures (:mod:`bot.render.layers`) and costs some 3 ms, most of it the PNG
encoding, which releases the GIL: the loop runs on meanwhile. If drawing fails for any
reason the error is logged and the caller sends its text alone: a game never waits on,
or stops for, a picture.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import discord

from bot import i18n
from bot.engine import from_record
from bot.render.chart import ChartData, chart_png
from bot.render.deal_image import deal_png
from bot.render.scene import TableScene, scene_of, seat_name
from bot.tables import TableView

from .drawing import DrawingProcesses

log = logging.getLogger(__name__)

TABLE_FILE = "table.png"
CHART_FILE = "chart.png"
DAILY_FILE = "daily.png"
DRAWER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
"""The one thread that draws (see the module)."""


async def _drawn(draw: Callable[[], bytes], filename: str, what: str) -> discord.File | None:
    try:
        data = await asyncio.get_running_loop().run_in_executor(DRAWER, draw)
    except Exception:
        log.exception("drawing %s failed; sending text only", what)
        return None
    return attachment(data, filename)


class _Held(io.BytesIO):
    """An attachment's bytes that no reference cycle holds. While discord.py sends a
    file it stubs the file's ``close``, and afterwards sets the file's own bound
    ``close`` on it as an attribute: a cycle (the file, its attributes, the method, the
    file) that kept every picture's bytes until the collector's next full pass, which a
    busy bot makes rarely (``bot/heap.py``). Here that attribute is dropped instead, and
    the class's own ``close`` is the same method."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "close" and getattr(value, "__self__", None) is self:
            vars(self).pop("close", None)
        else:
            super().__setattr__(name, value)


def attachment(data: bytes, filename: str) -> discord.File:
    """``data`` as the attachment ``filename``, freed once sent (:class:`_Held`)."""
    return discord.File(_Held(data), filename=filename)


async def table_picture(view: TableView, *, over: bool = False) -> discord.File | None:
    """The deal's picture (the Domino layout in Domino), or None: the table wants text
    only, or drawing failed (logged)."""
    if not view.settings.images:
        return None
    scene = scene_of(view, over=over)
    return await _drawn(lambda: deal_png(scene), TABLE_FILE, f"table {view.table_id}")


async def chart_picture(view: TableView, data: ChartData) -> discord.File | None:
    """The score chart, or None (text only, or drawing failed: logged)."""
    if not view.settings.images or not data.scores:
        return None
    return await _drawn(lambda: chart_png(data), CHART_FILE, f"the chart of table {view.table_id}")


async def chart_file(data: ChartData, what: str) -> discord.File | None:
    """The score chart of ``data`` (a tally's: no table to ask), or None if drawing
    failed (logged)."""
    return await _drawn(lambda: chart_png(data), CHART_FILE, what)


async def daily_picture(
    scene: TableScene, processes: DrawingProcesses | None = None
) -> discord.File | None:
    """A daily attempt's table (or Domino rows), or None if drawing failed (logged);
    drawn by ``processes`` if they are used (:mod:`bot.ui.drawing`), else by the thread."""
    if processes is None or not processes.used:
        return await _drawn(lambda: deal_png(scene), DAILY_FILE, "a daily deal")
    try:
        data = await processes.deal_png(scene)
    except Exception:
        log.exception("drawing a daily deal failed; sending text only")
        return None
    return attachment(data, DAILY_FILE)


@dataclass(frozen=True)
class TablePicture:
    """The deal's picture (the table, or Domino's rows); ``over``: as the deal ended."""

    over: bool = False


@dataclass(frozen=True)
class ChartPicture:
    """The score chart of these deals, in an embed of its own titled ``title``."""

    data: ChartData
    title: str


Picture = TablePicture | ChartPicture
"""A picture a post shows in its embed (:mod:`bot.ui.posts`), drawn when it is sent."""


async def drawn(picture: Picture, view: TableView) -> discord.File | None:
    """``picture`` of the table ``view``, or None (text only, or drawing failed)."""
    match picture:
        case TablePicture(over=over):
            return await table_picture(view, over=over)
        case ChartPicture(data=data):
            return await chart_picture(view, data)


def show(embed: discord.Embed, file: discord.File | None) -> discord.Embed:
    """``embed`` with ``file`` as its picture (unchanged without one)."""
    if file is not None:
        embed.set_image(url=f"attachment://{file.filename}")
    return embed


def chart_of_scores(
    view: TableView, deals: Sequence[tuple[int, str, tuple[int, ...], tuple[int, ...]]]
) -> ChartData:
    """The chart of the deals the service lists (its ``scores``), the one in play left out."""
    in_play = view.deal_number if view.to_act is not None else None
    done = [deal for deal in deals if deal[0] != in_play]
    language = i18n.current()  # the reader's: /bonken scores answers privately
    return ChartData(
        names=tuple(seat_name(seat.name, s, language) for s, seat in enumerate(view.seats)),
        contracts=tuple(contract for _n, contract, _b, _f in done),
        scores=tuple(tuple(final) for _n, _c, _b, final in done),
        deals=view.rules.deals,
        language=language,
    )


def chart_of_record(view: TableView, record: dict[str, Any]) -> ChartData | None:
    """The chart of a finished match's record: its deals replayed for their scores after
    doubling (a stored record need not carry them). None if that fails (logged): the
    standings go without a chart."""
    try:
        match = from_record(record)
    except Exception:
        log.exception("replaying the record of table %s for its chart failed", view.table_id)
        return None
    deals = [deal for deal in match.deals if deal.contract is not None and deal.is_done]
    language = i18n.language_of(view.settings.language)  # a channel post's
    return ChartData(
        names=tuple(seat_name(seat.name, s, language) for s, seat in enumerate(view.seats)),
        contracts=tuple(deal.contract.id for deal in deals if deal.contract is not None),
        scores=tuple(tuple(deal.final_scores()) for deal in deals),
        deals=match.rules.deals,
        language=language,
    )
