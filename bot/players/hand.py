"""Rule-of-thumb estimates of a hand's base score in each contract, before any card is played.

The normal player chooses contracts and doubles with these: counting honours, length,
shortness and exits the way a club player does at a glance. Each estimate is the seat's
expected base score in that contract; a random hand scores about ``total / 4``.

A contract is recognised by what it scores, not by its id, and the estimate is scaled by
the points the rules give: so a points table of another variant is estimated as well, and
a contract of a kind these rules of thumb do not know is estimated as an average hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.cards import ACE, CARDS, JACK, KING, QUEEN, Card, Suit
from bot.engine.contracts import Contract

_QUEEN_RISK = {1: 0.6, 2: 0.5, 3: 0.35, 4: 0.25}  # holding the queen in a suit of length n
_KING_RISK = {1: 0.6, 2: 0.45, 3: 0.3, 4: 0.22}
_JACK_RISK = {1: 0.5, 2: 0.4, 3: 0.3, 4: 0.22}
_KH_RISK = {1: 0.6, 2: 0.22, 3: 0.1, 4: 0.05}  # K♥ with n hearts: guarded


def _suits(hand: Sequence[Card]) -> list[list[int]]:
    ranks: list[list[int]] = [[], [], [], []]
    for card in hand:
        ranks[card.suit].append(card.rank)
    return ranks


def _honours(hand: Sequence[Card]) -> int:
    """Jack 1, queen 2, king 3, ace 4: an average hand has 10."""
    return sum(max(0, card.rank - 10) for card in hand)


def _exits(hand: Sequence[Card]) -> int:
    """Low cards (2-6) to duck with: an average hand has 5."""
    return sum(1 for card in hand if card.rank <= 6)


def _sure_tricks(ranks: list[int]) -> float:
    """Tricks from a suit's top cards in a trump contract."""
    n = len(ranks)
    tricks = 0.0
    if ACE in ranks:
        tricks += 1
    if KING in ranks:
        tricks += 0.8 if n >= 2 else 0.3
    if QUEEN in ranks:
        tricks += 0.5 if n >= 3 else 0.15
    return tricks


def trump_tricks(hand: Sequence[Card], trump: Suit | None) -> float:
    """Expected tricks with ``trump`` as trumps (``None``: no trump)."""
    return _trump_tricks(_suits(hand), trump)


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
    """Expected queens taken."""
    risk = 0.0
    for ranks in suits:
        if QUEEN in ranks:
            risk += _QUEEN_RISK.get(len(ranks), 0.15)
        else:
            risk += 0.17 + 0.08 * sum(1 for r in ranks if r > QUEEN) - 0.02 * min(len(ranks), 4)
    return risk


def _kingjacks(suits: list[list[int]]) -> tuple[float, float]:
    """Expected kings and jacks taken."""
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
    """The chance of taking the K♥."""
    hearts = suits[Suit.HEARTS]
    risk = _KH_RISK.get(len(hearts), 0.03) if KING in hearts else 0.28
    # A short side suit lets a seat become void and shed hearts (or the K♥) early.
    risk -= 0.08 * sum(1 for s in Suit if s != Suit.HEARTS and len(suits[s]) <= 1)
    return min(max(risk, 0.03), 0.9)


def _domino(hand: Sequence[Card]) -> float:
    """The chance of being the last holding cards."""
    # Twos, threes, kings and aces come out last, so whoever holds many is left holding.
    extremes = sum(1 for card in hand if card.rank in (2, 3, KING, ACE))  # 4 on average
    risk = 0.27 + 0.075 * (extremes - 4)
    return min(max(risk, 0.02), 0.85)


_HEARTS = frozenset(card for card in CARDS if card.suit is Suit.HEARTS)
_QUEENS = frozenset(card for card in CARDS if card.rank == QUEEN)
_KINGS = frozenset(card for card in CARDS if card.rank == KING)
_JACKS = frozenset(card for card in CARDS if card.rank == JACK)
_KING_OF_HEARTS = frozenset({Card.parse("KH")})


def expected_base(hand: Sequence[Card], contract: Contract) -> float:
    """This hand's expected base score in ``contract`` (the deal's total / 4 is average)."""
    return expected_bases(hand, [contract])[0]


def expected_bases(hand: Sequence[Card], contracts: Sequence[Contract]) -> list[float]:
    """:func:`expected_base` of each of ``contracts``, the hand's counts made once (the
    hard player's inference weighs a contract choice with every contract's, for every
    guessed hand)."""
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
    """:func:`expected_base` of a contract scored by tricks or cards, for a hand whose
    ranks by suit are ``suits`` and whose strength (honours against low cards) is
    ``strength``."""
    points = contract.card_points
    tricks = sum(contract.trick_points.values())
    if not points:
        if contract.per_trick < 0 and not tricks:  # every trick costs
            return contract.per_trick * max(0.0, 3.25 + strength)
        if tricks and not contract.per_trick:  # given tricks cost (the 13th; 7th and 13th)
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
    """What one of ``cards`` scores (their mean, should a table give them different points)."""
    return sum(points[card] for card in cards) / len(cards)
