"""Turning table events into channel messages, within Discord's rate limits.

The service publishes events while it holds a table's lock, so :meth:`Presenter.publish`
only snapshots the table and queues the event; one worker per channel sends in order.
The table message is never edited per event: changes mark it dirty and one editor per
channel applies the newest state at most once a second. Each deal gets a fresh message
(Discord limits edits to old messages), trick and score lines are posted as they happen,
and nothing but a reminder pings anyone. A person's hand refresh does not wait in this
queue: it goes through the interaction's webhook, another rate-limit bucket.

A table whose server plays in threads (the default, when the bot may) opens a public
thread on its lobby message when the match starts: every post and the table message go
there, and the lobby message stays in the channel as the match's summary
(:class:`~bot.ui.summary.SummaryMessage`). The thread's id is kept with the table's
messages, so a restart finds it; it is archived a while after the match ends.

Everything posted in the channel (or thread) is in the table's language
(:func:`table_language`), whoever's action caused it.

Each line posted is recorded in the store, so shutting down drains the queue for a few
seconds and the next start posts what still did not go out (:class:`~bot.tables.events.
TableRestored`). Every post carries a nonce naming what it is (:func:`post_nonce`), and
Discord answers a post whose nonce it saw in that channel in the last few minutes with
the message already there: a post that went out but was not yet recorded when the bot
was killed is not repeated by the next start, it is recorded then.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord.utils import MISSING

from bot import i18n
from bot.i18n import N_, _
from bot.render import text
from bot.render.chart import ChartData
from bot.store import SCORE_STEP, StoreError, TableStatus
from bot.tables import Refusal, TableView
from bot.tables import events as ev
from bot.tables.table import SEAT_NAMES

from .answers import Answers, Request
from .components import lobby_view, rematch_view, table_view
from .embeds import deal_embed, lobby_embed, seat_labels
from .pictures import chart_of_record as chart_of
from .pictures import chart_picture, show, table_picture
from .records import record_file
from .replies import literal
from .summary import SummaryMessage, thread_name

if TYPE_CHECKING:
    from bot.app import BonkenBot

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0
"""Seconds between two edits of one channel's table message (from the end of one edit
to the start of the next, so a slow or rate-limited edit is never followed at once)."""
DRAIN_SECONDS = 5.0
"""At shutdown, how long at most to go on sending what is queued; the rest is posted at
the next start (see :meth:`ChannelFeed._restore`)."""
SETTLE_POLL = 0.01
"""At shutdown, how often to look whether every channel has sent what it had."""
NONCE_LIMIT = 25
"""Discord's longest message nonce."""
LOBBY_WAIT = 5.0
"""Seconds the first deal waits for the lobby message's id (the command that posted it
stores it just after Discord answered) before giving up its thread."""
THREAD_EXISTS = 160004
"""Discord's error for a second thread on one message: the first run made it."""
QUIET = discord.AllowedMentions.none()
PING_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True)
TABLE_MESSAGE = "table"
THREAD = "thread"
"""The table's message role for its thread: the thread's id, or THREAD_WANTED."""
THREAD_WANTED = 0
"""Stored as the thread before the match starts: open one then (none: play in the channel)."""
SUMMARY = "summary"
"""The role of the lobby message kept in the channel as the summary of a threaded match."""
AUTO_ARCHIVE_MINUTES: Literal[60] = 60
"""Discord archives the thread after this long without posts (the shortest it allows),
should the bot be down when it would have archived it itself."""
ARCHIVE_AFTER = 300.0
"""Seconds after the match ends before the bot archives its thread (time to read the end)."""
RESTART_QUIET = 5.0
"""Seconds a restored table's channel stays quiet before the first post or edit: one of
Discord's rate-limit windows. The last run may have used the window up on its way down
(it drains its queue), and a new process cannot know; posting at once would draw a 429."""
RESTORED = N_(
    "The bot restarted; the table is restored. Press **Show my hand** if your hand "
    "stopped updating."
)
RESTORED_LOBBY = N_("The bot restarted; the table is restored.")
CHART_TITLE = N_("The match, deal by deal")
"""Above the score chart under the final standings."""


def post_nonce(table_id: int, *what: object) -> str:
    """The name of a post for Discord's ``enforce_nonce``: the table and what the post is
    (a deal and its step, a turn and its notice), so a post made again after a restart
    is the same post. At most :data:`NONCE_LIMIT` characters (a hash if longer)."""
    name = ".".join(str(part) for part in ("bk", table_id, *what))
    if len(name) <= NONCE_LIMIT:
        return name
    return hashlib.blake2b(name.encode(), digest_size=12).hexdigest()


