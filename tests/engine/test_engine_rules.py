"""Rules as a value: the standard game as data, and a different game played through the
same engine, fast playouts and players with nothing but another :class:`Rules`."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    CONTRACTS,
    DEALS_PER_MATCH,
    STANDARD,
    Choose,
    Contract,
    Match,
    Phase,
    Play,
    RecordError,
    Rules,
    RulesError,
    from_record,
    rules_for,
    to_record,
)
from bot.engine.cards import CARDS, Suit
from bot.engine.contracts import HeartLead, Kind
from bot.engine.deal import Deal
from bot.engine.fast import TraceEntry, position_from_deal, random_playout
from bot.engine.simulate import random_match
from bot.engine.view import seat_view
from bot.render.rules import rules_text
from tests.engine.engine_helpers import mask_codes


def _scaled(contract: Contract) -> Contract:
    """The twelve variant's points (docs/rules.md, "House rules") for a standard contract."""
    points = {
        "ducking": {"per_trick": -10},
        "hearts": {"card_points": {c: -10 for c in CARDS if c.suit is Suit.HEARTS}},
        "kingjacks": {"card_points": {c: -25 for c in CARDS if c.rank in (11, 13)}},
        "queens": {"card_points": {c: -45 for c in CARDS if c.rank == 12}},
        "kingofhearts": {"card_points": {c: -100 for c in CARDS if c.code == "KH"}},
        "lasttrick": {"trick_points": {13: -100}},
        "domino": {"last_holder": -100},
    }.get(contract.id, {"per_trick": 20})
    return dataclasses.replace(contract, **points)


SPADES = Contract(
    "spades",
    "Spadeshunting",
    Kind.NEGATIVE,
    "-10 per spade taken; no heart lead",
    card_points={c: -10 for c in CARDS if c.suit is Suit.SPADES},
    heart_lead=HeartLead.NEVER,
)

#: 12 deals, another points table, an eighth negative contract, and the twelve variant's
#: seats: chooser left of the dealer, doubling from across the dealer, the dealer leads.
OTHER = Rules(
    variant="test-twelve",
    deals=12,
    contracts=(*(_scaled(c) for c in CONTRACTS.values()), SPADES),
    chooser_offset=1,
    doubling_offsets=(2, 3, 0, 1),
    first_lead_offset=0,
)


def test_the_standard_rules_are_the_documented_game() -> None:
    assert Rules.standard() is STANDARD is rules_for("standard", {})
    assert STANDARD.deals == DEALS_PER_MATCH == 11
    assert STANDARD.contract_ids == tuple(CONTRACTS)
    assert [STANDARD.chooser(d) for d in range(4)] == [2, 3, 0, 1]
    assert STANDARD.doubling_order(0) == (3, 0, 1, 2)
    assert [STANDARD.first_leader(d) for d in range(4)] == [1, 2, 3, 0]
    assert STANDARD.choices_per_seat(0) == (3, 2, 3, 3)
    assert sum(c.total for c in STANDARD.contracts) - 130 == 0  # 11 of the 12 are played


def test_unknown_variants_and_house_rules_are_refused_by_name() -> None:
    with pytest.raises(RulesError, match="unknown variant 'Twelve'; known: standard, twelve"):
        rules_for("Twelve")
    with pytest.raises(RulesError, match="unknown house rule 'heart_leads'"):
        rules_for("standard", {"heart_leads": "never"})
    with pytest.raises(RulesError, match="unknown value 'Broken' for house rule heart_lead"):
        rules_for("standard", {"heart_lead": "Broken"})


def test_rules_that_cannot_be_played_are_refused() -> None:
    with pytest.raises(RulesError, match="chooser doubles last"):
        dataclasses.replace(STANDARD, doubling_offsets=(0, 1, 2, 3))
    with pytest.raises(RulesError, match="each seat once"):
        dataclasses.replace(STANDARD, doubling_offsets=(1, 1, 2, 2))


