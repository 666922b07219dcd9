"""docs/rules.md, "Doubling": one turn each in doubling order, redoubles, the chooser, settlement.

The scored deals are the hand-built ones of ``test_engine_contracts``; with dealer 0 the
doubling order is seats 3, 0, 1, 2 and seat 2 is the chooser.
"""

from __future__ import annotations

import itertools

import pytest

from bot.engine import CONTRACTS, PASS, Card, Double, IllegalAction, Phase, Play, settle
from tests.engine.engine_helpers import (
    LAYOUT_L,
    SCRIPT_L,
    SCRIPT_L_TRUMP_HEARTS,
    full_suits,
    hands_from,
    play,
    snapshot,
    start,
)


def _doubling(contract: str = "ducking", dealer: int = 0):
    return start(full_suits(), contract, doubling=(), first_dealer=dealer)


def _refused(match, action, message):
    before = snapshot(match)
    with pytest.raises(IllegalAction, match=message):
        match.apply(action)
    assert snapshot(match) == before


@pytest.mark.parametrize("contract", list(CONTRACTS))
def test_doubling_is_allowed_in_every_contract(contract):
    match = _doubling(contract)
    assert match.deal.phase is Phase.DOUBLING
    # The first doubler may name any subset of the other three.
    options = {action.targets for action in match.legal_actions()}
    others = [0, 1, 2]
    expected = {frozenset(c) for size in range(4) for c in itertools.combinations(others, size)}
    assert options == expected
    match.apply(Double.of(0, 1, 2))
    assert match.deal.multipliers[3] == [1, 1, 1, 0]


def test_each_player_has_exactly_one_doubling_turn_before_the_first_card():
    match = _doubling()
    turns = []
    for _ in range(4):
        assert match.deal.phase is Phase.DOUBLING
        turns.append(match.to_act)
        match.apply(PASS)
    assert turns == [3, 0, 1, 2]
    assert match.deal.phase is Phase.PLAYING
    assert match.deal.doubling == [frozenset()] * 4
    assert match.deal.multipliers == [[0] * 4 for _ in range(4)]


def test_naming_a_player_who_already_doubled_him_is_a_redouble():
    match = _doubling()
    match.apply(Double.of(0))  # seat 3 doubles seat 0
    assert match.deal.multipliers[3][0] == match.deal.multipliers[0][3] == 1
    match.apply(Double.of(3, 1))  # seat 0 redoubles seat 3, doubles seat 1
    m = match.deal.multipliers
    assert m[0][3] == m[3][0] == 2
    assert m[0][1] == m[1][0] == 1


def test_naming_any_other_player_is_a_double():
    match = _doubling()
    match.apply(PASS)  # seat 3
    match.apply(Double.of(1))  # seat 0 doubles seat 1
    match.apply(Double.of(3))  # seat 1 doubles seat 3, who did not double him
    m = match.deal.multipliers
    assert m[1][3] == m[3][1] == 1
    assert m[0][1] == 1


def test_chooser_may_only_redouble():
    match = _doubling()
    match.apply(PASS)  # seat 3
    match.apply(Double.of(2))  # seat 0 doubles the chooser
    match.apply(Double.of(0))  # seat 1 doubles seat 0, not the chooser
    assert match.to_act == 2
    assert {action.targets for action in match.legal_actions()} == {
        frozenset(),
        frozenset({0}),
    }
    _refused(match, Double.of(1), "the chooser may only redouble players who doubled him")
    _refused(match, Double.of(0, 3), "seat 3 did not")
    match.apply(Double.of(0))
    assert match.deal.multipliers[2][0] == 2


def test_a_chooser_nobody_doubled_may_only_pass():
    match = _doubling()
    for _ in range(3):
        match.apply(Double.of(*(s for s in range(4) if s not in (2, match.to_act))))
    assert match.to_act == 2
    assert match.legal_actions() == [PASS]


def test_no_second_lap_of_doubling():
    match = _doubling()
    match.apply(PASS)  # seat 3
    match.apply(PASS)  # seat 0
    match.apply(Double.of(3, 0))  # seat 1 doubles two players whose turn has gone
    match.apply(PASS)  # seat 2, the chooser
    deal = match.deal
    assert deal.phase is Phase.PLAYING and match.to_act == 1
    assert deal.multipliers[1][3] == deal.multipliers[1][0] == 1
    _refused(match, Double.of(1), "cannot double now")


