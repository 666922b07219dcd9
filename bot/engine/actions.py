"""The three things a seat can do, as small immutable values, and the engine's errors.

Actions are what buttons send, what computer players return, what the store appends and
what a record replays. Domino passes are not actions: the engine makes them by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class Choose:
    """The chooser picks a contract (a negative contract or a trump option)."""

    contract: str


@dataclass(frozen=True, slots=True)
class Double:
    """One doubling turn: the seats named (doubled or redoubled); empty is a pass."""

    targets: frozenset[int]

    @classmethod
    def of(cls, *seats: int) -> Double:
        return cls(frozenset(seats))


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to the trick (or to the Domino table)."""

    card: Card


Action = Choose | Double | Play
PASS = Double(frozenset())


class IllegalAction(Exception):
    """An action that does not fit the position; the message is for the player."""
