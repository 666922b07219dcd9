"""Reviewing one seat's decisions in a finished match, a deal at a time.

Every decision the seat made with more than one legal option (the contract, its
doubling turn, each card) is valued by the hard player's search from the seat's own
:class:`~bot.engine.view.SeatView` at that moment, rebuilt by replaying the record: its
hand, what was public, and the others' earlier actions weighed by the hard player's
inference. Never from the real hands: those enter only the hindsight line and the
reasons' facts about what happened later. Each option gets its value
(:class:`~bot.players.hard.Evaluation`), the mean over batches of search, one where
the grade is clear from its guessed deals and more where it is in doubt, until it is
clear or known closely enough (:data:`DEAL_ERRORS`, :data:`MIN_BATCHES`,
:data:`INDIFFERENT`); the loss is the best value minus the chosen one, graded by
:mod:`.grades`. A card's loss is *certain* when the better card beat it in every
guessed deal of every batch by at least one unit of the contract (a trick, a heart; the
endgame solver's exact values where it reaches): then it is flagged whatever its share
of the stake (:func:`~.grades.grade`).

Fixed work, never the clock (``HardPlayer(wall_clock=False)``), and every search's
random source is seeded from the review's seed and the decision's place in the match,
so a review is the same on any machine, in any order, and a deal reviewed after a
restart is the deal reviewed before it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from statistics import fmean
from typing import Any

from bot.engine.actions import Action, Choose, Double, Play, parse_action
from bot.engine.contracts import Contract
from bot.engine.deal import Deal
from bot.engine.match import Match
from bot.engine.view import SeatView, seat_view
from bot.players.hard import Evaluation, HardPlayer
from bot.players.inference import Likelihoods
from bot.players.table import decision_rng

from .grades import LINES, grade, stake, unit
from .hindsight import hindsight
from .reasons import explain
from .replay import Moment, Replay, ReplayError, walk
from .result import (
    DealReview,
    DecisionReview,
    Option,
    PlayerReview,
    ReviewSettings,
    points,
)

#: A decision is searched in batches of the review's work, each with its own random
#: source, up to the settings' ``batches``, until its grade is clear. It is clear from
#: the first batch on by its guessed deals: each is an independent guess in which every
#: option was valued (the same hands for all: common random numbers), so the spread of
#: the deals' differences between each other option and the chosen one gives the error
#: of its lead, and the loss (the best lead) lies between the leads taken this many
#: errors lower and higher. No grade line may lie between, over at least
#: :data:`FEWEST_DEALS` deals, and the loss must not be possibly certain (the better
#: option ahead in every deal so far: such a card is searched on, as below). A first
#: batch's spread is read from a few dozen deals (the inference keeps one guess in
#: many), so it must clear the lines by a wide margin; from the second batch on,
#: :data:`LATER_ERRORS`. Most decisions are clear after one batch (measured:
#: ``bench/review.py``).
DEAL_ERRORS = 4.0

#: The errors every line must lie away from the second batch on, when the spread is
#: read from twice the deals or more. A decision near a line is tested after every
#: batch, so at 2 errors one of its many tests often cleared the line by chance, on
#: either side, and two seeds' reviews stopped on opposite sides. At 2.5, with up to
#: 96 batches (:class:`~.result.ReviewSettings`), the flagged decisions two seeds grade
#: alike went from 88.9% to 91.4% over 27 matches, for about a third more CPU
#: (``bench/review.py --matches 9``, three seeds; docs/benchmarks.md).
LATER_ERRORS = 2.5

#: The fewest guessed deals whose spread can settle a grade (:data:`DEAL_ERRORS`): a
#: first batch has about 45 at the default work (at 100 most decisions needed three).
FEWEST_DEALS = 30

#: From :data:`MIN_BATCHES` batches on, a loss known to within this share of the stake
#: (two errors of its deals) is graded by its mean even when a line lies within that:
#: a decision that close to a line gets a grade either side by chance whatever the
#: search, and searching it to the last batch was much of the review's time. At 2% two
#: seeds' reviews gave a fifth of the flagged decisions different grades, most of them
#: this close to a line; at 1%, with twice the batches, an eighth (``bench/review.py``).
INDIFFERENT = 0.01

#: The batches before a loss may be graded as :data:`INDIFFERENT`. (The batches' own
#: spread settles nothing: three batch means that happen to agree made a 95% interval a
#: fifth of the deals' own, and flagged a card one seed's review called a 0.12 loss and
#: the other's 0.06.)
MIN_BATCHES = 3


#: The share of a batch's work the luck of a hand takes: one mean over unseen cards dealt
#: uniformly, where every guessed deal counts (no inference rejects any), so a quarter of
#: a batch still averages some 480 deals, for a quarter of the CPU (six deals of a match
#: measured with two seeds: 0-1.1 points apart outside Domino, 3.0 in it; at a whole
#: batch 0.2-0.6 and 0.8).
LUCK_WORK = 0.25


class ReviewError(ValueError):
    """A review that cannot be made (an unreadable record, a match not over, no such
    seat or deal); the message says which, for a polite reply."""


def reviewer() -> HardPlayer:
    """The search that values decisions: the hard player as it plays, on fixed work,
    keeping the guesses' likelihoods from one batch of a decision to the next (the same
    values: a decision's later batches redraw many of its guesses)."""
    return HardPlayer(wall_clock=False, likelihoods=Likelihoods())


