"""docs/rules.md, "Choosing the contract": played contracts, the trump quota, no deadlock."""

from __future__ import annotations

import random

import pytest

from bot.engine import NEGATIVE_IDS, TRUMP_IDS, Choose, IllegalAction, Match
from bot.engine.rules import STANDARD
from tests.engine.engine_helpers import play_deal, random_partial, snapshot

# first_dealer 0: the choosers of deals 1-11 are seats 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0.
# Seat 0 ends up with trump-spades, kingofhearts and the last negative, lasttrick.
SEQUENCE = [
    "queens",  # seat 2
    "hearts",  # seat 3
    "trump-spades",  # seat 0 takes his trump option first
    "domino",  # seat 1 (two choices: one negative, one trump)
    "ducking",  # seat 2
    "kingjacks",  # seat 3
    "kingofhearts",  # seat 0
    "trump-hearts",  # seat 1: his last choice must be a trump option
    "trump-clubs",  # seat 2
    "trump-diamonds",  # seat 3
]


def _match_after(choices: list[str], seed: int = 0) -> Match:
    """A match (first dealer 0) whose first deals chose these contracts, then a new deal."""
    rng = random.Random(seed)
    match = Match()
    for contract in choices:
        play_deal(match, contract, rng)
    match.deal_random(rng)
    return match


def test_chooser_may_pick_any_contract_on_the_first_deal():
    match = _match_after([])
    assert match.legal_actions() == [Choose(cid) for cid in (*NEGATIVE_IDS, *TRUMP_IDS)]


def test_a_contract_already_played_in_this_match_may_not_be_chosen_again():
    match = _match_after(SEQUENCE[:4])
    # Seat 2 chose queens in deal 1; he cannot choose it again in deal 5.
    assert match.deal.chooser == 2
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="already been played"):
        match.apply(Choose("queens"))
    assert snapshot(match) == before
    assert Choose("queens") not in match.legal_actions()


def test_a_trump_option_played_by_another_seat_may_not_be_chosen():
    match = _match_after(SEQUENCE[:8])
    # Seat 2 has not picked a trump yet, but spades and hearts are taken.
    assert match.deal.chooser == 2
    with pytest.raises(IllegalAction, match="already been played"):
        match.apply(Choose("trump-spades"))
    legal = {action.contract for action in match.legal_actions()}
    assert legal == {"trump-clubs", "trump-diamonds", "trump-notrump"}


def test_a_seat_may_pick_only_one_trump_option():
    match = _match_after(SEQUENCE[:6])
    assert match.deal.chooser == 0  # took trump-spades in deal 3
    with pytest.raises(IllegalAction, match="already picked your trump option"):
        match.apply(Choose("trump-clubs"))
    legal = {action.contract for action in match.legal_actions()}
    assert legal == {"kingofhearts", "lasttrick"}


def test_negative_allowed_only_while_negatives_picked_below_choices_minus_one():
    # Seat 1 chooses twice: one negative (domino in deal 4), then he must take a trump.
    match = _match_after(SEQUENCE[:7])
    assert match.deal.chooser == 1
    before = snapshot(match)
    with pytest.raises(IllegalAction, match="must pick a trump option"):
        match.apply(Choose("lasttrick"))
    assert snapshot(match) == before
    legal = {action.contract for action in match.legal_actions()}
    assert legal == {"trump-clubs", "trump-diamonds", "trump-hearts", "trump-notrump"}


def test_a_three_choice_seat_may_take_two_negatives_before_his_trump():
    match = _match_after(SEQUENCE[:4])
    assert match.deal.chooser == 2  # took queens; may take a second negative
    assert Choose("ducking") in match.legal_actions()
    match = _match_after(SEQUENCE[:8])
    assert match.deal.chooser == 2  # took queens and ducking: trump only
    assert all(action.contract in TRUMP_IDS for action in match.legal_actions())


def test_when_exactly_one_option_remains_it_is_still_the_choosers_to_confirm():
    match = _match_after(SEQUENCE)
    deal = match.deal
    assert len(match.deals) == 11 and deal.chooser == 0
    # Left: lasttrick and trump-notrump; seat 0 already has his trump option.
    assert match.legal_actions() == [Choose("lasttrick")]
    assert match.to_act == 0 and deal.contract is None
    match.apply(Choose("lasttrick"), seat=0)
    assert deal.contract.id == "lasttrick"


