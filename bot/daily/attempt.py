"""One person's play of a day's deals: South against three computers, deal after deal.

Each deal is a match of one deal with its dealer and contract fixed by the day
(:class:`~bot.daily.program.DailyDeal`), so the engine deals, checks and scores it as any
other; the contract is set for the chooser before anyone acts, and is not one of the
attempt's moves. An attempt is the list of moves made in it, so it is rebuilt after a
restart by replaying what the store holds (:meth:`Attempt.replay`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.engine import Action, Choose, IllegalAction, Match, Reason, SeatView, seat_view
from bot.tables.table import computer_name

from .program import PERSON_SEAT, DayProgram


@dataclass(frozen=True)
class Move:
    """One action of an attempt: in which deal (0-based), by which seat."""

    deal_index: int
    seat: int
    action: Action


class Attempt:
    """The state of one attempt; change it only through :meth:`apply`."""

    def __init__(self, program: DayProgram, name: str) -> None:
        self.program = program
        self.players = tuple(
            name if seat == PERSON_SEAT else computer_name(seat) for seat in range(4)
        )
        self.matches: list[Match] = []
        self.moves = 0
        """Moves made so far, over every deal: the number the next one is stored under."""
        self._scores: list[int] = []
        """The person's final score of each deal finished, in order: kept as each deal
        ends (its scores never change then), since every click asks for them twice."""
        self._finished = False
        self._deal_next()

    @classmethod
    def replay(cls, program: DayProgram, name: str, moves: Iterable[Move]) -> Attempt:
        """The attempt after ``moves`` (as stored, in order); ``ValueError`` if one does
        not fit where it was stored (a damaged store), ``IllegalAction`` if it breaks a rule."""
        attempt = cls(program, name)
        for move in moves:
            if move.deal_index != attempt.deal_index or move.seat != attempt.to_act:
                raise ValueError(
                    f"move {attempt.moves} is stored for deal {move.deal_index + 1}, seat "
                    f"{move.seat}, but deal {attempt.deal_index + 1} has seat "
                    f"{attempt.to_act} to act"
                )
            attempt.apply(move.action)
        return attempt

    # -- where the attempt stands -------------------------------------------------------

    @property
    def match(self) -> Match:
        """The deal in play (or the last deal, once every deal is done)."""
        return self.matches[-1]

    @property
    def deal_index(self) -> int:
        return len(self.matches) - 1

    @property
    def deals(self) -> int:
        return len(self.program.deals)

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def to_act(self) -> int | None:
        return None if self._finished else self.match.to_act

    @property
    def person_to_act(self) -> bool:
        return self.to_act == PERSON_SEAT

    @property
    def decision_number(self) -> int:
        """Actions taken in the deal in play so far (a computer's seed depends on it)."""
        deal = self.match.deal
        assert deal is not None
        return len(deal.doubling) + len(deal.plays)

    def view_for(self, seat: int) -> SeatView:
        """What ``seat`` knows of the deal in play: its own hand and what is public."""
        return seat_view(self.match, seat)

    def scores(self) -> tuple[int | None, ...]:
        """The person's final score (after doubling) on each deal of the day; None for a
        deal not finished."""
        return (*self._scores, *(None,) * (self.deals - len(self._scores)))

    # -- changing it --------------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` unless the person may take ``action`` now."""
        if self.finished:
            raise IllegalAction("the day's deals are over", Reason.MATCH_OVER)
        self.match.check(action, PERSON_SEAT)

    def apply(self, action: Action) -> Move:
        """Apply ``action`` for the seat to act; the next deal starts when one ends."""
        seat = self.to_act
        if seat is None:
            raise IllegalAction("the day's deals are over", Reason.MATCH_OVER)
        move = Move(self.deal_index, seat, action)
        outcome = self.match.apply(action, seat)
        self.moves += 1
        if outcome.deal_over:
            assert outcome.final is not None
            self._scores.append(outcome.final[PERSON_SEAT])
            if len(self.matches) < self.deals:
                self._deal_next()
            else:
                self._finished = True
        return move

    def _deal_next(self) -> None:
        deal = self.program.deals[len(self.matches)]
        match = Match(self.players, first_dealer=deal.dealer, rules=self.program.rules)
        match.start_deal(deal.hands)
        match.apply(Choose(deal.contract))  # set by the day: the first choice of a match
        self.matches.append(match)
