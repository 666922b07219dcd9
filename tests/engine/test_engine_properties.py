"""Property tests over many seeded random matches (every action a random legal one).

Each deal is re-checked by code written here from docs/rules.md, independently of the engine:
who plays, follow suit, the heart-lead rule, who takes each trick, what it scores, when
the deal ends, Domino turns and passes. Then records must replay to the same state.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    CARDS,
    CONTRACTS,
    PASS,
    Card,
    Choose,
    Double,
    IllegalAction,
    Match,
    Phase,
    Play,
    Suit,
    from_record,
    to_record,
)
from tests.engine.engine_helpers import random_partial, snapshot

TOTALS = {
    "ducking": -65,
    "hearts": -65,
    "kingjacks": -120,
    "queens": -120,
    "kingofhearts": -50,
    "lasttrick": -50,
    "domino": -50,
}
TRUMP_SUITS = {
    "trump-clubs": Suit.CLUBS,
    "trump-diamonds": Suit.DIAMONDS,
    "trump-hearts": Suit.HEARTS,
    "trump-spades": Suit.SPADES,
    "trump-notrump": None,
}
KING_OF_HEARTS = Card.parse("KH")

seeds = st.integers(min_value=0, max_value=2**32 - 1)
seats = st.integers(min_value=0, max_value=3)
fast = settings(max_examples=100, deadline=None)


def card_points(contract: str, card: Card) -> int:
    """What one card taken scores, for the contracts that score cards."""
    if contract == "hearts":
        return -5 if card.suit is Suit.HEARTS else 0
    if contract == "kingjacks":
        return {13: -20, 11: -10}.get(card.rank, 0)
    if contract == "queens":
        return -30 if card.rank == 12 else 0
    if contract == "kingofhearts":
        return -50 if card is KING_OF_HEARTS else 0
    return 0


def trick_points(contract: str, cards: tuple[Card, ...], number: int) -> int:
    if contract == "ducking":
        return -5
    if contract in TRUMP_SUITS:
        return 10
    if contract == "lasttrick":
        return -50 if number == 13 else 0
    return sum(card_points(contract, card) for card in cards)


def winner_position(cards: tuple[Card, ...], trump: Suit | None) -> int:
    trumps = [i for i, card in enumerate(cards) if card.suit is trump]
    candidates = trumps or [i for i, card in enumerate(cards) if card.suit is cards[0].suit]
    return max(candidates, key=lambda i: cards[i].rank)


def check_trick_deal(deal) -> None:
    contract = deal.contract.id
    trump = TRUMP_SUITS.get(contract)
    held = [set(hand) for hand in deal.hands]
    scoring_left = sum(card_points(contract, card) for card in CARDS)
    base = [0, 0, 0, 0]
    voids: list[set[Suit]] = [set(), set(), set(), set()]
    leader = deal.first_leader
    plays = iter(deal.plays)
    rounds = [*(t.cards for t in deal.tricks), tuple(deal.trick)]
    for number, cards in enumerate(rounds, start=1):
        finished = number <= len(deal.tricks)
        assert len(cards) == 4 if finished else len(cards) < 4
        if not cards:
            continue
        led = cards[0].suit
        for position, card in enumerate(cards):
            seat = (leader + position) % 4
            assert next(plays) == (seat, card)  # who played it follows from the rules
            assert card in held[seat]
            if (
                position == 0
                and contract in ("hearts", "kingofhearts")
                and card.suit is Suit.HEARTS
            ):
                assert all(c.suit is Suit.HEARTS for c in held[seat]), "led a heart"
            if position > 0 and card.suit is not led:
                assert not any(c.suit is led for c in held[seat]), "did not follow suit"
                voids[seat].add(led)
            held[seat].remove(card)
        if not finished:
            continue
        trick = deal.tricks[number - 1]
        winner = (leader + winner_position(cards, trump)) % 4
        assert (trick.leader, trick.winner) == (leader, winner)
        points = trick_points(contract, cards, number)
        assert trick.points == points
        base[winner] += points
        scoring_left -= sum(card_points(contract, card) for card in cards)
        leader = winner
        ends_early = contract in ("hearts", "kingjacks", "queens", "kingofhearts")
        if number == 13 or (ends_early and scoring_left == 0):
            # The deal ends here: 13 tricks, or every card that scores has been taken.
            assert number == len(deal.tricks) and deal.is_done and not deal.trick
        else:
            assert number < len(deal.tricks) or not deal.is_done, "ended too soon"
    assert next(plays, None) is None
    assert deal.base == base
    assert [set(v) for v in deal.voids] == voids
    if deal.is_done:
        assert [len(hand) for hand in held] == [13 - len(deal.tricks)] * 4
    elif deal.phase is Phase.PLAYING:
        assert deal.to_act == (leader + len(deal.trick)) % 4


def check_domino_deal(deal) -> None:
    if deal.phase is Phase.DOUBLING:
        assert deal.plays == [] and deal.domino_passes == []
        return
    held = [set(hand) for hand in deal.hands]
    rows: dict[Suit, tuple[int, int]] = {}
    passes: list[tuple[int, int]] = []
    out: list[int] = []

    def fits(card: Card) -> bool:
        row = rows.get(card.suit)
        return card.rank == 8 if row is None else card.rank in (row[0] - 1, row[1] + 1)

    def next_seat(start: int, played: int) -> int:
        for step in range(4):
            seat = (start + step) % 4
            if not held[seat]:
                continue  # out: skipped, no pass
            if any(fits(card) for card in held[seat]):
                return seat
            passes.append((seat, played))  # no legal card: an automatic pass
        raise AssertionError("nobody can play")

    seat = next_seat(deal.first_leader, 0)
    for index, (who, card) in enumerate(deal.plays, start=1):
        assert len(out) < 3, "a card after the three-out end"
        assert who == seat and card in held[who] and fits(card)
        held[who].remove(card)
        low, high = rows.get(card.suit, (card.rank, card.rank))
        rows[card.suit] = (min(low, card.rank), max(high, card.rank))
        if not held[who]:
            out.append(who)
        if len(out) < 3:
            seat = next_seat((who + 1) % 4, index)
    assert deal.domino_passes == passes
    assert deal.out == out
    assert deal.domino_rows() == rows
    if deal.is_done:
        assert len(out) == 3
        (loser,) = (s for s in range(4) if s not in out)
        assert held[loser]
        assert deal.base == [-50 if s == loser else 0 for s in range(4)]
    else:
        assert len(out) < 3 and deal.base == [0, 0, 0, 0]
        if deal.phase is Phase.PLAYING:
            assert deal.to_act == seat


def check_match(match: Match) -> None:
    for k, deal in enumerate(match.deals):
        assert deal.dealer == (match.first_dealer + k) % 4
        assert sorted(card.index for hand in deal.hands for card in hand) == list(range(52))
        assert all(len(hand) == 13 for hand in deal.hands)
        if deal.contract is None:
            assert deal.plays == [] and deal is match.deals[-1]
            continue
        if deal.contract.domino:
            check_domino_deal(deal)
        else:
            check_trick_deal(deal)
        if deal.is_done:
            total = TOTALS.get(deal.contract.id, 130)
            assert sum(deal.base) == total
        assert sum(deal.final_scores()) == sum(deal.base)
        assert deal.is_done or deal is match.deals[-1]
    totals = [sum(deal.final_scores()[s] for deal in match.deals) for s in range(4)]
    assert match.totals() == totals


@fast
@given(seed=seeds, first_dealer=seats)
def test_complete_random_matches_follow_the_rules_and_total_0(seed, first_dealer):
    match = random_partial(seed, first_dealer=first_dealer)
    assert match.is_over and len(match.deals) == 11
    check_match(match)
    for deal in match.deals:
        if deal.contract.id in ("ducking", "lasttrick", *TRUMP_SUITS):
            assert len(deal.tricks) == 13  # contracts that never end early
    assert sum(match.totals()) == 0
    assert {deal.contract.id for deal in match.deals} >= set(TOTALS)


@fast
@given(seed=seeds, first_dealer=seats, steps=st.integers(min_value=0, max_value=700))
def test_partial_random_matches_follow_the_rules(seed, first_dealer, steps):
    check_match(random_partial(seed, first_dealer=first_dealer, steps=steps))


def state_of(match: Match):
    return (
        match.players,
        match.first_dealer,
        snapshot(match),
        [(deal.hands, deal.final_scores(), deal.dealer) for deal in match.deals],
        match.ranking() if match.deals else None,
    )


@settings(max_examples=150, deadline=None)
@given(seed=seeds, first_dealer=seats, steps=st.integers(min_value=0, max_value=700))
def test_replaying_a_record_reproduces_the_state(seed, first_dealer, steps):
    match = random_partial(seed, first_dealer=first_dealer, steps=steps)
    record = to_record(match, seed=seed)
    text = json.dumps(record)
    assert json.loads(text) == record  # records round-trip through JSON
    replayed = from_record(json.loads(text))
    assert state_of(replayed) == state_of(match)
    assert to_record(replayed, seed=seed) == record
    # The replayed match goes on exactly like the original.
    if match.legal_actions():
        action = random.Random(seed).choice(match.legal_actions())
        match.apply(action)
        replayed.apply(action)
        assert state_of(replayed) == state_of(match)


@fast
@given(seed=seeds, steps=st.integers(min_value=1, max_value=700))
def test_check_accepts_exactly_what_apply_accepts_and_changes_nothing(seed, steps):
    match = random_partial(seed, steps=steps)
    if match.to_act is None:
        return
    candidates = [
        *match.legal_actions(),
        *(Play(card) for card in CARDS),
        *(Double.of(*targets) for targets in ([0], [1], [2], [3], [0, 1, 2, 3])),
        *(Choose(cid) for cid in CONTRACTS),
        PASS,
    ]
    legal = match.legal_actions()
    before = snapshot(match)
    for action in candidates:
        try:
            match.check(action)
        except IllegalAction as error:
            assert action not in legal
            assert str(error)  # a message for the player
        else:
            assert action in legal
        assert snapshot(match) == before