def test_unknown_contract_id_is_refused_readably():
    match = _match_after([])
    with pytest.raises(IllegalAction, match="no contract 'Queens'"):
        match.apply(Choose("Queens"))
    assert match.deal.contract is None


def test_only_the_chooser_may_choose():
    match = _match_after([])
    with pytest.raises(IllegalAction, match="not your turn"):
        match.apply(Choose("queens"), seat=1)
    match.apply(Choose("queens"), seat=2)
    with pytest.raises(IllegalAction, match="already been chosen"):
        match.apply(Choose("ducking"))


def _quota(chosen_by: dict[str, int], seat: int, choices: list[int]) -> set[str]:
    """The quota exactly as docs/rules.md words it, to compare the engine against."""
    mine = [cid for cid, by in chosen_by.items() if by == seat]
    has_trump = any(cid in TRUMP_IDS for cid in mine)
    negatives = sum(1 for cid in mine if cid in NEGATIVE_IDS)
    allowed = set()
    for cid in (*NEGATIVE_IDS, *TRUMP_IDS):
        if cid in chosen_by:
            continue
        if cid in TRUMP_IDS and not has_trump:
            allowed.add(cid)
        if cid in NEGATIVE_IDS and negatives < choices[seat] - 1:
            allowed.add(cid)
    return allowed


@pytest.mark.parametrize("first_dealer", range(4))
def test_quota_never_deadlocks_over_every_choice_sequence(first_dealer):
    """Walk every sequence of choices the engine allows, from this first dealer.

    Negatives are interchangeable for the quota, so states that differ only in *which*
    negatives were played are visited once (walking those too is 1.4 million states and
    half a minute); trump options are tracked exactly, and every legal contract is tried
    at every visited state.
    """
    choices = list(STANDARD.choices_per_seat(first_dealer))
    seen: set[tuple] = set()
    finished = 0

    def counts(chosen_by: dict[str, int]) -> tuple:
        return tuple(
            (
                sum(1 for cid, by in chosen_by.items() if by == s and cid in NEGATIVE_IDS),
                sum(1 for cid, by in chosen_by.items() if by == s and cid in TRUMP_IDS),
            )
            for s in range(4)
        )

    def key(chosen_by: dict[str, int]) -> tuple:
        trumps = frozenset(item for item in chosen_by.items() if item[0] in TRUMP_IDS)
        return counts(chosen_by), trumps

    def walk(chosen_by: dict[str, int]) -> None:
        nonlocal finished
        k = len(chosen_by)
        if k == 11:
            finished += 1
            # Every seat picked exactly one trump option; every negative was played.
            assert counts(chosen_by) == tuple((c - 1, 1) for c in choices)
            assert set(NEGATIVE_IDS) <= set(chosen_by)
            return
        seat = STANDARD.chooser_of(first_dealer, k)
        match = Match(first_dealer=first_dealer)
        match.chosen_by = dict(chosen_by)
        legal = match.legal_contracts(seat)
        assert legal, f"deadlock after {chosen_by}"
        assert set(legal) == _quota(chosen_by, seat, choices)
        for cid in legal:
            after = {**chosen_by, cid: seat}
            if key(after) not in seen:
                seen.add(key(after))
                walk(after)

    walk({})
    assert finished > 0
    assert finished == 120  # 5 * 4 * 3 * 2 ways to hand out the trump options


@pytest.mark.parametrize("seed", range(40))
def test_random_matches_give_every_seat_exactly_one_trump_option(seed):
    first_dealer = seed % 4
    match = random_partial(seed, first_dealer=first_dealer)
    assert match.is_over
    played = [deal.contract.id for deal in match.deals]
    assert sorted(cid for cid in played if cid in NEGATIVE_IDS) == sorted(NEGATIVE_IDS)
    trumps = [cid for cid in played if cid in TRUMP_IDS]
    assert len(trumps) == len(set(trumps)) == 4
    for seat in range(4):
        mine = [cid for cid, by in match.chosen_by.items() if by == seat]
        assert sum(1 for cid in mine if cid in TRUMP_IDS) == 1
