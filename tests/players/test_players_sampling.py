"""Guessed hands fit what the seat has seen, and the true deal is always one of them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import PASS, Card, Choose, Match, Play, Rules, Suit, rules_for
from bot.engine.contracts import CONTRACTS
from bot.engine.view import seat_view
from bot.players import sampling
from bot.players.sampling import Sampler
from tests.engine.kernel_helpers import NO_COMPILED_KERNEL
from tests.players.players_helpers import hands_with, random_position


@pytest.mark.parametrize("contract", ["domino", "hearts", "trump-clubs"])
@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(5, 50), watcher=st.integers(0, 3))
def test_samples_fit_the_view(contract: str, seed: int, moves: int, watcher: int) -> None:
    match = random_position(seed, contract, deals_before=0, moves=moves)
    deal = match.deal
    assert deal is not None
    if deal.contract is None or deal.contract.id != contract:
        return
    view = seat_view(match, watcher)
    sampler = Sampler(view)
    for seat in range(4):
        if seat != watcher:
            assert all(sampler.allowed[seat] >> card.index & 1 for card in deal.hand(seat))
    played = {card.index for _, card in view.plays}
    rng = random.Random(seed)
    for _ in range(5):
        masks = sampler.sample(rng)
        for seat in range(4):
            cards = [
                s * 13 + r for s in range(4) for r in range(13) if masks[seat * 4 + s] >> r & 1
            ]
            assert len(cards) == view.cards_left[seat]
            assert not played & set(cards)
            assert all(card // 13 not in view.voids[seat] for card in cards)
        assert [masks[watcher * 4 + s] for s in range(4)] == [
            sum(1 << (c.rank - 2) for c in view.hand if c.suit == s) for s in range(4)
        ]


def test_every_contract_has_a_view_to_sample() -> None:
    for contract in CONTRACTS:
        match = random_position(1, contract, deals_before=0, moves=20)
        assert match.to_act is not None
        Sampler(seat_view(match, match.to_act)).sample(random.Random(1))


def test_under_must_trump_no_guess_gives_a_trump_to_a_seat_that_discarded_instead() -> None:
    """Clubs are trump; seat 2, void in hearts, discards on the A♥: under ``must_trump``
    it holds no club, and the hard player's guesses know it (under the standard rule a
    discard says nothing about clubs)."""
    hands = hands_with(
        {
            1: ["AH", "KH", "QH", "JH", "TH", "9H", "AS", "3S", "8C", "9C", "TC", "JC", "QC"],
            2: ["2S", "5S", "9S", "KS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
        },
        fill=[0, 3],
    )
    for must_trump, clubs_possible in (("yes", False), ("no", True)):
        rules = rules_for("standard", {"must_trump": must_trump})
        view = seat_view(_played(rules, hands, ["AH", "2D"]), 3)
        sampler = Sampler(view)
        guesses = [sampler.sample(random.Random(seed)) for seed in range(30)]
        assert any(masks[2 * 4 + Suit.CLUBS] for masks in guesses) == clubs_possible


def _played(rules: Rules, hands: list[list[Card]], plays: list[str]) -> Match:
    match = Match(rules=rules)
    match.start_deal(hands)
    match.apply(Choose("trump-clubs"))
    for _ in range(4):
        match.apply(PASS)
    for code in plays:
        match.apply(Play(Card.parse(code)))
    return match


def test_cards_nothing_binds_are_dealt_uniformly() -> None:
    """At the first card nothing binds the 39 hidden cards: each goes to each other seat
    a third of the time, and two of them to the same seat as often as a fair deal of 13
    cards to each does (3 x 13/39 x 12/38), within four standard errors."""
    match = random_position(5, "hearts", deals_before=0, moves=5)  # a choice, four passes
    view = seat_view(match, match.to_act)
    assert not view.plays
    sampler = Sampler(view)
    first, second = sampler.free[0], sampler.free[1]
    rng = random.Random(7)
    draws = 6000
    owners = [0, 0, 0, 0]
    together = 0
    for _ in range(draws):
        masks = sampler.sample(rng)
        seat_of = [
            next(s for s in range(4) if masks[s * 4 + card // 13] >> (card % 13) & 1)
            for card in (first, second)
        ]
        owners[seat_of[0]] += 1
        together += seat_of[0] == seat_of[1]
    for seat in range(4):
        share = 0 if seat == view.seat else 1 / 3
        assert abs(owners[seat] / draws - share) <= 4 * (share * (1 - share) / draws) ** 0.5
    fair = 3 * 13 / 39 * 12 / 38
    assert abs(together / draws - fair) <= 4 * (fair * (1 - fair) / draws) ** 0.5


@pytest.mark.parametrize("contract", ["domino", "hearts", "trump-clubs", "queens"])
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 50), watcher=st.integers(0, 3))
def test_the_compiled_greedy_deal_is_the_python_one(
    contract: str, seed: int, moves: int, watcher: int
) -> None:
    """From the same random numbers, the compiled greedy deal (``_sampling.pyx``) gives
    the same guesses as the Python one, or gives up on the same draw: a seed's search is
    the same whichever is installed."""
    if not sampling.COMPILED:
        if NO_COMPILED_KERNEL:
            pytest.skip("installed without a C compiler")
        pytest.fail("the compiled greedy deal was not built (no C compiler at install?)")
    match = random_position(seed, contract, deals_before=0, moves=moves)
    if match.to_act is None:
        return
    sampler = Sampler(seat_view(match, watcher))
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(20):
        assert sampler._greedy(theirs) == sampler.python_greedy(ours)
    assert ours.random() == theirs.random()  # as many random numbers drawn
