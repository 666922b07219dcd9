"""The table service's way out to Discord: each table's events to its feed, and the
hand messages told what concerns them.

The presenter is the ``publish`` callback the service was given. It keeps one
:class:`~bot.ui.feed.ChannelFeed` per open table (built when the table's first event
comes, from what is stored of its messages), queues each event there, and coordinates
the private hand messages, which do not wait in that queue (their webhook is not in the
channel's rate-limit bucket): a person's turn lights their hand up at once, a timeout
takes it away, a restored table finds its open hands again.

Where the rest of the channel's work is:

- what a post says: :mod:`bot.ui.posts` (pure: the event and the table's view in);
- the order of a deal's posts and the name of each: :mod:`bot.ui.lines`;
- the feed, one post at a time: :mod:`bot.ui.feed`; its table message, edited in place
  and paced: :mod:`bot.ui.table_message`, :mod:`bot.ui.pacing`; a threaded match's
  summary: :mod:`bot.ui.summary`;
- the tables' threads: :mod:`bot.ui.threads`;
- what was delivered, for a restart and a stop: :mod:`bot.ui.delivery`,
  :mod:`bot.ui.answers`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.store.delivery import DeliveryStore
from bot.tables import TableService, TableView
from bot.tables import events as ev

from .answers import Answers
from .delivery import Delivery
from .feed import ChannelFeed, FeedContext
from .hands import HandController
from .pacing import Pacing
from .threads import Threads
from .web import WebLinker

log = logging.getLogger(__name__)

SETTLE_POLL = 0.01
"""At shutdown, how often to look whether every channel has sent what it had."""


class Presenter:
    """The service's ``publish`` callback for Discord (see the module)."""

    def __init__(
        self,
        service: TableService,
        delivery: DeliveryStore,
        hands: HandController,
        channel: Callable[[int], discord.PartialMessageable],
        http: discord.http.HTTPClient,
        answers: Answers,
        pacing: Pacing,
        web: WebLinker | None = None,
        *,
        activity: bool = False,
    ) -> None:
        """``service`` keeps the table's message ids; ``delivery``: the last line each
        channel was shown; ``channel``: a channel (or thread) by its id; ``http``:
        Discord's calls for threads (which have no object of their own here);
        ``answers``: Discord's answers to the bot's requests, counted by the trace on its
        HTTP session; ``pacing``: the timings; ``web``: the links to the web pages (none by
        default); ``activity``: the lobby offers Play in an Activity."""
        self.hands = hands
        self.threads = Threads(http, pacing.archive_after)
        self.pacing = pacing
        self._context = FeedContext(
            channel=channel,
            hands=hands,
            delivery=Delivery(delivery, service),
            threads=self.threads,
            pacing=pacing,
            answers=answers,
            stopping=asyncio.Event(),
            web=web or WebLinker.none(),
            activity=activity,
        )
        self._feeds: dict[int, ChannelFeed] = {}
        """Each table's feed, by table id (a new table in a channel gets its own, also
        while the last one still posts its end)."""

    async def publish(self, event: ev.Event, view: TableView | None) -> None:
        feed = self._feeds.get(event.table_id)
        if feed is None:
            feed = ChannelFeed(self._context, event.table_id, event.channel_id, self._drop)
            self._feeds[event.table_id] = feed
            if view is not None:
                feed.take_stored(view)
        if isinstance(event, ev.TableRestored):
            await self.hands.restore(event.table_id)
        feed.put(event, view)
        self._refresh_hands(event, view)

    def _refresh_hands(self, event: ev.Event, view: TableView | None) -> None:
        """A person's turn lights their hand up now, not behind the channel's queue; a
        timeout takes it away (the computer acted)."""
        if isinstance(event, ev.TurnStarted) and event.seconds is not None and view is not None:
            user_id = view.seats[event.seat].user_id
            if user_id is not None:
                self.hands.request_refresh(event.table_id, user_id)
        if isinstance(event, ev.TimedOut):
            self.hands.request_refresh(event.table_id, event.user_id)

    async def unshown_ends(self) -> list[tuple[int, int]]:
        """The finished tables (with their matches) whose end a stop kept from being
        shown: the service tells them again (:meth:`~bot.tables.TableService.restore_end`)."""
        return await self._context.delivery.unshown_ends()

    def adopt_message(self, table_id: int, message_id: int) -> None:
        """The lobby message a command posted itself becomes the table message."""
        feed = self._feeds.get(table_id)
        if feed is not None:
            feed.adopt_message(message_id)

    def table_channel(self, channel_id: int) -> int:
        """The channel whose table plays in this thread, or ``channel_id`` itself."""
        return self.threads.table_channel(channel_id)

    def _drop(self, table_id: int) -> None:
        """The table's end is presented: its feed is done (the worker, the caller, ends
        by itself)."""
        feed = self._feeds.pop(table_id, None)
        if feed is not None:
            feed.table.stop()

    async def idle(self) -> None:
        """Wait until every queued event has been presented and every hand refreshed."""
        for feed in list(self._feeds.values()):
            await feed.queue.join()
        await self.hands.idle()

    async def drain(self) -> None:
        """Shutdown: send what is queued and the pending edits, for at most the pacing's
        ``drain_seconds``, and not a moment longer than that takes: a post Discord has
        answered is out, whatever discord.py's rate limiter still waits for, and a
        restored channel's quiet has nothing to send. Lines that did not go out are
        posted at the next start, from what the store says was posted (and by their
        names, not twice). Hand messages are brought up to date after the start."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.pacing.drain_seconds
        self._context.stopping.set()
        while not all(feed.settled() for feed in self._feeds.values()):
            if loop.time() >= deadline:
                left = sum(feed.queue.qsize() for feed in self._feeds.values())
                log.warning(
                    "shutting down with %d event(s) not presented; posted at next start", left
                )
                break
            await asyncio.sleep(SETTLE_POLL)  # progress comes from many tasks and answers
        for feed in list(self._feeds.values()):
            await feed.record_delivered()

    def close(self) -> None:
        """Stop every feed, whatever it was doing (after :meth:`drain`)."""
        for feed in self._feeds.values():
            feed.close()
        self._feeds.clear()
        self.threads.close()
