"""docs/rules.md, section "House rules": one test per rule sentence, named after it, and
hypothesis properties per variant. The expected numbers and seats are written here from
the rules text, independently of the engine's tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    CARDS,
    HOUSE_RULES,
    PASS,
    STANDARD,
    TWELVE,
    Card,
    Choose,
    Double,
    HouseRule,
    IllegalAction,
    Match,
    Play,
    Reason,
    RecordError,
    Rules,
    RulesError,
    Suit,
    from_record,
    rules_for,
    to_record,
)
from bot.engine.simulate import random_match
from tests.engine.engine_helpers import ALL_RULES, cards, full_suits, rules_id

BROKEN = rules_for("standard", {"heart_lead": "broken"})
TWELVE_NEGATIVES = {
    "ducking",
    "hearts",
    "kingjacks",
    "queens",
    "kingofhearts",
    "lasttrick",
    "seventhirteenth",
    "domino",
}
TRUMPS = {"trump-clubs", "trump-diamonds", "trump-hearts", "trump-spades", "trump-notrump"}

seeds = st.integers(min_value=0, max_value=2**32 - 1)
seats = st.integers(min_value=0, max_value=3)


def _match(rules: Rules, hands: list[list[Card]], contract: str, first_dealer: int = 0) -> Match:
    """A match whose first deal has ``hands`` and ``contract``, every doubling turn passed."""
    match = Match(first_dealer=first_dealer, rules=rules)
    match.start_deal(hands)
    match.apply(Choose(contract))
    for _ in range(4):
        match.apply(PASS)
    return match


def _play_out(match: Match, rng: random.Random) -> None:
    deal = match.deal
    assert deal is not None
    while not deal.is_done:
        match.apply(rng.choice(match.legal_actions()))


# -- "A table picks one variant and any house rules ... Both are written in the match
#    record and fixed for the whole match." ------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_variant_and_house_rules_are_written_in_the_record_and_fixed_for_the_whole_match(
    rules: Rules,
) -> None:
    match = random_match(random.Random(7), rules=rules)
    assert all(deal.rules is rules for deal in match.deals)
    record = to_record(match)
    assert record["variant"] == rules.variant
    assert record.get("house_rules", {}) == dict(rules.house_rules)
    assert from_record(record).rules is rules


def test_everything_above_is_the_standard_variant_with_every_house_rule_at_its_default() -> None:
    defaults = {"heart_lead": "never", "first_lead": "variant", "domino_doubling": "any"}
    assert rules_for("standard", defaults) is STANDARD is rules_for()
    assert rules_for("twelve", defaults) is TWELVE
    assert STANDARD.house_rules == () and "house_rules" not in STANDARD.header()


# -- Variants: the table ---------------------------------------------------------------------


def test_deals_standard_11_twelve_12() -> None:
    assert len(random_match(random.Random(1)).deals) == 11
    assert len(random_match(random.Random(1), rules=TWELVE).deals) == 12


def test_negative_contracts_standard_the_7_twelve_the_7_and_seventhirteenth() -> None:
    assert set(STANDARD.negative_ids) == TWELVE_NEGATIVES - {"seventhirteenth"}
    assert set(TWELVE.negative_ids) == TWELVE_NEGATIVES
    assert set(STANDARD.trump_ids) == set(TWELVE.trump_ids) == TRUMPS


@settings(max_examples=30, deadline=None)
@given(seed=seeds, first_dealer=seats)
def test_trump_options_played_4_of_5_in_both(seed: int, first_dealer: int) -> None:
    for rules in (STANDARD, TWELVE):
        match = random_match(random.Random(seed), first_dealer=first_dealer, rules=rules)
        played = [d.contract.id for d in match.deals if d.contract]
        assert len(set(played) & TRUMPS) == 4 and len(played) == len(set(played))


@pytest.mark.parametrize("dealer", range(4))
def test_chooser_standard_across_from_the_dealer_twelve_left_of_the_dealer(dealer: int) -> None:
    assert STANDARD.chooser(dealer) == (dealer + 2) % 4
    assert TWELVE.chooser(dealer) == (dealer + 1) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_doubling_order_standard_d3_d_d1_d2_twelve_d2_d3_d_d1(dealer: int) -> None:
    d = dealer
    assert STANDARD.doubling_order(d) == ((d + 3) % 4, d, (d + 1) % 4, (d + 2) % 4)
    assert TWELVE.doubling_order(d) == ((d + 2) % 4, (d + 3) % 4, d, (d + 1) % 4)


@pytest.mark.parametrize("rules", [STANDARD, TWELVE], ids=rules_id)
def test_in_both_the_doubling_order_starts_at_the_choosers_left_and_ends_with_the_chooser(
    rules: Rules,
) -> None:
    for dealer in range(4):
        order = rules.doubling_order(dealer)
        chooser = rules.chooser(dealer)
        assert order[0] == (chooser + 1) % 4 and order[-1] == chooser
        assert order == tuple((chooser + k) % 4 for k in (1, 2, 3, 4))


def test_first_lead_standard_left_of_the_dealer_twelve_the_dealer() -> None:
    rng = random.Random(3)
    for rules, offset in ((STANDARD, 1), (TWELVE, 0)):
        for first_dealer in range(4):
            match = Match(first_dealer=first_dealer, rules=rules)
            match.deal_random(rng)
            match.apply(Choose("queens"))
            for _ in range(4):
                match.apply(PASS)
            assert match.to_act == (first_dealer + offset) % 4


def test_first_to_play_in_domino_standard_left_of_the_dealer_twelve_the_dealer() -> None:
    # Every seat holds an 8 (seat s holds the whole of suit s), so the first to play is
    # exactly the variant's first seat, with no automatic pass before it.
    for rules, offset in ((STANDARD, 1), (TWELVE, 0)):
        for first_dealer in range(4):
            match = _match(rules, full_suits(), "domino", first_dealer)
            assert match.to_act == (first_dealer + offset) % 4


@pytest.mark.parametrize("first_dealer", range(4))
def test_chooser_of_deal_k_standard_plus_2_twelve_plus_1_with_3_choices_each(
    first_dealer: int,
) -> None:
    standard = random_match(random.Random(first_dealer), first_dealer=first_dealer)
    twelve = random_match(random.Random(first_dealer), first_dealer=first_dealer, rules=TWELVE)
    assert [d.chooser for d in standard.deals] == [(first_dealer + k + 2) % 4 for k in range(11)]
    assert [d.chooser for d in twelve.deals] == [(first_dealer + k + 1) % 4 for k in range(12)]
    assert TWELVE.choices_per_seat(first_dealer) == (3, 3, 3, 3)


# -- "the quota is the same rule ... (in twelve: at most 2 negatives and exactly 1 trump
#    each; this never deadlocks either)" --------------------------------------------------


def test_twelve_quota_a_trump_option_only_if_this_player_has_none_yet() -> None:
    match = Match(rules=TWELVE)
    match.deal_random(random.Random(1))
    match.apply(Choose("trump-spades"))
    _play_out(match, random.Random(1))
    for k in range(1, 4):  # the other three choose once each
        match.deal_random(random.Random(k))
        match.apply(Choose("ducking" if k == 1 else "queens" if k == 2 else "hearts"))
        _play_out(match, random.Random(k))
    match.deal_random(random.Random(5))  # deal 5: seat 1 chooses again
    assert match.deal is not None and match.deal.chooser == 1
    with pytest.raises(IllegalAction) as refused:
        match.apply(Choose("trump-hearts"))
    assert refused.value.reason is Reason.TRUMP_ALREADY_PICKED


def test_twelve_quota_at_most_2_negatives_each_then_the_trump_option() -> None:
    match = Match(rules=TWELVE)
    negatives = iter(["ducking", "hearts", "queens", "kingjacks", "lasttrick", "domino"])
    for k in range(8):  # two rounds of four negatives: every seat has 2
        match.deal_random(random.Random(k))
        match.apply(
            Choose(next(negatives) if k < 6 else ("kingofhearts", "seventhirteenth")[k - 6])
        )
        _play_out(match, random.Random(k))
    match.deal_random(random.Random(9))
    assert match.legal_contracts(match.deal.chooser) == sorted(
        TRUMPS, key=TWELVE.contract_ids.index
    )
    with pytest.raises(IllegalAction) as refused:
        match.apply(Choose("domino"))
    assert refused.value.reason in (Reason.MUST_PICK_TRUMP, Reason.CONTRACT_PLAYED)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, first_dealer=seats)
def test_twelve_quota_never_deadlocks_and_gives_each_player_exactly_one_trump_option(
    seed: int, first_dealer: int
) -> None:
    match = random_match(random.Random(seed), first_dealer=first_dealer, rules=TWELVE)
    assert match.is_over
    for seat in range(4):
        picked = [c for c, by in match.chosen_by.items() if by == seat]
        assert len(picked) == 3 and len(set(picked) & TRUMPS) == 1
    assert set(match.chosen_by) >= TWELVE_NEGATIVES


# -- "Points in twelve" --------------------------------------------------------------------

#: Seat 0 holds every club and, leading as the twelve dealer, takes all 13 tricks in every
#: no-trump contract (the others can only discard), so it takes each contract's whole total.
TWELVE_TOTALS = {
    "ducking": -130,  # -10 per trick
    "hearts": -130,  # -10 per heart
    "kingjacks": -200,  # -25 per king and jack
    "queens": -180,  # -45 per queen
    "kingofhearts": -100,
    "lasttrick": -100,
    "seventhirteenth": -100,  # -50 for trick 7 and -50 for trick 13
    "trump-notrump": 260,  # +20 per trick
}


@pytest.mark.parametrize(("contract", "total"), TWELVE_TOTALS.items())
def test_points_in_twelve_a_seat_taking_everything_scores_the_contracts_total(
    contract: str, total: int
) -> None:
    match = _match(TWELVE, full_suits(), contract)
    assert match.to_act == 0
    _play_out(match, random.Random(len(contract)))
    assert match.deal is not None and match.deal.base == [total, 0, 0, 0]


def test_points_in_twelve_domino_minus_100_to_the_last_player_holding_cards() -> None:
    match = _match(TWELVE, full_suits(), "domino")
    _play_out(match, random.Random(2))
    deal = match.deal
    assert deal is not None and sorted(deal.base) == [-100, 0, 0, 0]
    assert deal.base.index(-100) not in deal.out


def test_points_in_twelve_every_trump_option_plus_20_per_trick() -> None:
    for trump in TRUMPS:
        match = _match(TWELVE, full_suits(), trump)
        _play_out(match, random.Random(5))
        deal = match.deal
        assert deal is not None
        assert deal.base == [20 * sum(t.winner == s for t in deal.tricks) for s in range(4)]


def test_the_8_negative_deals_total_minus_1040_and_the_4_trump_deals_plus_1040() -> None:
    negatives = [TWELVE.by_id[c].total for c in TWELVE.negative_ids]
    trumps = {TWELVE.by_id[c].total for c in TWELVE.trump_ids}
    assert sum(negatives) == -1040 and trumps == {260} and 4 * 260 == 1040


@pytest.mark.parametrize(
    ("contract", "early"),
    [
        ("ducking", False),
        ("hearts", True),
        ("kingjacks", True),
        ("queens", True),
        ("kingofhearts", True),
        ("lasttrick", False),
        ("seventhirteenth", False),
        ("trump-spades", False),
    ],
)
@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_ends_early_when_in_twelve(contract: str, early: bool, seed: int) -> None:
    """Card contracts end the trick their last scoring card is taken; the others never."""
    rng = random.Random(seed)
    match = Match(rules=TWELVE)
    match.deal_random(rng)
    match.apply(Choose(contract))
    _play_out(match, rng)
    deal = match.deal
    assert deal is not None
    scoring = {c for c in CARDS if TWELVE.by_id[contract].card_points.get(c)}
    if not early:
        assert len(deal.tricks) == 13
        return
    taken_by_trick = [scoring & set(t.cards) for t in deal.tricks]
    last = max(i for i, taken in enumerate(taken_by_trick) if taken)
    assert last == len(deal.tricks) - 1 and set().union(*taken_by_trick) == scoring


# -- seventhirteenth -------------------------------------------------------------------------


def test_seventhirteenth_is_a_plain_no_trump_trick_contract_with_no_lead_restriction() -> None:
    contract = TWELVE.by_id["seventhirteenth"]
    assert contract.trump is None and contract.heart_lead is None and not contract.card_points
    hands = full_suits((Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES))
    hands[0], hands[1] = hands[0][:12] + hands[1][:1], hands[1][1:] + hands[0][12:]
    match = _match(TWELVE, hands, "seventhirteenth")  # seat 0 (the dealer) leads
    match.apply(Play(Card.parse("2H")))  # a heart lead while holding a club: allowed
    match.apply(Play(Card.parse("AH")))  # seat 1 follows with its one heart, the highest
    match.apply(Play(Card.parse("2D")))
    match.apply(Play(Card.parse("2S")))
    deal = match.deal
    assert deal is not None and deal.tricks[0].winner == 1 and deal.tricks[0].points == 0


def test_seventhirteenth_does_not_exist_in_standard_a_record_naming_it_is_refused() -> None:
    record = to_record(random_match(random.Random(4)))
    record["deals"][0]["contract"] = "seventhirteenth"
    with pytest.raises(RecordError) as refused:
        from_record(record)
    assert refused.value.deal == 1 and "there is no contract 'seventhirteenth'" in str(
        refused.value
    )
    assert STANDARD.contract("seventhirteenth") is None


def test_in_an_unfinished_seventhirteenth_deal_trick_7s_minus_50_counts_once_it_is_taken() -> None:
    match = _match(TWELVE, full_suits(), "seventhirteenth")
    rng = random.Random(6)
    deal = match.deal
    assert deal is not None
    while len(deal.tricks) < 6:
        match.apply(rng.choice(match.legal_actions()))
    assert deal.base == [0, 0, 0, 0]
    while len(deal.tricks) < 7:
        match.apply(rng.choice(match.legal_actions()))
    assert deal.base == [-50, 0, 0, 0] and match.totals() == [-50, 0, 0, 0]


# -- House rules: heart_lead -----------------------------------------------------------------

# Standard, dealer 0: seat 1 leads. Seat 0 is void in diamonds and spades, so a diamond
# lead makes it discard a heart; seat 1 takes trick 1 with the A♦ and leads trick 2
# holding hearts and other suits.
HEART_HANDS = [
    cards("2H 3H 4H 5H 6H 2C 3C 4C 5C 6C 7C 8C 9C"),
    cards("7H 8H 9H AD KD QD JD TD 9D AS KS QS JS"),
    cards("TH JH QH KH AH TC JC QC KC AC 2D 3D 4D"),
    cards("5D 6D 7D 8D 2S 3S 4S 5S 6S 7S 8S 9S TS"),
]
DISCARD_A_HEART = ("AD", "2D", "5D", "2H")  # trick 1: seat 0 discards the 2♥; seat 1 wins

# Twelve, dealer 0 leads. Seat 0 cashes its two clubs, then holds only hearts and leads
# one; seat 1 follows with the A♥, takes the trick and leads trick 4 holding K♥ and spades.
FOLLOW_HANDS = [
    cards("AC KC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
    cards("KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"),
    cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KS AS"),
    cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
]
FOLLOW_A_HEART = ("AC 2S 2C 2D", "KC 3S 3C 3D", "2H AH 4C 4D")


def _after(match: Match, *tricks: str) -> Match:
    for trick in tricks:
        for code in trick.split():
            match.apply(Play(Card.parse(code)))
    return match


def _heart_lead_refused(match: Match, code: str) -> bool:
    try:
        match.check(Play(Card.parse(code)))
    except IllegalAction as error:
        assert error.reason is Reason.HEART_LEAD
        return True
    return False


@pytest.mark.parametrize("contract", ["hearts", "kingofhearts"])
def test_heart_lead_never_no_heart_lead_unless_the_leader_holds_only_hearts(contract: str) -> None:
    fresh = _match(STANDARD, HEART_HANDS, contract)
    assert _heart_lead_refused(fresh, "7H")
    discarded = _after(_match(STANDARD, HEART_HANDS, contract), " ".join(DISCARD_A_HEART))
    assert discarded.to_act == 1 and _heart_lead_refused(discarded, "7H")  # played: still no
    followed = _after(_match(TWELVE, FOLLOW_HANDS, contract), *FOLLOW_A_HEART)
    assert followed.to_act == 1 and _heart_lead_refused(followed, "KH")
    assert not _heart_lead_refused(_match(TWELVE, FOLLOW_HANDS, contract), "AC")
    only_hearts = _after(_match(TWELVE, FOLLOW_HANDS, contract), *FOLLOW_A_HEART[:2])
    assert only_hearts.to_act == 0 and not _heart_lead_refused(only_hearts, "2H")


@pytest.mark.parametrize("contract", ["hearts", "kingofhearts"])
def test_heart_lead_broken_refused_until_a_heart_has_been_played_to_an_earlier_trick(
    contract: str,
) -> None:
    match = _match(BROKEN, HEART_HANDS, contract)
    with pytest.raises(IllegalAction) as refused:
        match.apply(Play(Card.parse("7H")))
    assert refused.value.reason is Reason.HEART_LEAD
    assert "before one has been played" in str(refused.value)


@pytest.mark.parametrize("contract", ["hearts", "kingofhearts"])
def test_heart_lead_broken_a_heart_discarded_to_an_earlier_trick_lets_hearts_be_led(
    contract: str,
) -> None:
    match = _after(_match(BROKEN, HEART_HANDS, contract), " ".join(DISCARD_A_HEART))
    assert match.to_act == 1 and not _heart_lead_refused(match, "7H")
    match.apply(Play(Card.parse("7H")))
    assert match.deal is not None and match.deal.trick == [Card.parse("7H")]


@pytest.mark.parametrize("contract", ["hearts", "kingofhearts"])
def test_heart_lead_broken_a_heart_followed_to_an_earlier_trick_lets_hearts_be_led(
    contract: str,
) -> None:
    rules = rules_for("twelve", {"heart_lead": "broken"})
    match = _after(_match(rules, FOLLOW_HANDS, contract), *FOLLOW_A_HEART)
    assert match.to_act == 1 and not _heart_lead_refused(match, "KH")


def test_heart_lead_is_the_rule_of_hearts_and_kingofhearts_only() -> None:
    for rules in ALL_RULES:
        restricted = {c.id for c in rules.contracts if c.heart_lead is not None}
        assert restricted == {"hearts", "kingofhearts"}


# -- House rules: first_lead -------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "twelve"])
@pytest.mark.parametrize(("first_lead", "offset"), [("left", 1), ("dealer", 0)])
def test_first_lead_moves_only_the_first_lead_chooser_and_doubling_order_stay_the_variants(
    variant: str, first_lead: str, offset: int
) -> None:
    rules = rules_for(variant, {"first_lead": first_lead})
    base = rules_for(variant)
    for dealer in range(4):
        assert rules.first_leader(dealer) == (dealer + offset) % 4
        assert rules.chooser(dealer) == base.chooser(dealer)
        assert rules.doubling_order(dealer) == base.doubling_order(dealer)
    for first_dealer in range(4):
        trick = _match(rules, full_suits(), "queens", first_dealer)
        domino = _match(rules, full_suits(), "domino", first_dealer)
        assert trick.to_act == domino.to_act == (first_dealer + offset) % 4


def test_first_lead_variant_is_the_variants_own_seat() -> None:
    assert rules_for("standard", {"first_lead": "variant"}).first_lead_offset == 1
    assert rules_for("twelve", {"first_lead": "variant"}).first_lead_offset == 0


# -- House rules: domino_doubling --------------------------------------------------------------

# Seat 0 holds no ace and no 2; the others hold them. Standard, dealer 0: seat 2 chooses,
# doubling order 3, 0, 1, 2.
ACE_OR_TWO_HANDS = [
    cards("3C 4C 5C 6C 7C 8C 3D 4D 5D 6D 7D 8D 3H"),
    cards("AC 2D 9C TC JC QC KC 9D TD JD QD KD 4H"),
    cards("2C AD AH 2H 5H 6H 7H 8H 9H TH JH QH KH"),
    cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
]
ACE_OR_TWO = rules_for("standard", {"domino_doubling": "ace_or_two"})


def _choosing(rules: Rules, contract: str) -> Match:
    match = Match(rules=rules)
    match.start_deal(ACE_OR_TWO_HANDS)
    match.apply(Choose(contract))
    return match


def test_domino_doubling_ace_or_two_without_an_ace_or_a_2_a_pass_is_the_only_action() -> None:
    match = _choosing(ACE_OR_TWO, "domino")
    match.apply(Double.of(0))  # seat 3 holds aces and twos: may double seat 0
    assert match.to_act == 0
    assert match.legal_actions() == [PASS]  # seat 0 may not redouble seat 3, nor double
    for targets in ((3,), (1,), (1, 2)):
        with pytest.raises(IllegalAction) as refused:
            match.apply(Double.of(*targets))
        assert refused.value.reason is Reason.DOMINO_NO_ACE_OR_TWO
    match.apply(PASS)
    assert match.to_act == 1 and len(match.legal_actions()) == 8  # any subset of three


def test_domino_doubling_ace_or_two_applies_to_the_chooser_and_only_in_domino() -> None:
    hands = [list(h) for h in ACE_OR_TWO_HANDS]
    hands[0], hands[2] = hands[2], hands[0]  # now seat 2, the chooser, lacks aces and twos
    match = Match(rules=ACE_OR_TWO)
    match.start_deal(hands)
    match.apply(Choose("domino"))
    for targets in ((2,), (), ()):  # seat 3 doubles the chooser; seats 0 and 1 pass
        match.apply(Double.of(*targets))
    assert match.to_act == 2 and match.legal_actions() == [PASS]  # no redouble
    queens = _choosing(ACE_OR_TWO, "queens")
    queens.apply(PASS)
    assert queens.to_act == 0 and len(queens.legal_actions()) == 8


def test_domino_doubling_any_lets_anyone_double_in_domino() -> None:
    match = _choosing(STANDARD, "domino")
    match.apply(PASS)
    assert match.to_act == 0 and len(match.legal_actions()) == 8


# -- House rules: domino_aces ------------------------------------------------------------------

EITHER = rules_for("standard", {"domino_aces": "either"})
#: Every seat holds a whole suit (seat 0 clubs, 1 diamonds, 2 hearts, 3 spades) and plays
#: only its own row; standard, dealer 0: seat 1 plays first, then 2, 3, 0.
DOWN_TO_THE_2 = {seat: f"8{s} 7{s} 6{s} 5{s} 4{s} 3{s} 2{s}" for seat, s in enumerate("CDHS")}
UP_TO_THE_KING = {seat: f"8{s} 9{s} T{s} J{s} Q{s} K{s} 7{s}" for seat, s in enumerate("CDHS")}
LOW_ACE_FIRST = {**UP_TO_THE_KING, 1: "8D 7D 6D 5D 4D 3D 2D AD"}
"""Seat 1 lays the first ace next to its 2 (the others' rows run from 7 to the king)."""


def _domino_rows(rules: Rules, plays: dict[int, str]) -> Match:
    """A Domino deal on whole suits, each seat laying its ``plays`` in turn, stopped when
    the seat to act has nothing left to lay (so it is that seat's turn)."""
    match = _match(rules, full_suits(), "domino")
    queues = {seat: cards(text) for seat, text in plays.items()}
    while match.to_act is not None and queues[match.to_act]:
        match.apply(Play(queues[match.to_act].pop(0)))
    return match


def _legal(match: Match) -> set[str]:
    return {action.card.code for action in match.legal_actions() if isinstance(action, Play)}


def test_domino_aces_is_a_rule_of_domino_only() -> None:
    for rules in ALL_RULES:
        either = rules.house_rule("domino_aces") == "either"
        shaped = {c.id for c in rules.contracts if c.domino_aces.value != "high"}
        assert shaped == ({"domino"} if either else set())


def test_domino_aces_high_an_ace_connects_only_to_the_king_of_its_suit() -> None:
    match = _domino_rows(STANDARD, DOWN_TO_THE_2)
    assert match.to_act == 1 and _legal(match) == {"9D"}  # not the A♦ next to the 2♦
    up = _domino_rows(STANDARD, UP_TO_THE_KING)
    assert up.to_act == 1 and _legal(up) == {"AD", "6D"}


def test_domino_aces_either_until_the_first_ace_an_ace_connects_to_the_king_or_to_the_2() -> None:
    low = _domino_rows(EITHER, DOWN_TO_THE_2)
    assert low.to_act == 1 and _legal(low) == {"9D", "AD"}
    up = _domino_rows(EITHER, UP_TO_THE_KING)
    assert up.to_act == 1 and _legal(up) == {"AD", "6D"}


def test_domino_aces_either_played_next_to_a_king_every_ace_connects_only_to_its_king() -> None:
    plays = {**DOWN_TO_THE_2, 1: "8D 9D TD JD QD KD 7D AD"}
    match = _domino_rows(EITHER, plays)  # seat 1 lays the A♦ next to its K♦: high
    deal = match.deal
    assert deal is not None and deal.domino_rows()[Suit.DIAMONDS] == (7, 14)
    assert match.to_act == 2 and _legal(match) == {"9H"}  # not the A♥ next to the 2♥


def test_domino_aces_either_next_to_a_2_every_ace_connects_only_to_its_2() -> None:
    match = _domino_rows(EITHER, LOW_ACE_FIRST)  # seat 1 lays the A♦ next to its 2♦: low
    deal = match.deal
    assert deal is not None and deal.domino_rows()[Suit.DIAMONDS] == (1, 8)
    assert match.to_act == 2 and _legal(match) == {"6H"}  # the K♥ takes no ace now
    plays = {**LOW_ACE_FIRST, 2: LOW_ACE_FIRST[2] + " 6H", 3: DOWN_TO_THE_2[3]}
    match = _domino_rows(EITHER, plays)
    assert match.to_act == 3 and _legal(match) == {"AS", "9S"}  # an ace next to its 2


def test_domino_aces_either_after_a_low_ace_a_king_connects_only_to_its_queen() -> None:
    match = _domino_rows(EITHER, LOW_ACE_FIRST)
    with pytest.raises(IllegalAction) as refused:
        match.apply(Play(Card.parse("AH")))
    assert refused.value.reason is Reason.DOMINO_NOT_CONNECTED
    assert "the A♥ does not connect" in str(refused.value)


def test_domino_aces_either_an_ace_that_could_go_either_way_goes_high() -> None:
    both_ends = {seat: DOWN_TO_THE_2[seat] + UP_TO_THE_KING[seat][2:-3] for seat in range(4)}
    match = _domino_rows(EITHER, both_ends)
    assert match.to_act == 1 and _legal(match) == {"AD"}
    match.apply(Play(Card.parse("AD")))
    deal = match.deal
    assert deal is not None and deal.domino_rows()[Suit.DIAMONDS] == (2, 14)


def test_domino_aces_either_a_record_replays_a_low_ace_and_high_refuses_it() -> None:
    match = _domino_rows(EITHER, LOW_ACE_FIRST)
    record = to_record(match)
    assert record["house_rules"] == {"domino_aces": "either"}
    replayed = from_record(record)
    assert replayed.rules is EITHER and replayed.deal is not None
    assert replayed.deal.domino_rows() == match.deal.domino_rows()
    with pytest.raises(RecordError) as refused:
        from_record({**record, "house_rules": {}})
    assert refused.value.deal == 1 and "card AD" in str(refused.value)
    assert "the A♦ does not connect" in str(refused.value)


# -- House rules: must_trump -------------------------------------------------------------------

#: Standard, dealer 0: seat 1 leads. Seats 2 and 3 are void in hearts and hold spades; seat 2
#: holds no clubs either; seat 0 holds no spades.
TRUMP_HANDS = [
    cards("2H 3H 4H 5H 6H 7H 8H 2C 3C 4C 5C 6C 7C"),
    cards("AH KH QH JH TH 9H AS 3S 8C 9C TC JC QC"),
    cards("2S 5S 9S KS 2D 3D 4D 5D 6D 7D 8D 9D TD"),
    cards("4S 6S 7S 8S TS JS QS JD QD KD AD KC AC"),
]
MUST_TRUMP = rules_for("standard", {"must_trump": "yes"})
OVERTRUMP = rules_for("standard", {"must_trump": "overtrump"})
SUIT_TRUMPS = {"trump-clubs", "trump-diamonds", "trump-hearts", "trump-spades"}


def _trumps(rules: Rules, contract: str, *plays: str) -> Match:
    return _after(_match(rules, TRUMP_HANDS, contract), *plays)


def _codes(hand: list[Card]) -> set[str]:
    return {card.code for card in hand}


def _refused_for(match: Match, code: str) -> Reason | None:
    try:
        match.check(Play(Card.parse(code)))
    except IllegalAction as error:
        return error.reason
    return None


def test_must_trump_is_a_rule_of_the_four_suit_trump_contracts_only() -> None:
    for rules in ALL_RULES:
        obliged = rules.house_rule("must_trump") != "no"
        shaped = {c.id for c in rules.contracts if c.must_trump.value != "no"}
        assert shaped == (SUIT_TRUMPS if obliged else set())
    for contract in ("trump-notrump", "queens", "ducking"):  # not in No Trump, nor negatives
        match = _trumps(OVERTRUMP, contract, "AH")
        assert _refused_for(match, "2D") is None and match.to_act == 2


def test_must_trump_no_trumping_is_allowed_never_required() -> None:
    match = _trumps(STANDARD, "trump-spades", "AH")
    assert _legal(match) == _codes(TRUMP_HANDS[2])  # void in hearts: anything, trump or not
    _after(match, "2D")
    assert _legal(match) == _codes(TRUMP_HANDS[3])


@pytest.mark.parametrize("rules", [MUST_TRUMP, OVERTRUMP], ids=rules_id)
def test_must_trump_yes_a_player_who_cannot_follow_and_holds_a_trump_must_play_a_trump(
    rules: Rules,
) -> None:
    match = _trumps(rules, "trump-spades", "AH")
    assert _legal(match) == {"2S", "5S", "9S", "KS"}
    with pytest.raises(IllegalAction) as refused:
        match.apply(Play(Card.parse("2D")))
    assert refused.value.reason is Reason.MUST_TRUMP
    assert str(refused.value) == "you cannot follow suit, so you must play a trump: you hold one"


def test_must_trump_yes_a_player_who_cannot_follow_and_holds_no_trump_plays_anything() -> None:
    match = _trumps(MUST_TRUMP, "trump-clubs", "AH")  # seat 2 holds no club
    assert _legal(match) == _codes(TRUMP_HANDS[2])


def test_must_trump_yes_a_trump_need_not_beat_the_trump_in_the_trick() -> None:
    match = _trumps(MUST_TRUMP, "trump-spades", "AH 9S")
    assert _legal(match) == {"4S", "6S", "7S", "8S", "TS", "JS", "QS"}  # 4♠ under the 9♠
    led = _trumps(MUST_TRUMP, "trump-spades", "3S")
    assert _legal(led) == {"2S", "5S", "9S", "KS"}


def test_must_trump_overtrump_trumping_in_a_player_must_beat_the_highest_trump_in_the_trick() -> (
    None
):
    match = _trumps(OVERTRUMP, "trump-spades", "AH 9S")
    assert _legal(match) == {"TS", "JS", "QS"}
    with pytest.raises(IllegalAction) as refused:
        match.apply(Play(Card.parse("4S")))
    assert refused.value.reason is Reason.MUST_OVERTRUMP
    assert "higher than the highest one in the trick" in str(refused.value)
    assert _refused_for(match, "JD") is Reason.MUST_OVERTRUMP  # a discard neither
    _after(match, "QS")
    assert _legal(match) == {"2H", "3H", "4H", "5H", "6H", "7H", "8H"}  # following: any heart


def test_must_trump_overtrump_following_a_trump_lead_a_player_must_beat_the_highest_trump() -> None:
    match = _trumps(OVERTRUMP, "trump-spades", "3S")
    assert _legal(match) == {"5S", "9S", "KS"}
    assert _refused_for(match, "2S") is Reason.MUST_OVERTRUMP


def test_must_trump_overtrump_without_a_higher_trump_any_trump() -> None:
    led = _trumps(OVERTRUMP, "trump-spades", "AS")
    assert _legal(led) == {"2S", "5S", "9S", "KS"}  # nothing beats the A♠
    ruffed = _trumps(OVERTRUMP, "trump-spades", "AH KS")
    assert _legal(ruffed) == {"4S", "6S", "7S", "8S", "TS", "JS", "QS"}  # still a trump
    assert _refused_for(ruffed, "JD") is Reason.MUST_TRUMP


@pytest.mark.parametrize("rules", [MUST_TRUMP, OVERTRUMP], ids=rules_id)
def test_must_trump_a_record_carries_it_and_replays_by_it(rules: Rules) -> None:
    match = _trumps(rules, "trump-spades", "AH 9S QS 2H")
    record = to_record(match)
    assert record["house_rules"] == {"must_trump": rules.house_rule("must_trump")}
    assert from_record(record).rules is rules
    discarding = to_record(_trumps(STANDARD, "trump-spades", "AH 2D"))
    assert from_record(discarding).rules is STANDARD
    with pytest.raises(RecordError) as refused:
        from_record({**discarding, "house_rules": dict(rules.house_rules)})
    assert refused.value.deal == 1 and "card 2D (play 2, seat 2)" in str(refused.value)


# -- the rule book ---------------------------------------------------------------------------

RULE_BOOK = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@pytest.mark.parametrize("rule", HOUSE_RULES.values(), ids=lambda rule: rule.name)
def test_the_rule_book_describes_every_house_rule_with_its_values_default_first(
    rule: HouseRule,
) -> None:
    sections = RULE_BOOK.read_text(encoding="utf-8").split("\n#### ")
    section = next(s for s in sections if s.startswith(f"`{rule.name}`\n"))
    first = section.split("\n\n", 2)[1]  # the paragraph that names the values
    places = [first.find(f"`{value}`") for value in rule.value_names]
    assert -1 not in places and places == sorted(places)
    assert first.startswith(f"`{rule.default}` (default)")


# -- the record ------------------------------------------------------------------------------


def test_a_record_carries_house_rules_and_a_name_left_out_has_its_default() -> None:
    rules = rules_for("twelve", {"heart_lead": "broken", "first_lead": "dealer"})
    record = to_record(random_match(random.Random(8), rules=rules))
    assert record["house_rules"] == {"heart_lead": "broken", "first_lead": "dealer"}
    replayed = from_record(record)
    assert replayed.rules is rules and replayed.rules.house_rule("domino_doubling") == "any"
    explicit = {**record, "house_rules": {**record["house_rules"], "domino_doubling": "any"}}
    assert from_record(explicit).rules is rules


def test_empty_or_missing_house_rules_and_a_missing_variant_are_the_standard_game() -> None:
    record = to_record(random_match(random.Random(9)))
    assert from_record({**record, "house_rules": {}}).rules is STANDARD
    del record["variant"]
    assert from_record(record).rules is STANDARD


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"variant": None}, "variant must be a variant name, not None"),
        ({"house_rules": None}, "house_rules must be an object, not None"),
        ({"variant": "Twelve"}, "unknown variant 'Twelve'; known: standard, twelve"),
        (
            {"house_rules": {"Heart_lead": "broken"}},
            "unknown house rule 'Heart_lead'; known: domino_aces, domino_doubling, first_lead, "
            "heart_lead, must_trump",
        ),
        (
            {"house_rules": {"heart_lead": "Broken"}},
            "unknown value 'Broken' for house rule heart_lead; known: never, broken",
        ),
        ({"variant": "Standard"}, "unknown variant 'Standard'; known: standard, twelve"),
        (
            {"house_rules": {"first_lead": None}},
            "unknown value None for house rule first_lead; known: variant, left, dealer",
        ),
    ],
)
def test_null_is_a_wrong_type_and_names_and_values_are_exact_lower_case(
    header: dict[str, object], message: str
) -> None:
    record = {**to_record(random_match(random.Random(2))), **header}
    with pytest.raises(RecordError) as refused:
        from_record(record)
    assert str(refused.value) == message and refused.value.deal is None
    with pytest.raises(RulesError):
        rules_for(str(header.get("variant", "standard")), header.get("house_rules") or {"x": 1})


