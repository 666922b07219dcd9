"""The hard player's evaluation: every legal option valued by the search its decision
runs, so the decision is the evaluation's choice; the doubling values count the later
seats' answers; the contract estimates are whole simulated deals."""

from __future__ import annotations

import random

import pytest

from bot.engine.actions import Choose, Double, Play
from bot.engine.contracts import CONTRACTS
from bot.engine.match import Match
from bot.engine.rules import rules_for
from bot.engine.view import SeatView, seat_view
from bot.players.bidding import margin
from bot.players.hand import expected_base
from bot.players.hard import HardPlayer, _Answers
from bot.players.inference import naming_chance
from tests.players.players_helpers import hand_cards, hands_with, random_position

PLAYERS = {
    "reject": HardPlayer(wall_clock=False),
    "weight": HardPlayer(wall_clock=False, inference="weight"),
    "off": HardPlayer(wall_clock=False, inference="off", endgame_tricks=0),
}


def _views() -> list[SeatView]:
    """Views of every kind of decision: contracts, doubling turns, cards early and in the
    endgame, Domino, in the standard game and in ``twelve`` with house rules."""
    views = []
    for seed, contract, moves in [
        (1, "queens", 0),
        (2, "hearts", 2),
        (3, "kingjacks", 3),
        (4, "trump-spades", 20),
        (5, "domino", 12),
        (6, "lasttrick", 48),
        (7, "kingofhearts", 4),
        (8, "ducking", 44),
    ]:
        match = random_position(seed, contract, deals_before=seed % 3, moves=moves)
        assert match.to_act is not None
        views.append(seat_view(match, match.to_act))
    twelve = Match(rules=rules_for("twelve", {"heart_lead": "broken", "first_lead": "dealer"}))
    rng = random.Random(9)
    twelve.deal_random(rng)
    for _ in range(30):
        twelve.apply(rng.choice(twelve.legal_actions()))
    assert twelve.to_act is not None
    views.append(seat_view(twelve, twelve.to_act))
    return [view for view in views if len(view.legal) > 1]


@pytest.mark.parametrize("mode", list(PLAYERS))
def test_the_decision_is_the_evaluations_choice(mode: str) -> None:
    player = PLAYERS[mode]
    kinds = set()
    for index, view in enumerate(_views()):
        evaluation = player.evaluate(view, random.Random(index), 0.03)
        assert player.choose_action(view, random.Random(index), 0.03) == evaluation.choice
        assert sorted(a.code for a in evaluation.options) == sorted(a.code for a in view.legal)
        assert evaluation.choice in evaluation.options
        assert len(evaluation.values) == len(evaluation.options)
        assert evaluation.guesses >= 1
        kinds.add(type(evaluation.choice))
    assert kinds == {Choose, Double, Play}


def test_every_evaluation_keeps_its_deals_whose_means_are_its_values() -> None:
    """A card, a contract and a doubling turn keep every guessed deal's value for each
    option (the match review reads its error from their spread): with rejection every
    deal counts alike, so the options' values are the deals' means."""
    player = PLAYERS["reject"]
    kinds = set()
    for index, view in enumerate(_views()):
        evaluation = player.evaluate(view, random.Random(index), 0.03)
        assert len(evaluation.deals) == evaluation.guesses
        for i, value in enumerate(evaluation.values):
            mean = sum(deal[i] for deal in evaluation.deals) / len(evaluation.deals)
            assert mean == pytest.approx(value)
        kinds.add(type(evaluation.choice))
    assert kinds == {Choose, Double, Play}


def test_a_card_the_search_keeps_is_the_best_valued_or_normals_within_the_noise() -> None:
    player = PLAYERS["reject"]
    for index, view in enumerate(_views()):
        evaluation = player.evaluate(view, random.Random(index), 0.03)
        if isinstance(evaluation.choice, Play):
            best = max(evaluation.values)
            chosen = evaluation.values[evaluation.options.index(evaluation.choice)]
            assert chosen >= best - player.noise


def test_a_hand_that_takes_most_tricks_is_worth_most_doubling_everyone() -> None:
    match = Match()
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "AD", "AC", "KH", "KD", "KC"]
    match.start_deal(hands_with({3: strong}, fill=[0, 1, 2]))
    match.apply(Choose("trump-spades"))
    view = seat_view(match, 3)
    evaluation = PLAYERS["reject"].evaluate(view, random.Random(2), 0.05)
    best = evaluation.options[evaluation.values.index(max(evaluation.values))]
    assert best == Double.of(0, 1, 2)


def test_a_later_seat_answers_a_double_by_its_hand() -> None:
    # Seat 3 doubles first (dealer 0); seat 0 holds every top trump, so it would redouble
    # and would double seat 3 unasked; seat 2 is the chooser and can only redouble.
    match = Match()
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "AD", "AC", "KH", "KD", "KC"]
    match.start_deal(hands_with({0: strong}, fill=[1, 2, 3]))
    match.apply(Choose("trump-spades"))
    view = seat_view(match, 3)
    options = tuple(a for a in view.legal if isinstance(a, Double))
    answers = _Answers(view, options, PLAYERS["reject"].model)
    hands = [0] * 16
    for seat, hand in enumerate(match.deals[0].hands):
        for card in hand:
            hands[seat * 4 + card.suit] |= 1 << (card.rank - 2)
    base = [90, 20, 0, 10]
    answers.observe(hands, 1.0, [base])
    values = dict(zip(options, answers.values(), strict=True))
    contract = CONTRACTS["trump-spades"]

    def chance(seat: int, claimed: float) -> float:
        mine = expected_base(hand_cards(hands, seat), contract)
        return naming_chance(mine, contract, claimed, PLAYERS["reject"].model)

    need = margin(contract)
    assert chance(0, need / 2) > 0.99 and chance(1, 0.0) < 0.5
    passed = 10 + chance(0, 0.0) * (10 - 90) + chance(1, 0.0) * (10 - 20)
    assert values[Double.of()] == pytest.approx(passed)
    named = 10 + (1 + chance(0, need / 2)) * (10 - 90) + chance(1, 0.0) * (10 - 20)
    assert values[Double.of(0)] == pytest.approx(named)
    # The chooser cannot double unasked, and may redouble once named.
    assert values[Double.of(2)] == pytest.approx(passed + (1 + chance(2, need / 2)) * (10 - 0))


def test_simulated_contract_estimates_are_whole_deals() -> None:
    match = Match()
    match.deal_random(random.Random(3))
    view = seat_view(match, 1)
    contracts = [CONTRACTS["queens"], CONTRACTS["domino"], CONTRACTS["trump-hearts"]]
    means = PLAYERS["reject"].expected_bases(view, random.Random(1), 0.02, contracts)
    for contract, seats in zip(contracts, means, strict=True):
        assert sum(seats) == pytest.approx(contract.total)
