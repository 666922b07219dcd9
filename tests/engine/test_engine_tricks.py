"""docs/rules.md, "Trick play": leading, following, trumping, who takes the trick.

Refused actions must raise ``IllegalAction`` with a message a player understands and
leave the match exactly as it was.
"""

from __future__ import annotations

import pytest

from bot.engine import CARDS, PASS, Choose, Double, IllegalAction, Match, Play, Suit
from tests.engine.engine_helpers import (
    LAYOUT_L,
    cards,
    full_suits,
    hands_from,
    play,
    snapshot,
    start,
)

# Layout L shifted one seat to the left, so that seat 1 (the first leader when seat 0
# deals) holds high clubs and low hearts.
LAYOUT_L_SHIFTED = (LAYOUT_L[3], LAYOUT_L[0], LAYOUT_L[1], LAYOUT_L[2])


def _refused(match, action, message, seat=None):
    """Assert ``action`` is refused with ``message`` and changes nothing."""
    before = snapshot(match)
    with pytest.raises(IllegalAction, match=message):
        match.apply(action, seat)
    assert snapshot(match) == before


def _legal_codes(match) -> set[str]:
    return {action.card.code for action in match.legal_actions()}


def test_leader_plays_any_card_in_contracts_without_the_heart_rule():
    for contract in ("ducking", "queens", "kingjacks", "lasttrick", "trump-notrump"):
        match = start(hands_from(LAYOUT_L_SHIFTED), contract)
        assert _legal_codes(match) == {card.code for card in match.deal.hand(1)}
        play(match, "2H")  # a heart lead is fine here
        assert match.deal.trick == cards("2H")


@pytest.mark.parametrize("contract", ["hearts", "kingofhearts"])
def test_may_not_lead_a_heart_unless_holding_only_hearts(contract):
    match = start(hands_from(LAYOUT_L_SHIFTED), contract)
    assert _legal_codes(match) == {"AC", "KC", "QC", "JC", "TC", "9C", "8C"}
    _refused(match, Play(cards("2H")[0]), "may not lead a heart while you hold another suit")
    # Seat 1 holding only hearts may lead one.
    hearts_only = start(full_suits((Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES)), contract)
    assert _legal_codes(hearts_only) == {card.code for card in CARDS if card.suit is Suit.HEARTS}
    play(hearts_only, "2H")
    assert hearts_only.deal.trick == cards("2H")


def test_heart_lead_rule_still_holds_after_hearts_have_been_played():
    hands = hands_from(
        (
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KH AH",
            "KC AC 2H 3H 4H 5H 6H 7H 2D 3D 4D 5D 6D",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
            "7D 8D 9D TD JD QD KD AD 8H 9H TH JH QH",
        )
    )
    match = start(hands, "hearts")
    play(match, "AC 2S 8H 2C")  # seat 3 throws a heart; seat 1 takes it and leads again
    assert match.deal.base == [0, -5, 0, 0]
    assert match.to_act == 1
    assert _legal_codes(match) == {"KC", "2D", "3D", "4D", "5D", "6D"}
    _refused(match, Play(cards("2H")[0]), "may not lead a heart")


def test_must_follow_suit_if_able():
    match = start(hands_from(LAYOUT_L), "ducking")
    play(match, "AD 7C")  # seat 1 leads a diamond, seat 2 (no diamonds) throws a club
    assert match.to_act == 3
    assert _legal_codes(match) == {"7D", "6D", "5D", "4D", "3D", "2D"}
    _refused(match, Play(cards("AS")[0]), "must follow suit: you hold a diamond")


def test_player_who_cannot_follow_may_play_any_card():
    match = start(hands_from(LAYOUT_L), "ducking")
    play(match, "AD")
    assert _legal_codes(match) == {card.code for card in match.deal.hand(2)}
    play(match, "AH")  # seat 2 throws a heart on a diamond lead
    assert match.deal.trick == cards("AD AH")


def test_trumping_is_allowed_but_never_required():
    # Clubs trump. Seat 2 holds low clubs and high hearts and is void in diamonds.
    match = start(hands_from(LAYOUT_L), "trump-clubs")
    play(match, "AD")
    legal = _legal_codes(match)
    assert {"2C", "AH"} <= legal  # may trump, may throw a heart instead
    play(match, "AH", "2D")
    assert _legal_codes(match) == {card.code for card in match.deal.hand(0)}
    play(match, "7H")
    # No trump was played, so the ace of the led suit takes it.
    assert match.deal.tricks[-1].winner == 1


