"""The hand estimates read from suit rank masks (what the hard player's inference weighs
every guess with) are the card-by-card rules of thumb to the last bit: the rules as they
were stated over Card lists are kept here as the reference, and every float is compared
with ``==``, for every contract of every rule set and contracts of kinds the rules of
thumb do not know."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence

import pytest

from bot.engine.cards import ACE, CARDS, JACK, KING, QUEEN, Card, Suit
from bot.engine.contracts import CONTRACTS, Contract, Kind
from bot.engine.fast import hand_masks
from bot.players.hand import expected_base, expected_bases, expected_bases_of_masks, trump_tricks
from tests.engine.engine_helpers import ALL_RULES
from tests.players.players_helpers import hand_cards

# The reference: the rules of thumb as they were stated over Card lists.

_QUEEN_RISK = {1: 0.6, 2: 0.5, 3: 0.35, 4: 0.25}
_KING_RISK = {1: 0.6, 2: 0.45, 3: 0.3, 4: 0.22}
_JACK_RISK = {1: 0.5, 2: 0.4, 3: 0.3, 4: 0.22}
_KH_RISK = {1: 0.6, 2: 0.22, 3: 0.1, 4: 0.05}


def _suits(hand: Sequence[Card]) -> list[list[int]]:
    ranks: list[list[int]] = [[], [], [], []]
    for card in hand:
        ranks[card.suit].append(card.rank)
    return ranks


def _honours(hand: Sequence[Card]) -> int:
    return sum(max(0, card.rank - 10) for card in hand)


def _exits(hand: Sequence[Card]) -> int:
    return sum(1 for card in hand if card.rank <= 6)


def _sure_tricks(ranks: list[int]) -> float:
    n = len(ranks)
    tricks = 0.0
    if ACE in ranks:
        tricks += 1
    if KING in ranks:
        tricks += 0.8 if n >= 2 else 0.3
    if QUEEN in ranks:
        tricks += 0.5 if n >= 3 else 0.15
    return tricks


def _trump_tricks(suits: list[list[int]], trump: Suit | None) -> float:
    tricks = sum(_sure_tricks(ranks) for ranks in suits)
    if trump is None:
        for ranks in suits:
            if len(ranks) >= 5 and (ACE in ranks or KING in ranks):
                tricks += 0.7 * (len(ranks) - 4)
        return tricks
    length = len(suits[trump])
    tricks += 0.9 * max(0, length - 3)
    if length >= 3:
        shortness = {0: 1.0, 1: 0.6, 2: 0.3}
        ruffs = sum(shortness.get(len(suits[s]), 0.0) for s in Suit if s != trump)
        tricks += min(ruffs, length - 2)
    return tricks


def _queens(suits: list[list[int]]) -> float:
    risk = 0.0
    for ranks in suits:
        if QUEEN in ranks:
            risk += _QUEEN_RISK.get(len(ranks), 0.15)
        else:
            risk += 0.17 + 0.08 * sum(1 for r in ranks if r > QUEEN) - 0.02 * min(len(ranks), 4)
    return risk


def _kingjacks(suits: list[list[int]]) -> tuple[float, float]:
    kings = jacks = 0.0
    for ranks in suits:
        n = len(ranks)
        kings += _KING_RISK.get(n, 0.15) if KING in ranks else 0.18 + 0.1 * (ACE in ranks)
        if JACK in ranks:
            jacks += _JACK_RISK.get(n, 0.15)
        else:
            jacks += 0.17 + 0.05 * sum(1 for r in ranks if r > JACK)
    return kings, jacks


def _king_of_hearts(suits: list[list[int]]) -> float:
    hearts = suits[Suit.HEARTS]
    risk = _KH_RISK.get(len(hearts), 0.03) if KING in hearts else 0.28
    risk -= 0.08 * sum(1 for s in Suit if s != Suit.HEARTS and len(suits[s]) <= 1)
    return min(max(risk, 0.03), 0.9)


def _domino(hand: Sequence[Card]) -> float:
    extremes = sum(1 for card in hand if card.rank in (2, 3, KING, ACE))
    risk = 0.27 + 0.075 * (extremes - 4)
    return min(max(risk, 0.02), 0.85)


_HEARTS = frozenset(card for card in CARDS if card.suit is Suit.HEARTS)
_QUEENS = frozenset(card for card in CARDS if card.rank == QUEEN)
_KINGS = frozenset(card for card in CARDS if card.rank == KING)
_JACKS = frozenset(card for card in CARDS if card.rank == JACK)
_KING_OF_HEARTS = frozenset({Card.parse("KH")})


def _reference(hand: Sequence[Card], contracts: Sequence[Contract]) -> list[float]:
    suits = _suits(hand)
    strength: float | None = None
    estimates = []
    for contract in contracts:
        if contract.is_trump_option:
            estimates.append(contract.per_trick * _trump_tricks(suits, contract.trump))
        elif contract.domino:
            estimates.append(contract.last_holder * _domino(hand))
        else:
            if strength is None:
                strength = 0.25 * (_honours(hand) - 10) - 0.15 * (_exits(hand) - 5)
            estimates.append(_by_points(contract, suits, strength))
    return estimates


def _by_points(contract: Contract, suits: list[list[int]], strength: float) -> float:
    points = contract.card_points
    tricks = sum(contract.trick_points.values())
    if not points:
        if contract.per_trick < 0 and not tricks:
            return contract.per_trick * max(0.0, 3.25 + strength)
        if tricks and not contract.per_trick:
            return tricks * min(max(0.25 + 0.1 * strength, 0.03), 0.9)
        return contract.total / 4
    if contract.per_trick or tricks:
        return contract.total / 4
    cards = frozenset(points)
    if cards == _HEARTS:
        high_hearts = sum(1 for r in suits[Suit.HEARTS] if r >= JACK)
        return _each(points, cards) * max(0.0, 3.25 + strength + 0.4 * (high_hearts - 1))
    if cards == _QUEENS:
        return _each(points, cards) * _queens(suits)
    if cards == _KINGS | _JACKS:
        king_risk, jack_risk = _kingjacks(suits)
        return _each(points, _KINGS) * king_risk + _each(points, _JACKS) * jack_risk
    if cards == _KING_OF_HEARTS:
        return _each(points, cards) * _king_of_hearts(suits)
    return contract.total / 4


def _each(points: Mapping[Card, int], cards: frozenset[Card]) -> float:
    return sum(points[card] for card in cards) / len(cards)


# The hands and contracts compared.


def _odd_contracts() -> list[Contract]:
    """Contracts off the rule sets' tables: scaled and uneven points, a kind the rules of
    thumb do not know, card points beside trick points, a trick contract that pays."""
    kingjacks, hearts = CONTRACTS["kingjacks"], CONTRACTS["hearts"]
    uneven = dict(kingjacks.card_points)
    uneven[Card.parse("KC")] = uneven[Card.parse("KD")] = -20
    return [
        dataclasses.replace(kingjacks, card_points=uneven),
        dataclasses.replace(hearts, card_points={c: -7 for c in _HEARTS}),
        Contract(
            "spades",
            "Spadeshunting",
            Kind.NEGATIVE,
            "",
            card_points=dict.fromkeys((c for c in CARDS if c.suit is Suit.SPADES), -10),
        ),
        dataclasses.replace(hearts, per_trick=-5),
        Contract("both", "Last two", Kind.NEGATIVE, "", trick_points={7: -25, 13: -25}),
        Contract("plus", "Plus", Kind.NEGATIVE, "", per_trick=5),
        dataclasses.replace(CONTRACTS["domino"], last_holder=-120),
        dataclasses.replace(CONTRACTS["trump-spades"], per_trick=7),
    ]


def _contract_lists() -> Iterator[tuple[str, list[Contract]]]:
    """Each rule set's contracts, then :func:`_odd_contracts`."""
    for k, rules in enumerate(ALL_RULES):
        yield f"{rules.variant}-{k}", [rules.by_id[cid] for cid in rules.contract_ids]
    yield "odd", _odd_contracts()


