"""Every point of a finished match, all four hands face up: what a replay steps through.

A point is the state of one deal after some of its actions: step 0 is the deal as dealt
(the chooser to choose), step 1 after the contract was chosen, steps 2-5 after each
doubling turn, then one step per card (Domino passes are automatic and belong to the
card before them). Its :class:`Address` is ``(deal, step)``, written ``"4.17"``: short
enough to sit in a button's ``custom_id`` beside a match id.

Points are rebuilt by replaying the match's own actions through the engine
(:meth:`~bot.engine.match.Match.apply` on a fresh match), never by re-deriving a rule,
so every variant and house rule replays as it was played. Once a match is over nothing
is hidden any more, so a point shows every hand; a match still in play is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.engine.actions import Action, Choose, Double, Play
from bot.engine.cards import Card
from bot.engine.deal import Outcome, Phase
from bot.engine.match import Match
from bot.engine.record import RecordError, from_record
from bot.engine.view import PublicView, public_view

MAX_CODE = 5
"""The longest address code (``"11.60"``): a deal has at most 1 + 4 + 52 actions."""


class ReplayError(ValueError):
    """A record that cannot be replayed, or an address that is not a point of it; the
    message says which, for a polite reply."""


@dataclass(frozen=True, slots=True, order=True)
class Address:
    """A point of a match: its ``deal`` (0-based) and ``step`` (actions of that deal
    applied). ``code`` is its compact text form, read back by :meth:`parse`."""

    deal: int
    step: int

    @property
    def code(self) -> str:
        return f"{self.deal}.{self.step}"

    @classmethod
    def parse(cls, code: str) -> Address:
        """The address written as ``code``; ``ValueError`` for anything else (a forged
        button): two small decimal numbers without signs or leading zeros."""
        deal, sep, step = code.partition(".") if isinstance(code, str) else ("", "", "")
        if sep and len(code) <= MAX_CODE and _plain_number(deal) and _plain_number(step):
            return cls(int(deal), int(step))
        raise ValueError(f"not a replay address: {code!r}")


def _plain_number(text: str) -> bool:
    return text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0"))


@dataclass(frozen=True, slots=True)
class DealLabel:
    """What names a deal in a menu of deals ("Deal 4 · Queens · chosen by Bob"):
    ``number`` is 1-based, ``contract`` the contract id, ``chooser`` a seat."""

    number: int
    contract: str
    chooser: int
    chooser_name: str


@dataclass(frozen=True)
class ReplayPoint:
    """One point of a replay; ``view`` is the engine's public snapshot there (scores,
    doubles, tricks taken, the trick in progress, Domino rows), the rest what a replay
    shows beyond it.

    ``action`` is what ``actor`` did to reach this point (None at a deal's start). When
    that action was a trick's fourth card, ``trick`` is that trick and ``trick_winner``
    who took it (the picture shows the full trick, while ``view.trick`` is already
    empty); otherwise ``trick`` is the trick in progress. ``passes`` are the Domino seats
    that passed automatically after the action. ``hands`` is what each seat still holds.
    """

    address: Address
    label: DealLabel
    view: PublicView
    hands: tuple[tuple[Card, ...], ...]
    action: Action | None
    actor: int | None
    trick: tuple[tuple[int, Card], ...]
    trick_winner: int | None
    passes: tuple[int, ...]
    final: tuple[int, ...]
    """The deal's scores so far with the doubling settlement applied (``view.base`` is
    before it)."""
    is_end: bool
    """The deal's last point: its final scores."""


@dataclass(frozen=True)
class Moment:
    """One point of a walk through a match (:func:`walk`): ``match`` is a scratch match
    at this point, valid only until the walk moves on; ``outcome`` is what the action
    that led here did (None at a deal's start) and ``next_action`` the action the
    record takes from here (None at a deal's end)."""

    address: Address
    match: Match
    outcome: Outcome | None
    next_action: Action | None


def deal_actions(match: Match, deal_index: int) -> tuple[Action, ...]:
    """The actions of a finished deal, in order: the contract, the doubling turns, the
    cards (the record's own order; Domino passes are not actions)."""
    deal = match.deals[deal_index]
    if deal.contract is None:
        raise ReplayError(f"deal {deal_index + 1} has no contract")
    return (
        Choose(deal.contract.id),
        *(Double(targets) for targets in deal.doubling),
        *(Play(card) for _, card in deal.plays),
    )


def walk(match: Match, deals: range | None = None) -> Iterator[Moment]:
    """Replay ``match`` through a fresh match, yielding every point of ``deals`` (all by
    default) in order; earlier deals are replayed without yielding."""
    wanted = range(len(match.deals)) if deals is None else deals
    scratch = Match(match.players, first_dealer=match.first_dealer, rules=match.rules)
    for index, deal in enumerate(match.deals[: wanted.stop]):
        scratch.start_deal(deal.hands)
        actions = deal_actions(match, index)
        outcome: Outcome | None = None
        for step, action in enumerate(actions):
            if index in wanted:
                yield Moment(Address(index, step), scratch, outcome, action)
            outcome = scratch.apply(action)
        if index in wanted:
            yield Moment(Address(index, len(actions)), scratch, outcome, None)