def table_language(view: TableView | None) -> str:
    """The language of a table's channel posts: chosen when it was opened (the table's
    option, else the server's setting, else the server's preferred locale)."""
    return i18n.language_of(view.settings.language if view is not None else None)


def said(words: ev.Words) -> str:
    """An event's sentence (its catalogue message and values) in the current language."""
    message, values = words
    return _(message, **dict(values))


POSTING = (
    ev.DealStarted,
    ev.TrickTaken,
    ev.DealScored,
    ev.MatchEnded,
    ev.TableClosed,
    ev.TableRestored,
    ev.Reminder,
    ev.TimedOut,
    ev.SeatAway,
    ev.SeatBack,
    ev.LobbyChanged,
)
"""The events that post something (or may: a lobby change, during a match); the others
change the table message only."""

Line = tuple[int, int]
"""A line of the channel as (deal, step): step 0 the deal's message, 1-13 a trick line,
``SCORE_STEP`` the score line; lines compare in the order they are posted."""


class ChannelFeed:
    """One table's queue of events, its table message and its edit pacing, in the
    table's thread or channel."""

    def __init__(self, presenter: Presenter, table_id: int, channel_id: int) -> None:
        self.presenter = presenter
        self.table_id = table_id
        self.channel_id = channel_id
        self.queue: asyncio.Queue[tuple[ev.Event, TableView | None]] = asyncio.Queue()
        self.view: TableView | None = None
        """The table as of the last event presented: what the table message shows."""
        self.message_id: int | None = None
        self.message_deal: int | None = None
        """The deal the table message was posted for (None: the lobby, or not known)."""
        self.lobby = True
        """The table message is still the lobby message (no deal posted yet)."""
        self.closed: str | None = None
        self.thread_id: int | None = None
        """The thread the table plays in; THREAD_WANTED until the match starts; None: the
        channel itself."""
        self.summary: SummaryMessage | None = None
        self.dirty = asyncio.Event()
        self.edit_lock = asyncio.Lock()
        """Held for every edit of the table message, so edits never overlap or reorder."""
        self.last_edit = 0.0
        self.tricks: list[str] = []
        """The current deal's finished tricks, one line each, for its table message."""
        self.deadline: tuple[int, float] | None = None
        """(turn, Unix time) a person's turn runs out, for the table message's countdown."""
        self.lobby_known = asyncio.Event()
        """The lobby message's id is known (a thread is opened on it)."""
        self.notices = 0
        """Lobby notices posted during the match (each is named by its number)."""
        self.posting = 0
        """Events queued that post something (:data:`POSTING`)."""
        self.delivering: Line | None = None
        """The trick or score line being posted, until it is recorded as posted (a deal's
        message is recorded with its id, when its post returns)."""
        self.at_work: dict[asyncio.Task[Any], Request | Literal["busy", "quiet"]] = {}
        """The worker's and the editor's state while they present something: busy, a
        request to Discord on its way, or keeping quiet (see :meth:`settled`)."""
        self.worker = asyncio.create_task(self._work())
        self.editor = asyncio.create_task(self._edit_loop())

    @property
    def channel(self) -> discord.PartialMessageable:
        """Where the table's posts and its table message go: its thread, or the channel."""
        return self.presenter.bot.get_partial_messageable(self.thread_id or self.channel_id)

    async def _work(self) -> None:
        while True:
            event, view = await self.queue.get()
            if isinstance(event, POSTING):
                self.posting -= 1  # in the worker's hands now (see settled())
            try:
                with self._busy(), i18n.using(table_language(view or self.view)):
                    if isinstance(event, ev.DealStarted) and view is not None:
                        # The old deal's message is closed with the old deal's last state.
                        await self._new_deal_message(view)
                    else:
                        self.view = view or self.view
                        await self._handle(event)
            except discord.HTTPException as error:
                log.warning(
                    "channel %s: %s failed: %s", self.channel_id, type(event).__name__, error
                )
            except Exception:
                log.exception("channel %s: presenting %s failed", self.channel_id, event)
            finally:
                self.queue.task_done()
            if self.closed is not None:
                return  # the table is gone; a new table in this channel gets a new feed

    async def _handle(self, event: ev.Event) -> None:
        labels = seat_labels(self.view, short=True) if self.view else list(SEAT_NAMES)
        match event:
            case ev.TrickTaken() | ev.DealScored():
                deal = self.view.deal_number if self.view else 0
                if isinstance(event, ev.TrickTaken):
                    self.tricks.append(text.trick_summary(labels, event))
                await self._post_line(labels, event, deal)
                if isinstance(event, ev.DealScored) and self.summary is not None:
                    self.summary.show(self.view)
            case ev.TableRestored(lines=lines):
                await self._restore(labels, lines)
            case ev.MatchEnded(match_id=match_id, totals=totals, ranks=ranks, record=record):
                # The record is replayed for the chart in a worker thread, off the loop.
                view = self.view
                chart = None if view is None else await asyncio.to_thread(chart_of, view, record)
                await self._post_result(
                    labels, event.table_id, match_id, totals, ranks, record, chart
                )
                if self.summary is not None:
                    self.summary.show(self.view, standings=(totals, ranks), chart=chart)
            case ev.TableClosed(reason=reason, finished=over):
                self.closed = reason
                if not over:
                    closed = _("The table is closed: {reason}.", reason=_(reason))
                    await self._post(closed, post_nonce(event.table_id, "closed"))
                async with self.edit_lock:
                    await self._edit_now()
                if self.summary is not None:
                    self.summary.show(self.view, closed=None if over else _(reason))
                    await self.summary.flush()
                    self.summary.close()
                    self.presenter.archive_later(self.summary.thread_id)
                await self.presenter.bot.hands.close_table(
                    event.table_id,
                    None if over else reason,
                    table_language(self.view),
                    self.channel.id,
                )
                self.presenter.drop(event.table_id)
            case ev.Reminder(user_id=user_id, seconds_left=left):
                fresh = (
                    ""
                    if self.presenter.bot.hands.live(event.table_id, user_id)
                    else " " + _("Press **Show my hand** for your cards.")
                )
                # A restart times the turn again: its reminder is the same post.
                await self._send(
                    post_nonce(event.table_id, "remind", self._turn()),
                    content=_(
                        "<@{user}>, it is your turn: {seconds} seconds left before a computer "
                        "plays for you.",
                        user=user_id,
                        seconds=f"{left:.0f}",
                    )
                    + fresh,
                    allowed_mentions=PING_USERS,
                )
            case ev.TimedOut(seat=seat):
                await self._post(
                    _("{name} ran out of time; a computer played for them.", name=labels[seat]),
                    post_nonce(event.table_id, "timeout", self._turn()),
                )
            case ev.SeatAway(seat=seat):
                await self._post(
                    _(
                        "{name} is away: a computer plays their seat until they act again "
                        "(or use `/bonken back`).",
                        name=labels[seat],
                    ),
                    post_nonce(event.table_id, "away", self._turn(), seat),
                )
            case ev.SeatBack(seat=seat):
                await self._post(
                    _("{name} is back.", name=labels[seat]),
                    post_nonce(event.table_id, "back", self._turn(), seat),
                )
                self.dirty.set()
            case ev.TurnStarted(turn=turn, seconds=seconds):
                self.deadline = None if seconds is None else (turn, time.time() + seconds)
                self.dirty.set()
            case ev.LobbyChanged(what=what, words=words) if not self.lobby:
                # someone left, was removed, took over
                self.notices += 1
                await self._post(
                    f"{literal(said(words) if words[0] else what)}.",
                    post_nonce(event.table_id, "seat", self._turn(), self.notices),
                )
                self.dirty.set()
            case _:
                self.dirty.set()

    def _turn(self) -> int:
        """The table's turn as the event being presented left it (a notice's name)."""
        return self.view.turn if self.view is not None else 0

    async def _post(self, content: str, nonce: str) -> None:
        await self._send(nonce, content=content, allowed_mentions=QUIET)

    async def _send(self, nonce: str, **fields: Any) -> discord.Message:
        """Post in the thread (or channel) under the name ``nonce``: Discord answers a name
        it saw there in the last few minutes with the message already posted."""
        channel = self.channel
        with self._requesting("POST", channel.id):
            return await channel.send(nonce=nonce, **fields)

    @contextlib.contextmanager
    def _busy(self) -> Iterator[None]:
        """The current task presents something (see :meth:`settled`)."""
        task = asyncio.current_task()
        assert task is not None
        self.at_work[task] = "busy"
        try:
            yield
        finally:
            del self.at_work[task]

    @contextlib.contextmanager
    def _requesting(self, method: str, channel_id: int) -> Iterator[None]:
        """A request of the current task's is on its way to Discord."""
        task = asyncio.current_task()
        assert task is not None
        before = self.at_work.get(task)
        self.at_work[task] = self.presenter.answers.begin(method, channel_id)
        try:
            yield
        finally:
            if before is None:
                del self.at_work[task]
            else:
                self.at_work[task] = before

    def put(self, event: ev.Event, view: TableView | None) -> None:
        """Queue an event for the worker."""
        if isinstance(event, POSTING):
            self.posting += 1
        self.queue.put_nowait((event, view))

    def settled(self) -> bool:
        """Nothing left to send now: no post queued, no edit to make, and whatever is at
        work only waits, for Discord's rate limit after its answer came (the post is out)
        or for the quiet after a restart (its posts are made at the next start).

        An edit waits for the worker to catch up with the events queued before it; if
        the worker only waits for the rate limit, the edit is left to the next start
        (which shows the table afresh)."""
        if self.posting or (self.summary is not None and self.summary.pending):
            return False
        answers = self.presenter.answers
        if any(
            not (state == "quiet" or (isinstance(state, Request) and answers.answered(state)))
            for state in self.at_work.values()
        ):
            return False
        caught_up = self.worker not in self.at_work
        return not (caught_up and (self.dirty.is_set() or not self.queue.empty()))

    async def _post_line(
        self, labels: list[str], event: ev.TrickTaken | ev.DealScored, deal: int
    ) -> None:
        """A trick or score line, remembered as posted so a restart does not repeat it."""
        if isinstance(event, ev.TrickTaken):
            line = (deal, event.number)
            words = text.trick_text(labels, event)
        else:
            line = (event.deal_number, SCORE_STEP)
            words = text.deal_text(labels, event)
        self.delivering = line
        try:
            await self._post(words, post_nonce(event.table_id, *line))
            await self.presenter.posted(event.table_id, line)
        finally:
            self.delivering = None

    async def _restore(self, labels: list[str], lines: tuple[ev.Event, ...]) -> None:
        """After a restart: post the lines the channel had not been shown, then say so.

        What was posted is stored line by line, so this posts exactly what a shutdown
        (or a crash) kept from going out: a trick or score line, the current deal's
        message. A past deal's message cannot be rebuilt; its lines still are. A line
        that went out but was not recorded (the process was killed in between) is named
        as before, so Discord answers with it instead of posting it again."""
        view = self.view
        assert view is not None
        table_id = view.table_id
        self.lobby_known.set()  # what was not stored of the lobby will not come any more
        with self._quiet():
            await asyncio.sleep(RESTART_QUIET)  # later posts and edits queue behind this one
        last = await self.presenter.last_posted(table_id)
        current = view.deal_number
        if last >= (current, 0):
            self.message_deal = current  # the stored table message is this deal's
        deal = 0
        for line in lines:
            if isinstance(line, ev.DealStarted):
                deal = line.deal_number
                if (deal, 0) > last and deal == current:
                    await self._new_deal_message(view)
            elif isinstance(line, ev.TrickTaken | ev.DealScored):
                step = line.number if isinstance(line, ev.TrickTaken) else SCORE_STEP
                if isinstance(line, ev.TrickTaken) and deal == current:
                    self.tricks.append(text.trick_summary(labels, line))
                if (deal, step) > last:
                    await self._post_line(labels, line, deal)
        restored = _(RESTORED) if view.match_id is not None else _(RESTORED_LOBBY)
        await self._post(restored, post_nonce(table_id, "restored", view.turn))

    @contextlib.contextmanager
    def _quiet(self) -> Iterator[None]:
        """The worker keeps the channel quiet: at shutdown it has nothing to send."""
        task = asyncio.current_task()
        assert task is not None
        self.at_work[task] = "quiet"
        try:
            yield
        finally:
            self.at_work[task] = "busy"

    async def _new_deal_message(self, view: TableView) -> None:
        """Close the last deal's message and post this deal's, with the Show hand button
        (the first deal first opens the table's thread, if it is to have one)."""
        async with self.edit_lock:
            if self.thread_id == THREAD_WANTED:
                await self._lobby_posted()
                await self._open_thread(view)
            if self.message_id is not None:
                await self._close_message()
            self.view, self.tricks = view, []
            picture = await table_picture(view)
            try:
                message = await self._send(
                    post_nonce(view.table_id, view.deal_number, 0),
                    embed=show(deal_embed(view), picture),
                    view=table_view(view.table_id),
                    allowed_mentions=QUIET,
                    file=MISSING if picture is None else picture,
                )
            except discord.HTTPException:
                self.message_id = None  # the old one is closed: edits must not go there
                raise
            self.message_id, self.message_deal, self.lobby = message.id, view.deal_number, False
            self.last_edit = time.monotonic()
            self.dirty.clear()
        await self.presenter.remember(view.table_id, message.id)
        await self.presenter.posted(view.table_id, (view.deal_number, 0))
        if self.summary is not None:
            self.summary.show(view)

    async def _lobby_posted(self) -> None:
        """Wait (a little) for the lobby message's id: the match may start while the
        command that posted the lobby has not stored its id yet."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(LOBBY_WAIT):
                await self.lobby_known.wait()

    async def _open_thread(self, view: TableView) -> None:
        """The match starts: open its public thread on the lobby message, which stays in
        the channel as the summary. If Discord refuses, or the lobby message is not
        known, the match plays in the channel. Call with ``edit_lock`` held.

        The summary's role is stored before the thread's, so a restart in between opens
        the thread again; Discord then says the message has its thread already, and a
        thread opened on a message has that message's id."""
        lobby = self.message_id if self.lobby else None
        thread_id: int | None = None
        if lobby is not None:
            await self.presenter.remember(view.table_id, lobby, SUMMARY)
            try:
                with self._requesting("POST", self.channel_id):
                    thread = await self.presenter.bot.http.start_thread_with_message(
                        self.channel_id,
                        lobby,
                        name=thread_name(view),
                        auto_archive_duration=AUTO_ARCHIVE_MINUTES,
                    )
                thread_id = int(thread["id"])
            except discord.HTTPException as error:
                if error.code == THREAD_EXISTS:
                    thread_id = lobby
                else:
                    log.warning("channel %s: no thread, playing here: %s", self.channel_id, error)
        self.thread_id = thread_id
        await self.presenter.remember(view.table_id, thread_id, THREAD)
        if thread_id is None or lobby is None:
            await self.presenter.remember(view.table_id, None, SUMMARY)
            return
        self.presenter.thread_opened(thread_id, self.channel_id)
        self.summary = self.presenter.summary(self.channel_id, lobby, thread_id)
        self.message_id, self.lobby = None, False  # the summary edits the lobby from now on

    async def _close_message(self) -> None:
        """The table message's last edit: the lobby as it started, or the deal as it ended
        (``self.view`` is still that deal's). Call with ``edit_lock`` held."""
        view = self.view
        if view is not None and (self.lobby or self.message_deal == view.deal_number):
            await self._edit_now(final=True)
            return
        # After a restart the deal it showed is gone: just take its buttons away.
        assert self.message_id is not None
        await self._wait_turn()
        channel = self.channel
        try:
            with self._requesting("PATCH", channel.id):
                await channel.get_partial_message(self.message_id).edit(view=None)
        except discord.HTTPException as error:
            log.warning("channel %s: closing the table message failed: %s", self.channel_id, error)
        finally:
            self.last_edit = time.monotonic()

    async def _post_result(
        self,
        labels: list[str],
        table_id: int,
        match_id: int,
        totals: tuple[int, ...],
        ranks: tuple[int, ...],
        record: dict[str, Any],
        chart_data: ChartData | None,
    ) -> None:
        files = [await record_file(record, f"bonken-match-{match_id}.json")]
        chart = None
        if self.view is not None and chart_data is not None:
            chart = await chart_picture(self.view, chart_data)
        if chart is not None:
            files.append(chart)
        await self._send(
            post_nonce(table_id, "end"),
            content=_("**The match is over.** Final standings:")
            + "\n"
            + text.standings_text(labels, totals, ranks)
            + "\n"
            + _("The match record is attached (`python -m bot.engine verify` checks it)."),
            files=files,
            view=rematch_view(table_id),
            allowed_mentions=QUIET,
            embed=MISSING if chart is None else show(discord.Embed(title=_(CHART_TITLE)), chart),
        )

    async def _edit_loop(self) -> None:
        while True:
            await self.dirty.wait()
            async with self.edit_lock:
                if self.dirty.is_set():  # (a closing edit may have taken it meanwhile)
                    with self._busy(), i18n.using(table_language(self.view)):
                        await self._edit_now()

    async def _wait_turn(self) -> None:
        """Keep the edits :data:`EDIT_INTERVAL` apart, but not while the bot stops (the
        last edit goes out at once; discord.py keeps it within the rate limit)."""
        wait = self.last_edit + EDIT_INTERVAL - time.monotonic()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.presenter.stopping.wait(), wait)

    async def _edit_now(self, *, final: bool = False) -> None:
        """Edit the table message to the newest state, paced. Call with ``edit_lock`` held.

        The pause is counted from the end of the last edit: one that waited for Discord's
        rate limit is not followed by another at once."""
        await self._wait_turn()
        self.dirty.clear()
        view = self.view
        if view is None or self.message_id is None:
            return
        channel = self.channel
        message = channel.get_partial_message(self.message_id)
        try:
            if self.lobby:
                lobby_open = view.status is TableStatus.LOBBY and self.closed is None
                with self._requesting("PATCH", channel.id):
                    await message.edit(
                        embed=lobby_embed(view),
                        view=lobby_view(view.table_id) if lobby_open else None,
                    )
            else:
                done = _(self.closed) if self.closed else (_("Deal over.") if final else None)
                buttons = None if done else table_view(view.table_id)
                deadline = (
                    self.deadline[1] if self.deadline and self.deadline[0] == view.turn else None
                )
                embed = deal_embed(view, closed=done, deadline=deadline, tricks=self.tricks)
                picture = await table_picture(view, over=done is not None)
                # An edit replaces the picture (one call, as a text edit); without one, a
                # stale picture is taken away. A table set to text only sends none.
                pictures = [] if picture is None else [picture]
                with self._requesting("PATCH", channel.id):
                    await message.edit(
                        embed=show(embed, picture),
                        view=buttons,
                        attachments=pictures if view.settings.images else MISSING,
                    )
        except discord.HTTPException as error:
            log.warning("channel %s: editing the table message failed: %s", self.channel_id, error)
        finally:
            self.last_edit = time.monotonic()

    async def record_delivered(self) -> None:
        """Shutdown: the line whose post Discord has made, while discord.py still waits
        for the rate limit before returning it, is recorded as posted now (the worker is
        stopped next). A line already posted but not recorded is known again by its
        nonce for a few minutes only; this keeps a clean stop exact after any pause."""
        worker = self.at_work.get(self.worker)
        if (
            self.delivering is not None
            and isinstance(worker, Request)
            and worker.method == "POST"
            and self.presenter.answers.made(worker)
        ):
            await self.presenter.posted(self.table_id, self.delivering)

    def close(self) -> None:
        self.worker.cancel()
        self.editor.cancel()
        if self.summary is not None:
            self.summary.close()


