"""docs/rules.md, "Contracts": the table, scoring, totals and early ends, on hand-built deals.

Layout L and its script (see ``engine_helpers``) are worked out by hand: seat 1 takes
tricks 1-7, seat 3 tricks 8-13, and the comments there list which scoring cards each
trick holds. Every expected score below follows from those comments alone.
"""

from __future__ import annotations

import pytest

from bot.engine import CONTRACTS, NEGATIVE_IDS, TRUMP_IDS, IllegalAction, Phase, Play, Suit
from tests.engine.engine_helpers import (
    LAYOUT_L,
    SCRIPT_L,
    SCRIPT_L_TRUMP_HEARTS,
    SCRIPT_L_TRUMP_HEARTS_WINNERS,
    SCRIPT_L_WINNERS,
    cards,
    full_suits,
    hands_from,
    play,
    start,
)

EXPECTED_TOTALS = {
    "ducking": -65,
    "hearts": -65,
    "kingjacks": -120,
    "queens": -120,
    "kingofhearts": -50,
    "lasttrick": -50,
    "domino": -50,
    "trump-clubs": 130,
    "trump-diamonds": 130,
    "trump-hearts": 130,
    "trump-spades": 130,
    "trump-notrump": 130,
}


def test_seven_negative_contracts_and_five_trump_options_with_the_record_ids():
    assert set(NEGATIVE_IDS) == {
        "ducking",
        "hearts",
        "kingjacks",
        "queens",
        "kingofhearts",
        "lasttrick",
        "domino",
    }
    assert set(TRUMP_IDS) == {
        "trump-clubs",
        "trump-diamonds",
        "trump-hearts",
        "trump-spades",
        "trump-notrump",
    }
    assert set(CONTRACTS) == set(EXPECTED_TOTALS)


def test_trump_options_name_their_trump_suit_and_negatives_have_none():
    trumps = {cid: CONTRACTS[cid].trump for cid in CONTRACTS}
    assert trumps["trump-clubs"] is Suit.CLUBS
    assert trumps["trump-diamonds"] is Suit.DIAMONDS
    assert trumps["trump-hearts"] is Suit.HEARTS
    assert trumps["trump-spades"] is Suit.SPADES
    assert trumps["trump-notrump"] is None
    assert all(trumps[cid] is None for cid in NEGATIVE_IDS)


@pytest.mark.parametrize(("contract", "total"), EXPECTED_TOTALS.items())
def test_every_deals_base_scores_add_up_to_the_contracts_total(contract, total):
    assert CONTRACTS[contract].total == total


def test_the_11_deals_add_up_to_exactly_0():
    # Seven negatives once each and four of the five trump options, whichever four.
    negatives = sum(CONTRACTS[cid].total for cid in NEGATIVE_IDS)
    for dropped in TRUMP_IDS:
        trumps = sum(CONTRACTS[cid].total for cid in TRUMP_IDS if cid != dropped)
        assert negatives + trumps == 0


# -- each contract on the hand-built deal ------------------------------------------------


def _scripted(contract: str, doubling=((), (), (), ())):
    match = start(hands_from(LAYOUT_L), contract, doubling)
    play(match, *SCRIPT_L)
    return match


def test_script_tricks_go_where_the_comments_say():
    match = _scripted("ducking")
    assert [trick.winner for trick in match.deal.tricks] == SCRIPT_L_WINNERS


def test_ducking_scores_minus_5_per_trick_and_plays_all_13_tricks():
    deal = _scripted("ducking").deal
    assert deal.is_done and len(deal.tricks) == 13
    assert deal.base == [0, -35, 0, -30]
    assert [trick.points for trick in deal.tricks] == [-5] * 13


def test_hearts_scores_minus_5_per_heart_taken():
    deal = _scripted("hearts").deal
    # Seat 1 takes AH in trick 7; seat 3 takes two hearts in each of tricks 8-13.
    assert deal.base == [0, -5, 0, -60]
    assert len(deal.tricks) == 13


def test_kingjacks_scores_minus_20_per_king_and_minus_10_per_jack():
    deal = _scripted_until_done("kingjacks")
    # Seat 1: KC KD JC JD; seat 3: KH KS JH JS. The last of them (JS) falls in trick 11.
    assert deal.base == [0, -60, 0, -60]
    assert len(deal.tricks) == 11


def test_early_end_when_all_queens_taken():
    deal = _scripted_until_done("queens")
    # QC and QD in trick 3 (seat 1), QH in 9 and QS in 10 (seat 3): over after trick 10.
    assert deal.base == [0, -60, 0, -60]
    assert len(deal.tricks) == 10
    assert len(deal.plays) == 40
    assert deal.phase is Phase.DONE and deal.to_act is None