def test_rules_cross_a_process_pool() -> None:
    assert pickle.loads(pickle.dumps(STANDARD)) is STANDARD
    copy = pickle.loads(pickle.dumps(OTHER))
    assert copy == OTHER and copy.by_id["queens"].point_table == OTHER.by_id["queens"].point_table


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), first_dealer=st.integers(0, 3))
def test_a_different_game_plays_to_its_end_through_match(seed: int, first_dealer: int) -> None:
    match = random_match(random.Random(seed), first_dealer=first_dealer, rules=OTHER)
    assert match.is_over and len(match.deals) == 12
    for k, deal in enumerate(match.deals):
        dealer = (first_dealer + k) % 4
        assert deal.rules is OTHER
        assert (deal.dealer, deal.chooser, deal.first_leader) == (dealer, (dealer + 1) % 4, dealer)
        assert deal.doubling_order == tuple((dealer + o) % 4 for o in (2, 3, 0, 1))
        assert deal.contract is not None and deal.contract is OTHER.by_id[deal.contract.id]
        assert sum(deal.base) == deal.contract.total  # the other points table, exactly
        if not deal.contract.domino:
            assert deal.plays[0][0] == dealer  # the dealer leads
    # Three choices each, exactly one trump option each, every negative once.
    for seat in range(4):
        picked = [OTHER.by_id[c] for c, by in match.chosen_by.items() if by == seat]
        assert len(picked) == 3 and sum(c.is_trump_option for c in picked) == 1
    assert set(OTHER.negative_ids) <= set(match.chosen_by)
    assert sum(match.totals()) == sum(d.contract.total for d in match.deals if d.contract)


def _playing(rules: Rules, contract_id: str, seed: int) -> Deal:
    rng = random.Random(seed)
    match = Match(rules=rules)
    match.deal_random(rng)
    match.apply(Choose(contract_id))
    deal = match.deal
    assert deal is not None
    while deal.phase is Phase.DOUBLING:
        match.apply(rng.choice(match.legal_actions()))
    return deal


@pytest.mark.parametrize("contract_id", OTHER.contract_ids)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_playouts_agree_with_the_engine_under_other_rules(contract_id: str, seed: int) -> None:
    deal = _playing(OTHER, contract_id, seed)
    trace: list[TraceEntry] = []
    scores = random_playout(position_from_deal(deal), random.Random(seed), trace)
    for seat, legal, card in trace:
        assert deal.to_act == seat
        assert sorted(c.code for c in deal.legal_cards()) == mask_codes(legal)
        deal.apply(Play(CARDS[card]))
    assert deal.is_done and scores == deal.base


def test_a_record_names_its_variant_and_another_variant_is_not_replayed_as_standard() -> None:
    standard = to_record(random_match(random.Random(1)))
    assert standard["variant"] == "standard" and "house_rules" not in standard
    assert from_record(standard).rules is STANDARD
    other = to_record(random_match(random.Random(1), rules=OTHER))
    assert other["variant"] == "test-twelve" and len(other["deals"]) == 12
    with pytest.raises(RecordError) as refused:
        from_record(other)
    assert str(refused.value) == "unknown variant 'test-twelve'; known: standard, twelve"
    assert refused.value.deal is None


def test_the_seat_view_carries_the_rules_of_its_match() -> None:
    match = Match(rules=OTHER)
    match.deal_random(random.Random(4))
    view = seat_view(match, 1)
    assert view.rules is OTHER and view.choices_per_seat == (3, 3, 3, 3)
    assert {a.contract for a in view.legal if isinstance(a, Choose)} == set(OTHER.contract_ids)


def test_the_rules_text_reads_its_numbers_from_the_rules() -> None:
    assert "52 cards, 12 deals" in rules_text(rules=OTHER)
    assert "52 cards, 11 deals" in rules_text()
    assert "-10 per trick" in rules_text("ducking", OTHER)
    assert "-25 per king and -25 per jack" in rules_text("kingjacks", OTHER)
    assert "-45 per queen" in rules_text("queens", OTHER)
    assert "The dealer starts" in rules_text("domino", OTHER) and "gets -100." in rules_text(
        "domino", OTHER
    )
    assert rules_text("trump-spades", OTHER).startswith("**Spades trumps**: +20 per trick")
    spades = rules_text("spades", OTHER)  # its own description, then its heart-lead rule
    assert spades.startswith("**Spadeshunting**: -10 per spade taken; no heart lead")
    assert spades.endswith("A heart may not be led unless the leader holds only hearts.")