class Replay:
    """The points of one finished match. Build it with :meth:`from_record`; points are
    made a deal at a time when first asked for and kept."""

    def __init__(self, match: Match, *, whole: bool = True) -> None:
        """``whole=False``: every deal played must be finished, not the match (a daily
        deal is a match of one deal, which ends before its match would)."""
        done = all(deal.is_done for deal in match.deals) and bool(match.deals)
        if not (match.is_over if whole else done):
            raise ReplayError("the match is not over yet: it can be replayed once it is")
        self.match = match
        self._deals: dict[int, tuple[ReplayPoint, ...]] = {}

    @classmethod
    def from_record(cls, record: Any, *, whole: bool = True) -> Replay:
        """The replay of a ``bonken-record/1`` dict; :class:`ReplayError` if it cannot
        be read or its match (``whole=False``: its deals) is not over."""
        try:
            return cls(from_record(record), whole=whole)
        except RecordError as error:
            raise ReplayError(f"the record cannot be replayed: {error}") from None

    @property
    def deals(self) -> int:
        return len(self.match.deals)

    def steps(self, deal: int) -> int:
        """The number of points of ``deal``: its actions plus its start."""
        self._check_deal(deal)
        return len(deal_actions(self.match, deal)) + 1

    def label(self, deal: int) -> DealLabel:
        self._check_deal(deal)
        played = self.match.deals[deal]
        assert played.contract is not None
        return DealLabel(
            deal + 1, played.contract.id, played.chooser, self.match.players[played.chooser]
        )

    def labels(self) -> tuple[DealLabel, ...]:
        """Every deal's label, for a menu of the deals."""
        return tuple(self.label(deal) for deal in range(self.deals))

    # -- addresses ------------------------------------------------------------------------

    def contains(self, address: Address) -> bool:
        return 0 <= address.deal < self.deals and 0 <= address.step < self.steps(address.deal)

    def start(self, deal: int) -> Address:
        """The deal as dealt, before its contract."""
        self._check_deal(deal)
        return Address(deal, 0)

    def end(self, deal: int) -> Address:
        """The deal's last point: every card it played, its final scores."""
        return Address(deal, self.steps(deal) - 1)

    def forward(self, address: Address) -> Address | None:
        """One action on: the next deal's start after a deal's end; None after the
        match's last point."""
        self._check(address)
        if address.step + 1 < self.steps(address.deal):
            return Address(address.deal, address.step + 1)
        if address.deal + 1 < self.deals:
            return self.start(address.deal + 1)
        return None

    def back(self, address: Address) -> Address | None:
        """One action back: the previous deal's end before a deal's start; None before
        the match's first point."""
        self._check(address)
        if address.step > 0:
            return Address(address.deal, address.step - 1)
        if address.deal > 0:
            return self.end(address.deal - 1)
        return None

    # -- points ---------------------------------------------------------------------------

    def point(self, address: Address) -> ReplayPoint:
        """The point at ``address``; :class:`ReplayError` if the match has none there."""
        self._check(address)
        return self.deal_points(address.deal)[address.step]

    def deal_points(self, deal: int) -> tuple[ReplayPoint, ...]:
        """Every point of ``deal``, from its start to its end."""
        self._check_deal(deal)
        points = self._deals.get(deal)
        if points is None:
            label = self.label(deal)
            points = tuple(
                _point(moment, label) for moment in walk(self.match, range(deal, deal + 1))
            )
            self._deals[deal] = points
        return points

    def every_point(self) -> tuple[tuple[ReplayPoint, ...], ...]:
        """Every deal's points, made in one walk of the match (asked a deal at a time,
        each deal would replay the deals before it again: the web's deal viewer, which
        shows them all, would walk the match's start a dozen times)."""
        if len(self._deals) < self.deals:
            labels = self.labels()
            walked: list[list[ReplayPoint]] = [[] for _ in range(self.deals)]
            for moment in walk(self.match):
                deal = moment.address.deal
                walked[deal].append(_point(moment, labels[deal]))
            for deal, points in enumerate(walked):
                self._deals.setdefault(deal, tuple(points))
        return tuple(self._deals[deal] for deal in range(self.deals))

    def _check_deal(self, deal: int) -> None:
        if not 0 <= deal < len(self.match.deals):
            raise ReplayError(f"this match has no deal {deal + 1}")

    def _check(self, address: Address) -> None:
        if not self.contains(address):
            raise ReplayError(f"this match has no point {address.code}")


def _point(moment: Moment, label: DealLabel) -> ReplayPoint:
    match, outcome = moment.match, moment.outcome
    deal = match.deal
    assert deal is not None
    view = public_view(match)
    completed = outcome.trick if outcome is not None else None
    return ReplayPoint(
        address=moment.address,
        label=label,
        view=view,
        hands=tuple(tuple(deal.hand(seat)) for seat in range(4)),
        action=None if outcome is None else outcome.action,
        actor=None if outcome is None else outcome.seat,
        trick=tuple(completed.played()) if completed is not None else view.trick,
        trick_winner=None if completed is None else completed.winner,
        passes=() if outcome is None else outcome.passes,
        final=tuple(deal.final_scores()),
        is_end=deal.phase is Phase.DONE,
    )