def test_every_rule_above_holds_in_twelve_the_heart_lead_rule_of_hearts_included() -> None:
    match = _match(TWELVE, HEART_HANDS, "hearts", first_dealer=1)  # dealer 1 leads
    with pytest.raises(IllegalAction) as refused:
        match.apply(Play(Card.parse("7H")))
    assert refused.value.reason is Reason.HEART_LEAD
    match.apply(Play(Card.parse("AD")))
    with pytest.raises(IllegalAction) as refused:
        match.apply(Play(Card.parse("TC")))  # seat 2 must follow with a diamond
    assert refused.value.reason is Reason.MUST_FOLLOW_SUIT


@pytest.mark.parametrize(("rules", "deals"), [(STANDARD, 11), (TWELVE, 12)], ids=rules_id)
def test_a_deal_beyond_the_variants_number_of_deals_is_refused_naming_it(
    rules: Rules, deals: int
) -> None:
    record = to_record(random_match(random.Random(3), rules=rules))
    record["deals"].append(record["deals"][0])
    with pytest.raises(RecordError) as refused:
        from_record(record)
    assert refused.value.deal == deals + 1
    assert str(refused.value).startswith(f"deal {deals + 1}: ")


# -- properties per variant ----------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
@settings(max_examples=8, deadline=None)
@given(seed=seeds, first_dealer=seats)
def test_every_complete_match_totals_0_and_every_deal_adds_to_its_contract_total(
    rules: Rules, seed: int, first_dealer: int
) -> None:
    match = random_match(random.Random(seed), first_dealer=first_dealer, rules=rules)
    assert match.is_over and len(match.deals) == rules.deals
    assert sum(match.totals()) == 0
    for deal in match.deals:
        assert deal.contract is not None
        assert sum(deal.base) == deal.contract.total == _written_total(rules, deal.contract.id)
        assert sum(deal.final_scores()) == sum(deal.base)


def _written_total(rules: Rules, contract: str) -> int:
    """The contract totals as docs/rules.md writes them, per variant."""
    if contract in TRUMPS:
        return 130 if rules.variant == "standard" else 260
    if rules.variant == "standard":
        return {"ducking": -65, "hearts": -65, "kingjacks": -120, "queens": -120}.get(contract, -50)
    return TWELVE_TOTALS.get(contract, -100)
