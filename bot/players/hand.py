"""Rule-of-thumb estimates of a hand's base score in each contract, before any card is played.

The normal player chooses contracts and doubles with these: counting honours, length,
shortness and exits the way a club player does at a glance. Each estimate is the seat's
expected base score in that contract; a random hand scores about ``total / 4``.

A contract is recognised by what it scores, not by its id, and the estimate is scaled by
the points the rules give: so a points table of another variant is estimated as well, and
a contract of a kind these rules of thumb do not know is estimated as an average hand.

The hard player's inference estimates every guessed hand (hundreds of thousands a match
review), so a hand is read as four suit rank masks (:func:`expected_bases_of_masks`):
what the rules count in one suit is looked up by the suit's mask in tables made once from
the rules below, and what they read from a contract is worked out once per contract
(:class:`_Rule`). A hand's counts add its suits' in suit order, as the rules did card by
card, so the estimates are the same to the last bit (a sum's leading zero is left out,
which changes none: no term is -0.0).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.engine.cards import ACE, CARDS, JACK, KING, QUEEN, Card, Suit
from bot.engine.contracts import Contract

_T = TypeVar("_T")

_QUEEN_RISK = {1: 0.6, 2: 0.5, 3: 0.35, 4: 0.25}  # holding the queen in a suit of length n
_KING_RISK = {1: 0.6, 2: 0.45, 3: 0.3, 4: 0.22}
_JACK_RISK = {1: 0.5, 2: 0.4, 3: 0.3, 4: 0.22}
_KH_RISK = {1: 0.6, 2: 0.22, 3: 0.1, 4: 0.05}  # K♥ with n hearts: guarded
_SHORTNESS = {0: 1.0, 1: 0.6, 2: 0.3}  # ruffs a trump contract gets from a short side suit


# What the rules count in one suit, from its ranks (2-14).


def _honours(ranks: Sequence[int]) -> int:
    """Jack 1, queen 2, king 3, ace 4: an average hand has 10."""
    return sum(max(0, rank - 10) for rank in ranks)


def _exits(ranks: Sequence[int]) -> int:
    """Low cards (2-6) to duck with: an average hand has 5."""
    return sum(1 for rank in ranks if rank <= 6)


def _extremes(ranks: Sequence[int]) -> int:
    """Twos, threes, kings and aces, which come out last in Domino: 4 in an average hand."""
    return sum(1 for rank in ranks if rank in (2, 3, KING, ACE))


def _high_hearts(ranks: Sequence[int]) -> int:
    """The jack and higher, which take the tricks full of hearts."""
    return sum(1 for rank in ranks if rank >= JACK)


def _sure_tricks(ranks: Sequence[int]) -> float:
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


def _long_tricks(ranks: Sequence[int]) -> float:
    """Without trumps, the tricks a long suit's small cards take once its top is cashed
    (0.0 if it is short or has no ace or king)."""
    if len(ranks) >= 5 and (ACE in ranks or KING in ranks):
        return 0.7 * (len(ranks) - 4)
    return 0.0


def _length_tricks(ranks: Sequence[int]) -> float:
    """The tricks of the trump suit's length beyond three."""
    return 0.9 * max(0, len(ranks) - 3)


def _ruffs(ranks: Sequence[int]) -> float:
    """The ruffs of a short side suit, given trumps enough."""
    return _SHORTNESS.get(len(ranks), 0.0)


def _queens(ranks: Sequence[int]) -> float:
    """Expected queens taken in this suit."""
    if QUEEN in ranks:
        return _QUEEN_RISK.get(len(ranks), 0.15)
    return 0.17 + 0.08 * sum(1 for r in ranks if r > QUEEN) - 0.02 * min(len(ranks), 4)


def _kings(ranks: Sequence[int]) -> float:
    """Expected kings taken in this suit."""
    return _KING_RISK.get(len(ranks), 0.15) if KING in ranks else 0.18 + 0.1 * (ACE in ranks)


def _jacks(ranks: Sequence[int]) -> float:
    """Expected jacks taken in this suit."""
    if JACK in ranks:
        return _JACK_RISK.get(len(ranks), 0.15)
    return 0.17 + 0.05 * sum(1 for r in ranks if r > JACK)


def _king_of_hearts_alone(hearts: Sequence[int]) -> float:
    """The chance of taking the K♥ by the hearts alone."""
    return _KH_RISK.get(len(hearts), 0.03) if KING in hearts else 0.28


def _short_side(ranks: Sequence[int]) -> int:
    """1 if a side suit is short enough to become void and shed hearts (or the K♥) early."""
    return 1 if len(ranks) <= 1 else 0


#: Each suit's ranks by its rank mask (bit 0 the two, bit 12 the ace).
_SUIT_RANKS = tuple(
    tuple(rank + 2 for rank in range(13) if mask >> rank & 1) for mask in range(1 << 13)
)


def _by_mask(rule: Callable[[Sequence[int]], _T]) -> tuple[_T, ...]:
    """``rule`` of each suit, by its rank mask."""
    return tuple(map(rule, _SUIT_RANKS))


