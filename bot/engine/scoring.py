"""A deal's base scores from what each seat took: the one function every deal scores by.

What a seat took is a :class:`Taken`: its tricks, its scoring cards counted by the
contract's groups (the hearts, the kings, the K♥), the numbers of the tricks it took and,
in Domino, whether it was left holding cards. A deal played card by card
(:class:`~bot.engine.deal.Deal`) adds up a :class:`Taken` per trick; a deal whose cards
were played at a real table (:mod:`bot.engine.tally`) is entered as counts and builds
the same values. Both then score through :func:`seat_points`, so the points of a contract
are read from its data in one place and the two cannot disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card
from .contracts import Contract


@dataclass(frozen=True, slots=True)
class Taken:
    """What one seat took in a deal, in the terms a contract scores."""

    tricks: int = 0
    cards: tuple[tuple[str, int], ...] = ()
    """``(group key, how many)`` for each of the contract's card groups the seat took
    cards of (:attr:`Contract.counted`), sorted by key."""
    numbered: frozenset[int] = frozenset()
    """The numbers (1-13) of the tricks the seat took."""
    last: bool = False
    """Domino: the seat was the last still holding cards."""

    @classmethod
    def counting(
        cls,
        counts: Iterable[tuple[str, int]] = (),
        *,
        tricks: int = 0,
        numbered: Iterable[int] = (),
        last: bool = False,
    ) -> Taken:
        """A seat's haul from counts by group key (repeated keys add up; zeros drop)."""
        total: Counter[str] = Counter()
        for key, count in counts:
            total[key] += count
        cards = tuple(sorted((key, count) for key, count in total.items() if count))
        return cls(tricks, cards, frozenset(numbered), last)

    def count(self, key: str) -> int:
        """How many cards of the group ``key`` the seat took."""
        return next((count for group, count in self.cards if group == key), 0)

    @property
    def scoring_cards(self) -> int:
        """How many scoring cards the seat took, of every group."""
        return sum(count for _, count in self.cards)

    def __add__(self, other: Taken) -> Taken:
        cards = self.cards
        if other.cards:
            cards = Taken.counting((*cards, *other.cards)).cards if cards else other.cards
        numbered = self.numbered | other.numbered
        return Taken(self.tricks + other.tricks, cards, numbered, self.last or other.last)


NOTHING = Taken()
"""What a seat has taken before the first trick."""


def trick_taken(contract: Contract, number: int, cards: Iterable[Card]) -> Taken:
    """What the winner of trick ``number`` takes with ``cards``."""
    groups = contract.group_of
    keys = [groups[card] for card in cards if card in groups]
    counted = Taken.counting((key, 1) for key in keys).cards if keys else ()
    return Taken(1, counted, frozenset((number,)))


def seat_points(contract: Contract, taken: Taken) -> int:
    """The base score of a seat that took ``taken`` under ``contract``: its tricks, its
    scoring cards by group, the numbered tricks the contract scores, and Domino's last
    holder, each by the contract's own points."""
    points = contract.per_trick * taken.tricks
    points += sum(group.points * taken.count(group.key) for group in contract.counted)
    points += sum(contract.trick_table[number] for number in taken.numbered)
    if taken.last:
        points += contract.last_holder
    return points


def base_scores(contract: Contract, taken: Sequence[Taken]) -> list[int]:
    """Each seat's base score, seat 0 first, from what each took."""
    return [seat_points(contract, seat) for seat in taken]
