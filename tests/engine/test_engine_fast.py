"""The fast playout path agrees with the public API move for move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.actions import Play
from bot.engine.cards import CARDS
from bot.engine.contracts import CONTRACTS
from bot.engine.deal import Deal, Phase
from bot.engine.fast import TraceEntry, position_from_deal, random_playout
from bot.engine.rules import Rules, rules_for
from tests.engine.engine_helpers import (
    ALL_RULES,
    EACH_HOUSE_RULE,
    dealt_for_play,
    mask_codes,
    rules_id,
)


def _replay(deal: Deal, trace: list[TraceEntry]) -> None:
    for seat, legal_masks, card_index in trace:
        assert deal.to_act == seat
        assert sorted(card.code for card in deal.legal_cards()) == mask_codes(legal_masks)
        deal.apply(Play(CARDS[card_index]))
    assert deal.phase is Phase.DONE


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_playout_agrees_with_the_public_api(contract_id: str, seed: int) -> None:
    deal = dealt_for_play(contract_id, seed)
    trace: list[TraceEntry] = []
    scores = random_playout(position_from_deal(deal), random.Random(seed), trace)
    _replay(deal, trace)
    assert scores == deal.base


@pytest.mark.parametrize(
    ("rules", "contract_id"),
    [(rules, cid) for rules in ALL_RULES for cid in rules.contract_ids],
    ids=rules_id,
)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40))
def test_fast_playout_agrees_under_every_variant_and_house_rule(
    rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    _agrees_after_random_moves(rules, contract_id, seed, moves)


@EACH_HOUSE_RULE
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40))
def test_fast_playout_agrees_under_each_value_of_each_house_rule(
    rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    _agrees_after_random_moves(rules, contract_id, seed, moves)


def _agrees_after_random_moves(rules: Rules, contract_id: str, seed: int, moves: int) -> None:
    """Random public moves, then a traced fast playout replayed through the public API."""
    deal = dealt_for_play(contract_id, seed, rules)
    rng = random.Random(seed)
    for _ in range(moves):
        if deal.phase is Phase.DONE:
            return
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.phase is Phase.DONE:
        return
    trace: list[TraceEntry] = []
    scores = random_playout(position_from_deal(deal), rng, trace)
    _replay(deal, trace)
    assert scores == deal.base


def test_fast_playouts_lay_aces_low_and_high_under_domino_aces_either() -> None:
    """The agreement above meets both ways an ace goes: over 40 deals played out at
    random, aces went low in some and high in others, move for move as the engine."""
    rules = rules_for("standard", {"domino_aces": "either"})
    ways = set()
    for seed in range(40):
        deal = dealt_for_play("domino", seed, rules)
        trace: list[TraceEntry] = []
        scores = random_playout(position_from_deal(deal), random.Random(seed), trace)
        _replay(deal, trace)
        assert scores == deal.base
        rows = deal.domino_rows().values()
        ways |= {"low" for low, _ in rows if low == 1} | {"high" for _, high in rows if high == 14}
    assert ways == {"low", "high"}


def test_position_copy_leaves_the_original_untouched() -> None:
    position = position_from_deal(dealt_for_play("ducking", 3))
    before = (list(position.hands), position.to_act, list(position.base))
    random_playout(position.copy(), random.Random(0))
    assert (position.hands, position.to_act, position.base) == before
