"""``ruled_out``: what the rules let every seat read from the others' plays and passes,
read from the card rules themselves, and never wrong about the cards a seat holds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import CARDS, PASS, Card, Choose, Match, Rules, Suit, rules_for, seat_view
from bot.engine.view import ruled_out
from tests.engine.engine_helpers import (
    ALL_RULES,
    LAYOUT_L,
    SCRIPT_L,
    SKIP_HANDS,
    cards,
    full_suits,
    hands_from,
    play,
    rules_id,
    start,
)


def _unseen(match: Match, viewer: int) -> set:
    deal = match.deal
    assert deal is not None
    return set(CARDS) - set(deal.hand(viewer)) - {card for _, card in deal.plays}


def test_a_seat_that_does_not_follow_suit_holds_none_of_it() -> None:
    match = start(hands_from(LAYOUT_L), "ducking")
    play(match, SCRIPT_L[0])  # AD 7C 2D AC: seats 2 and 0 do not follow diamonds
    absent = ruled_out(seat_view(match, 1))
    diamonds = {card for card in _unseen(match, 1) if card.suit is Suit.DIAMONDS}
    assert absent[2] == diamonds and absent[0] == diamonds
    assert absent[3] == frozenset()  # it followed with the 2♦


def test_a_heart_led_where_hearts_may_not_be_led_shows_a_hand_of_only_hearts() -> None:
    match = start(full_suits((Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES)), "hearts")
    play(match, "2H")  # seat 1 leads: it holds only hearts, so it may
    absent = ruled_out(seat_view(match, 2))
    assert absent[1] == {card for card in _unseen(match, 2) if card.suit is not Suit.HEARTS}


#: Standard, dealer 0: seat 1 leads. Seat 2 holds no hearts and no clubs; seat 3 no hearts
#: and no spade above the queen; the A♠ is seat 1's.
TRUMP_HANDS = (
    "2H 3H 4H 5H 6H 7H 8H 2C 3C 4C 5C 6C 7C",
    "AH KH QH JH TH 9H AS 3S 8C 9C TC JC QC",
    "2S 5S 9S KS 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "4S 6S 7S 8S TS JS QS JD QD KD AD KC AC",
)


def _trumped(must_trump: str, contract: str, plays: str) -> Match:
    match = Match(rules=rules_for("standard", {"must_trump": must_trump}))
    match.start_deal(hands_from(TRUMP_HANDS))
    match.apply(Choose(contract))
    for _ in range(4):
        match.apply(PASS)
    play(match, plays)
    return match


@pytest.mark.parametrize("must_trump", ["yes", "overtrump"])
def test_must_trump_a_seat_that_discards_instead_of_trumping_holds_no_trump(
    must_trump: str,
) -> None:
    match = _trumped(must_trump, "trump-clubs", "AH 2D")  # seat 2 discards on the A♥
    absent = ruled_out(seat_view(match, 0))
    unseen = _unseen(match, 0)
    assert absent[2] == {card for card in unseen if card.suit in (Suit.HEARTS, Suit.CLUBS)}
    plain = ruled_out(seat_view(_trumped("no", "trump-clubs", "AH 2D"), 0))
    assert plain[2] == {card for card in unseen if card.suit is Suit.HEARTS}


def test_overtrump_a_seat_that_plays_a_trump_under_one_in_the_trick_holds_none_higher() -> None:
    match = _trumped("overtrump", "trump-spades", "AH KS 4S")  # seat 3 cannot beat the K♠
    absent = ruled_out(seat_view(match, 0))
    assert Card.parse("AS") in absent[3] and Card.parse("QS") not in absent[3]
    plain = ruled_out(seat_view(_trumped("yes", "trump-spades", "AH KS 4S"), 0))
    assert Card.parse("AS") not in plain[3]


def test_a_seat_that_passed_in_domino_held_no_card_that_connected_then() -> None:
    match = start(hands_from(SKIP_HANDS), "domino")
    play(match, "8D")  # seat 1 passed before; seats 3 and 0 pass after it
    absent = ruled_out(seat_view(match, 1))
    eights = set(cards("8C 8H 8S"))  # 7♦ and 9♦ connected too, but seat 1 holds them
    assert absent[3] == absent[0] == eights and absent[2] == frozenset()


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 52))
def test_no_card_a_seat_holds_is_ever_ruled_out(rules: Rules, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    match = Match(rules=rules)
    match.deal_random(rng)
    for _ in range(4 + moves):
        if match.deal is None or match.deal.is_done:
            break
        match.apply(rng.choice(match.legal_actions()))
    deal = match.deal
    assert deal is not None
    for viewer in range(4):
        absent = ruled_out(seat_view(match, viewer))
        unseen = _unseen(match, viewer)
        for seat in range(4):
            assert not absent[seat] & set(deal.hand(seat))
            assert absent[seat] <= unseen
            void = {card for card in unseen if card.suit in deal.voids[seat]}
            assert void <= absent[seat]
