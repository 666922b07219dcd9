"""Cards, suits and ranks as small immutable values.

A card is one of 52 shared instances (``Card.parse("TD") is Card.parse("TD")``), so cards
compare, hash and sort cheaply. Its integer ``index`` (``suit * 13 + rank - 2``) is what
the fast playout code and bit masks use; its ``code`` (``"TD"``) is what records use.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from enum import IntEnum


class Suit(IntEnum):
    """The four suits, in the order used for indexing and sorting hands."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def noun(self) -> str:
        """Singular noun for messages such as "you hold a spade"."""
        return ("club", "diamond", "heart", "spade")[self]

    @classmethod
    def parse(cls, letter: str) -> Suit:
        try:
            return cls("CDHS".index(letter))
        except ValueError:
            raise ValueError(f"unknown suit {letter!r}") from None


RANK_LETTERS = "23456789TJQKA"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JACK, QUEEN, KING, ACE = 11, 12, 13, 14


class Card:
    """A playing card; use :meth:`parse` or :data:`CARDS`, never the constructor."""

    __slots__ = ("code", "index", "rank", "suit")

    suit: Suit
    rank: int
    index: int
    code: str

    def __init__(self, suit: Suit, rank: int) -> None:
        self.suit = suit
        self.rank = rank
        self.index = suit * 13 + rank - 2
        self.code = RANK_LETTERS[rank - 2] + suit.letter

    @staticmethod
    def parse(code: str) -> Card:
        """The card for a record code such as ``"TD"``; raises ``ValueError`` otherwise."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise ValueError(f"unknown card {code!r}")
        return card

    @property
    def label(self) -> str:
        """Human form for messages and buttons: ``10♦``."""
        return RANK_NAMES[self.rank - 2] + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.label

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Unpickling must return the shared instance, so identity comparisons keep working
        # across process pools.
        return (Card.parse, (self.code,))


SUITS: tuple[Suit, ...] = tuple(Suit)
"""The suits in order, as a tuple: iterating the enum class is slow on a hot path."""
CARDS: tuple[Card, ...] = tuple(Card(suit, rank) for suit in SUITS for rank in range(2, 15))
_BY_CODE = {card.code: card for card in CARDS}


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Cards grouped by suit, low to high, the order hands are shown in."""
    return sorted(cards)


def deal_hands(rng: random.Random) -> tuple[tuple[Card, ...], ...]:
    """Shuffle a fresh deck with ``rng`` and give 13 cards to each of the four seats."""
    deck = list(CARDS)
    rng.shuffle(deck)
    return tuple(tuple(sort_hand(deck[seat * 13 : seat * 13 + 13])) for seat in range(4))
