"""The review: a clearly losing card is a blunder with the better card named and its
reason; only decisions with a choice are reviewed; only what the player could know is
valued; the same seed gives the same review; results round-trip through JSON."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.engine.cards import CARDS
from bot.engine.contracts import CONTRACTS
from bot.engine.match import Match
from bot.engine.record import from_record, to_record
from bot.engine.rules import TWELVE
from bot.engine.view import seat_view
from bot.players.hard import Evaluation, HardPlayer
from bot.players.normal import NormalPlayer
from bot.players.table import decision_rng
from bot.review import (
    DealReview,
    Grade,
    PlayerReview,
    ReviewError,
    ReviewSettings,
    analysis,
    assemble,
    review_deal,
)
from bot.review.analysis import MIN_BATCHES, Batches, finished_match, hand_luck, reviewer
from bot.review.replay import walk
from tests.review.review_helpers import cards_of, kingjacks_blunder, normal_match

FAST = ReviewSettings(seed=3, work=2_000, batches=3)
"""A small budget: enough for certain losses, fast enough for a unit test."""

ONE_BATCH = ReviewSettings(seed=5, work=2_000, batches=1)


def test_a_certainly_losing_card_is_a_blunder_with_the_better_card_and_why() -> None:
    review = review_deal(kingjacks_blunder(), 1, 0, FAST)
    lead = next(d for d in review.decisions if d.kind == "play" and d.index == 4)
    assert lead.chosen == "P:KS"
    assert lead.best == "P:2C"
    assert lead.grade is Grade.BLUNDER
    assert lead.loss >= 20  # the K♠ itself, and whatever the others shed on it
    assert lead.stake == 120
    assert lead.reason is not None and lead.reason.key == "sure_winner"
    assert dict(lead.reason.values) == {"suit": "S", "chosen": "KS", "better": "2C"}
    assert lead.reason.message.format(**dict(lead.reason.values)) == (
        "nobody else held a S: KS was sure to take the trick, 2C sure to lose it"
    )


def test_only_decisions_with_more_than_one_legal_option_are_reviewed() -> None:
    record = normal_match(11)
    match = finished_match(record)
    seat, deal = 2, 0
    choices: dict[int, set[Any]] = {2: set(), 1: set()}
    for moment in walk(match, range(deal, deal + 1)):
        if moment.next_action is not None and moment.match.to_act == seat:
            options = len(moment.match.legal_actions())
            choices[min(options, 2)].add(moment.address)
    assert choices[1]  # the seat had forced actions in this deal
    review = review_deal(record, seat, deal, ONE_BATCH)
    assert {d.address for d in review.decisions} == choices[2]
    assert all(len(d.options) > 1 for d in review.decisions)


def _swap_unseen(record: dict[str, Any], deal: int, seat: int, step: int) -> dict[str, Any]:
    """The record with two cards of one suit swapped between two other seats in
    ``deal``, neither played before ``step``, wherever they were played later: every
    public action up to ``step`` stays the same, the hidden hands differ."""
    entry = record["deals"][deal]
    played_before = set(entry["plays"][: max(0, step - 5)])
    others = [s for s in range(4) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for x in entry["hands"][a]:
                for y in entry["hands"][b]:
                    if x[1] != y[1] or {x, y} & played_before:
                        continue
                    swapped = copy.deepcopy(record)
                    changed = swapped["deals"][deal]
                    swap = {x: y, y: x}
                    changed["hands"][a] = [swap.get(c, c) for c in changed["hands"][a]]
                    changed["hands"][b] = [swap.get(c, c) for c in changed["hands"][b]]
                    changed["plays"] = [swap.get(c, c) for c in changed["plays"]]
                    swapped.pop("totals")
                    for other in swapped["deals"]:
                        other.pop("scores")
                    try:
                        from_record(swapped)
                    except ValueError:
                        continue
                    return swapped
    raise AssertionError("no pair of unseen cards could be swapped")


def test_a_decision_is_valued_from_the_players_information_only() -> None:
    record = normal_match(12)
    seat, deal = 0, 2
    settings = ReviewSettings(seed=5, work=2_000, batches=2)
    review = review_deal(record, seat, deal, settings)
    step = review.decisions[len(review.decisions) // 2].address.step
    other = _swap_unseen(record, deal, seat, step)
    assert other["deals"][deal]["hands"] != record["deals"][deal]["hands"]
    again = review_deal(other, seat, deal, settings)
    before = [d for d in review.decisions if d.address.step <= step]
    assert len(before) >= 3
    for fair, with_other_hands in zip(before, again.decisions, strict=False):
        assert with_other_hands.address == fair.address
        assert with_other_hands.options == fair.options
        assert (with_other_hands.loss, with_other_hands.grade) == (fair.loss, fair.grade)


def test_the_same_seed_gives_the_same_review_and_another_seed_other_values() -> None:
    record = normal_match(13, TWELVE)
    settings = ReviewSettings(seed=7, work=2_000, batches=3)
    first = review_deal(record, 3, 5, settings)
    assert review_deal(record, 3, 5, settings) == first
    other = review_deal(record, 3, 5, replace(settings, seed=8))
    assert [d.options for d in other.decisions] != [d.options for d in first.decisions]


def test_a_review_round_trips_through_json_and_sums_up_its_decisions() -> None:
    record = normal_match(14)
    match = finished_match(record)
    settings = ReviewSettings(seed=2, work=1_000, batches=1)
    deals = [review_deal(record, 1, deal, settings) for deal in range(len(match.deals))]
    for deal in deals:
        assert DealReview.from_json(deal.to_json()) == deal
    review = assemble(match, 1, settings, reversed(deals))
    assert [deal.deal for deal in review.deals] == list(range(11))
    assert PlayerReview.from_json(review.to_json()) == review
    flagged = [d for d in review.decisions if d.grade is not None]
    assert review.lost == pytest.approx(sum(d.loss for d in flagged))
    assert sum(review.count(grade) for grade in Grade) == len(flagged)
    costliest = review.costliest
    assert len(costliest) == min(3, len(flagged))
    assert [d.loss for d in costliest] == sorted((d.loss for d in flagged), reverse=True)[:3]
    summary = review.to_json()
    for decision in summary["decisions"]:
        assert decision["kind"] in ("choose", "double", "play")
        assert decision["loss"] >= 0
        assert decision["class"] in (None, "inaccuracy", "mistake", "blunder")
    plays = [d for d in summary["decisions"] if d["kind"] == "play"]
    entry = record["deals"][plays[0]["deal"]]
    assert entry["plays"][plays[0]["index"]] == plays[0]["chosen"]


def test_a_review_that_cannot_be_made_is_refused_politely() -> None:
    record = normal_match(15)
    with pytest.raises(ReviewError, match="no seat 4"):
        review_deal(record, 4, 0, FAST)
    with pytest.raises(ReviewError, match="no deal 11"):
        review_deal(record, 0, 11, FAST)
    unfinished = copy.deepcopy(record)
    unfinished["deals"] = unfinished["deals"][:5]
    unfinished.pop("totals")
    with pytest.raises(ReviewError, match="not over"):
        review_deal(unfinished, 0, 0, FAST)
    with pytest.raises(ReviewError, match="every deal"):
        assemble(finished_match(record), 0, FAST, [])


def test_the_luck_of_a_hand_is_its_expected_score_against_the_average() -> None:
    # Seat 1 holds every queen with no low card to duck with; seat 3 every two, three
    # and four, so it can never take a trick.
    queens = cards_of("QC QD QH QS AC AD AH AS KC KD KH KS JC")
    twos = cards_of("2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C")
    rest = [card for card in CARDS if card not in queens and card not in twos]
    match = Match()
    match.start_deal([rest[:13], queens, rest[13:], twos])
    hard = reviewer()
    luck = [
        hand_luck(seat_view(match, seat), CONTRACTS["queens"], hard, 0.05, seed=1)
        for seat in range(4)
    ]
    assert luck[1] < -30  # an average seat takes a quarter of -120: this one two queens
    assert luck[3] == 30.0  # no queen in any deal of the unseen cards


def test_a_decision_without_guessed_deals_is_searched_to_the_last_batch() -> None:
    """Without guessed deals (batches that kept none) nothing says how far the loss may
    be off, so even batches that agree settle nothing: every batch is searched."""
    match = Match()
    match.deal_random(random.Random(1))
    view = seat_view(match, 2)
    chosen, better = view.legal[0], view.legal[1]
    values = tuple(-40.0 if a == chosen else 0.0 if a == better else -200.0 for a in view.legal)
    batches = Batches(view, chosen, most=6)
    batches.add(Evaluation(view.legal, values, chosen, 10))
    while not batches.settled(120):
        batches.add(Evaluation(view.legal, values, chosen, 10))
    assert batches.done == 6


def test_every_option_that_may_be_better_keeps_the_search_going() -> None:
    """The loss is the best other option's lead, so an option behind the chosen one on
    average but with widely spread deals keeps the grade in doubt, though the option
    nearest the chosen one (a card of the same worth, no spread) is known exactly."""
    match = Match()
    match.deal_random(random.Random(1))
    view = seat_view(match, 2)
    chosen, twin, wide = view.legal[0], view.legal[1], view.legal[2]

    def value(option: object, k: int) -> float:
        if option == chosen:
            return 0.0
        if option == twin:
            return -0.5
        if option == wide:
            return -5.0 + (60.0 if k % 2 else -60.0)
        return -200.0

    def batches_searched(spread_option: object) -> int:
        batches = Batches(view, chosen, most=6)
        while True:
            deals = tuple(
                tuple(value(a if a != spread_option else None, k) for a in view.legal)
                for k in range(40)
            )
            values = tuple(
                sum(deal[i] for deal in deals) / len(deals) for i in range(len(view.legal))
            )
            batches.add(Evaluation(view.legal, values, chosen, len(deals), deals))
            if batches.settled(120):
                return batches.done

    assert batches_searched(None) > 1  # the wide option may still be 12 ahead
    assert batches_searched(wide) == 1  # without it, the twin settles at once


def _searched(losses: Callable[[int], list[float]], most: int) -> int:
    """How many batches a decision is searched for (at most ``most``, a stake of 120:
    lines at 12, 30 and 60) when batch ``k``'s guessed deals have the chosen option
    ``losses(k)`` behind the better one (every deal valuing every option)."""
    match = Match()
    match.deal_random(random.Random(1))
    view = seat_view(match, 2)
    chosen, better = view.legal[0], view.legal[1]
    batches = Batches(view, chosen, most)
    while True:
        deals = tuple(
            tuple(-loss if a == chosen else 0.0 if a == better else -200.0 for a in view.legal)
            for loss in losses(batches.done)
        )
        values = tuple(sum(deal[i] for deal in deals) / len(deals) for i in range(len(view.legal)))
        batches.add(Evaluation(view.legal, values, chosen, len(deals), deals))
        if batches.settled(120):
            return batches.done


def test_a_grade_clear_from_the_guessed_deals_needs_one_batch() -> None:
    """Each guessed deal values every option: when their differences put every grade
    line far enough away (DEAL_ERRORS errors), one batch settles the grade; near a
    line, with too few deals, or where the better option won every deal (a loss
    possibly certain), the search goes on."""
    spread = [-50.0, 50.0] * 400  # 800 deals, a loss of 0 on average, error 1.8
    assert _searched(lambda _: [loss + 40 for loss in spread], 6) == 1  # lines 12, 30, 60
    assert _searched(lambda _: spread, 6) == 1
    # On a line: searched until two errors are within INDIFFERENT of the stake (1.2):
    # 50 / sqrt(800 k) <= 0.6 from k = 9.
    assert _searched(lambda _: [loss + 30 for loss in spread], 12) == 9
    assert _searched(lambda _: [loss / 4 + 40 for loss in spread], 6) == MIN_BATCHES  # ahead
    # Too few deals for an error in one batch; from the second batch on the line must be
    # LATER_ERRORS away: 12 >= 2.5 * 50 / sqrt(20 k) from k = 6 (at 2 errors, k = 4).
    assert _searched(lambda _: spread[:20], 8) == 6


def test_a_first_batch_of_a_few_dozen_deals_settles_a_clear_grade() -> None:
    """A first batch has a few dozen deals at the default work: 40 settle a loss 4 errors
    from every line (error 1.6 here); one under 4 errors away needs a second batch,
    where 2.5 errors suffice (3.5 away, error 1.1)."""
    deals = [-10.0, 10.0] * 20
    assert _searched(lambda _: deals, 32) == 1  # 12 away from the inaccuracy line
    assert _searched(lambda _: [8.5 + loss for loss in deals], 32) == 2  # 3.5 away


def test_a_loss_known_closely_on_a_line_is_graded_without_searching_to_the_last_batch() -> None:
    """On the mistake line, batches whose means differ (so the batches' own test never
    clears it): a loss whose deals know it to within INDIFFERENT of the stake stops at
    MIN_BATCHES; one the deals spread too widely for that searches every batch."""

    def on_the_line(spread: float) -> Callable[[int], list[float]]:
        return lambda k: [30 + (-2 if k % 2 else 2) + loss for loss in [-spread, spread] * 20]

    assert _searched(on_the_line(5.0), 32) == MIN_BATCHES
    assert _searched(on_the_line(50.0), 12) == 12


def _hard_at_seat_0(seed: int, work: int, deals: int) -> dict[str, Any]:
    """A whole match, seat 0 the hard player on ``work`` a decision (fixed work, its own
    seed) in the first ``deals`` deals (the ones reviewed: the hard player's search in the
    others would cost seconds no test looks at), seats 1-3 and the rest the normal player."""
    rng = random.Random(seed)
    match = Match(("Hard", "Normal 1", "Normal 2", "Normal 3"))
    hard, normal = reviewer(), NormalPlayer()
    step = 0
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        view = seat_view(match, match.to_act)
        if match.to_act == 0 and len(view.legal) > 1 and len(match.deals) <= deals:
            budget = work / hard.work_per_second
            action = hard.choose_action(view, decision_rng("proof", seed, step), budget)
        else:
            action = normal.choose_action(view, rng, 0.0)
        match.apply(action)
        step += 1
    return to_record(match)


def test_a_seat_the_hard_player_played_flags_almost_nothing() -> None:
    """The review searches as the hard player does (another seed): its own choices come
    out within the review's noise, under the inaccuracy line in at least nine decisions
    of ten here (bench/review.py measures the share over whole matches)."""
    work = 20_000
    record = _hard_at_seat_0(1, work, deals=4)
    settings = ReviewSettings(seed=8, work=work, batches=6)
    decisions = [d for deal in range(4) for d in review_deal(record, 0, deal, settings).decisions]
    flagged = [d for d in decisions if d.flagged]
    assert len(decisions) >= 30
    assert len(flagged) <= len(decisions) // 10


def test_keeping_a_decisions_likelihoods_between_batches_changes_no_grade(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reviewer keeps the guesses' likelihoods from one batch of a decision to the
    next; a review without that memory is the same review, value for value."""
    record = normal_match(16)
    settings = ReviewSettings(seed=3, work=20_000, batches=5)
    last = len(record["deals"]) - 1
    remembering = review_deal(record, 2, last, settings)
    assert reviewer().likelihoods is not None
    monkeypatch.setattr(analysis, "reviewer", lambda: HardPlayer(wall_clock=False))
    assert review_deal(record, 2, last, settings) == remembering