_HONOURS = _by_mask(_honours)
_EXITS = _by_mask(_exits)
_EXTREMES = _by_mask(_extremes)
_HIGH_HEARTS = _by_mask(_high_hearts)
_SURE_TRICKS = _by_mask(_sure_tricks)
_LONG_TRICKS = _by_mask(_long_tricks)
_LENGTH_TRICKS = _by_mask(_length_tricks)
_RUFFS = _by_mask(_ruffs)
_QUEENS = _by_mask(_queens)
_KINGS = _by_mask(_kings)
_JACKS = _by_mask(_jacks)
_KH_ALONE = _by_mask(_king_of_hearts_alone)
_SHORT_SIDE = _by_mask(_short_side)
_SIDE_SUITS = tuple(tuple(s for s in range(4) if s != trump) for trump in range(4))


# What the rules make of a hand's counts.


def _sure_tricks_of(masks: Sequence[int]) -> float:
    """The hand's sure tricks (the same in every trump contract)."""
    c, d, h, s = masks
    return _SURE_TRICKS[c] + _SURE_TRICKS[d] + _SURE_TRICKS[h] + _SURE_TRICKS[s]


def _trump_tricks(masks: Sequence[int], sure: float, trump: int | None) -> float:
    """Expected tricks with ``trump`` as trumps (``None``: no trump), for a hand of
    ``masks`` whose sure tricks are ``sure`` (:func:`_sure_tricks_of`)."""
    tricks = sure
    if trump is None:
        for mask in masks:  # a suit without long tricks adds 0.0, which changes no bit
            tricks += _LONG_TRICKS[mask]
        return tricks
    length = masks[trump].bit_count()
    tricks += _LENGTH_TRICKS[masks[trump]]
    if length >= 3:
        x, y, z = _SIDE_SUITS[trump]
        tricks += min(_RUFFS[masks[x]] + _RUFFS[masks[y]] + _RUFFS[masks[z]], length - 2)
    return tricks


def _domino(extremes: int) -> float:
    """The chance of being the last holding cards, holding ``extremes`` (:func:`_extremes`)."""
    # Twos, threes, kings and aces come out last, so whoever holds many is left holding.
    risk = 0.27 + 0.075 * (extremes - 4)
    return min(max(risk, 0.02), 0.85)


_LAST_HOLDER = tuple(_domino(extremes) for extremes in range(17))  # at most 4 a suit


def _king_of_hearts(masks: Sequence[int]) -> float:
    """The chance of taking the K♥."""
    c, d, h, s = masks
    risk = _KH_ALONE[h] - 0.08 * (_SHORT_SIDE[c] + _SHORT_SIDE[d] + _SHORT_SIDE[s])
    return min(max(risk, 0.03), 0.9)


# How each contract is estimated, worked out once per contract.

# Which rule of thumb estimates a contract (:attr:`_Rule.kind`).
(
    _BY_TRUMPS,
    _BY_DOMINO,
    _BY_AVERAGE,
    _BY_TRICKS,
    _BY_GIVEN_TRICKS,
    _BY_HEARTS,
    _BY_QUEENS,
    _BY_KINGJACKS,
    _BY_KING_OF_HEARTS,
) = range(9)

_HEART_CARDS = frozenset(card for card in CARDS if card.suit is Suit.HEARTS)
_QUEEN_CARDS = frozenset(card for card in CARDS if card.rank == QUEEN)
_KING_CARDS = frozenset(card for card in CARDS if card.rank == KING)
_JACK_CARDS = frozenset(card for card in CARDS if card.rank == JACK)
_KH_CARD = frozenset({Card.parse("KH")})


@dataclass(frozen=True, slots=True)
class _Rule:
    """Which rule of thumb estimates a contract and the contract's numbers it reads:
    ``scale`` multiplies the estimate (the points per trick, of the last holder, of the
    given tricks, of one scoring card, of a king in Kingjacks) or, for an average hand,
    is the estimate; ``jack`` is a jack's points in Kingjacks; ``trump`` the trump suit."""

    kind: int
    scale: float
    jack: float = 0.0
    trump: int | None = None


def _rule_of(contract: Contract) -> _Rule:
    """How ``contract`` is estimated, by what it scores."""
    if contract.is_trump_option:
        trump = None if contract.trump is None else int(contract.trump)
        return _Rule(_BY_TRUMPS, contract.per_trick, trump=trump)
    if contract.domino:
        return _Rule(_BY_DOMINO, contract.last_holder)
    points = contract.card_points
    tricks = sum(contract.trick_points.values())
    average = _Rule(_BY_AVERAGE, contract.total / 4)
    if not points:
        if contract.per_trick < 0 and not tricks:  # every trick costs
            return _Rule(_BY_TRICKS, contract.per_trick)
        if tricks and not contract.per_trick:  # given tricks cost (the 13th; 7th and 13th)
            return _Rule(_BY_GIVEN_TRICKS, tricks)
        return average
    if contract.per_trick or tricks:
        return average
    cards = frozenset(points)
    if cards == _HEART_CARDS:
        return _Rule(_BY_HEARTS, _each(points, cards))
    if cards == _QUEEN_CARDS:
        return _Rule(_BY_QUEENS, _each(points, cards))
    if cards == _KING_CARDS | _JACK_CARDS:
        return _Rule(_BY_KINGJACKS, _each(points, _KING_CARDS), _each(points, _JACK_CARDS))
    if cards == _KH_CARD:
        return _Rule(_BY_KING_OF_HEARTS, _each(points, cards))
    return average


