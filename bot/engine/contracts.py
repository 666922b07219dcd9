"""The contracts as data: what scores, what is trump, when a deal ends early.

Scoring is described, not coded: a contract gives points per trick, points per card taken
and points for given tricks (the 13th; the 7th and the 13th); Domino is its own kind.
Everything else (the deal's total, whether it can end early, which cards still matter) is
derived from those numbers, so a variant is a points sheet rather than a new ``if``:
:func:`contract_table` builds a variant's contracts from its :class:`Points`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .cards import CARDS, JACK, KING, QUEEN, Card, Suit
from .house_rules import DominoAces, HeartLead, MustTrump


class Kind(Enum):
    NEGATIVE = "negative"
    TRUMP = "trump"


@dataclass(frozen=True)
class CardGroup:
    """Scoring cards a contract counts together, each worth the same: a whole suit (the
    hearts), a whole rank (the kings) or one card (the K♥). What a seat took is counted by
    group (:class:`~bot.engine.scoring.Taken`), so a deal whose cards were played and one
    whose counts were entered at a real table score alike."""

    key: str
    """``"hearts"``, ``"kings"``, or a single card's code (``"KH"``)."""
    cards: frozenset[Card]
    points: int
    """What each card of the group scores."""


RANK_PLURALS = {
    14: "aces",
    13: "kings",
    12: "queens",
    11: "jacks",
    10: "tens",
    9: "nines",
    8: "eights",
    7: "sevens",
    6: "sixes",
    5: "fives",
    4: "fours",
    3: "threes",
    2: "twos",
}
"""A whole rank's group key."""


def card_groups(card_points: Mapping[Card, int]) -> tuple[CardGroup, ...]:
    """``card_points`` as the groups a table counts: each suit whose 13 cards score the
    same, then each rank (high first) whose cards left score the same, then every other
    scoring card by itself. Heartshunting is one group, Kingjacks two (the kings, the
    jacks), King of Hearts one card."""
    left = dict(card_points)
    groups: list[CardGroup] = []

    def take(key: str, cards: list[Card]) -> None:
        values = {left.get(card) for card in cards}
        if len(values) == 1 and (value := values.pop()) is not None:
            groups.append(CardGroup(key, frozenset(cards), value))
            for card in cards:
                del left[card]

    for suit in Suit:
        take(suit.name.lower(), [card for card in CARDS if card.suit is suit])
    for rank in sorted(RANK_PLURALS, reverse=True):
        take(RANK_PLURALS[rank], [card for card in CARDS if card.rank == rank])
    groups.extend(CardGroup(card.code, frozenset({card}), left[card]) for card in sorted(left))
    return tuple(groups)


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
    trick_points: dict[int, int] = field(default_factory=dict)
    """Points for taking a given trick, by its number (1-13): ``{13: -50}`` is Last trick."""
    domino: bool = False
    last_holder: int = 0
    """Domino: the points of the last seat still holding cards."""
    heart_lead: HeartLead | None = None
    """None: any card may be led; otherwise when a heart may be led (see :class:`HeartLead`)."""
    domino_aces: DominoAces = DominoAces.HIGH
    """Domino: where an ace connects (house rule ``domino_aces``)."""
    must_trump: MustTrump = MustTrump.NO
    """A trump suit's contract: whether a player who cannot follow must trump (house rule
    ``must_trump``)."""
    description_template: str = ""
    """``description`` before its numbers were filled in (``"{per_trick} per trick taken"``),
    so a front end can say it in another language with this variant's numbers."""
    description_values: tuple[tuple[str, int], ...] = ()
    """The numbers of ``description_template``, by placeholder name."""
    point_table: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``card_points`` by :attr:`Card.index` (52 entries), for the playout loops."""
    trick_table: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``trick_points`` by trick number (14 entries, index 0 unused), for the playout loops."""
    counted: tuple[CardGroup, ...] = field(init=False, repr=False, compare=False)
    """``card_points`` as the groups a seat's cards are counted in (:func:`card_groups`)."""
    group_of: Mapping[Card, str] = field(init=False, repr=False, compare=False)
    """Each scoring card's group key."""
    total: int = field(init=False, repr=False, compare=False)
    """What the deal's base scores add up to (kept: the players' estimates ask for it
    with every guessed hand)."""

    def __post_init__(self) -> None:
        table = [0] * len(CARDS)
        for card, value in self.card_points.items():
            table[card.index] = value
        object.__setattr__(self, "point_table", tuple(table))
        if not all(1 <= number <= 13 for number in self.trick_points):
            raise ValueError("trick_points are keyed by trick numbers 1-13")
        tricks = [0] * 14
        for number, value in self.trick_points.items():
            tricks[number] = value
        object.__setattr__(self, "trick_table", tuple(tricks))
        counted = card_groups(self.card_points)
        object.__setattr__(self, "counted", counted)
        group_of = {card: group.key for group in counted for card in group.cards}
        object.__setattr__(self, "group_of", group_of)
        if self.domino:
            total = self.last_holder
        else:
            total = 13 * self.per_trick + sum(self.card_points.values())
            total += sum(self.trick_points.values())
        object.__setattr__(self, "total", total)

    @property
    def is_trump_option(self) -> bool:
        return self.kind is Kind.TRUMP

    @property
    def ends_when_cards_taken(self) -> bool:
        """True if the deal ends once every card that scores has been taken."""
        return bool(self.card_points) and not self.per_trick and not self.trick_points


