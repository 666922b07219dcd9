"""The tally service: every score-kept match of the bot, behind one object.

A tally (:mod:`bot.engine.tally`) is a match played with real cards at a real table; the
bot only keeps its scores. Like the table service this knows nothing of Discord (ids and
names in, :class:`~bot.tally.view.TallyView` out) and refuses a bad request with a
:class:`TallyRefusal` that changes nothing.

It keeps nothing in memory between requests: each one reads the tally's entries from the
store and replays them, checks the new entry by the engine's rules, stores it (committed
before the call returns) and answers with the tally as it now is. So a restart loses
nothing, there is nothing to restore, and a request in another process sees the same
tally. Requests for one tally wait for each other; a button carries the tally's
``version`` (how many entries it had when the button was shown), so a click on an
outdated sheet, or two clicks at once, is refused as stale.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.engine import Reason, Rules, Tally, TallyError
from bot.engine.tally import Answer, Entry, questions
from bot.store import (
    AlreadyStored,
    Conflict,
    NotFound,
    Rater,
    StorageFailed,
    Store,
    TallySeat,
    TallyStatus,
)

from .errors import TallyReason, TallyRefusal
from .view import TallyView, view_of


class TallyService:
    """Every tally of the bot. Public methods raise :class:`TallyRefusal` for bad requests."""

    def __init__(self, store: Store, *, rater: Rater | None = None) -> None:
        """``rater``: how a finished tally changes its players' ratings (None: never)."""
        self._store = store
        self._rater = rater
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seats: Sequence[TallySeat],
        *,
        rules: Rules,
        first_dealer: int = 0,
        language: str | None = None,
        images: bool = True,
    ) -> TallyView:
        """A new tally with these four seats (seat 0 first, in the order they sit)."""
        members = [seat.user_id for seat in seats if seat.user_id is not None]
        if len(set(members)) != len(members):
            raise TallyRefusal("a member cannot sit in two seats", TallyReason.MEMBER_TWICE)
        try:
            info = await self._store.tallies.create_tally(
                guild_id,
                channel_id,
                host_id,
                seats,
                rules=rules,
                first_dealer=first_dealer,
                language=language,
                images=images,
            )
        except StorageFailed:
            raise _not_saved() from None
        return await self.view(info.tally_id)

    async def view(self, tally_id: int) -> TallyView:
        """The tally as it is stored now."""
        view, _ = await self._load(tally_id)
        return view

    async def may_enter(self, tally_id: int, user_id: int, version: int | None) -> TallyView:
        """The tally, if ``user_id`` may enter on it now (a front end asks before it
        opens a form, so nobody fills one in for nothing); else a refusal."""
        view, _ = await self._load(tally_id)
        self._check_turn(view, user_id, version)
        return view

    async def contracts_for(self, tally_id: int, number: int) -> list[str]:
        """What the chooser of deal ``number`` may choose, the other deals as entered (for
        a correction of that deal)."""
        _, tally = await self._load(tally_id)
        return tally.contracts_for(number)

    async def check_answer(
        self,
        tally_id: int,
        user_id: int,
        version: int | None,
        *,
        number: int,
        contract: str,
        key: str,
        answer: Answer,
    ) -> None:
        """Refuse ``answer`` to question ``key`` of a ``contract`` deal unless it fits
        (a front end asking one question at a time checks each as it is answered);
        changes nothing either way."""
        view, tally = await self._load(tally_id)
        self._check_turn(view, user_id, version)
        asked = view.rules.by_id.get(contract)
        question = next((q for q in questions(asked) if q.key == key), None) if asked else None
        try:
            if question is None:
                raise TallyError(f"{contract} asks no {key}", Reason.RESULT_INCOMPLETE, deal=number)
            tally.check_answer(question, answer, number)
        except TallyError as error:
            raise TallyRefusal.of(error) from None

    async def enter(
        self, tally_id: int, user_id: int, version: int | None, entry: Entry
    ) -> TallyView:
        """``user_id`` enters ``entry`` (a contract, a doubling, a result, an undo or a
        correction); ``version`` is what their button carried (None: whatever is now)."""
        async with self._lock(tally_id):
            view, tally = await self._load(tally_id)
            self._check_turn(view, user_id, version)
            try:
                tally.check(entry)
            except TallyError as error:
                raise TallyRefusal.of(error) from None
            await self._store_entry(view, user_id, entry)
            return await self.view(tally_id)

    async def cancel(
        self, tally_id: int, user_id: int, version: int | None, *, is_admin: bool = False
    ) -> TallyView:
        """Cancel an open tally: anyone at it, or a front end's administrator."""
        async with self._lock(tally_id):
            view, _ = await self._load(tally_id)
            self._check_turn(view, user_id, version, is_admin=is_admin)
            try:
                await self._store.tallies.cancel_tally(tally_id, view.version, user_id)
            except AlreadyStored:
                raise _stale() from None
            except StorageFailed:
                raise _not_saved() from None
            return await self.view(tally_id)

    async def remember_message(self, tally_id: int, role: str, message_id: int) -> None:
        """Keep a front end's message id (the scoresheet, its thread) across restarts."""
        await self._store.tallies.remember_message(tally_id, role, message_id)

    async def marked_since(self, role: str, since: datetime) -> list[tuple[int, int]]:
        """``(tally, guild)`` of the tallies open or ended since ``since`` that keep a
        front end's message of ``role`` (what it may still owe them, after a restart)."""
        return await self._store.tallies.marked_since(role, int(since.timestamp() * 1000))

    async def record(self, tally_id: int) -> dict[str, Any]:
        """The tally's ``bonken-tally/1`` record (it holds no cards: nothing to hide)."""
        await self._load(tally_id)
        return await self._store.tallies.load_record(tally_id)

    # -- the steps of every request -----------------------------------------------------

    def _lock(self, tally_id: int) -> asyncio.Lock:
        lock = self._locks.get(tally_id)
        if lock is None:
            lock = self._locks[tally_id] = asyncio.Lock()
        return lock

    async def _load(self, tally_id: int) -> tuple[TallyView, Tally]:
        try:
            info, entries = await self._store.tallies.load(tally_id)
        except NotFound:
            raise TallyRefusal("there is no such tally", TallyReason.NO_TALLY) from None
        return view_of(info, entries)

    @staticmethod
    def _check_turn(
        view: TallyView, user_id: int, version: int | None, *, is_admin: bool = False
    ) -> None:
        if view.status is not TallyStatus.OPEN:
            raise TallyRefusal(f"this tally is {view.status.value}", TallyReason.CLOSED)
        if not view.at_the_tally(user_id) and not is_admin:
            raise TallyRefusal("you are not at this tally", TallyReason.NOT_AT_THE_TALLY)
        if version is not None and version != view.version:
            raise _stale()

    async def _store_entry(self, view: TallyView, user_id: int, entry: Entry) -> None:
        try:
            await self._store.tallies.append_entry(
                view.tally_id, view.version, entry, user_id, rater=self._rater
            )
        except AlreadyStored:  # another process stored this number first
            raise _stale() from None
        except StorageFailed:
            raise _not_saved() from None
        except Conflict:  # closed by another process since it was read
            raise TallyRefusal("this tally is closed", TallyReason.CLOSED) from None


def _stale() -> TallyRefusal:
    return TallyRefusal("the sheet has changed since", TallyReason.STALE)


def _not_saved() -> TallyRefusal:
    return TallyRefusal("that could not be saved; please try again", TallyReason.NOT_SAVED)
