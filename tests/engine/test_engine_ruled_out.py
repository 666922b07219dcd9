"""``ruled_out``: what the rules let every seat read from the others' plays and passes,
read from the card rules themselves, and never wrong about the cards a seat holds."""

from __future__ import annotations

import random

import pytest
from engine_helpers import (
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
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import CARDS, Match, Rules, Suit, seat_view
from bot.engine.view import ruled_out


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
