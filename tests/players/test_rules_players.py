"""The players read the rules of their match: other points, another contract, 12 deals."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine import CONTRACTS, Contract, Rules
from bot.engine.cards import CARDS, Card, Suit, deal_hands
from bot.engine.contracts import Kind
from bot.players import player_for
from bot.players.arena import match_deals
from bot.players.hand import expected_base
from bot.players.table import decision_rng, play_deals

SPADES = Contract(
    "spades",
    "Spadeshunting",
    Kind.NEGATIVE,
    "-10 per spade taken",
    card_points={c: -10 for c in CARDS if c.suit is Suit.SPADES},
)


def _doubled(contract: Contract) -> Contract:
    """Every number of the contract's scoring twice as large."""
    return dataclasses.replace(
        contract,
        per_trick=2 * contract.per_trick,
        card_points={card: 2 * v for card, v in contract.card_points.items()},
        trick_points={n: 2 * v for n, v in contract.trick_points.items()},
        last_holder=2 * contract.last_holder,
    )


DOUBLED = Rules(
    variant="test-doubled",
    deals=12,
    contracts=(*(_doubled(c) for c in CONTRACTS.values()), SPADES),
    chooser_offset=1,
    doubling_offsets=(2, 3, 0, 1),
    first_lead_offset=0,
)


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_the_hand_estimate_scales_with_the_points_the_rules_give(contract_id: str) -> None:
    hand = deal_hands(decision_rng("estimate", contract_id))[0]
    standard = expected_base(hand, CONTRACTS[contract_id])
    assert expected_base(hand, DOUBLED.by_id[contract_id]) == pytest.approx(2 * standard)


def test_a_contract_the_rules_of_thumb_do_not_know_is_estimated_as_an_average_hand() -> None:
    hand: tuple[Card, ...] = deal_hands(decision_rng("estimate", "spades"))[0]
    assert expected_base(hand, SPADES) == SPADES.total / 4 == -32.5


@pytest.mark.parametrize(("level", "budget"), [("easy", 0.0), ("normal", 0.0), ("hard", 0.003)])
def test_every_level_plays_a_whole_match_of_other_rules(level: str, budget: float) -> None:
    hands = match_deals(seed=5, match=0, deals=DOUBLED.deals)
    players = [player_for(level) for _ in range(4)]
    played = play_deals(
        players, hands, first_dealer=1, budget=budget, seed_key=level, rules=DOUBLED
    )
    assert len(played.deals) == 12
    assert {d.contract for d in played.deals} >= set(DOUBLED.negative_ids)
    for deal in played.deals:
        assert sum(deal.scores) == DOUBLED.by_id[deal.contract].total
