"""One table's feed in its channel: its events presented in order, one post at a time.

The service publishes events while it holds the table's lock, so the presenter only
queues them; the feed's worker presents them one by one: a line posted (what it says is
:mod:`bot.ui.posts`'), the table message marked stale (:mod:`bot.ui.table_message`
edits it, paced), a deal's new message, the thread opened when the match starts
(:mod:`bot.ui.threads`), the summary brought up to date. Nothing but a reminder pings
anyone. Every post carries its name (:mod:`bot.ui.lines`) and every deal's line is
recorded as posted (:mod:`bot.ui.delivery`), so a restart posts what did not go out, once.
Everything posted is in the table's language, whoever's action caused it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import i18n
from bot.render import text
from bot.render.chart import ChartData
from bot.store import TableStatus
from bot.tables import TableView
from bot.tables import events as ev

from . import lines as ln
from . import posts
from .answers import Answers
from .delivery import Delivery, Progress
from .hands import HandController
from .pacing import EditBudget, EditPacer, Pacing
from .pictures import ChartPicture, chart_of_record, drawn, show
from .records import record_file
from .summary import SummaryMessage
from .table_message import TABLE_MESSAGE, TableMessage
from .threads import SUMMARY, THREAD, THREAD_WANTED, Threads, thread_name
from .web import WebLinker

log = logging.getLogger(__name__)

QUIET = discord.AllowedMentions.none()
PING_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True)


@dataclass(frozen=True)
class FeedContext:
    """What every feed is given (the presenter's, shared by its feeds)."""

    channel: Callable[[int], discord.PartialMessageable]
    """A channel (or thread) by its id."""
    hands: HandController
    """The hand messages: the closing table tells them, a reminder asks after one."""
    delivery: Delivery
    threads: Threads
    pacing: Pacing
    answers: Answers
    stopping: asyncio.Event
    """Set when the bot stops: edits no longer wait for their turn."""
    web: WebLinker = field(default_factory=WebLinker.none)
    """The links to the web pages the posts may carry (none unless given)."""
    activity: bool = False
    """The lobby offers Play in an Activity (:mod:`bot.ui.activity`)."""


class ChannelFeed:
    """One table's feed (see the module)."""

    def __init__(
        self,
        context: FeedContext,
        table_id: int,
        channel_id: int,
        closed: Callable[[int], None],
    ) -> None:
        """``channel_id``: the channel the table was opened in; ``closed`` is called
        with the table's id once its feed has presented the table's end."""
        self.context = context
        self.table_id = table_id
        self.channel_id = channel_id
        self._closed = closed
        self.queue: asyncio.Queue[tuple[ev.Event, TableView | None]] = asyncio.Queue()
        self.progress = Progress(context.answers)
        self.unposted = 0
        """Events queued or being presented that post something."""
        self.posts_clear = asyncio.Event()
        """Set while :attr:`unposted` is nought: the table message's live edits wait
        for it, so at full speed the posts are not held up behind them."""
        self.posts_clear.set()
        self.table = TableMessage(
            lambda: self.channel,
            EditPacer(context.pacing.edit_interval, context.stopping),
            EditBudget(context.pacing.edit_burst, context.pacing.edit_refill, context.stopping),
            self.progress,
            activity=context.activity,
            posts_clear=self.posts_clear,
        )
        self.thread_id: int | None = None
        """The thread the table plays in; THREAD_WANTED until the match starts; None: the
        channel itself."""
        self.summary: SummaryMessage | None = None
        self.lobby_known = asyncio.Event()
        """The lobby message's id is known (a thread is opened on it)."""
        self.notices = 0
        """Seat notices posted during the match (each is named by its number)."""
        self.posting = 0
        """Events queued that post something (:data:`~bot.ui.posts.POSTING`)."""
        self.tricks: list[ev.TrickTaken] = []
        """The current deal's tricks, for its end."""
        self.ending: tuple[ev.DealScored, list[ev.TrickTaken]] | None = None
        """A deal's end (its score and tricks) waiting to ride on the next deal's message
        (the last deal's goes alone, before the final standings)."""
        self.delivering: ln.Line | None = None
        """The line being posted (its last part), until it is recorded as posted (a
        deal's message is recorded with its id, when its post returns)."""
        self.worker = asyncio.create_task(self._work())

    @property
    def channel(self) -> discord.PartialMessageable:
        """Where the table's posts and its table message go: its thread, or the channel."""
        return self.context.channel(self.thread_id or self.channel_id)

    @property
    def view(self) -> TableView | None:
        """The table as of the last event presented."""
        return self.table.view

    def take_stored(self, view: TableView) -> None:
        """A new feed (the table opened, or restored after a restart) takes the table's
        stored messages: its table message, its thread and summary. While a thread is
        still wanted, no deal was posted: the table message is the lobby. Once the
        thread is open, the lobby is the summary, not the table message (until the
        first deal's message is stored)."""
        table = self.table
        table.message_id = view.messages.get(TABLE_MESSAGE)
        table.lobby = view.match_id is None
        self.thread_id = view.messages.get(THREAD)
        if self.thread_id == THREAD_WANTED:
            table.lobby = True
        summary = view.messages.get(SUMMARY)
        if self.thread_id and summary is not None:
            self.context.threads.opened(self.thread_id, self.channel_id)
            self.summary = self._summary(summary, self.thread_id)
            if table.message_id == summary:
                table.message_id = None
        if table.message_id is not None:
            self.lobby_known.set()

    def adopt_message(self, message_id: int) -> None:
        """The lobby message a command posted itself is the table message."""
        self.table.message_id = message_id
        self.lobby_known.set()
        self.table.stale.set()

    def _summary(self, message_id: int, thread_id: int) -> SummaryMessage:
        pacer = EditPacer(self.context.pacing.edit_interval, self.context.stopping)
        return SummaryMessage(self.context.channel(self.channel_id), message_id, thread_id, pacer)

    def put(self, event: ev.Event, view: TableView | None) -> None:
        """Queue an event for the worker."""
        if isinstance(event, posts.POSTING):
            self.posting += 1
            self.unposted += 1
            self.posts_clear.clear()
        self.queue.put_nowait((event, view))

    # -- the worker ----------------------------------------------------------------------

    async def _work(self) -> None:
        while True:
            event, view = await self.queue.get()
            if isinstance(event, posts.POSTING):
                self.posting -= 1  # in the worker's hands now (see settled())
            try:
                with self.progress.busy(), i18n.using(posts.table_language(view or self.view)):
                    if isinstance(event, posts.POSTING) and not isinstance(event, ev.DealStarted):
                        await self._post_ending()  # the last deal's, or a table closed
                    if isinstance(event, ev.DealStarted) and view is not None:
                        # The old deal's message is closed with the old deal's last state.
                        await self._new_deal_message(view)
                    else:
                        self.table.view = view or self.view
                        await self._present(event)
            except discord.HTTPException as error:
                log.warning(
                    "channel %s: %s failed: %s", self.channel_id, type(event).__name__, error
                )
            except Exception:
                log.exception("channel %s: presenting %s failed", self.channel_id, event)
            finally:
                if isinstance(event, posts.POSTING):
                    self.unposted -= 1
                    if not self.unposted:
                        self.posts_clear.set()
                self.queue.task_done()
            if self.table.closed is not None:
                return  # the table is gone; a new table in this channel gets a new feed

    async def _present(self, event: ev.Event) -> None:
        table, view = self.table, self.view
        match event:
            case ev.TrickTaken():
                # Listed on the deal's message (paced edits), posted with the score.
                table.tricks.append(text.trick_summary(posts.labels(view), event))
                self.tricks.append(event)
                table.stale.set()
            case ev.DealScored():
                # Posted with the next deal's message, which the service announces at
                # once (the summary shows the new totals with it), else alone.
                self.ending = (event, self.tricks)
            case ev.TableRestored():
                await self._restore(event)
            case ev.MatchEnded(totals=totals, ranks=ranks, record=record):
                chart = None
                if view is not None:  # a whole match replayed for its chart: off the loop
                    chart = await asyncio.to_thread(chart_of_record, view, record)
                await self._post_end(event, chart)
                if self.summary is not None:
                    self.summary.show(view, standings=(totals, ranks), chart=chart)
            case ev.TableClosed(reason=reason, finished=over):
                await self._close(event, reason, over)
            case ev.TurnStarted(turn=turn, seconds=seconds):
                table.deadline = None if seconds is None else (turn, time.time() + seconds)
                table.stale.set()
            case ev.LobbyChanged() if table.lobby:
                table.stale.set()  # the lobby message shows the seats
            case ev.Reminder(user_id=user_id):
                live = self.context.hands.live(event.table_id, user_id)
                await self._post_event(event, hand_live=live)
            case ev.TimedOut() | ev.SeatAway():
                await self._post_event(event)
            case ev.SeatBack() | ev.LobbyChanged():  # someone is back, left, was removed
                if isinstance(event, ev.LobbyChanged):
                    self.notices += 1
                await self._post_event(event)
                table.stale.set()
            case _:
                table.stale.set()

    async def _post_event(self, event: ev.Event, *, hand_live: bool = True) -> None:
        post = posts.line(event, self.view, hand_live=hand_live)
        assert post is not None
        await self._post(post, self._name(event))

    def _name(self, event: ev.Event) -> str:
        """The post's name for an event that is not a deal's line."""
        turn = self.view.turn if self.view is not None else 0
        return ln.post_nonce(self.table_id, *ln.notice_name(event, turn, self.notices))

    async def _close(self, event: ev.TableClosed, reason: str, over: bool) -> None:
        """The table is gone: say why (unless the standings said it), close the table
        message, the summary and the thread, and the hand messages."""
        self.table.closed = reason
        closing = posts.line(event, self.view)
        if closing is not None:
            await self._post(closing, self._name(event))
        async with self.table.lock:
            await self.table.edit_now()
        if self.summary is not None:
            if not over:  # (a finished match's summary shows its standings already)
                self.summary.show(self.view, closed=i18n._(reason))
            await self.summary.flush()
            self.summary.close()
            self.context.threads.archive_later(self.summary.thread_id)
        await self.context.hands.close_table(
            event.table_id,
            None if over else reason,
            posts.table_language(self.view),
            self.channel.id,  # where the match played: its thread, or the channel
        )
        self._closed(event.table_id)

    # -- posting -------------------------------------------------------------------------

    async def _post(self, post: posts.Post, nonce: str) -> discord.Message:
        """Post in the thread (or channel) under the name ``nonce``: Discord answers a name
        it saw there in the last few minutes with the message already posted."""
        fields: dict[str, Any] = {"allowed_mentions": PING_USERS if post.pings else QUIET}
        if post.content is not None:
            fields["content"] = post.content
        if post.buttons is not None:
            fields["view"] = post.buttons
        files = [await record_file(a.record, a.filename) for a in post.files]
        embed = post.embed
        picture = None
        if post.picture is not None and self.view is not None:
            picture = await drawn(post.picture, self.view)
        if picture is not None:
            if embed is None and isinstance(post.picture, ChartPicture):
                embed = discord.Embed(title=post.picture.title)
            files.append(picture)
        if embed is not None:
            fields["embed"] = show(embed, picture)
        if files:
            fields["files"] = files
        channel = self.channel
        with self.progress.requesting("POST", channel.id):
            return await channel.send(nonce=nonce, **fields)

    async def _post_parts(
        self, parts: list[posts.Post], line: ln.Line, *, stop_records: bool = True
    ) -> discord.Message:
        """Post ``parts`` (one post, unless a deal's end made it too long for one
        message), the last under the name of ``line``, each before it under a name of its
        own: a restart after some went out posts them again under the same names, and
        Discord answers those with the messages already there. ``stop_records``: a stop
        records ``line`` once its last part is out (a deal's message is recorded with its
        id instead). The last part's message."""
        try:
            for part, post in enumerate(parts[:-1], start=1):
                await self._post(post, ln.post_nonce(self.table_id, *line, part))
            if stop_records:
                self.delivering = line
            return await self._post(parts[-1], ln.post_nonce(self.table_id, *line))
        finally:
            self.delivering = None

    def _take_ending(self) -> list[str]:
        """What the deal's end waiting to be posted says (nothing if none waits)."""
        if self.ending is None:
            return []
        (event, tricks), self.ending = self.ending, None
        return posts.deal_end(event, tricks, self.view)

    async def _post_ending(self, line: ln.Line | None = None) -> None:
        """The deal's end waiting, posted alone, under ``line`` (its score line's, unless
        said) and recorded as posted: when no deal's message follows it (the match is
        over, or the table was closed), or when a restart cannot rebuild the message of
        the deal it rode on (named as that message was, so Discord knows it if it went
        out)."""
        if self.ending is None:
            return
        line = line or ln.line_of(self.ending[0])
        await self._post_parts(posts.carrying(self._take_ending(), None), line)
        await self.context.delivery.posted(self.table_id, line)

    async def _post_end(self, event: ev.MatchEnded, chart: ChartData | None) -> None:
        """The final standings, recorded as the match's last line: a finished match whose
        end was not recorded is told again at the next start, and posted then unless it
        was recorded (the stop fell between the results stored and shown)."""
        end = ln.end_line(self.view.deal_number if self.view is not None else 0)
        if await self.context.delivery.last_posted(self.table_id) >= end:
            return
        guild = None if self.view is None else self.view.guild_id
        web = await self.context.web.match(guild, event.match_id)
        await self._post_parts([posts.result(self.view, event, chart, web)], end)
        await self.context.delivery.posted(self.table_id, end)

    async def _new_deal_message(self, view: TableView) -> None:
        """Close the last deal's message and post this deal's, with the Show hand button
        (the first deal first opens the table's thread, if it is to have one)."""
        table = self.table
        async with table.lock:
            if self.thread_id == THREAD_WANTED:
                await self._lobby_posted()
                await self._open_thread(view)
            if table.message_id is not None:
                await table.close()
            table.view, table.tricks, self.tricks = view, [], []
            line = ln.message_line(view.deal_number)
            parts = posts.carrying(self._take_ending(), posts.deal_message(view))
            try:
                message = await self._post_parts(parts, line, stop_records=False)
            except discord.HTTPException:
                table.message_id = None  # the old one is closed: edits must not go there
                raise
            table.posted(message.id, view)
        await self.context.delivery.remember(view.table_id, TABLE_MESSAGE, message.id)
        await self.context.delivery.posted(view.table_id, line)
        if self.summary is not None:
            self.summary.show(view)

    async def _lobby_posted(self) -> None:
        """Wait (a little) for the lobby message's id: the match may start while the
        command that posted the lobby has not stored its id yet."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.context.pacing.lobby_wait):
                await self.lobby_known.wait()

    async def _open_thread(self, view: TableView) -> None:
        """The match starts: open its public thread on the lobby message, which stays in
        the channel as the summary. If Discord refuses, or the lobby message is not
        known, the match plays in the channel. Call with the table message's lock held.

        The summary's role is stored before the thread's, so a restart in between opens
        the thread again (:meth:`Threads.open` takes the one Discord made)."""
        table, delivery = self.table, self.context.delivery
        lobby = table.message_id if table.lobby else None
        thread_id: int | None = None
        if lobby is not None:
            await delivery.remember(view.table_id, SUMMARY, lobby)
            with self.progress.requesting("POST", self.channel_id):
                thread_id = await self.context.threads.open(
                    self.channel_id, lobby, thread_name(view)
                )
        self.thread_id = thread_id
        await delivery.remember(view.table_id, THREAD, thread_id)
        if thread_id is None or lobby is None:
            await delivery.remember(view.table_id, SUMMARY, None)
            return
        self.context.threads.opened(thread_id, self.channel_id)
        self.summary = self._summary(lobby, thread_id)
        table.message_id, table.lobby = None, False  # the summary edits the lobby from now on

    async def _restore(self, restored: ev.TableRestored) -> None:
        """After a restart: post the lines the channel had not been shown, then say so.

        What was posted is stored line by line, so this posts exactly what a shutdown
        (or a crash) kept from going out (:func:`~bot.ui.lines.unposted`). A line that
        went out but was not recorded (the process was killed in between) is named as
        before, so Discord answers with it instead of posting it again."""
        view = self.view
        assert view is not None
        self.lobby_known.set()  # what was not stored of the lobby will not come any more
        with self.progress.quiet():
            # Later posts and edits queue behind this one.
            await asyncio.sleep(self.context.pacing.restart_quiet)
        last = await self.context.delivery.last_posted(view.table_id)
        current = view.deal_number
        if last >= ln.message_line(current):
            self.table.deal = current  # the stored table message is this deal's
        events = restored.lines
        for line, event in ln.unposted(events, last):
            match event:
                case ev.DealScored(deal_number=number):
                    self.ending = (event, ln.tricks_of(events, number))
                case ev.DealStarted(deal_number=number) if number == current:
                    await self._new_deal_message(view)
                case ev.DealStarted():  # its table is gone: what rode on it goes alone
                    await self._post_ending(line)
        names = posts.labels(view)
        self.tricks = ln.tricks_of(events, current)
        self.table.tricks = [text.trick_summary(names, trick) for trick in self.tricks]
        if view.status is not TableStatus.FINISHED:  # a finished match's end is all it misses
            await self._post_ending()
            await self._post(posts.restored(view), self._name(restored))

    # -- stopping ------------------------------------------------------------------------

    def settled(self) -> bool:
        """Nothing left to send now: no post queued, no edit to make, and whatever is at
        work only waits, for Discord's rate limit after its answer came (the post is out)
        or for the quiet after a restart (its posts are made at the next start).

        An edit waits for the worker to catch up with the events queued before it; if
        the worker only waits for the rate limit, the edit is left to the next start
        (which shows the table afresh)."""
        if self.posting or (self.summary is not None and self.summary.pending):
            return False
        if not self.progress.only_waiting():
            return False
        caught_up = not self.progress.at_work(self.worker)
        return not (caught_up and (self.table.stale.is_set() or not self.queue.empty()))

    async def record_delivered(self) -> None:
        """Shutdown: the line whose post Discord has made, while discord.py still waits
        for the rate limit before returning it, is recorded as posted now (the worker is
        stopped next). A line already posted but not recorded is known again by its
        nonce for a few minutes only; this keeps a clean stop exact after any pause."""
        if self.delivering is not None and self.progress.post_made(self.worker):
            await self.context.delivery.posted(self.table_id, self.delivering)

    def close(self) -> None:
        self.worker.cancel()
        self.table.stop()
        if self.summary is not None:
            self.summary.close()
