"""A scoresheet's posts in its thread: ordered, named, each sent once, also across a crash.

What a sheet's thread is told are its lines: each change (an undo, a correction, the
cancelling) in the order the sheet lists them, numbered from 1, and once the last deal is
in, the final standings with the chart and the record (the line after the last change).
They are all read from the tally as the service stores it, so the feed posts whatever
lines come after the last one that went out, one at a time, and keeps that number with
the sheet (its message of role :data:`POSTED`) after each: a click's entry is stored
before its line is posted, and a stop or a crash between the two leaves the line for the
next start (:meth:`TallyFeed.restore`), which posts it. Every post carries its name
(Discord's nonce, :func:`~bot.ui.lines.post_nonce`), so one made again after a crash that
hit just after Discord took it is answered with the message already there.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot import i18n
from bot.i18n import _
from bot.render import tally as words
from bot.store import TallyStatus
from bot.tally import Made, TallyRefusal, TallyService, TallyView

from .lines import post_nonce
from .pictures import chart_file
from .records import record_file
from .replies import literal
from .tally_sheet import SUMMARY, closed_text, deal_block, person_of
from .threads import THREAD, Threads
from .web import WebLinker, with_web_link

log = logging.getLogger(__name__)

POSTED = "posted"
"""The sheet's "message" under which the number of its last line posted is kept (a
number, as a message id is one). A sheet without it was opened before the feed counted
its lines: the posts of its changes were made then."""
RECALLED = timedelta(days=1)
"""How long after its end a sheet's missing lines are still posted at a start."""
QUIET = discord.AllowedMentions.none()


class TallyFeed:
    """Every scoresheet's thread posts (see the module)."""

    def __init__(
        self,
        service: TallyService,
        channel: Callable[[int], discord.PartialMessageable],
        threads: Threads,
        web: WebLinker | None = None,
    ) -> None:
        """``channel``: a channel or thread by its id; ``threads``: archives a closed
        sheet's thread; ``web``: the link to the sheet's page its final standings carry."""
        self._web = web or WebLinker.none()
        self._service = service
        self._channel = channel
        self._threads = threads
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def opened(self, tally_id: int) -> None:
        """A new sheet: its lines are counted from here (nothing posted yet)."""
        await self._service.remember_message(tally_id, POSTED, 0)

    async def catch_up(self, tally_id: int) -> None:
        """Post the sheet's lines after the last one posted, in order, each once; once
        the sheet is closed, its channel line is brought up to date and its thread
        archived."""
        lock = self._locks.get(tally_id)
        if lock is None:
            lock = self._locks[tally_id] = asyncio.Lock()
        async with lock:
            view = await self._service.view(tally_id)
            last = view.messages.get(POSTED)
            if last is None:
                return
            where = self._channel(view.messages.get(THREAD) or view.channel_id)
            posted = last
            for line, post in self._lines(view, after=last):
                if post is None:  # the final standings, made only when they are due
                    post = await final_post(view, await self._service.record(tally_id))
                    link = with_web_link(None, await self._web.sheet(view.guild_id, tally_id))
                    if link is not None:
                        post["view"] = link
                try:
                    await where.send(
                        nonce=post_nonce(tally_id, "tally", line), allowed_mentions=QUIET, **post
                    )
                except discord.HTTPException as error:  # (not sent again: it may be refused)
                    log.warning("tally %s: line %s could not be posted: %s", tally_id, line, error)
                await self._service.remember_message(tally_id, POSTED, line)
                posted = line
            if posted != last and not view.is_open:
                await self._closed(view)

    async def restore(self, owns: Callable[[int], bool]) -> int:
        """After a start: post what the sheets of this process's servers (``owns``)
        still owe their threads (open ones, and those closed in the last
        :data:`RECALLED`); the number of sheets looked at."""
        since = datetime.now(UTC) - RECALLED
        sheets = [t for t, guild in await self._service.marked_since(POSTED, since) if owns(guild)]
        for tally_id in sheets:
            try:
                await self.catch_up(tally_id)
            except (TallyRefusal, discord.HTTPException) as error:
                log.warning("tally %s: its missing lines were not posted: %s", tally_id, error)
        return len(sheets)

    def _lines(self, view: TallyView, *, after: int) -> Iterator[tuple[int, dict[str, Any] | None]]:
        """The sheet's lines after ``after``, as ``(number, the post's fields)``; None
        for the final standings (their record and chart are made when they are due)."""
        for number in range(1, len(view.changes) + 1):
            if number > after:
                yield number, self._change_post(view, number)
        end = len(view.changes) + 1
        if view.status is TallyStatus.FINISHED and end > after:
            yield end, None

    def _change_post(self, view: TallyView, number: int) -> dict[str, Any]:
        change = view.changes[number - 1]
        with i18n.using(view.language):
            line = words.change_text(view, change, person_of(view))
            text = f"✎ {literal(line)}"
            if change.made is Made.CORRECT and change.deal is not None:
                text += "\n" + deal_block(view, view.deals[change.deal - 1])
        return {"content": text[:2000]}

    async def _closed(self, view: TallyView) -> None:
        if SUMMARY in view.messages:
            with i18n.using(view.language):
                text = summary_text(view) + "\n" + closed_text(view)
            try:
                message = self._channel(view.channel_id).get_partial_message(view.messages[SUMMARY])
                await message.edit(content=text[:2000])
            except discord.HTTPException as error:
                log.warning("tally %s: editing the summary failed: %s", view.tally_id, error)
        thread = view.messages.get(THREAD)
        if thread:
            self._threads.archive_later(thread)


def summary_text(view: TallyView) -> str:
    """The channel's line about a threaded sheet."""
    names = ", ".join(literal(name) for name in view.names)
    return "📝 " + _("Scoresheet of {names}: the scores are kept in the thread below.", names=names)


async def final_post(view: TallyView, record: dict[str, Any]) -> dict[str, Any]:
    """The final standings, with the chart (where the sheet shows pictures) and the
    record, in the sheet's language."""
    with i18n.using(view.language):
        text = closed_text(view)
        if any(seat.user_id is not None for seat in view.seats):  # guests reach no standings
            counted = _("It counts in this server's season standings, as a match played here.")
            text += "\n\n" + counted
        embed = discord.Embed(
            title=_("The match is over"), description=text, colour=discord.Colour.gold()
        )
        files = [await record_file(record, record_name(view))]
        chart = await chart_of(view) if view.images else None
    if chart is not None:
        embed.set_image(url=f"attachment://{chart.filename}")
        files.append(chart)
    return {"embed": embed, "files": files}


async def chart_of(view: TallyView) -> discord.File | None:
    """The sheet's score chart so far (None before its first deal), in the current
    language."""
    if not view.deals:
        return None
    data = words.chart_data(view, i18n.current())
    return await chart_file(data, f"the chart of tally {view.tally_id}")


def record_name(view: TallyView) -> str:
    return f"bonken-tally-{view.tally_id}.json"
