"""The fast random playout agrees with the public API move for move, in both kernels
(``tests/engine/kernel_helpers.py``), and the two play the same cards for the same
random numbers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.actions import Play
from bot.engine.cards import CARDS
from bot.engine.contracts import CONTRACTS
from bot.engine.deal import Deal, Phase
from bot.engine.fast import (
    COMPILED,
    TraceEntry,
    position_from_deal,
    python_random_playout,
    random_playout,
)
from bot.engine.rules import Rules, rules_for
from tests.engine.engine_helpers import (
    ALL_RULES,
    EACH_HOUSE_RULE,
    dealt_for_play,
    mask_codes,
    rules_id,
)
from tests.engine.kernel_helpers import (
    EACH_KERNEL,
    NO_COMPILED_KERNEL,
    RandomPlayout,
    random_playout_of,
)


def test_the_compiled_kernel_is_built_unless_said_otherwise() -> None:
    assert COMPILED or NO_COMPILED_KERNEL, (
        "bot.engine._kernel is missing: install with a C compiler (pip install -e .), "
        "or set BONKEN_NO_COMPILED_KERNEL=1 where there is none"
    )


def _replay(deal: Deal, trace: list[TraceEntry]) -> None:
    for seat, legal_masks, card_index in trace:
        assert deal.to_act == seat
        assert sorted(card.code for card in deal.legal_cards()) == mask_codes(legal_masks)
        deal.apply(Play(CARDS[card_index]))
    assert deal.phase is Phase.DONE


@EACH_KERNEL
@pytest.mark.parametrize("contract_id", list(CONTRACTS))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_playout_agrees_with_the_public_api(kernel: str, contract_id: str, seed: int) -> None:
    deal = dealt_for_play(contract_id, seed)
    trace: list[TraceEntry] = []
    scores = random_playout_of(kernel)(position_from_deal(deal), random.Random(seed), trace)
    _replay(deal, trace)
    assert scores == deal.base


EVERY_CONTRACT_OF_EVERY_RULE_SET = pytest.mark.parametrize(
    ("rules", "contract_id"),
    [(rules, cid) for rules in ALL_RULES for cid in rules.contract_ids],
    ids=rules_id,
)


@EACH_KERNEL
@EVERY_CONTRACT_OF_EVERY_RULE_SET
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40))
def test_fast_playout_agrees_under_every_variant_and_house_rule(
    kernel: str, rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    _agrees_after_random_moves(random_playout_of(kernel), rules, contract_id, seed, moves)


@EACH_KERNEL
@EACH_HOUSE_RULE
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40))
def test_fast_playout_agrees_under_each_value_of_each_house_rule(
    kernel: str, rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    _agrees_after_random_moves(random_playout_of(kernel), rules, contract_id, seed, moves)


def _after_random_moves(rules: Rules, contract_id: str, seed: int, moves: int) -> Deal:
    """A deal of ``contract_id`` after up to ``moves`` random public moves (maybe done)."""
    deal = dealt_for_play(contract_id, seed, rules)
    rng = random.Random(seed)
    for _ in range(moves):
        if deal.phase is Phase.DONE:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _agrees_after_random_moves(
    playout: RandomPlayout, rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    """Random public moves, then a traced fast playout replayed through the public API."""
    deal = _after_random_moves(rules, contract_id, seed, moves)
    if deal.phase is Phase.DONE:
        return
    trace: list[TraceEntry] = []
    scores = playout(position_from_deal(deal), random.Random(seed), trace)
    _replay(deal, trace)
    assert scores == deal.base


@EVERY_CONTRACT_OF_EVERY_RULE_SET
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40))
def test_the_installed_kernel_plays_the_cards_the_pure_python_one_plays(
    rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    """The compiled kernel draws as the pure-Python one does, so a seed's playout (its
    moves, its scores and the position it leaves) is the same whichever is installed.
    (Where the compiled kernel is not built, :func:`random_playout` is the pure-Python
    one and :func:`test_the_compiled_kernel_is_built_unless_said_otherwise` says so.)"""
    deal = _after_random_moves(rules, contract_id, seed, moves)
    if deal.phase is Phase.DONE:
        return
    ours, theirs = position_from_deal(deal), position_from_deal(deal)
    our_trace: list[TraceEntry] = []
    their_trace: list[TraceEntry] = []
    our_scores = python_random_playout(ours, random.Random(seed), our_trace)
    their_scores = random_playout(theirs, random.Random(seed), their_trace)
    assert (their_trace, their_scores, theirs) == (our_trace, our_scores, ours)
    assert their_scores is theirs.base  # the scores are the position's, as in Python


@EACH_KERNEL
def test_fast_playouts_lay_aces_low_and_high_under_domino_aces_either(kernel: str) -> None:
    """The agreement above meets both ways an ace goes: over 40 deals played out at
    random, aces went low in some and high in others, move for move as the engine."""
    rules = rules_for("standard", {"domino_aces": "either"})
    ways = set()
    for seed in range(40):
        deal = dealt_for_play("domino", seed, rules)
        trace: list[TraceEntry] = []
        scores = random_playout_of(kernel)(position_from_deal(deal), random.Random(seed), trace)
        _replay(deal, trace)
        assert scores == deal.base
        rows = deal.domino_rows().values()
        ways |= {"low" for low, _ in rows if low == 1} | {"high" for _, high in rows if high == 14}
    assert ways == {"low", "high"}


@EACH_KERNEL
def test_position_copy_leaves_the_original_untouched(kernel: str) -> None:
    position = position_from_deal(dealt_for_play("ducking", 3))
    before = (list(position.hands), position.to_act, list(position.base))
    random_playout_of(kernel)(position.copy(), random.Random(0), None)
    assert (position.hands, position.to_act, position.base) == before
