"""The feed's timings, and the pacing of a message edited in place.

Discord lets a channel take five posts or edits in five seconds. A table message (and a
threaded match's summary) would change with every card; instead its changes are
coalesced and it is edited at most once per :attr:`Pacing.edit_interval`, counted from
the end of the last edit, so an edit that had to wait for Discord's rate limit is never
followed by another at once. The timings are given to the presenter (Discord's, from
:class:`Pacing`'s defaults), so a test passes small ones instead of patching constants.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Pacing:
    """How the presenter keeps time (seconds)."""

    edit_interval: float = 1.0
    """Between two edits of one message (from the end of one to the start of the next)."""
    drain_seconds: float = 5.0
    """At shutdown, how long at most to go on sending what is queued; the rest is posted
    at the next start."""
    restart_quiet: float = 5.0
    """How long a restored table's channel stays quiet before its first post or edit: one
    of Discord's rate-limit windows. The last run may have used the window up on its way
    down (it drains its queue), and a new process cannot know; posting at once would
    draw a 429."""
    archive_after: float = 300.0
    """After the match ends, before the bot archives its thread (time to read the end)."""
    lobby_wait: float = 5.0
    """How long the first deal waits for the lobby message's id (the command that posted
    it stores it just after Discord answered) before giving up its thread."""


class EditPacer:
    """Keeps one message's edits ``interval`` apart, but not once ``stopping`` is set (the
    last edit goes out at once; discord.py keeps it within the rate limit)."""

    def __init__(self, interval: float, stopping: asyncio.Event) -> None:
        self._interval = interval
        self._stopping = stopping
        self._last_edit = 0.0

    async def wait_turn(self) -> None:
        """Wait until the next edit may start."""
        wait = self._last_edit + self._interval - time.monotonic()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), wait)

    def edited(self) -> None:
        """An edit (or the message's post) has just ended: the interval counts from now."""
        self._last_edit = time.monotonic()
