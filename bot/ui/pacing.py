"""The feed's timings, and the pacing of a message edited in place.

Discord lets a channel take five posts or edits in five seconds. A table message (and a
threaded match's summary) would change with every card; instead its changes are
coalesced and it is edited at most once per :attr:`Pacing.edit_interval`, counted from
the end of the last edit, so an edit that had to wait for Discord's rate limit is never
followed by another at once. A table message is also held to an :class:`EditBudget`:
a few edits at once after a calm spell, then one per :attr:`Pacing.edit_refill` while
play is fast, since every edit counts against the bot's global limit with Discord and
so decides how many tables one bot can host. The timings are given to the presenter
(Discord's, from :class:`Pacing`'s defaults), so a test passes small ones instead of
patching constants.
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
    edit_burst: int = 3
    """How many edits of a table message may follow each other, at :attr:`edit_interval`,
    after a calm spell: the first changes after a pause show at once, and so does every
    change while they come no faster than one per :attr:`edit_refill`."""
    edit_refill_intervals: float = 4.0
    """How many :attr:`edit_interval` it takes to earn one more edit of a table message
    (4 s by default): while the cards come faster than that (the computers at the default
    pace, people playing at once) the message shows the newest state every 4 s or so,
    and a deal costs some 12 calls instead of one edit a second. A person sees the trick
    so far on their own hand message when their turn comes, which is no channel call."""
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

    @property
    def edit_refill(self) -> float:
        """Seconds to earn one more edit of a table message."""
        return self.edit_interval * self.edit_refill_intervals


async def wait_at_most(event: asyncio.Event, seconds: float) -> None:
    """Wait until ``event`` is set or ``seconds`` have passed.

    ``asyncio.timeout``, not ``asyncio.wait_for``: on Python 3.11, a task cancelled just
    as the event is set (a bot stopping sets the event and cancels its editors together)
    had ``wait_for`` return normally and drop the cancellation, so the editor went back
    to waiting for an edit forever and the stop never ended."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()


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
            await wait_at_most(self._stopping, wait)

    def edited(self) -> None:
        """An edit (or the message's post) has just ended: the interval counts from now."""
        self._last_edit = time.monotonic()


class EditBudget:
    """A table message's edits over time, as a token bucket: :attr:`Pacing.edit_burst`
    edits in hand after a calm spell, one more earned every ``refill`` seconds. The
    editor waits for one in hand before a change is shown (:meth:`ready`); a deal's last
    edit, which must show how it ended, does not wait but is counted all the same
    (:meth:`spend` may leave the budget in debt), so the calls of a table over time stay
    within the budget whatever the pace. Once ``stopping`` is set nothing waits."""

    def __init__(self, burst: int, refill: float, stopping: asyncio.Event) -> None:
        self._burst = burst
        self._refill = refill
        self._stopping = stopping
        self._tokens = float(burst)
        self._stamp = time.monotonic()

    def _level(self) -> float:
        """The edits in hand now (below 1: the next one is not earned yet)."""
        if self._refill <= 0:
            return float(self._burst)
        earned = (time.monotonic() - self._stamp) / self._refill
        return min(float(self._burst), self._tokens + earned)

    async def ready(self) -> None:
        """Wait until an edit is in hand (or the bot stops)."""
        while (short := 1.0 - self._level()) > 0 and not self._stopping.is_set():
            await wait_at_most(self._stopping, short * self._refill)

    def spend(self) -> None:
        """An edit is being made: one fewer in hand (perhaps fewer than none)."""
        self._tokens = self._level() - 1.0
        self._stamp = time.monotonic()
