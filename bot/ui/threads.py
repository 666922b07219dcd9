"""The tables' threads: opened on a lobby message, found from an interaction, archived.

A table whose server plays in threads (the default, where the bot may open them) is
opened wanting one (:data:`THREAD_WANTED` stored as its :data:`THREAD`); when its match
starts, a public thread is opened on the lobby message, every post and the table
message go there, and the lobby stays in the channel as the match's summary. The
thread's id is kept with the table's messages, so a restart finds it; the thread is
archived a while after the match ends (or, should the bot be down then, by Discord
after :data:`AUTO_ARCHIVE_MINUTES` without a post).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

import discord

from bot.tables import TableView

from .embeds import compass, plain_name

log = logging.getLogger(__name__)

THREAD = "thread"
"""The table's message role for its thread: the thread's id, or THREAD_WANTED."""
THREAD_WANTED = 0
"""Stored as the thread before the match starts: open one then (none: play in the channel)."""
SUMMARY = "summary"
"""The role of the lobby message kept in the channel as the summary of a threaded match."""
AUTO_ARCHIVE_MINUTES: Literal[60] = 60
"""Discord archives the thread after this long without posts (the shortest it allows),
should the bot be down when it would have archived it itself."""
THREAD_EXISTS = 160004
"""Discord's error for a second thread on one message: the first run made it."""
THREAD_NAME_LIMIT = 100
"""Discord's longest thread name."""


def thread_name(view: TableView) -> str:
    """ "Bonken · Ann, Bob, Cas, Dirk", cut to Discord's limit (plain text: a thread name
    shows no Markdown, so nothing is escaped)."""
    names = ", ".join(plain_name(seat) or compass(i) for i, seat in enumerate(view.seats))
    name = f"Bonken · {names}"
    if len(name) > THREAD_NAME_LIMIT:
        name = name[: THREAD_NAME_LIMIT - 1].rstrip() + "…"
    return name


class Threads:
    """The open threads of the tables this process presents, by the channel each
    table was opened in."""

    def __init__(self, http: discord.http.HTTPClient, archive_after: float) -> None:
        """``http``: Discord's calls for a thread (it has no object of its own here);
        ``archive_after``: seconds from the match's end to archiving its thread."""
        self._http = http
        self._archive_after = archive_after
        self._channels: dict[int, int] = {}
        """Thread id -> the channel of the table playing in it."""
        self._archiving: set[asyncio.Task[None]] = set()

    def table_channel(self, channel_id: int) -> int:
        """The channel whose table plays in this thread, or ``channel_id`` itself: an
        interaction from a table's thread is about that table."""
        return self._channels.get(channel_id, channel_id)

    def opened(self, thread_id: int, channel_id: int) -> None:
        """The table of ``channel_id`` plays in ``thread_id`` (opened now, or before a
        restart)."""
        self._channels[thread_id] = channel_id

    async def open(self, channel_id: int, lobby_id: int, view: TableView) -> int | None:
        """Open the match's public thread on its lobby message: the thread's id, or None
        if Discord refuses (the match then plays in the channel). If the message has its
        thread already (a run killed after opening it), that one is the match's: a
        thread opened on a message has the message's id."""
        try:
            thread = await self._http.start_thread_with_message(
                channel_id,
                lobby_id,
                name=thread_name(view),
                auto_archive_duration=AUTO_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as error:
            if error.code == THREAD_EXISTS:
                return lobby_id
            log.warning("channel %s: no thread, playing here: %s", channel_id, error)
            return None
        return int(thread["id"])

    def archive_later(self, thread_id: int) -> None:
        """The match is over: archive its thread after a while (if the bot stops first,
        Discord's auto-archive does it)."""
        self._channels.pop(thread_id, None)
        task = asyncio.create_task(self._archive(thread_id))
        self._archiving.add(task)
        task.add_done_callback(self._archiving.discard)

    async def _archive(self, thread_id: int) -> None:
        await asyncio.sleep(self._archive_after)
        try:
            await self._http.edit_channel(thread_id, archived=True)
        except discord.HTTPException as error:
            log.warning("thread %s: archiving failed: %s", thread_id, error)

    def close(self) -> None:
        for task in self._archiving:
            task.cancel()
