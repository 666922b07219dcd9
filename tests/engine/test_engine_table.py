"""docs/rules.md, "Table and deal": seats, the deck, dealer rotation and the roles in a deal."""

from __future__ import annotations

import random

import pytest

from bot.engine import CARDS, PASS, Card, Choose, IllegalAction, Match, Suit, deal_hands
from bot.engine.rules import STANDARD
from tests.engine.engine_helpers import (
    LAYOUT_L,
    SCRIPT_L,
    finish_deal,
    full_suits,
    hands_from,
    play,
    random_partial,
    start,
)


def test_deck_is_52_cards_ranked_2_low_to_ace_high():
    assert len(CARDS) == 52
    assert len({card.code for card in CARDS}) == 52
    for suit in Suit:
        ranks = sorted(card.rank for card in CARDS if card.suit is suit)
        assert ranks == list(range(2, 15))
    assert Card.parse("AS").rank > Card.parse("KS").rank > Card.parse("TS").rank
    assert Card.parse("2S").rank < Card.parse("3S").rank


def test_each_deal_gives_13_cards_to_each_of_four_players():
    hands = deal_hands(random.Random(7))
    assert len(hands) == 4
    assert all(len(hand) == 13 for hand in hands)
    assert {card for hand in hands for card in hand} == set(CARDS)


def test_start_deal_refuses_hands_that_are_not_the_52_cards():
    match = Match()
    hands = full_suits()
    with pytest.raises(ValueError, match="13"):
        match.start_deal([hands[0][:12], hands[1], hands[2], hands[3]])
    twice = [hands[0], hands[1], hands[2], [*hands[3][:12], hands[0][0]]]
    with pytest.raises(ValueError, match="twice"):
        match.start_deal(twice)
    assert match.deals == []


def test_a_match_has_11_deals():
    match = random_partial(3)
    assert match.is_over
    assert len(match.deals) == 11
    with pytest.raises(IllegalAction, match="over"):
        match.deal_random(random.Random(0))


@pytest.mark.parametrize("first_dealer", range(4))
def test_the_deal_passes_to_the_left(first_dealer):
    match = random_partial(11, first_dealer=first_dealer)
    assert [deal.dealer for deal in match.deals] == [(first_dealer + k) % 4 for k in range(11)]


def test_first_dealer_is_seat_0_unless_the_table_says_otherwise():
    match = Match()
    assert match.first_dealer == 0
    match.deal_random(random.Random(1))
    assert match.deal.dealer == 0
    assert Match(first_dealer=2).next_dealer() == 2


def test_first_dealer_must_be_a_seat():
    with pytest.raises(ValueError, match="seat"):
        Match(first_dealer=4)


@pytest.mark.parametrize("first_dealer", range(4))
def test_chooser_is_across_from_the_dealer(first_dealer):
    match = random_partial(5, first_dealer=first_dealer)
    for deal in match.deals:
        assert deal.chooser == (deal.dealer + 2) % 4
    # ... and it is the chooser who is asked first, after seeing his hand.
    fresh = Match(first_dealer=first_dealer)
    deal = fresh.deal_random(random.Random(0))
    assert fresh.to_act == deal.chooser == (first_dealer + 2) % 4
    assert all(isinstance(action, Choose) for action in fresh.legal_actions())


@pytest.mark.parametrize("dealer", range(4))
def test_doubling_order_starts_right_of_the_dealer_and_ends_with_the_chooser(dealer):
    match = start(full_suits(), "ducking", doubling=(), first_dealer=dealer)
    deal = match.deal
    expected = [(dealer + 3) % 4, dealer, (dealer + 1) % 4, (dealer + 2) % 4]
    assert list(deal.doubling_order) == expected
    assert expected[-1] == deal.chooser
    seen = []
    for _ in range(4):
        seen.append(match.to_act)
        match.apply(PASS)
    assert seen == expected


@pytest.mark.parametrize("contract", ["ducking", "hearts", "domino", "trump-spades", "lasttrick"])
@pytest.mark.parametrize("dealer", range(4))
def test_first_lead_is_left_of_the_dealer_in_every_contract_including_domino(dealer, contract):
    # Full suits: everyone holds an 8, so in Domino too the first leader can play at once.
    match = start(full_suits(), contract, first_dealer=dealer)
    assert match.deal.first_leader == (dealer + 1) % 4
    assert match.to_act == (dealer + 1) % 4
    assert match.deal.domino_passes == []


def test_chooser_of_deal_k_is_first_dealer_plus_k_plus_2():
    for first_dealer in range(4):
        match = random_partial(first_dealer, first_dealer=first_dealer)
        choosers = [deal.chooser for deal in match.deals]
        assert choosers == [(first_dealer + k + 2) % 4 for k in range(11)]
        assert choosers == [STANDARD.chooser_of(first_dealer, k) for k in range(11)]


@pytest.mark.parametrize("first_dealer", range(4))
def test_seats_choose_3_3_3_and_2_times_and_the_first_dealers_left_neighbour_twice(first_dealer):
    counts = list(STANDARD.choices_per_seat(first_dealer))
    assert sorted(counts) == [2, 3, 3, 3]
    assert counts[(first_dealer + 1) % 4] == 2
    # The counts are what actually happens in a played match.
    match = random_partial(100 + first_dealer, first_dealer=first_dealer)
    played = [list(match.chosen_by.values()).count(seat) for seat in range(4)]
    assert played == counts


def test_next_deal_cannot_start_before_the_current_one_is_finished():
    match = Match()
    match.deal_random(random.Random(0))
    with pytest.raises(IllegalAction, match="not finished"):
        match.deal_random(random.Random(1))
    assert len(match.deals) == 1
    match.apply(Choose("ducking"))
    finish_deal(match, random.Random(2))
    match.deal_random(random.Random(3))
    assert len(match.deals) == 2


def test_highest_match_total_wins_and_equal_totals_share_a_place():
    # The hand-scored ducking deal: totals [0, -35, 0, -30].
    match = start(hands_from(LAYOUT_L), "ducking")
    play(match, *SCRIPT_L)
    assert match.totals() == [0, -35, 0, -30]
    assert match.winners() == [0, 2]
    assert match.ranking() == [1, 4, 1, 3]
    # With doubling the order changes: [65, -150, 70, -50].
    doubled = start(hands_from(LAYOUT_L), "ducking", doubling=([1], [1, 3], [3, 2], [1]))
    play(doubled, *SCRIPT_L)
    assert doubled.winners() == [2]
    assert doubled.ranking() == [2, 4, 1, 3]