def test_a_player_may_not_double_himself_or_a_seat_that_does_not_exist():
    match = _doubling()
    _refused(match, Double.of(3), "you cannot double yourself")
    _refused(match, Double.of(4), "there is no seat 4")
    _refused(match, Double.of(0, 3), "yourself")  # nothing is applied when one is bad


def test_settlement_formula():
    base = [10, -20, 30, -20]
    m = [
        [0, 1, 2, 0],
        [1, 0, 0, 0],
        [2, 0, 0, 1],
        [0, 0, 1, 0],
    ]
    # final_i = base_i + sum_j m_ij * (base_i - base_j)
    assert settle(base, m) == [
        10 + 1 * 30 + 2 * (-20),
        -20 + 1 * (-30),
        30 + 2 * 20 + 1 * 50,
        -20 + 1 * (-50),
    ]
    assert sum(settle(base, m)) == sum(base)


def test_doubled_ducking_deal_scores_by_hand():
    # Seat 3 doubles 1; seat 0 doubles 1 and 3; seat 1 redoubles 3 and doubles 2;
    # seat 2 (chooser) redoubles 1. So m01 = m03 = 1, m13 = m12 = 2.
    match = start(hands_from(LAYOUT_L), "ducking", doubling=([1], [1, 3], [3, 2], [1]))
    play(match, *SCRIPT_L)
    deal = match.deal
    assert deal.base == [0, -35, 0, -30]
    # 0: 0 + (0+35) + (0+30) = 65
    # 1: -35 + (-35-0) + 2(-35-0) + 2(-35+30) = -150
    # 2: 0 + 2(0+35) = 70
    # 3: -30 + (-30-0) + 2(-30+35) = -50
    assert deal.final_scores() == [65, -150, 70, -50]
    assert sum(deal.final_scores()) == -65


def test_doubled_trump_deal_scores_by_hand():
    # Seat 0 doubles 2; seat 1 doubles 0 and 2; the chooser redoubles both.
    match = start(hands_from(LAYOUT_L), "trump-hearts", doubling=([], [2], [0, 2], [0, 1]))
    play(match, *SCRIPT_L_TRUMP_HEARTS)
    deal = match.deal
    assert deal.base == [60, 0, 70, 0]
    # 0: 60 + (60-0) + 2(60-70) = 100;  1: 0 + (0-60) + 2(0-70) = -200
    # 2: 70 + 2(70-60) + 2(70-0) = 230; 3: untouched
    assert deal.final_scores() == [100, -200, 230, 0]
    assert match.totals() == [100, -200, 230, 0]


def test_doubled_queens_deal_ended_early_scores_by_hand():
    match = start(hands_from(LAYOUT_L), "queens", doubling=([], [1], [], []))
    play(match, *SCRIPT_L[:10])
    deal = match.deal
    assert deal.is_done
    assert deal.base == [0, -60, 0, -60]
    assert deal.final_scores() == [60, -120, 0, -60]


def test_doubling_never_changes_the_deals_total():
    for contract in ("ducking", "hearts", "lasttrick", "trump-notrump"):
        match = start(hands_from(LAYOUT_L), contract, doubling=([0, 1, 2], [1, 2, 3], [], [0]))
        play(match, *SCRIPT_L)
        assert sum(match.deal.final_scores()) == sum(match.deal.base) == CONTRACTS[contract].total


def test_the_final_scores_follow_every_doubling_turn_and_every_trick():
    """A deal keeps its final scores between changes: they are settled afresh after each
    doubling turn and each trick taken, and every call hands out a list of its own."""
    match = start(hands_from(LAYOUT_L), "ducking", doubling=())
    deal = match.deal
    actions = [Double.of(1), Double.of(1, 3), Double.of(3, 2), Double.of(1)]
    actions += [Play(Card.parse(code)) for trick in SCRIPT_L for code in trick.split()]
    seen = set()
    for action in actions:
        match.apply(action)
        final = deal.final_scores()
        assert final == settle(deal.base, deal.multipliers)
        assert match.totals() == final
        seen.add(tuple(final))
        final[0] += 1000  # the caller's list: the deal's own scores stay as they are
        assert deal.final_scores() == settle(deal.base, deal.multipliers)
    assert deal.is_done and deal.final_scores() == [65, -150, 70, -50]
    assert len(seen) > 2  # the doubling and the tricks did change them on the way
