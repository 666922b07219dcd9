"""The twelve contracts as data: what scores, what is trump, when a deal ends early.

Scoring is described, not coded: a contract gives points per trick, points per card taken
and points for the last trick; Domino is its own kind. Everything else (the deal's total,
whether it can end early, which cards still matter) is derived from those numbers, so a
new variant is a new table row rather than a new ``if``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from .cards import CARDS, JACK, KING, QUEEN, Card, Suit


class Kind(Enum):
    NEGATIVE = "negative"
    TRUMP = "trump"


@dataclass(frozen=True)
class Contract:
    """One contract of the match; ``id`` is the record's contract id."""

    id: str
    name: str
    kind: Kind
    description: str
    trump: Suit | None = None
    per_trick: int = 0
    card_points: dict[Card, int] = field(default_factory=dict)
    last_trick: int = 0
    domino: bool = False
    last_holder: int = 0
    """Domino: the points of the last seat still holding cards."""
    no_heart_lead: bool = False
    point_table: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``card_points`` by :attr:`Card.index` (52 entries), for the playout loops."""

    def __post_init__(self) -> None:
        table = [0] * len(CARDS)
        for card, value in self.card_points.items():
            table[card.index] = value
        object.__setattr__(self, "point_table", tuple(table))

    @property
    def is_trump_option(self) -> bool:
        return self.kind is Kind.TRUMP

    @property
    def total(self) -> int:
        """What the deal's base scores add up to."""
        if self.domino:
            return self.last_holder
        return 13 * self.per_trick + sum(self.card_points.values()) + self.last_trick

    @property
    def ends_when_cards_taken(self) -> bool:
        """True if the deal ends once every card that scores has been taken."""
        return bool(self.card_points) and not self.per_trick and not self.last_trick


DOMINO_LOSS = -50


def _points(predicate: Callable[[Card], bool], value: int) -> dict[Card, int]:
    return {card: value for card in CARDS if predicate(card)}


def _trump(suit: Suit | None) -> Contract:
    name = "No Trump" if suit is None else f"{suit.name.title()} trumps"
    cid = "trump-notrump" if suit is None else f"trump-{suit.name.lower()}"
    return Contract(
        id=cid,
        name=name,
        kind=Kind.TRUMP,
        description="+10 per trick taken"
        + ("" if suit is None else f"; {suit.name.lower()} are trump"),
        trump=suit,
        per_trick=10,
    )


CONTRACTS: dict[str, Contract] = {
    c.id: c
    for c in (
        Contract(
            "ducking", "Ducking", Kind.NEGATIVE, "-5 per trick taken; no trumps", per_trick=-5
        ),
        Contract(
            "hearts",
            "Heartshunting",
            Kind.NEGATIVE,
            "-5 per heart taken; no heart lead unless you hold only hearts",
            card_points=_points(lambda c: c.suit is Suit.HEARTS, -5),
            no_heart_lead=True,
        ),
        Contract(
            "kingjacks",
            "Kingjacks",
            Kind.NEGATIVE,
            "-20 per king and -10 per jack taken",
            card_points={
                **_points(lambda c: c.rank == KING, -20),
                **_points(lambda c: c.rank == JACK, -10),
            },
        ),
        Contract(
            "queens",
            "Queens",
            Kind.NEGATIVE,
            "-30 per queen taken",
            card_points=_points(lambda c: c.rank == QUEEN, -30),
        ),
        Contract(
            "kingofhearts",
            "King of Hearts",
            Kind.NEGATIVE,
            "-50 to who takes the K♥; no heart lead unless you hold only hearts",
            card_points={Card.parse("KH"): -50},
            no_heart_lead=True,
        ),
        Contract(
            "lasttrick", "Last trick", Kind.NEGATIVE, "-50 to who takes trick 13", last_trick=-50
        ),
        Contract(
            "domino",
            "Domino",
            Kind.NEGATIVE,
            "play an 8 or a card next to one on the table; -50 to the last holding cards",
            domino=True,
            last_holder=DOMINO_LOSS,
        ),
        _trump(Suit.CLUBS),
        _trump(Suit.DIAMONDS),
        _trump(Suit.HEARTS),
        _trump(Suit.SPADES),
        _trump(None),
    )
}

NEGATIVE_IDS: tuple[str, ...] = tuple(c.id for c in CONTRACTS.values() if not c.is_trump_option)
TRUMP_IDS: tuple[str, ...] = tuple(c.id for c in CONTRACTS.values() if c.is_trump_option)
