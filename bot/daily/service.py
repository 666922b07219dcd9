"""The daily service: start, resume and play attempts at a server's day; its results.

It knows nothing of Discord: callers pass guild and user ids, names and strings, and get
frozen views back (:mod:`bot.daily.views`); a request it will not carry out raises
:class:`~bot.daily.errors.DailyRefusal` and changes nothing.

A person's click is checked, applied with the computers' answers (until it is the
person's turn again, or the day is over), and all of it stored in one transaction before
the call returns; only then does the front end acknowledge it. Attempts in play are kept
in memory, each with its own lock; one the store refused is dropped and rebuilt from the
store, which holds every attempt's moves, so nothing depends on memory: after a restart
an attempt is replayed from its moves when it is next asked for.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction

from bot.engine import Action, IllegalAction, public_view, to_record
from bot.store import (
    AlreadyStored,
    AttemptInfo,
    AttemptScores,
    DailyDealRecord,
    DailyMove,
    NotFound,
    StoreError,
)
from bot.store.daily import DailyStore
from bot.store.tables import TableStore

from .attempt import Attempt, Move
from .board import BoardRow, daily_board
from .calendar import Clock, closes_at, day_of, is_closed, last_closed_day, open_days, parse_day
from .calendar import utc_now as default_clock
from .computers import DailyDecider, daily_decider, play_computers
from .errors import DailyReason, DailyRefusal
from .program import DEFAULT_DEALS, MAX_DEALS, DailyDeal, DayProgram, day_program, day_seed
from .program import PERSON_SEAT as SOUTH
from .scoring import day_percentages, day_standing, ranks
from .views import (
    AttemptReplay,
    AttemptView,
    DayResults,
    DealComparison,
    DealResult,
    RankedAttempt,
    Standing,
)

log = logging.getLogger(__name__)

LIVE_ATTEMPTS = 2000
"""Attempts kept in memory at most; the least recently used beyond are dropped (and
replayed from the store when next asked for)."""


@dataclass
class Live:
    """An attempt in memory, with what its requests check and the lock they take."""

    info: AttemptInfo
    attempt: Attempt
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    valid: bool = True
    """False once dropped (its store write failed): a waiting request loads it again."""
    shown: AttemptView | None = None
    """The view last made of it: the attempt changes only by a move, so until the next
    one this is its view (a click's check before its acknowledgement asks for the view
    the previous click's answer made)."""


class DailyService:
    """The daily deals of every server. Public methods raise :class:`DailyRefusal`."""

    def __init__(
        self,
        daily: DailyStore,
        tables: TableStore,
        *,
        decide: DailyDecider = daily_decider,
        clock: Clock = default_clock,
    ) -> None:
        """``tables`` gives a server's variant and house rules (its tables' defaults),
        which a day is played by; ``clock`` the time now (tests move it by hand)."""
        self._daily = daily
        self._tables = tables
        self._decide = decide
        self._clock = clock
        self._live: OrderedDict[int, Live] = OrderedDict()
        self._programs: dict[tuple[int, date], DayProgram] = {}
        self._secret: str | None = None

    def today(self) -> date:
        """The UTC date now, by the service's clock (which the words of a day go by)."""
        return day_of(self._clock())

    # -- playing ------------------------------------------------------------------------

    async def play(self, guild_id: int, user_id: int, name: str) -> AttemptView:
        """Start today's attempt, or resume the person's attempt in play: one begun
        yesterday and not finished first (it closes sooner), else today's. A person who
        finished today's deals is refused: one attempt a day."""
        info = await self._in_play(guild_id, user_id)
        if info is not None:
            async with self._locked(info.attempt_id) as live:
                return self._view(live)
        today = day_of(self._clock())
        program = await self.program(guild_id, today)
        attempt = Attempt(program, name)
        moves = await play_computers(attempt, self._decide)
        try:
            info = await self._daily.start_attempt(
                guild_id, today, user_id, name, stored_moves(0, moves)
            )
        except AlreadyStored:  # the same person starting twice at once: the first wins
            info = await self._daily.attempt_of(guild_id, today, user_id)
            assert info is not None
            async with self._locked(info.attempt_id) as live:
                return self._view(live)
        except StoreError:
            log.exception("daily: could not store the start of %s's attempt", user_id)
            raise _not_saved() from None
        live = Live(info, attempt)
        self._keep(live)
        return self._view(live)

    async def may_play(self, guild_id: int, user_id: int) -> None:
        """Refuse, as :meth:`play` would and changing nothing, a person who finished
        today's deals (a front end asks before it acknowledges the command)."""
        await self._in_play(guild_id, user_id)

    async def _in_play(self, guild_id: int, user_id: int) -> AttemptInfo | None:
        """The person's attempt in play (yesterday's unfinished first: it closes sooner),
        None if they may begin today's; refused if they finished today's already."""
        yesterday, today = open_days(self._clock())
        found = None
        for day in (yesterday, today):
            found = await self._daily.attempt_of(guild_id, day, user_id)
            if found is not None and found.finished_at is None:
                return found
        if found is not None:  # today's, finished
            raise DailyRefusal(
                "you have played today's deals already", DailyReason.ALREADY_PLAYED, day=today
            )
        return None

    async def turn(
        self, attempt_id: int, user_id: int, step: int, action: Action | None = None
    ) -> AttemptView:
        """The person's attempt at move ``step``, refused as :meth:`act` would refuse a
        move there (and ``action``, if given); changes nothing (a doubling toggle shows
        its choice with it; a move is checked before its click is acknowledged)."""
        async with self._locked(attempt_id) as live:
            self._check_turn(live, user_id, step)
            if action is not None:
                try:
                    live.attempt.check(action)
                except IllegalAction as error:
                    raise DailyRefusal(str(error), error.reason, action=action) from None
            return self._view(live)

    async def act(self, attempt_id: int, user_id: int, step: int, action: Action) -> AttemptView:
        """The person's ``action`` at move ``step`` of their attempt (the number their
        button carried), the computers' answers, all stored before this returns."""
        async with self._locked(attempt_id) as live:
            info, attempt = live.info, live.attempt
            self._check_turn(live, user_id, step)
            try:
                attempt.check(action)
            except IllegalAction as error:
                raise DailyRefusal(str(error), error.reason, action=action) from None
            first, before = attempt.moves, attempt.scores()
            moves = [attempt.apply(action), *await play_computers(attempt, self._decide)]
            after = attempt.scores()
            ended = {
                index: score
                for index, (old, score) in enumerate(zip(before, after, strict=True))
                if old is None and score is not None
            }
            try:
                await self._daily.append_moves(
                    attempt_id, stored_moves(first, moves), ended, finished=attempt.finished
                )
            except AlreadyStored:
                self._drop(live)
                raise DailyRefusal(
                    "that was for an earlier move", DailyReason.STALE, day=info.day
                ) from None
            except StoreError:
                log.exception("daily: could not store move %d of attempt %d", first, attempt_id)
                self._drop(live)
                raise _not_saved() from None
            if not attempt.finished:
                return self._view(live)
            self._drop(live)  # done: nothing more to keep it in memory for
        standing = await self._standing(info)
        return self._view(live, standing)

    async def current(self, attempt_id: int, user_id: int) -> AttemptView:
        """The person's attempt as it stands, refused as a move would be but for its
        step: what a click on a message behind the attempt shows instead of its move (a
        message whose update did not reach Discord has no newer one to go to)."""
        async with self._locked(attempt_id) as live:
            self._check_turn(live, user_id, live.attempt.moves)
            return self._view(live)

    def _check_turn(self, live: Live, user_id: int, step: int) -> None:
        """Refuse unless ``user_id`` may move at ``step`` of this attempt now."""
        info, attempt = live.info, live.attempt
        if info.user_id != user_id:
            raise DailyRefusal(
                "that is someone else's attempt", DailyReason.NOT_YOURS, day=info.day
            )
        if attempt.finished:
            raise DailyRefusal("you have finished these deals", DailyReason.FINISHED, day=info.day)
        if is_closed(info.day, self._clock()):
            raise DailyRefusal(
                "the results of that day have closed", DailyReason.CLOSED, day=info.day
            )
        if step != attempt.moves:
            raise DailyRefusal("that was for an earlier move", DailyReason.STALE, day=info.day)

    async def program(self, guild_id: int, day: date) -> DayProgram:
        """The server's deals of ``day``: as stored once someone began the day, else
        dealt now from the day's seed, by the server's settings, and stored."""
        key = (guild_id, day)
        if key in self._programs:
            return self._programs[key]
        if self._secret is None:
            self._secret = await self._daily.secret()
        seed = day_seed(self._secret, guild_id, day)
        stored = await self._daily.day(guild_id, day)
        if stored is None:
            count = await self._daily.deals_per_day(guild_id) or DEFAULT_DEALS
            settings = await self._tables.guild_settings(guild_id)
            dealt = day_program(seed, count, settings.table_defaults.rules)
            records = [
                DailyDealRecord(
                    deal_index=index, dealer=deal.dealer, contract=deal.contract, hands=deal.hands
                )
                for index, deal in enumerate(dealt.deals)
            ]
            try:
                stored = await self._daily.open_day(guild_id, day, dealt.rules, records)
            except StoreError:
                log.exception("daily: could not store day %s of guild %d", day, guild_id)
                raise _not_saved() from None
        program = DayProgram(
            rules=stored.rules,
            deals=tuple(DailyDeal(d.dealer, d.contract, d.hands) for d in stored.deals),
            seed=seed,
        )
        yesterday = open_days(self._clock())[0]
        for old in [k for k in self._programs if k[1] < yesterday]:
            del self._programs[old]  # days closed: read again if their results are asked for
        self._programs[key] = program
        return program

    # -- settings -----------------------------------------------------------------------

    async def deals_per_day(self, guild_id: int) -> int:
        stored = await self._daily.deals_per_day(guild_id)
        return DEFAULT_DEALS if stored is None else stored

    async def set_deals_per_day(self, guild_id: int, deals: int) -> None:
        """The number of deals of the server's days not begun yet (1 to 11)."""
        if not 1 <= deals <= MAX_DEALS:
            raise DailyRefusal(
                f"a day has 1 to {MAX_DEALS} deals, not {deals}", DailyReason.BAD_DEALS
            )
        try:
            await self._daily.set_deals_per_day(guild_id, deals)
        except StoreError:
            log.exception("daily: could not store the deals a day of guild %d", guild_id)
            raise _not_saved() from None

    # -- results ------------------------------------------------------------------------

    def day(self, when: str | None) -> date:
        """The day ``when`` names (``YYYY-MM-DD``; None: today), refused if it is no date
        or has not begun (changes nothing: a front end asks before it acknowledges)."""
        today = day_of(self._clock())
        try:
            day = today if when is None else parse_day(when)
        except ValueError:
            raise DailyRefusal(f"not a date: {when!r}", DailyReason.BAD_DATE) from None
        if day > today:
            raise DailyRefusal("that day has not begun yet", DailyReason.FUTURE_DATE, day=day)
        return day

    async def results(self, guild_id: int, when: str | None, viewer_id: int) -> DayResults:
        """The results of the day ``when`` (``YYYY-MM-DD``; None: today) as ``viewer_id``
        may see them: each deal's comparison only once they finished the day or it
        closed; every attempt's replay once it closed."""
        now = self._clock()
        day = self.day(when)
        closed = is_closed(day, now)
        attempts = await self._daily.day_scores(guild_id, day)
        field = attempts if closed else [a for a in attempts if a.finished]
        percents = day_percentages({a.attempt_id: a.scores for a in field}, _deals(field))
        places = ranks(percents)
        ranking = sorted(
            (
                RankedAttempt(
                    rank=places[a.attempt_id],
                    user_id=a.user_id,
                    name=a.name,
                    percent=float(percents[a.attempt_id]),
                    finished=a.finished,
                )
                for a in field
            ),
            key=lambda r: (r.rank, r.name),
        )
        mine = next((a for a in attempts if a.user_id == viewer_id), None)
        played = mine is not None and mine.finished
        comparisons = replays = None
        stored = await self._daily.day(guild_id, day)
        if stored is not None and (played or closed):
            contracts = [deal.contract for deal in stored.deals]
            comparisons = comparisons_of(contracts, field, mine)
        if stored is not None and closed:
            program = await self.program(guild_id, day)
            replays = await self._replays(guild_id, day, program, field, percents)
        return DayResults(
            guild_id=guild_id,
            day=day,
            closed=closed,
            closes_at=closes_at(day),
            deals=0 if stored is None else len(stored.deals),
            ranking=tuple(ranking),
            played=played,
            comparisons=comparisons,
            replays=replays,
        )

    async def attempt_replay(
        self, guild_id: int, when: str, attempt_id: int, viewer_id: int
    ) -> AttemptReplay:
        """One attempt of the server's day ``when``, for its replay: only once the day has
        closed (as :meth:`results` shows them); an attempt of another day or server, or
        of a day still open, is refused as unknown."""
        found = await self.results(guild_id, when, viewer_id)
        for replay in found.replays or ():
            if replay.attempt_id == attempt_id:
                return replay
        raise DailyRefusal("there is no such daily attempt", DailyReason.NO_SUCH_ATTEMPT)

    async def closed_days(self, guild_id: int, limit: int) -> list[date]:
        """The server's ``limit`` newest days that have closed, newest first (what may be
        shown of every attempt)."""
        return await self._daily.days(guild_id, last_closed_day(self._clock()), limit)

    async def board(self, guild_id: int, season_id: int) -> list[BoardRow]:
        """The season's daily board: closed days at their final results, and days still
        open at their results so far for the attempts finished."""
        now = self._clock()
        await self._settle(guild_id, now)
        settled = await self._daily.season_tallies(season_id)
        tallies = {t.user_id: (t.days, t.total) for t in settled}
        names = {t.user_id: t.name for t in settled}
        for attempts in (await self._daily.days_scores(guild_id, open_days(now))).values():
            finished = [a for a in attempts if a.finished and a.season_id == season_id]
            percents = day_percentages({a.user_id: a.scores for a in finished}, _deals(finished))
            for a in finished:
                days, total = tallies.get(a.user_id, (0, 0.0))
                tallies[a.user_id] = (days + 1, total + float(percents[a.user_id]))
                names[a.user_id] = a.name
        return daily_board(tallies, names)

    # -- inside -------------------------------------------------------------------------

    async def _settle(self, guild_id: int, now: datetime) -> None:
        """Write the results of every closed day of the server not settled yet."""
        for day in await self._daily.unsettled_days(guild_id, last_closed_day(now)):
            attempts = await self._daily.day_scores(guild_id, day)
            percents = day_percentages({a.attempt_id: a.scores for a in attempts}, _deals(attempts))
            try:
                await self._daily.settle_day({key: float(p) for key, p in percents.items()})
            except StoreError:  # read again next time; nothing is lost
                log.exception("daily: could not settle day %s of guild %d", day, guild_id)
                return

    async def _standing(self, info: AttemptInfo) -> Standing:
        """The day's result so far of a finished attempt, among the attempts finished."""
        attempts = await self._daily.day_scores(info.guild_id, info.day)
        finished = [a for a in attempts if a.finished]
        percent, rank = day_standing(
            {a.attempt_id: a.scores for a in finished}, _deals(finished), info.attempt_id
        )
        return Standing(percent=float(percent), rank=rank, field=len(finished))

    async def _replays(
        self,
        guild_id: int,
        day: date,
        program: DayProgram,
        field: Sequence[AttemptScores],
        percents: Mapping[int, Fraction],
    ) -> tuple[AttemptReplay, ...]:
        moves = await self._daily.day_moves(guild_id, day)
        replays = []
        for scores in field:
            attempt = Attempt.replay(
                program, scores.name, [_move(m) for m in moves.get(scores.attempt_id, [])]
            )
            replays.append(
                AttemptReplay(
                    attempt_id=scores.attempt_id,
                    name=scores.name,
                    percent=float(percents[scores.attempt_id]),
                    records=tuple(to_record(match) for match in attempt.matches),
                )
            )
        replays.sort(key=lambda r: -r.percent)
        return tuple(replays)

    @asynccontextmanager
    async def _locked(self, attempt_id: int) -> AsyncIterator[Live]:
        """The attempt in memory under its lock (loaded from the store if need be)."""
        while True:
            live = self._live.get(attempt_id)
            if live is None:
                live = await self._load(attempt_id)
            async with live.lock:
                if not live.valid:
                    continue  # dropped while this request waited: load it afresh
                if attempt_id in self._live:
                    self._live.move_to_end(attempt_id)
                yield live
                return

    async def _load(self, attempt_id: int) -> Live:
        try:
            info = await self._daily.attempt(attempt_id)
        except NotFound:
            raise DailyRefusal(
                "there is no such daily attempt", DailyReason.NO_SUCH_ATTEMPT
            ) from None
        except StoreError:
            log.exception("daily: could not read attempt %d", attempt_id)
            raise _not_saved() from None
        program = await self.program(info.guild_id, info.day)
        moves = await self._daily.moves(attempt_id)
        attempt = Attempt.replay(program, info.name, [_move(m) for m in moves])
        loaded = self._live.get(attempt_id)
        if loaded is not None:  # another request loaded it meanwhile: one copy, one lock
            return loaded
        live = Live(info, attempt)
        self._keep(live)
        return live

    def _keep(self, live: Live) -> None:
        self._live[live.info.attempt_id] = live
        self._live.move_to_end(live.info.attempt_id)
        while len(self._live) > LIVE_ATTEMPTS:
            oldest_id, oldest = next(iter(self._live.items()))
            if oldest.lock.locked():
                break  # in use: dropped on a later call
            del self._live[oldest_id]

    def _drop(self, live: Live) -> None:
        live.valid = False
        if self._live.get(live.info.attempt_id) is live:
            del self._live[live.info.attempt_id]

    def _view(self, live: Live, standing: Standing | None = None) -> AttemptView:
        info, attempt = live.info, live.attempt
        shown = live.shown
        if standing is None and shown is not None and shown.step == attempt.moves:
            return shown  # nothing moved since (a finished attempt is not kept)
        match = attempt.match
        deal = match.deal
        assert deal is not None
        previous = None
        if attempt.finished:
            previous = _result(attempt, attempt.deal_index)
        elif attempt.deal_index > 0 and not deal.plays:
            previous = _result(attempt, attempt.deal_index - 1)
        live.shown = AttemptView(
            attempt_id=info.attempt_id,
            guild_id=info.guild_id,
            user_id=info.user_id,
            day=info.day,
            closes_at=closes_at(info.day),
            step=attempt.moves,
            deal_number=attempt.deal_index + 1,
            deals=attempt.deals,
            players=attempt.players,
            seat=attempt.view_for(SOUTH),
            public=public_view(match),
            scores=attempt.scores(),
            previous=previous,
            finished=attempt.finished,
            standing=standing,
        )
        return live.shown


def _not_saved() -> DailyRefusal:
    return DailyRefusal("sorry, that could not be saved; please try again", DailyReason.NOT_SAVED)


def stored_moves(first: int, moves: Sequence[Move]) -> list[DailyMove]:
    """``moves`` as the store keeps them, numbered from ``first``."""
    return [
        DailyMove(seq=first + i, deal_index=m.deal_index, seat=m.seat, action=m.action)
        for i, m in enumerate(moves)
    ]


def _move(move: DailyMove) -> Move:
    return Move(move.deal_index, move.seat, move.action)


def _deals(attempts: Sequence[AttemptScores]) -> int:
    return len(attempts[0].scores) if attempts else 0


def _result(attempt: Attempt, index: int) -> DealResult:
    deal = attempt.matches[index].deal
    assert deal is not None and deal.contract is not None
    return DealResult(
        number=index + 1,
        contract=deal.contract.id,
        base=tuple(deal.base),
        final=tuple(deal.final_scores()),
    )


def comparisons_of(
    contracts: Sequence[str], field: Sequence[AttemptScores], mine: AttemptScores | None
) -> tuple[DealComparison, ...]:
    """Each deal's comparison across ``field`` for the reader whose attempt is ``mine``."""
    comparisons = []
    for index, contract in enumerate(contracts):
        scores = [a.scores[index] for a in field]
        finished = [s for s in scores if s is not None]
        best = max(finished, default=None)
        comparisons.append(
            DealComparison(
                number=index + 1,
                contract=contract,
                mine=None if mine is None else mine.scores[index],
                field=(*sorted(finished, reverse=True), *[None] * (len(scores) - len(finished))),
                best=best,
                best_by=tuple(
                    a.name for a in field if best is not None and a.scores[index] == best
                ),
            )
        )
    return tuple(comparisons)