def test_king_of_hearts_gives_minus_50_to_who_takes_it_and_ends_the_deal():
    deal = _scripted_until_done("kingofhearts")
    assert deal.base == [0, 0, 0, -50]
    assert len(deal.tricks) == 8


def test_last_trick_gives_minus_50_to_who_takes_trick_13():
    deal = _scripted("lasttrick").deal
    assert deal.base == [0, 0, 0, -50]
    assert [trick.points for trick in deal.tricks] == [0] * 12 + [-50]


def test_no_trump_scores_plus_10_per_trick():
    deal = _scripted("trump-notrump").deal
    assert deal.base == [0, 70, 0, 60]


def test_hearts_trump_scores_plus_10_per_trick_on_a_ruffed_deal():
    match = start(hands_from(LAYOUT_L), "trump-hearts")
    play(match, *SCRIPT_L_TRUMP_HEARTS)
    deal = match.deal
    assert [trick.winner for trick in deal.tricks] == SCRIPT_L_TRUMP_HEARTS_WINNERS
    assert deal.base == [60, 0, 70, 0]


@pytest.mark.parametrize(
    ("contract", "owner"),
    [("trump-clubs", 0), ("trump-diamonds", 1), ("trump-hearts", 2), ("trump-spades", 3)],
)
def test_the_holder_of_all_the_trumps_takes_every_trick(contract, owner):
    # Seat s holds suit s. Whoever leads, the trump holder ruffs and then draws the rest.
    match = start(full_suits(), contract)
    while not match.deal.is_done:
        match.apply(match.legal_actions()[0])
    assert match.deal.base == [130 if seat == owner else 0 for seat in range(4)]


def test_without_trumps_the_leader_of_a_full_suit_takes_every_trick():
    match = start(full_suits(), "trump-notrump")
    while not match.deal.is_done:
        match.apply(match.legal_actions()[0])
    assert match.deal.base == [0, 130, 0, 0]


# -- early ends -----------------------------------------------------------------------


def _scripted_until_done(contract: str):
    match = start(hands_from(LAYOUT_L), contract)
    for trick in SCRIPT_L:
        if match.deal.is_done:
            break
        play(match, trick)
    return match.deal


def test_early_end_when_all_four_queens_fall_in_the_first_trick():
    # Seat 1 leads QD; the others hold only one suit each and throw their queens.
    match = start(full_suits(), "queens")
    play(match, "QD QH QS QC")
    deal = match.deal
    assert deal.is_done
    assert deal.base == [0, -120, 0, 0]
    assert [card.code for _, card in deal.plays] == ["QD", "QH", "QS", "QC"]
    assert match.legal_actions() == []


def test_early_end_when_all_13_hearts_are_taken():
    # Seat 1 holds every diamond and leads them; seats 0 and 2 throw a heart in each
    # trick while they can, so the 13th heart falls in trick 10 and the deal ends there,
    # with seat 0's and seat 2's clubs still in hand.
    hands = hands_from(
        (
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC 2H 3H 4H",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "5H 6H 7H 8H 9H TH JH QH KH AH QC KC AC",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        )
    )
    match = start(hands, "hearts")
    play(
        match,
        "AD 5H 2S 2H",
        "KD 6H 3S 3H",
        "QD 7H 4S 4H",
        "JD 8H 5S 2C",
        "TD 9H 6S 3C",
        "9D TH 7S 4C",
        "8D JH 8S 5C",
        "7D QH 9S 6C",
        "6D KH TS 7C",
    )
    assert not match.deal.is_done
    play(match, "5D AH JS 8C")
    deal = match.deal
    assert deal.is_done
    assert len(deal.tricks) == 10 and len(deal.plays) == 40
    assert deal.base == [0, -65, 0, 0]
    assert deal.hand(2) == cards("QC KC AC")


@pytest.mark.parametrize("contract", ["ducking", "lasttrick", "trump-notrump"])
def test_contracts_without_scoring_cards_never_end_early(contract):
    match = start(full_suits(), contract)
    play(match, "QD QH QS QC", "KD KH KS KC")
    assert not match.deal.is_done
    assert match.deal.to_act == 1


def test_a_card_after_an_early_end_is_refused():
    match = start(full_suits(), "kingofhearts")
    play(match, "2D KH 2S 2C")
    assert match.deal.is_done
    with pytest.raises(IllegalAction, match="no deal is in progress"):
        match.apply(Play(cards("3D")[0]))
    with pytest.raises(IllegalAction, match="this deal is over"):
        match.deal.apply(Play(cards("3D")[0]))
    assert match.deal.base == [0, -50, 0, 0]
