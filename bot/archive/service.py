"""The finished-match service: find a server's finished match, refuse one that is not,
give its facts, record and replay (see :mod:`bot.archive`).

A match id is global, but a server sees only its own matches: another server's match is
refused as an unknown one, so nothing says it is there. A match still in play is refused
saying how far it is (its hands are still hidden), a cancelled one saying it has nothing
to look back at. Without an id, the newest finished match played in the channel, or in a
thread a table played in, is meant; failing that, the match in play there is refused as
in play. Every typed id is read one way (``12`` or ``#12``, up to the database's BIGINT).

A finished match never changes, so its facts and its replay are kept (the newest asked
for); the replay is built off the event loop, in the executor given.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from bot.engine import rules_for
from bot.review.replay import Address, Replay, ReplayError
from bot.store import FinishedMatch, Human, MatchInfo, MatchStatus, NotFound
from bot.store.matches import MatchStore

from .errors import ArchiveReason, ArchiveRefusal

log = logging.getLogger(__name__)

T = TypeVar("T")
LARGEST_ID = 2**63 - 1
"""The largest id a database keeps (a BIGINT): anything larger is no match."""
MATCH_ID = r"[1-9]\d{0,18}"
"""A match id written out (in a button's custom_id, a link): up to 19 digits; one above
:data:`LARGEST_ID` is refused as unknown, as a typed one is."""
REPLAYS_KEPT = 8
"""Replays kept in memory: the newest asked for."""
INFOS_KEPT = 256
"""Finished matches' facts kept in memory (small; a click asks for them each time)."""
RECENT_MOST = 100
"""The most matches :meth:`FinishedMatchService.recent` lists at once."""


def parse_match_id(typed: str) -> int:
    """A match id as a person types it (``12``, ``#12``) or a list gives it; an
    :class:`ArchiveRefusal` (``UNKNOWN``) for anything else, or an id no database keeps."""
    text = typed.strip().removeprefix("#")
    if text.isascii() and text.isdigit() and len(text) <= 19 and 0 < int(text) <= LARGEST_ID:
        return int(text)
    shown = typed.strip()[:20]
    raise ArchiveRefusal(
        f"there is no match {shown!r} on this server", ArchiveReason.UNKNOWN, typed=shown
    )


class FinishedMatchService:
    """The server's finished matches (see the module). Public methods raise
    :class:`ArchiveRefusal` for a match they will not give."""

    def __init__(
        self,
        matches: MatchStore,
        *,
        thread_role: str | None = None,
        executor: Executor | None = None,
        replays_kept: int = REPLAYS_KEPT,
    ) -> None:
        """``thread_role``: the role under which a front end stores the thread a table
        played in (so a match is found from its thread too); ``executor``: where a replay
        is built (None: asyncio's default threads)."""
        self._matches = matches
        self._thread_role = thread_role
        self._executor = executor
        self._replays_kept = replays_kept
        self._infos: OrderedDict[int, MatchInfo] = OrderedDict()
        self._replays: OrderedDict[int, Replay] = OrderedDict()
        self._building = asyncio.Lock()

    # -- finding ------------------------------------------------------------------------

    async def find(
        self, guild_id: int | None, *, typed: str | None = None, channel_id: int | None = None
    ) -> MatchInfo:
        """The finished match ``typed`` names (``12``, ``#12``), or without it the newest
        played in ``channel_id`` or its threads, of server ``guild_id``."""
        if guild_id is None:
            raise ArchiveRefusal("finished matches belong to a server", ArchiveReason.NO_SERVER)
        if typed is not None and typed.strip():
            return await self.get(guild_id, parse_match_id(typed))
        return await self.newest_in(guild_id, channel_id)

    async def get(self, guild_id: int, match_id: int) -> MatchInfo:
        """Finished match ``match_id`` of server ``guild_id``."""
        info = self._infos.get(match_id)
        if info is None:
            if not 0 < match_id <= LARGEST_ID:
                raise _unknown(match_id)
            try:
                info = await self._matches.get_match(match_id)
            except NotFound:
                raise _unknown(match_id) from None
        if info.guild_id != guild_id:  # not told apart from an unknown match
            raise _unknown(match_id)
        return self._finished(info)

    async def newest_in(self, guild_id: int, channel_id: int | None) -> MatchInfo:
        """The newest finished match played in ``channel_id`` or a thread of it; failing
        that, the match in play there is refused as in play."""
        for status in (MatchStatus.FINISHED, MatchStatus.PLAYING):
            match_id = await self._matches.latest_in_channel(
                channel_id or 0, thread_role=self._thread_role, status=status
            )
            if match_id is not None:
                info = await self._matches.get_match(match_id)
                if info.guild_id == guild_id:  # (a channel is one server's)
                    return self._finished(info)
        raise ArchiveRefusal("no match has finished here yet", ArchiveReason.NONE_HERE)

    async def recent(self, guild_id: int, limit: int = 25) -> list[FinishedMatch]:
        """Server ``guild_id``'s ``limit`` newest finished matches (at most
        :data:`RECENT_MOST`), newest first."""
        return await self._matches.finished_in_guild(guild_id, max(0, min(limit, RECENT_MOST)))

    @staticmethod
    def seat_of(info: MatchInfo, user_id: int) -> int | None:
        """The seat member ``user_id`` played in the match, if any."""
        for seat in info.seats:
            if seat.occupant == Human(user_id):
                return seat.seat
        return None

    # -- what looking back needs ---------------------------------------------------------

    async def record(self, guild_id: int, match_id: int) -> dict[str, Any]:
        """The finished match's ``bonken-record/1`` dict (a new one each time)."""
        await self.get(guild_id, match_id)
        return await self._matches.load_record(match_id)

    async def replay(self, guild_id: int, match_id: int) -> Replay:
        """The finished match's replay, built once and kept."""
        info = await self.get(guild_id, match_id)
        replay = self._replays.get(info.match_id)
        if replay is None:
            async with self._building:  # one build at a time; a second asker finds it kept
                replay = self._replays.get(info.match_id) or await self._build(info.match_id)
        _keep(self._replays, info.match_id, replay, self._replays_kept)
        return replay

    async def point(self, guild_id: int, match_id: int, address: Address) -> Replay:
        """The replay, if it has a point at ``address`` (a refusal if not)."""
        replay = await self.replay(guild_id, match_id)
        if not replay.contains(address):
            raise _no_point(match_id)
        return replay

    async def deal(self, guild_id: int, match_id: int, deal: int) -> Replay:
        """The replay, if it has deal ``deal`` (0-based; a refusal if not)."""
        replay = await self.replay(guild_id, match_id)
        if not 0 <= deal < replay.deals:
            raise _no_point(match_id)
        return replay

    async def view(
        self, guild_id: int, match_id: int, part: str, make: Callable[[Replay], bytes]
    ) -> bytes:
        """``part`` of what a page shows of the finished match: made by ``make`` from
        its replay (off the event loop) the first time it is asked for, and kept in the
        store from then on, so no reader waits for a replay again (a finished match never
        changes; one finished before views were kept gets each on its first reading).
        ``part`` names what ``make`` makes and its format: another format, another
        part."""
        info = await self.get(guild_id, match_id)
        kept = await self._matches.view(info.match_id, part)
        if kept is not None:
            return kept
        replay = await self.replay(guild_id, match_id)
        body = await self._run(lambda: make(replay))
        await self._matches.keep_view(info.match_id, part, body)
        return body

    async def deal_view(
        self, guild_id: int, match_id: int, deal: int, part: str, make: Callable[[Replay], bytes]
    ) -> bytes:
        """:meth:`view` ``part`` of deal ``deal`` (0-based) of the finished match, if it
        has that deal (a refusal if not)."""
        info = await self.get(guild_id, match_id)
        if not 0 <= deal < info.deals:
            raise _no_point(match_id)
        return await self.view(guild_id, match_id, part, make)

    # -- the parts ------------------------------------------------------------------------

    def _finished(self, info: MatchInfo) -> MatchInfo:
        if info.status is MatchStatus.PLAYING:
            deals = rules_for(info.rules["variant"], info.rules.get("house_rules")).deals
            raise ArchiveRefusal(
                f"match {info.match_id} is still being played",
                ArchiveReason.IN_PLAY,
                match_id=info.match_id,
                deal=max(1, info.deals),
                deals=deals,
            )
        if info.status is not MatchStatus.FINISHED:
            raise ArchiveRefusal(
                f"match {info.match_id} was cancelled",
                ArchiveReason.CANCELLED,
                match_id=info.match_id,
            )
        _keep(self._infos, info.match_id, info, INFOS_KEPT)
        return info

    async def _build(self, match_id: int) -> Replay:
        record = await self._matches.load_record(match_id)
        try:
            return await self._run(lambda: Replay.from_record(record))
        except ReplayError:
            log.exception("the record of finished match %s does not replay", match_id)
            raise ArchiveRefusal(
                f"match {match_id} does not replay",
                ArchiveReason.NOT_REPLAYABLE,
                match_id=match_id,
            ) from None

    async def _run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)


def _unknown(match_id: int) -> ArchiveRefusal:
    return ArchiveRefusal(
        f"there is no match {match_id} on this server",
        ArchiveReason.UNKNOWN,
        match_id=match_id,
        typed=str(match_id),
    )


def _no_point(match_id: int) -> ArchiveRefusal:
    return ArchiveRefusal(
        f"match {match_id} has no such point", ArchiveReason.NO_SUCH_POINT, match_id=match_id
    )


def _keep(kept: OrderedDict[int, T], key: int, value: T, limit: int) -> None:
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > limit:
        kept.popitem(last=False)