@dataclass(frozen=True)
class Points:
    """A variant's points sheet: what each contract scores (negatives are negative)."""

    per_trick: int
    """Ducking: per trick taken."""
    heart: int
    king: int
    jack: int
    queen: int
    king_of_hearts: int
    last_trick: int
    domino: int
    trump_trick: int
    """Every trump option: per trick taken."""
    seventh_and_thirteenth: int | None = None
    """Each of tricks 7 and 13 in ``seventhirteenth``; None where that contract is not played."""


STANDARD_POINTS = Points(
    per_trick=-5,
    heart=-5,
    king=-20,
    jack=-10,
    queen=-30,
    king_of_hearts=-50,
    last_trick=-50,
    domino=-50,
    trump_trick=10,
)


def _points(predicate: Callable[[Card], bool], value: int) -> dict[Card, int]:
    return {card: value for card in CARDS if predicate(card)}


def _described(template: str, **values: int) -> dict[str, Any]:
    """A contract's description: the English words with the numbers filled in, and both
    parts kept (see :attr:`Contract.description_template`)."""
    return {
        "description": template.format(**values),
        "description_template": template,
        "description_values": tuple(sorted(values.items())),
    }


TRUMP_DESCRIPTIONS = {
    None: "{per_trick:+d} per trick taken",
    Suit.CLUBS: "{per_trick:+d} per trick taken; clubs are trump",
    Suit.DIAMONDS: "{per_trick:+d} per trick taken; diamonds are trump",
    Suit.HEARTS: "{per_trick:+d} per trick taken; hearts are trump",
    Suit.SPADES: "{per_trick:+d} per trick taken; spades are trump",
}
"""One sentence per trump option (a suit's name is not a word to paste into a sentence of
another language)."""

NO_HEART_LEAD = {
    HeartLead.NEVER: "no heart lead unless you hold only hearts",
    HeartLead.BROKEN: "no heart lead until a heart has been played, unless you hold only hearts",
}


def _trump(suit: Suit | None, per_trick: int, must_trump: MustTrump) -> Contract:
    name = "No Trump" if suit is None else f"{suit.name.title()} trumps"
    cid = "trump-notrump" if suit is None else f"trump-{suit.name.lower()}"
    return Contract(
        id=cid,
        name=name,
        kind=Kind.TRUMP,
        trump=suit,
        per_trick=per_trick,
        must_trump=MustTrump.NO if suit is None else must_trump,
        **_described(TRUMP_DESCRIPTIONS[suit], per_trick=per_trick),
    )