def _random_hands(rng: random.Random, count: int) -> Iterator[list[Card]]:
    """Deals' hands of 13 cards, then hands of any size (each suit a random mask)."""
    for _ in range(count):
        yield [CARDS[i] for i in rng.sample(range(52), 13)]
    for _ in range(count):
        yield [card for card in CARDS if rng.random() < rng.random()]


@pytest.mark.parametrize(("name", "contracts"), list(_contract_lists()))
def test_the_estimates_are_the_card_rules_to_the_last_bit(
    name: str, contracts: list[Contract]
) -> None:
    rng = random.Random(name)
    for hand in _random_hands(rng, 1500):
        want = _reference(hand, contracts)
        got = expected_bases(hand, contracts)
        assert [float.hex(x) for x in got] == [float.hex(x) for x in want], hand
        assert all(type(x) is type(y) for x, y in zip(got, want, strict=True))
        masks = hand_masks([hand, [], [], []])[:4]
        assert expected_bases_of_masks(masks, contracts) == got
        for contract, value in zip(contracts, got, strict=True):
            assert expected_bases_of_masks(masks, [contract]) == [value]


def test_every_suit_mask_is_read_as_its_cards() -> None:
    """Each of a suit's 8192 holdings in each suit, the others random: every entry of the
    per-suit tables meets the reference."""
    rng = random.Random(5)
    contracts = [*(CONTRACTS.values()), *_odd_contracts()]
    for mask in range(1 << 13):
        suit = mask % 4
        masks = [rng.getrandbits(13) >> rng.randrange(14) for _ in range(4)]
        masks[suit] = mask
        hand = hand_cards(masks, 0)
        assert expected_bases_of_masks(masks, contracts) == _reference(hand, contracts)
        trump = None if mask % 5 == 4 else Suit(mask % 5)
        assert trump_tricks(hand, trump) == _trump_tricks(_suits(hand), trump)


def test_a_guessed_deal_is_estimated_by_its_seats_masks() -> None:
    """The inference passes a seat's four masks of the sixteen; the estimate is that of
    the seat's cards."""
    rng = random.Random(9)
    contracts = list(CONTRACTS.values())
    for _ in range(200):
        order = rng.sample(range(52), 52)
        hands = [[CARDS[i] for i in order[13 * s : 13 * s + 13]] for s in range(4)]
        dealt = hand_masks(hands)
        for seat in range(4):
            estimates = expected_bases_of_masks(dealt[seat * 4 : seat * 4 + 4], contracts)
            assert estimates == _reference(hands[seat], contracts)
            assert estimates[3] == expected_base(hands[seat], contracts[3])