def finished_match(record: Any) -> Match:
    """The match of a finished ``bonken-record/1`` dict; :class:`ReviewError` otherwise."""
    try:
        return Replay.from_record(record).match
    except ReplayError as error:
        raise ReviewError(str(error)) from None


def review_deal(record: Any, seat: int, deal: int, settings: ReviewSettings) -> DealReview:
    """``seat``'s review of deal ``deal`` (0-based) of the finished match ``record``:
    the unit of work a worker process computes (its arguments and result pickle)."""
    match = finished_match(record)
    check_request(match, seat, deal)
    return deal_review(match, seat, deal, settings)


def assemble(
    match: Match, seat: int, settings: ReviewSettings, deals: Iterable[DealReview]
) -> PlayerReview:
    """The player's review from its deals' reviews (each deal once, any order)."""
    ordered = tuple(sorted(deals, key=lambda deal: deal.deal))
    if [deal.deal for deal in ordered] != list(range(len(match.deals))):
        raise ReviewError("a review needs every deal of the match once")
    return PlayerReview(seat, match.players[seat], settings, ordered)


def deal_review(match: Match, seat: int, deal: int, settings: ReviewSettings) -> DealReview:
    """``seat``'s review of one deal of the finished ``match``."""
    hard = reviewer()
    budget = settings.work / hard.work_per_second
    played = match.deals[deal]
    assert played.contract is not None
    luck = 0.0
    decisions = []
    for moment in walk(match, range(deal, deal + 1)):
        action, scratch = moment.next_action, moment.match
        if moment.address.step == 0:
            view = seat_view(scratch, seat)
            luck = hand_luck(view, played.contract, hard, LUCK_WORK * budget, settings.seed)
        if action is None or scratch.to_act != seat:
            continue
        view = seat_view(scratch, seat)
        if len(view.legal) > 1:
            decisions.append(_decision(moment, view, action, played, hard, budget, settings))
    return DealReview(deal, seat, played.contract.id, luck, tuple(decisions))


def hand_luck(
    view: SeatView, contract: Contract, hard: HardPlayer, budget: float, seed: int
) -> float:
    """The luck of ``view``'s hand as dealt (``view`` is the deal's start) in
    ``contract``, the one the deal was played in: its expected base score there, over the unseen
    cards dealt uniformly and four normal players playing them out, minus the
    contract's average per seat (a quarter of its total). Skill is not in it: the
    doubling and the cards are the decisions' part; for the chooser, the contract's fit
    to his hand is counted here and the choice's loss against the best one there."""
    rng = decision_rng("luck", seed, view.deal_number - 1, view.seat)
    [means] = hard.expected_bases(view, rng, budget, [contract])
    return points(means[view.seat] - contract.total / 4)