def contract_table(
    points: Points,
    heart_lead: HeartLead = HeartLead.NEVER,
    domino_aces: DominoAces = DominoAces.HIGH,
    must_trump: MustTrump = MustTrump.NO,
) -> tuple[Contract, ...]:
    """The contracts of a variant with ``points``, in table order: the negatives, then the
    five trump options. The house rules that shape contracts: ``heart_lead`` is when
    Heartshunting and King of Hearts let a heart be led, ``domino_aces`` where an ace
    connects in Domino, ``must_trump`` whether the four suit trump contracts oblige a
    player who cannot follow suit to trump (No Trump has none to play)."""
    no_lead = NO_HEART_LEAD[heart_lead]
    p = points
    negatives = [
        Contract(
            "ducking",
            "Ducking",
            Kind.NEGATIVE,
            per_trick=p.per_trick,
            **_described("{per_trick} per trick taken; no trumps", per_trick=p.per_trick),
        ),
        Contract(
            "hearts",
            "Heartshunting",
            Kind.NEGATIVE,
            card_points=_points(lambda c: c.suit is Suit.HEARTS, p.heart),
            heart_lead=heart_lead,
            **_described("{each} per heart taken; " + no_lead, each=p.heart),
        ),
        Contract(
            "kingjacks",
            "Kingjacks",
            Kind.NEGATIVE,
            card_points={
                **_points(lambda c: c.rank == KING, p.king),
                **_points(lambda c: c.rank == JACK, p.jack),
            },
            **_described("{king} per king and {jack} per jack taken", king=p.king, jack=p.jack),
        ),
        Contract(
            "queens",
            "Queens",
            Kind.NEGATIVE,
            card_points=_points(lambda c: c.rank == QUEEN, p.queen),
            **_described("{each} per queen taken", each=p.queen),
        ),
        Contract(
            "kingofhearts",
            "King of Hearts",
            Kind.NEGATIVE,
            card_points={Card.parse("KH"): p.king_of_hearts},
            heart_lead=heart_lead,
            **_described("{each} to who takes the K♥; " + no_lead, each=p.king_of_hearts),
        ),
        Contract(
            "lasttrick",
            "Last trick",
            Kind.NEGATIVE,
            trick_points={13: p.last_trick},
            **_described("{each} to who takes trick 13", each=p.last_trick),
        ),
    ]
    if p.seventh_and_thirteenth is not None:
        each = p.seventh_and_thirteenth
        negatives.append(
            Contract(
                "seventhirteenth",
                "7th and 13th trick",
                Kind.NEGATIVE,
                trick_points={7: each, 13: each},
                **_described(
                    "{each} to who takes trick 7, {each} to who takes trick 13", each=each
                ),
            )
        )
    negatives.append(
        Contract(
            "domino",
            "Domino",
            Kind.NEGATIVE,
            domino=True,
            last_holder=p.domino,
            domino_aces=domino_aces,
            **_described(
                "play an 8 or a card next to one on the table; {each} to the last holding cards",
                each=p.domino,
            ),
        )
    )
    trumps = [_trump(suit, p.trump_trick, must_trump) for suit in (*Suit, None)]
    return (*negatives, *trumps)


CONTRACTS: Mapping[str, Contract] = {c.id: c for c in contract_table(STANDARD_POINTS)}
"""The standard game's contracts by id; a match's own are ``match.rules.by_id``."""

NEGATIVE_IDS: tuple[str, ...] = tuple(c.id for c in CONTRACTS.values() if not c.is_trump_option)
TRUMP_IDS: tuple[str, ...] = tuple(c.id for c in CONTRACTS.values() if c.is_trump_option)
