"""``Match.apply`` says what happened, ``public_view`` shows what everyone may know, and a
refusal carries a reason a program can read."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    PASS,
    Card,
    Choose,
    Double,
    IllegalAction,
    Match,
    Outcome,
    Phase,
    Play,
    Reason,
    public_view,
    seat_view,
)
from tests.engine.engine_helpers import LAYOUT_L, SCRIPT_L, full_suits, hands_from, play, start


def _diffed(match: Match, action: Choose | Double | Play) -> Outcome:
    """Apply ``action`` and work its outcome out by diffing the deal, the way the table
    service did before ``apply`` returned one."""
    deal = match.deal
    assert deal is not None and deal.to_act is not None
    seat = deal.to_act
    tricks_before = len(deal.tricks)
    doubled_before = [row[:] for row in deal.multipliers]
    out_before, passes_before = list(deal.out), len(deal.domino_passes)
    outcome = match.apply(action)
    expected = Outcome(seat, action)
    if isinstance(action, Choose):
        expected = expected._replace(contract=deal.contract)
    elif isinstance(action, Double):
        expected = expected._replace(
            redoubles=tuple(sorted(t for t in action.targets if doubled_before[t][seat])),
            doubles=tuple(sorted(t for t in action.targets if not doubled_before[t][seat])),
        )
    else:
        trick = deal.tricks[-1] if len(deal.tricks) > tricks_before else None
        expected = expected._replace(
            card=action.card,
            trick=trick,
            went_out=seat in deal.out and seat not in out_before,
            passes=tuple(s for s, _ in deal.domino_passes[passes_before:]),
        )
        if deal.is_done:
            expected = expected._replace(
                deal_over=True,
                ended_early=trick is not None and trick.number < 13,
                base=tuple(deal.base),
                final=tuple(deal.final_scores()),
                match_over=match.is_over,
            )
    assert outcome == expected
    return outcome


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_outcome_is_what_diffing_the_deal_would_find(seed: int) -> None:
    rng = random.Random(seed)
    match = Match()
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        outcome = _diffed(match, rng.choice(match.legal_actions()))
    assert outcome.match_over and outcome.deal_over


def test_a_redouble_is_reported_as_one() -> None:
    match = start(full_suits(), "ducking", doubling=[(1, 2)])  # seat 3 doubles 1 and 2
    outcome = match.apply(Double.of(3))  # seat 0 doubles seat 3
    assert (outcome.seat, outcome.doubles, outcome.redoubles) == (0, (3,), ())
    outcome = match.apply(Double.of(0, 3))  # seat 1 doubles 0, redoubles 3
    assert (outcome.seat, outcome.doubles, outcome.redoubles) == (1, (0,), (3,))
    outcome = match.apply(Double.of(3))  # the chooser, seat 2, redoubles 3
    assert (outcome.seat, outcome.doubles, outcome.redoubles) == (2, (), (3,))
    assert outcome.trick is None and not outcome.deal_over


def test_an_early_end_is_reported_with_the_scores() -> None:
    match = start(hands_from(LAYOUT_L), "kingofhearts")
    play(match, *SCRIPT_L[:7])
    *first, last = SCRIPT_L[7].split()  # trick 8: seat 3 takes the K♥
    for code in first:
        assert match.apply(Play(Card.parse(code))).trick is None
    outcome = match.apply(Play(Card.parse(last)))
    assert outcome.trick is not None and outcome.trick.number == 8 and outcome.trick.winner == 3
    assert outcome.deal_over and outcome.ended_early and not outcome.match_over
    assert outcome.base == (0, 0, 0, -50) == outcome.final


def test_the_public_view_is_the_deal_without_anyones_hand() -> None:
    match = start(hands_from(LAYOUT_L), "ducking", doubling=[(1,), (), (0, 2, 3), (1,)])
    play(match, SCRIPT_L[0], "KD 6C")
    view = public_view(match)
    assert (view.phase, view.deal_number, view.dealer, view.chooser, view.to_act) == (
        Phase.PLAYING,
        1,
        0,
        2,
        3,
    )
    assert view.contract is not None and view.contract.id == "ducking"
    assert view.trick == ((1, Card.parse("KD")), (2, Card.parse("6C")))
    assert view.tricks_taken == (0, 1, 0, 0) and view.base == (0, -5, 0, 0)
    # Seat 3 doubled 1; seat 1 doubled 0 and 2 and redoubled 3; the chooser redoubled 1.
    assert view.doubled == ((0, 1, 1), (1, 2, 2), (1, 3, 2))
    assert view.doubling_done == (3, 0, 1, 2)
    assert view.cards_left == (12, 11, 11, 12)
    assert view.played_contracts == ("ducking",) and view.chosen_by == {"ducking": 2}


def test_before_the_first_deal_the_public_view_has_only_the_match() -> None:
    view = public_view(Match())
    assert view.phase is Phase.NEEDS_DEAL and view.dealer is None and view.totals == (0,) * 4


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 400))
def test_the_public_view_agrees_with_every_seats_view(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    match = Match()
    for _ in range(steps):
        if match.is_over:
            break
        if match.to_act is None:
            match.deal_random(rng)
        else:
            match.apply(rng.choice(match.legal_actions()))
    public = public_view(match)
    for seat in range(4):
        mine = seat_view(match, seat)
        assert (public.phase, public.to_act, public.trick, public.base, public.totals) == (
            mine.phase,
            mine.to_act,
            mine.trick,
            mine.base,
            mine.totals,
        )
        assert public.cards_left == mine.cards_left and public.domino_out == mine.domino_out


# -- reasons ------------------------------------------------------------------------------


def _reason(match: Match, action: Choose | Double | Play, seat: int | None = None) -> Reason:
    with pytest.raises(IllegalAction) as refused:
        match.check(action, seat)
    return refused.value.reason


def test_every_refusal_names_its_reason() -> None:
    match = Match()
    assert _reason(match, PASS) is Reason.NO_DEAL
    match.start_deal(hands_from(LAYOUT_L))
    assert _reason(match, Choose("queens"), seat=0) is Reason.NOT_YOUR_TURN
    assert _reason(match, Choose("nope")) is Reason.UNKNOWN_CONTRACT
    assert _reason(match, PASS) is Reason.WRONG_PHASE
    with pytest.raises(IllegalAction) as refused:
        match.start_deal(hands_from(LAYOUT_L))
    assert refused.value.reason is Reason.DEAL_IN_PROGRESS
    match.apply(Choose("hearts"))
    assert _reason(match, Choose("queens")) is Reason.WRONG_PHASE
    assert _reason(match, Double.of(3)) is Reason.DOUBLE_SELF
    assert _reason(match, Double.of(7)) is Reason.NO_SUCH_SEAT
    for _ in range(3):
        match.apply(PASS)
    assert _reason(match, Double.of(0)) is Reason.CHOOSER_ONLY_REDOUBLES
    match.apply(PASS)
    assert _reason(match, Play(Card.parse("AC"))) is Reason.NOT_HELD
    play(match, "AD 7C")  # seat 1 leads a diamond, seat 2 (no diamonds) discards
    assert _reason(match, Play(Card.parse("AS"))) is Reason.MUST_FOLLOW_SUIT  # seat 3 has 7D


def test_the_heart_lead_and_domino_refusals_name_their_rule() -> None:
    # Seat 0 leads (dealer 3) holding hearts and clubs.
    hands = hands_from(LAYOUT_L)
    match = start(hands, "kingofhearts", first_dealer=3)
    with pytest.raises(IllegalAction, match="lead a heart") as refused:
        match.apply(Play(Card.parse("7H")))
    assert refused.value.reason is Reason.HEART_LEAD
    domino = start(full_suits(), "domino")
    with pytest.raises(IllegalAction, match="does not connect") as refused:
        domino.apply(Play(Card.parse("2D")))
    assert refused.value.reason is Reason.DOMINO_NOT_CONNECTED


def test_choosing_refusals_name_the_quota() -> None:
    match = Match()
    rng = random.Random(0)
    seen: set[Reason] = set()
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        deal = match.deal
        assert deal is not None
        if deal.phase is Phase.CHOOSING:
            for cid in match.rules.contract_ids:
                if cid not in match.legal_contracts(deal.chooser):
                    seen.add(_reason(match, Choose(cid)))
        match.apply(rng.choice(match.legal_actions()))
    assert seen == {Reason.CONTRACT_PLAYED, Reason.TRUMP_ALREADY_PICKED, Reason.MUST_PICK_TRUMP}
    assert _reason(match, PASS) is Reason.MATCH_OVER


def test_a_refusal_keeps_its_reason_across_a_process_pool() -> None:
    refusal = pickle.loads(pickle.dumps(IllegalAction("it is not your turn", Reason.NOT_YOUR_TURN)))
    assert (str(refusal), refusal.reason) == ("it is not your turn", Reason.NOT_YOUR_TURN)
