"""The presenter's bookkeeping of what was delivered, so neither a restart nor a stop
loses or repeats a post.

:class:`Delivery` keeps, in the store, the last line each table's channel was shown and
the ids of the table's messages (its table message, thread, summary): the next start
posts the lines after that one and edits the same messages. :class:`Progress` knows
what a feed's tasks are doing right now (presenting, a request on its way to Discord,
keeping quiet), so a stop waits for the posts on their way and not a moment longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import Any, Literal

from bot.store import StoreError
from bot.store.delivery import DeliveryStore
from bot.tables import Refusal, TableService

from .answers import Answers, Request
from .lines import NOTHING_POSTED, Line

log = logging.getLogger(__name__)


class Delivery:
    """What each table's channel was shown, in the store (see the module)."""

    def __init__(self, store: DeliveryStore, service: TableService) -> None:
        """``store``: the last line posted; ``service``: the table's message ids, kept
        with the table."""
        self._store = store
        self._service = service

    async def posted(self, table_id: int, line: Line) -> None:
        """Keep the channel's last line, so a restart posts only what was not sent."""
        try:
            await self._store.set_posted(table_id, *line)
        except StoreError:
            log.exception("table %s: could not store the last line posted", table_id)

    async def last_posted(self, table_id: int) -> Line:
        line = await self._store.last_posted(table_id)
        return NOTHING_POSTED if line is None else line

    async def remember(self, table_id: int, role: str, message_id: int | None) -> None:
        """Keep the table's message (or thread) of ``role`` for the next start."""
        with contextlib.suppress(Refusal):  # the table closed meanwhile: nothing to keep
            await self._service.remember_message(table_id, role, message_id)


State = Request | Literal["busy", "quiet"]


class Progress:
    """What one feed's tasks (its worker, its editors) are doing while they present
    something: busy, a request to Discord on its way, or keeping quiet."""

    def __init__(self, answers: Answers) -> None:
        """``answers``: Discord's answers to the bot's requests as they arrive."""
        self._answers = answers
        self._states: dict[asyncio.Task[Any], State] = {}

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """The current task presents something."""
        task = _current()
        self._states[task] = "busy"
        try:
            yield
        finally:
            del self._states[task]

    @contextlib.contextmanager
    def requesting(self, method: str, channel_id: int) -> Iterator[None]:
        """A request of the current task's is on its way to Discord."""
        task = _current()
        before = self._states.get(task)
        self._states[task] = self._answers.begin(method, channel_id)
        try:
            yield
        finally:
            if before is None:
                del self._states[task]
            else:
                self._states[task] = before

    @contextlib.contextmanager
    def quiet(self) -> Iterator[None]:
        """The current task (busy) keeps the channel quiet: at a stop it has nothing to
        send."""
        task = _current()
        self._states[task] = "quiet"
        try:
            yield
        finally:
            self._states[task] = "busy"

    def at_work(self, task: asyncio.Task[Any]) -> bool:
        return task in self._states

    def only_waiting(self) -> bool:
        """Every task at work only waits: for Discord's rate limit after its answer came
        (the post is out), or in a restored channel's quiet."""
        return all(
            state == "quiet" or (isinstance(state, Request) and self._answers.answered(state))
            for state in self._states.values()
        )

    def post_made(self, task: asyncio.Task[Any]) -> bool:
        """The task's post is in the channel, though discord.py has not returned it yet
        (it waits for the rate limit)."""
        state = self._states.get(task)
        return isinstance(state, Request) and state.method == "POST" and self._answers.made(state)


def _current() -> asyncio.Task[Any]:
    task = asyncio.current_task()
    assert task is not None
    return task