def test_never_has_to_overtrump():
    # Clubs trump: seat 2 ruffs with 2C; seat 0 could over-ruff with AC but may throw
    # a heart, and the 2C takes the trick.
    match = start(hands_from(LAYOUT_L), "trump-clubs")
    play(match, "AD 2C 2D")
    legal = _legal_codes(match)
    assert {"AC", "2H"} <= legal
    play(match, "2H")
    assert match.deal.tricks[-1].winner == 2
    assert match.to_act == 2


def test_a_player_who_can_follow_may_not_trump_instead():
    match = start(hands_from(LAYOUT_L), "trump-spades")
    play(match, "AD 7C")
    # Seat 3 holds spades (trump) and diamonds: he must play a diamond.
    _refused(match, Play(cards("AS")[0]), "follow suit")


def test_trick_goes_to_the_highest_card_of_the_led_suit():
    match = start(hands_from(LAYOUT_L), "ducking")
    # An ace thrown on a lower lead does not win: off-suit cards never take a trick.
    play(match, "8D AH 7D AC")
    assert match.deal.tricks[-1].winner == 1
    play(match, "2S KH 8S KC")
    assert match.deal.tricks[-1].winner == 3


def test_trick_goes_to_the_highest_trump_in_it():
    match = start(hands_from(LAYOUT_L), "trump-clubs")
    play(match, "AD 2C 2D AC")  # seat 2 ruffs, seat 0 over-ruffs
    assert match.deal.tricks[-1].winner == 0
    assert match.deal.tricks[-1].points == 10


def test_the_winner_leads_the_next_trick():
    match = start(hands_from(LAYOUT_L), "ducking")
    play(match, "2S KH AS 7H")  # seat 1 leads, seat 3 wins
    assert match.to_act == 3
    assert match.deal.leader == 3
    play(match, "KS")  # seat 3 leads trick 2
    assert [seat for seat, _ in match.deal.plays[-1:]] == [3]


def test_playing_a_card_you_do_not_hold_is_refused():
    match = start(hands_from(LAYOUT_L), "ducking")
    _refused(match, Play(cards("AC")[0]), r"you do not hold the A♣")


def test_playing_out_of_turn_is_refused():
    match = start(hands_from(LAYOUT_L), "ducking")
    _refused(match, Play(cards("AC")[0]), "not your turn", seat=0)
    match.apply(Play(cards("AD")[0]), seat=1)


def test_actions_of_the_wrong_phase_are_refused():
    match = start(hands_from(LAYOUT_L), "ducking", doubling=())
    _refused(match, Play(cards("AD")[0]), "cannot play a card now: the doubling is not finished")
    _refused(match, Choose("queens"), "already been chosen")
    for _ in range(4):
        match.apply(PASS)
    _refused(match, Double.of(2), "cannot double now: the cards are being played")
    _refused(match, PASS, "cannot double now")


def test_before_the_contract_is_chosen_no_card_or_double_is_accepted():
    fresh = Match()
    fresh.start_deal(hands_from(LAYOUT_L))
    _refused(fresh, Play(cards("AD")[0]), "the contract has not been chosen yet")
    _refused(fresh, PASS, "the contract has not been chosen yet")


def test_legal_actions_are_exactly_the_cards_apply_accepts():
    match = start(hands_from(LAYOUT_L), "hearts")
    play(match, "AD 7C")
    legal = {action.card for action in match.legal_actions()}
    for card in match.deal.hand(3):
        if card in legal:
            continue
        _refused(match, Play(card), "follow suit")
    assert legal == set(cards("7D 6D 5D 4D 3D 2D"))


def test_trick_records_leader_cards_winner_and_points():
    match = start(hands_from(LAYOUT_L), "hearts")
    play(match, "2S KH AS 7H")
    trick = match.deal.tricks[0]
    assert trick.number == 1 and trick.leader == 1 and trick.winner == 3
    assert list(trick.played()) == list(zip([1, 2, 3, 0], cards("2S KH AS 7H"), strict=True))
    assert trick.points == -10
    assert match.deal.base == [0, 0, 0, -10]
