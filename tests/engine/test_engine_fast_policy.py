"""The step-by-step fast path (legal_masks, play_card, policy_playout, positions built
from a seat view) agrees with the public API move for move; the policy playouts in both
kernels (``tests/engine/kernel_helpers.py``), which ask the policy the same questions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.actions import PASS, Choose, Play
from bot.engine.cards import CARDS
from bot.engine.contracts import CONTRACTS
from bot.engine.deal import Phase
from bot.engine.fast import (
    FastPosition,
    Policy,
    TraceEntry,
    dealt_position,
    hand_masks,
    is_over,
    legal_masks,
    play_card,
    policy_playout,
    position_from_deal,
    position_from_view,
    python_policy_playout,
)
from bot.engine.match import Match
from bot.engine.rules import Rules
from bot.engine.view import seat_view
from bot.players.policy import normal_card
from tests.engine.engine_helpers import (
    ALL_RULES,
    EACH_HOUSE_RULE,
    dealt_for_play,
    mask_codes,
    rules_id,
)
from tests.engine.kernel_helpers import EACH_KERNEL, policy_playout_of


def _state(pos: FastPosition) -> tuple[object, ...]:
    fields = (pos.hands, pos.to_act, pos.trick, pos.tricks_done, pos.base, pos.points_left)
    domino = (pos.domino_low, pos.domino_high, pos.domino_out, pos.domino_aces)
    return (*fields, *domino, pos.played, pos.voids)


def _random_policy(rng: random.Random) -> Policy:
    def policy(pos: FastPosition, seat: int, legal: tuple[int, int, int, int]) -> int:
        cards = [s * 13 + r for s in range(4) for r in range(13) if legal[s] >> r & 1]
        return rng.choice(cards)

    return policy


#: Every contract of every variant and house rule set, for the agreement tests.
EVERY_CONTRACT_OF_EVERY_RULE_SET = pytest.mark.parametrize(
    ("rules", "contract_id"),
    [(rules, cid) for rules in ALL_RULES for cid in rules.contract_ids],
    ids=rules_id,
)


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_play_card_tracks_the_public_deal_move_for_move(contract_id: str, seed: int) -> None:
    deal = dealt_for_play(contract_id, seed)
    pos = position_from_deal(deal)
    rng = random.Random(seed)
    while not deal.is_done:
        assert mask_codes(legal_masks(pos)) == sorted(c.code for c in deal.legal_cards())
        card = rng.choice(deal.legal_cards())
        deal.apply(Play(card))
        play_card(pos, card.index)
        assert is_over(pos) == deal.is_done
        if not deal.is_done:
            assert _state(pos) == _state(position_from_deal(deal))
    assert pos.base == deal.base


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 45))
def test_position_from_view_matches_the_deal(contract_id: str, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    match = Match()
    match.deal_random(rng)
    match.apply(Choose(contract_id))
    dealt = dealt_position(CONTRACTS[contract_id], match.deal.first_leader, _masks(match))
    for _ in range(4):
        match.apply(PASS)
    assert _state(dealt) == _state(position_from_deal(match.deal))
    for _ in range(moves):
        if match.deal.is_done:
            return
        match.apply(rng.choice(match.legal_actions()))
    if match.deal.is_done:
        return
    view = seat_view(match, match.to_act)
    from_view = position_from_view(view, _masks(match))
    assert _state(from_view) == _state(position_from_deal(match.deal))


@EACH_KERNEL
@EVERY_CONTRACT_OF_EVERY_RULE_SET
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_policy_playout_agrees_under_every_variant_and_house_rule(
    kernel: str, rules: Rules, contract_id: str, seed: int
) -> None:
    deal = dealt_for_play(contract_id, seed, rules)
    trace: list[TraceEntry] = []
    start = position_from_deal(deal)
    assert _state(start) == _state(
        dealt_position(deal.contract, deal.first_leader, hand_masks(deal.hands))
    )
    scores = policy_playout_of(kernel)(start, _random_policy(random.Random(seed)), trace)
    for seat, legal, card in trace:
        assert deal.to_act == seat
        assert mask_codes(legal) == sorted(c.code for c in deal.legal_cards())
        deal.apply(Play(CARDS[card]))
    assert deal.phase is Phase.DONE
    assert scores == deal.base


@EACH_KERNEL
@EACH_HOUSE_RULE
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 45))
def test_positions_and_policy_playouts_agree_under_each_value_of_each_house_rule(
    kernel: str, rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    rng = random.Random(seed)
    match = Match(rules=rules)
    match.deal_random(rng)
    match.apply(Choose(contract_id))
    deal = match.deal
    assert deal is not None and deal.contract is not None
    dealt = dealt_position(deal.contract, deal.first_leader, _masks(match))
    for _ in range(4):
        match.apply(PASS)
    assert _state(dealt) == _state(position_from_deal(deal))
    for _ in range(moves):
        if deal.is_done:
            return
        match.apply(rng.choice(match.legal_actions()))
    if deal.is_done:
        return
    from_view = position_from_view(seat_view(match, match.to_act), _masks(match))
    assert _state(from_view) == _state(position_from_deal(deal))
    trace: list[TraceEntry] = []
    scores = policy_playout_of(kernel)(from_view, _random_policy(rng), trace)
    for seat, legal, card in trace:
        assert deal.to_act == seat
        assert mask_codes(legal) == sorted(c.code for c in deal.legal_cards())
        deal.apply(Play(CARDS[card]))
    assert deal.is_done and scores == deal.base


def _masks(match: Match) -> list[int]:
    return hand_masks([match.deal.hand(seat) for seat in range(4)])


@EACH_KERNEL
@EVERY_CONTRACT_OF_EVERY_RULE_SET
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_policy_is_asked_with_the_public_deal_position(
    kernel: str, rules: Rules, contract_id: str, seed: int
) -> None:
    """What a policy reads when asked (hands, trick, cards played, voids, score) is the
    public deal's position at that moment, whatever inline loop the playout runs."""
    deal = dealt_for_play(contract_id, seed, rules)
    rng = random.Random(seed)
    asked: list[tuple[object, ...]] = []

    def policy(pos: FastPosition, seat: int, legal: tuple[int, int, int, int]) -> int:
        assert pos.to_act == seat
        asked.append(tuple(list(f) if isinstance(f, list) else f for f in _state(pos)))
        return rng.choice([s * 13 + r for s in range(4) for r in range(13) if legal[s] >> r & 1])

    trace: list[TraceEntry] = []
    policy_playout_of(kernel)(position_from_deal(deal), policy, trace)
    questions = iter(asked)
    for _, legal, card in trace:
        if sum(mask.bit_count() for mask in legal) > 1:
            assert next(questions) == _state(position_from_deal(deal))
        deal.apply(Play(CARDS[card]))
    assert next(questions, None) is None


@EVERY_CONTRACT_OF_EVERY_RULE_SET
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40))
def test_the_installed_kernel_plays_the_normal_players_playouts_as_the_pure_python_one(
    rules: Rules, contract_id: str, seed: int, moves: int
) -> None:
    """The hard player's playouts (four normal players, :func:`normal_card`) give the
    same cards, scores and final position in the installed kernel as in pure Python, so
    a search decides the same whichever is installed (where the compiled kernel is not
    built, :func:`policy_playout` is the pure-Python one; ``test_fast.py`` says so)."""
    deal = dealt_for_play(contract_id, seed, rules)
    rng = random.Random(seed)
    for _ in range(moves):
        if deal.is_done:
            return
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.is_done:
        return
    ours, theirs = position_from_deal(deal), position_from_deal(deal)
    our_trace: list[TraceEntry] = []
    their_trace: list[TraceEntry] = []
    our_scores = python_policy_playout(ours, normal_card, our_trace)
    their_scores = policy_playout(theirs, normal_card, their_trace)
    assert (their_trace, their_scores, _state(theirs)) == (our_trace, our_scores, _state(ours))