def _each(points: Mapping[Card, int], cards: frozenset[Card]) -> float:
    """What one of ``cards`` scores (their mean, should a table give them different points)."""
    return sum(points[card] for card in cards) / len(cards)


#: Each contract estimated so far with its rule, by its identity: a contract's dicts make
#: it unhashable, and holding it here keeps its id from being reused. The rules' contracts
#: are made once per rule set, so this stays small.
_RULES: dict[int, tuple[Contract, _Rule]] = {}


def _rule(contract: Contract) -> _Rule:
    """:func:`_rule_of`, worked out once per contract."""
    known = _RULES.get(id(contract))
    if known is None:
        known = _RULES[id(contract)] = (contract, _rule_of(contract))
    return known[1]


def _hand_masks(hand: Sequence[Card]) -> list[int]:
    """The hand's rank masks by suit."""
    masks = [0, 0, 0, 0]
    for card in hand:
        masks[card.suit] |= 1 << (card.rank - 2)
    return masks


def trump_tricks(hand: Sequence[Card], trump: Suit | None) -> float:
    """Expected tricks with ``trump`` as trumps (``None``: no trump)."""
    masks = _hand_masks(hand)
    return _trump_tricks(masks, _sure_tricks_of(masks), None if trump is None else int(trump))


def expected_base(hand: Sequence[Card], contract: Contract) -> float:
    """This hand's expected base score in ``contract`` (the deal's total / 4 is average)."""
    return expected_bases_of_masks(_hand_masks(hand), [contract])[0]


def expected_bases(hand: Sequence[Card], contracts: Sequence[Contract]) -> list[float]:
    """:func:`expected_base` of each of ``contracts``."""
    return expected_bases_of_masks(_hand_masks(hand), contracts)


def expected_bases_of_masks(masks: Sequence[int], contracts: Sequence[Contract]) -> list[float]:
    """:func:`expected_bases` of the hand of four suit rank masks ``masks`` (bit 0 the
    two), its counts made once (the hard player's inference weighs a contract choice
    with every contract's, for every guessed hand)."""
    c, d, h, s = masks
    sure: float | None = None
    strength: float | None = None
    estimates: list[float] = []
    for contract in contracts:
        rule = _rule(contract)
        kind = rule.kind
        if kind == _BY_TRUMPS:
            if sure is None:
                sure = _sure_tricks_of(masks)
            estimates.append(rule.scale * _trump_tricks(masks, sure, rule.trump))
        elif kind == _BY_DOMINO:
            extremes = _EXTREMES[c] + _EXTREMES[d] + _EXTREMES[h] + _EXTREMES[s]
            estimates.append(rule.scale * _LAST_HOLDER[extremes])
        elif kind == _BY_AVERAGE:
            estimates.append(rule.scale)
        else:
            if strength is None:
                honours = _HONOURS[c] + _HONOURS[d] + _HONOURS[h] + _HONOURS[s]
                exits = _EXITS[c] + _EXITS[d] + _EXITS[h] + _EXITS[s]
                strength = 0.25 * (honours - 10) - 0.15 * (exits - 5)
            estimates.append(_by_points(rule, masks, strength))
    return estimates


def _by_points(rule: _Rule, masks: Sequence[int], strength: float) -> float:
    """The estimate of a contract scored by tricks or cards, for a hand of ``masks``
    whose strength (honours against low cards) is ``strength``."""
    kind = rule.kind
    if kind == _BY_TRICKS:
        return rule.scale * max(0.0, 3.25 + strength)
    if kind == _BY_GIVEN_TRICKS:
        return rule.scale * min(max(0.25 + 0.1 * strength, 0.03), 0.9)
    c, d, h, s = masks
    if kind == _BY_HEARTS:
        high_hearts = _HIGH_HEARTS[h]
        return rule.scale * max(0.0, 3.25 + strength + 0.4 * (high_hearts - 1))
    if kind == _BY_QUEENS:
        return rule.scale * (_QUEENS[c] + _QUEENS[d] + _QUEENS[h] + _QUEENS[s])
    if kind == _BY_KINGJACKS:
        kings = _KINGS[c] + _KINGS[d] + _KINGS[h] + _KINGS[s]
        jacks = _JACKS[c] + _JACKS[d] + _JACKS[h] + _JACKS[s]
        return rule.scale * kings + rule.jack * jacks
    return rule.scale * _king_of_hearts(masks)