def _decision(
    moment: Moment,
    view: SeatView,
    action: Action,
    played: Deal,
    hard: HardPlayer,
    budget: float,
    settings: ReviewSettings,
) -> DecisionReview:
    address = moment.address
    scratch = moment.match.deal
    assert scratch is not None
    searched = Batches(view, action, settings.batches)
    while True:
        rng = decision_rng("review", settings.seed, address.deal, address.step, searched.done)
        searched.add(hard.evaluate(view, rng, budget))
        options, chosen, best = searched.options()
        loss = points(best.value - chosen.value)
        kind, index, at_stake = _kind(action, best, scratch, view)
        if searched.settled(at_stake):
            break
    assert played.contract is not None
    certain = isinstance(action, Play) and searched.certain(best, unit(played.contract))
    graded = grade(loss, at_stake, certain)
    reason = None
    if isinstance(action, Play) and graded is not None:
        better = next(o.card for o in view.legal if isinstance(o, Play) and o.code == best.action)
        reason = explain(view, action.card, better, played, certain)
    return DecisionReview(
        deal=address.deal,
        kind=kind,
        index=index,
        address=address,
        options=options,
        chosen=chosen.action,
        best=best.action,
        loss=loss,
        stake=at_stake,
        certain=certain,
        grade=graded,
        reason=reason,
        hindsight=hindsight(scratch, action) if isinstance(action, Play) else None,
        guesses=searched.guesses,
    )


class Batches:
    """The batches of search one decision has had so far (at most ``most``), their
    values and guessed deals, and whether its grade is settled: see :data:`DEAL_ERRORS`
    and :data:`INDIFFERENT`."""

    def __init__(self, view: SeatView, action: Action, most: int) -> None:
        self.codes = [option.code for option in view.legal]
        self.chosen = action.code
        self.most = most
        self.values: list[dict[str, float]] = []
        self.guesses = 0
        #: The spread of each option's lead over the chosen one in the guessed deals of
        #: every batch so far.
        self.spread = {code: _Spread() for code in self.codes}
        #: Each option's least lead over the chosen one in any guessed deal so far;
        #: None once a batch kept no deals (an evaluation made without them).
        self.least: dict[str, float] | None = {code: math.inf for code in self.codes}

    @property
    def done(self) -> int:
        return len(self.values)

    @property
    def deals(self) -> int:
        """The guessed deals of every batch so far (each counted in every spread)."""
        return self.spread[self.chosen].count

    def add(self, evaluation: Evaluation) -> None:
        self.values.append(
            {a.code: v for a, v in zip(evaluation.options, evaluation.values, strict=True)}
        )
        self.guesses += evaluation.guesses
        codes = [option.code for option in evaluation.options]
        if not evaluation.deals or self.least is None:
            self.least = None
            return
        mine = codes.index(self.chosen)
        for i, code in enumerate(codes):
            leads = [values[i] - values[mine] for values in evaluation.deals]
            self.spread[code].add(leads)
            self.least[code] = min(self.least[code], *leads)

    def certain(self, best: Option, unit: int) -> bool:
        """Whether ``best`` beat the chosen option by at least ``unit`` points in every
        guessed deal of every batch: a loss that is not the search's noise."""
        if self.least is None or best.action == self.chosen:
            return False
        return self.least[best.action] >= unit

    def options(self) -> tuple[tuple[Option, ...], Option, Option]:
        """Every option at its mean over the batches, the chosen one and the best (the
        chosen one on a tie)."""
        options = tuple(
            Option(code, points(fmean(batch[code] for batch in self.values))) for code in self.codes
        )
        chosen = next(option for option in options if option.action == self.chosen)
        best = max(options, key=lambda option: option.value)
        return options, chosen, best if best.value > chosen.value else chosen

    def settled(self, at_stake: int) -> bool:
        """Whether the decision's grade is clear: every grade line outside the bounds
        of the loss by its guessed deals (:data:`DEAL_ERRORS`), or the loss known
        closely enough (:data:`INDIFFERENT`), or the batches used up. The loss is how
        far the best other option beats the chosen one (none when none does), so its
        bounds are every other option's lead give or take its errors, not only the
        lead of the best one so far: an option a little behind with widely spread deals
        may still be the better card."""
        if self.done >= self.most:
            return True
        options, chosen, best = self.options()
        others = [o for o in options if o is not chosen]
        leads = [o.value - chosen.value for o in others]
        if self._clear_by_deals(others, leads, None if best is chosen else best, at_stake):
            return True
        if self.done < MIN_BATCHES:
            return False
        if self.least is None:
            return False  # no guessed deals to read the loss's error from: every batch
        low, high = _loss_bounds(leads, self._deal_errors(others), 2.0)
        return high - low <= 2 * INDIFFERENT * at_stake

    def _deal_errors(self, others: list[Option]) -> list[float]:
        """The error of each of ``others``' lead over the chosen option, by the spread
        of the guessed deals' differences."""
        return [self.spread[o.action].error() for o in others]

    def _clear_by_deals(
        self, others: list[Option], leads: list[float], better: Option | None, at_stake: int
    ) -> bool:
        """Whether the guessed deals so far settle the grade: :data:`DEAL_ERRORS`
        (``better``: the best option when it is not the chosen one)."""
        if self.least is None or self.deals < FEWEST_DEALS:
            return False
        if better is not None and self.least[better.action] > 0:
            return False  # possibly a certain loss: searched on
        errors = DEAL_ERRORS if self.done == 1 else LATER_ERRORS
        return _clear(_loss_bounds(leads, self._deal_errors(others), errors), at_stake)


