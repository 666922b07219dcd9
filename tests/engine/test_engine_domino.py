"""docs/rules.md, "Domino": eights and neighbours, automatic passes, skipping, the three-out end."""

from __future__ import annotations

import pytest

from bot.engine import PASS, IllegalAction, Phase, Play, Suit
from tests.engine.engine_helpers import (
    SKIP_HANDS,
    SKIP_PLAYS,
    cards,
    full_suits,
    hands_from,
    play,
    snapshot,
    start,
)

UP_THEN_DOWN = ["8", "9", "T", "J", "Q", "K", "A", "7", "6", "5", "4", "3", "2"]


def _suit_run(suit: str, ranks=UP_THEN_DOWN) -> list[str]:
    return [rank + suit for rank in ranks]


def _full_suits_domino_plays() -> list[str]:
    """Full suits, dealer 0: seats 1, 2, 3, 0 each run their own suit 8 up, then 7 down."""
    runs = {1: _suit_run("D"), 2: _suit_run("H"), 3: _suit_run("S"), 0: _suit_run("C")}
    return [runs[seat][r] for r in range(13) for seat in (1, 2, 3, 0)]


def _legal_codes(match) -> set[str]:
    return {action.card.code for action in match.legal_actions()}


def test_domino_opens_a_suit_only_with_its_8():
    match = start(full_suits(), "domino")
    assert _legal_codes(match) == {"8D"}


def test_a_card_connects_one_rank_above_or_below_a_card_of_the_same_suit():
    # Layout: seat 0 clubs 8-A and diamonds 2-7; seat 1 diamonds 8-A and clubs 2-7.
    hands = hands_from(
        (
            "8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D",
            "8D 9D TD JD QD KD AD 2C 3C 4C 5C 6C 7C",
            " ".join(_suit_run("H")),
            " ".join(_suit_run("S")),
        )
    )
    match = start(hands, "domino")
    play(match, "8D", "8H", "8S")
    # Seat 0: 7D connects to 8D; 9D is not his; 7C does not connect to a diamond.
    assert _legal_codes(match) == {"8C", "7D"}
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="8 or a card next to one on the table; the 6♦"):
        match.apply(Play(cards("6D")[0]))
    assert snapshot(match) == before
    play(match, "7D")
    # Seat 1: 9D connects above the 8D; his clubs must wait for the 8C.
    assert _legal_codes(match) == {"9D"}


def test_ace_connects_only_to_king_in_domino():
    match = start(full_suits(), "domino")
    plays = _full_suits_domino_plays()
    play(match, *plays[:20])  # five rounds: 8 9 T J Q of each suit are on the table
    assert match.to_act == 1
    assert _legal_codes(match) == {"KD", "7D"}
    play(match, *plays[20:24])  # K of each suit
    assert _legal_codes(match) == {"AD", "7D"}


def test_a_2_connects_only_to_the_3_and_the_ace_does_not_wrap_to_it():
    # Seat 1 runs diamonds down first: 8 7 6 5 4 3 2, the others as before.
    down_first = ["8", "7", "6", "5", "4", "3", "2", "9", "T", "J", "Q", "K", "A"]
    runs = {
        1: _suit_run("D", down_first),
        2: _suit_run("H"),
        3: _suit_run("S"),
        0: _suit_run("C"),
    }
    match = start(full_suits(), "domino")
    for r in range(6):
        play(match, *(runs[seat][r] for seat in (1, 2, 3, 0)))
    # 8..3 of diamonds on the table: 2D and 9D connect, the ace does not.
    assert _legal_codes(match) == {"2D", "9D"}
    play(match, "2D", *(runs[seat][6] for seat in (2, 3, 0)))
    # Diamonds 2..8 on the table: the ace does not connect to the 2.
    assert _legal_codes(match) == {"9D"}


def test_domino_ends_when_three_players_are_out_and_the_last_holder_scores_minus_50():
    match = start(full_suits(), "domino")
    plays = _full_suits_domino_plays()
    play(match, *plays[:-1])
    deal = match.deal
    assert deal.phase is Phase.DONE
    assert deal.out == [1, 2, 3]
    assert deal.hand(0) == cards("2C")  # seat 0 could always play out, but need not
    assert deal.base == [-50, 0, 0, 0]
    assert len(deal.plays) == 51
    with pytest.raises(IllegalAction, match="this deal is over"):
        deal.apply(Play(cards("2C")[0]))


# Seat 1 (the first leader) holds no 8 and a 2C that connects only at the very end.
PASS_HANDS = (
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 8D",
    "2D 3D 4D 5D 6D 7D 9D TD JD QD KD AD 2C",
    " ".join(_suit_run("H")),
    " ".join(_suit_run("S")),
)


def test_domino_passes_are_automatic_and_never_a_choice():
    match = start(hands_from(PASS_HANDS), "domino")
    deal = match.deal
    assert match.to_act == 2
    assert deal.domino_passes == [(1, 0)]
    assert all(isinstance(action, Play) for action in match.legal_actions())
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="cannot double now"):
        match.apply(PASS)
    assert snapshot(match) == before


def test_domino_three_out_end_with_an_early_pass():
    # Seat 1 passed once at the start, so he is the one left holding a card.
    seat0 = ["8D", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "7C", "6C", "5C", "4C", "3C"]
    seat1 = ["9D", "TD", "JD", "QD", "KD", "AD", "7D", "6D", "5D", "4D", "3D", "2D"]
    hearts, spades = _suit_run("H"), _suit_run("S")
    match = start(hands_from(PASS_HANDS), "domino")
    for r in range(13):
        play(match, hearts[r], spades[r], seat0[r])
        if r < 12:
            play(match, seat1[r])
    deal = match.deal
    assert deal.is_done
    assert deal.out == [2, 3, 0]
    assert deal.hand(1) == cards("2C")
    assert deal.base == [0, -50, 0, 0]
    assert deal.domino_passes == [(1, 0)]


def test_out_players_are_skipped_and_turns_go_clockwise_from_the_first_leader():
    match = start(hands_from(SKIP_HANDS), "domino")
    deal = match.deal
    assert match.to_act == 2
    play(match, *SKIP_PLAYS[:-2])
    assert deal.out == [2]
    assert match.to_act == 1
    play(match, SKIP_PLAYS[-2])
    assert deal.out == [2, 1]
    assert match.to_act == 3  # seat 2 is out: skipped, and no pass is written for him
    play(match, SKIP_PLAYS[-1])
    assert deal.is_done and deal.out == [2, 1, 3]
    assert deal.domino_passes == [(1, 0), (3, 1), (0, 1), (0, 4)]
    assert deal.base == [-50, 0, 0, 0]
    assert deal.hand(0) == cards("2C 2H")
    assert deal.domino_rows() == {
        Suit.CLUBS: (3, 14),
        Suit.DIAMONDS: (2, 14),
        Suit.HEARTS: (3, 14),
        Suit.SPADES: (2, 14),
    }


def test_domino_is_scored_with_doubling_like_any_contract():
    # Seat 3 doubles seat 0, seat 0 redoubles: final_0 = -50 + 2 * (-50 - 0).
    match = start(full_suits(), "domino", doubling=([0], [3], [], []))
    play(match, *_full_suits_domino_plays()[:-1])
    assert match.deal.base == [-50, 0, 0, 0]
    assert match.deal.final_scores() == [-150, 0, 0, 100]