class Presenter:
    """The service's ``publish`` callback for Discord: one :class:`ChannelFeed` per table."""

    def __init__(self, bot: BonkenBot, answers: Answers) -> None:
        """``answers``: Discord's answers to the bot's requests, counted by the trace on
        the bot's HTTP session."""
        self.bot = bot
        self.answers = answers
        self._feeds: dict[int, ChannelFeed] = {}
        """Each table's feed, by table id (a new table in a channel gets its own, also
        while the last one still posts its end)."""
        self._threads: dict[int, int] = {}
        """Thread id -> the channel of the table playing in it."""
        self._archiving: set[asyncio.Task[None]] = set()
        self.stopping = asyncio.Event()
        """Set when the bot stops: edits no longer wait for their turn."""

    async def publish(self, event: ev.Event, view: TableView | None) -> None:
        feed = self._feeds.get(event.table_id)
        if feed is None:
            feed = ChannelFeed(self, event.table_id, event.channel_id)
            self._feeds[event.table_id] = feed
            if view is not None:
                feed.message_id = view.messages.get(TABLE_MESSAGE)
                feed.lobby = view.match_id is None
                self._find_thread(feed, view)
                if feed.message_id is not None:
                    feed.lobby_known.set()
        if isinstance(event, ev.TableRestored):
            await self.bot.hands.restore(event.table_id)
        feed.put(event, view)
        if isinstance(event, ev.TurnStarted) and event.seconds is not None and view is not None:
            # A person's turn: their hand lights up now, not behind the channel's queue
            # (its webhook is not in the channel's rate-limit bucket).
            user_id = view.seats[event.seat].user_id
            if user_id is not None:
                self.bot.hands.request_refresh(event.table_id, user_id)
        if isinstance(event, ev.TimedOut):  # the computer acted: their turn is gone
            self.bot.hands.request_refresh(event.table_id, event.user_id)

    def _view(self, table_id: int) -> TableView | None:
        try:
            return self.bot.service.view(table_id)
        except Refusal:
            return None

    def _find_thread(self, feed: ChannelFeed, view: TableView) -> None:
        """A new feed (at start, after a restart) takes the table's stored thread. While
        one is still wanted, no deal was posted: the table message is the lobby. Once
        the thread is open, the lobby is the summary, not the table message (until the
        first deal's message is stored)."""
        feed.thread_id = view.messages.get(THREAD)
        if feed.thread_id == THREAD_WANTED:
            feed.lobby = True
        summary = view.messages.get(SUMMARY)
        if feed.thread_id and summary is not None:
            self.thread_opened(feed.thread_id, feed.channel_id)
            feed.summary = self.summary(feed.channel_id, summary, feed.thread_id)
            if feed.message_id == summary:
                feed.message_id = None

    def adopt_message(self, table_id: int, message_id: int) -> None:
        """The lobby message a command posted itself becomes the table message."""
        feed = self._feeds.get(table_id)
        if feed is not None:
            feed.message_id = message_id
            feed.lobby_known.set()
            feed.dirty.set()

    def table_channel(self, channel_id: int) -> int:
        """The channel whose table plays in this thread, or ``channel_id`` itself: an
        interaction from a table's thread is about that table."""
        return self._threads.get(channel_id, channel_id)

    def thread_opened(self, thread_id: int, channel_id: int) -> None:
        self._threads[thread_id] = channel_id

    def summary(self, channel_id: int, message_id: int, thread_id: int) -> SummaryMessage:
        return SummaryMessage(self.bot, channel_id, message_id, thread_id, lambda: EDIT_INTERVAL)

    def archive_later(self, thread_id: int) -> None:
        """The match is over: archive its thread after :data:`ARCHIVE_AFTER` seconds (if
        the bot stops first, Discord's auto-archive does it)."""
        self._threads.pop(thread_id, None)
        task = asyncio.create_task(self._archive(thread_id))
        self._archiving.add(task)
        task.add_done_callback(self._archiving.discard)

    async def _archive(self, thread_id: int) -> None:
        await asyncio.sleep(ARCHIVE_AFTER)
        try:
            await self.bot.http.edit_channel(thread_id, archived=True)
        except discord.HTTPException as error:
            log.warning("thread %s: archiving failed: %s", thread_id, error)

    async def posted(self, table_id: int, line: Line) -> None:
        """Keep the channel's last line, so a restart posts only what was not sent."""
        try:
            await self.bot.store.delivery.set_posted(table_id, *line)
        except StoreError:
            log.exception("table %s: could not store the last line posted", table_id)

    async def last_posted(self, table_id: int) -> Line:
        line = await self.bot.store.delivery.last_posted(table_id)
        return (0, 0) if line is None else line

    async def remember(
        self, table_id: int, message_id: int | None, role: str = TABLE_MESSAGE
    ) -> None:
        with contextlib.suppress(Refusal):  # the table closed meanwhile: nothing to keep
            await self.bot.service.remember_message(table_id, role, message_id)

    def drop(self, table_id: int) -> None:
        feed = self._feeds.pop(table_id, None)
        if feed is not None:
            feed.editor.cancel()  # the worker, the caller, ends by itself

    async def idle(self) -> None:
        """Wait until every queued event has been presented and every hand refreshed."""
        for feed in list(self._feeds.values()):
            await feed.queue.join()
        await self.bot.hands.idle()

    async def drain(self, seconds: float | None = None) -> None:
        """Shutdown: send what is queued and the pending edits, for at most ``seconds``
        (default :data:`DRAIN_SECONDS`), and not a moment longer than that takes: a
        post Discord has answered is out, whatever discord.py's rate limiter still waits
        for, and a restored channel's quiet has nothing to send. Lines that did not go
        out are posted at the next start, from what the store says was posted (and by
        their names, not twice). Hand messages are brought up to date after the start."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (DRAIN_SECONDS if seconds is None else seconds)
        self.stopping.set()
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
        for task in self._archiving:
            task.cancel()