class _Spread:
    """The spread of one option's lead over the chosen one in the deals so far: their
    count, sum and sum of squares."""

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, leads: list[float]) -> None:
        self.count += len(leads)
        self.total += math.fsum(leads)
        self.squares += math.fsum(lead * lead for lead in leads)

    def error(self) -> float:
        """The standard error of the mean lead (the deals' spread over their root)."""
        n = self.count
        spread = max(0.0, self.squares - self.total * self.total / n) / (n - 1)
        return math.sqrt(spread / n)


def _loss_bounds(leads: list[float], errors: list[float], times: float) -> tuple[float, float]:
    """The least and the most the loss can be: the best lead over the chosen option
    (none below 0), each lead taken ``times`` its error lower, then higher."""
    low = max([0.0, *(lead - times * e for lead, e in zip(leads, errors, strict=True))])
    high = max([0.0, *(lead + times * e for lead, e in zip(leads, errors, strict=True))])
    return low, high


def _clear(bounds: tuple[float, float], at_stake: int) -> bool:
    """Whether no grade line lies between the loss's ``bounds``."""
    low, high = bounds
    return all(share * at_stake <= low or share * at_stake >= high for _, share in LINES)


def _kind(action: Action, best: Option, deal: Deal, view: SeatView) -> tuple[str, int, int]:
    """The decision's kind, its index among the deal's actions of that kind, and its
    stake (a contract choice: the larger of the chosen and the best contract's)."""
    if isinstance(action, Choose):
        contracts = view.rules.by_id
        better = parse_action(best.action)
        assert isinstance(better, Choose)
        return (
            "choose",
            0,
            max(stake(contracts[action.contract]), stake(contracts[better.contract])),
        )
    assert deal.contract is not None
    if isinstance(action, Double):
        return "double", len(deal.doubling), stake(deal.contract)
    return "play", len(deal.plays), stake(deal.contract)


def check_request(match: Match, seat: int, deal: int) -> None:
    if type(seat) is not int or seat not in range(4):
        raise ReviewError(f"there is no seat {seat!r}: seats are 0-3")
    if type(deal) is not int or deal not in range(len(match.deals)):
        raise ReviewError(f"this match has no deal {deal!r}")
