"""A deal's doubling: who may name whom, in which order, and what each pair then counts.

Each seat has one doubling turn, in the rules' doubling order (the chooser last), and
names any of the other three: naming a player who already named him is a redouble, any
other a double, and the chooser may only redouble. :class:`Doubling` is the one statement
of these rules. A played deal (:class:`~bot.engine.deal.Deal`) asks it first whether its
house rule lets the seat name anyone at all (which needs the seat's cards); a deal entered
at a real table (:mod:`bot.engine.tally`) asks it the same questions without cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import IllegalAction, Reason

SEATS = range(4)


class Doubling:
    """The doubling turns of one deal so far and the multiplier of each pair of seats."""

    def __init__(self, order: Sequence[int], chooser: int) -> None:
        if sorted(order) != list(SEATS) or order[-1] != chooser:
            raise ValueError("the doubling order names each seat once, the chooser last")
        self.order = tuple(order)
        self.chooser = chooser
        self.turns: list[frozenset[int]] = []
        """Each turn's seats named, in doubling order; an empty set is a pass."""
        self.multipliers = [[0] * 4 for _ in SEATS]
        """``multipliers[i][j]``: 0, 1 (a double) or 2 (a double and its redouble)."""

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is; None once all four have had theirs."""
        return self.order[len(self.turns)] if len(self.turns) < 4 else None

    @property
    def is_done(self) -> bool:
        return len(self.turns) == 4

    def targets(self, seat: int) -> list[int]:
        """The seats ``seat`` may name on its turn: anyone else, or for the chooser the
        players who doubled him."""
        if seat == self.chooser:
            return [other for other in SEATS if self.multipliers[other][seat] == 1]
        return [other for other in SEATS if other != seat]

    def check(self, targets: frozenset[int]) -> None:
        """Raise :class:`IllegalAction` unless the seat to act may name ``targets``."""
        seat = self.to_act
        if seat is None:
            raise IllegalAction("the doubling is over", Reason.WRONG_PHASE)
        for target in targets:
            if target not in SEATS:
                raise IllegalAction(f"there is no seat {target}", Reason.NO_SUCH_SEAT)
            if target == seat:
                raise IllegalAction("you cannot double yourself", Reason.DOUBLE_SELF)
            if seat == self.chooser and self.multipliers[target][seat] != 1:
                raise IllegalAction(
                    f"the chooser may only redouble players who doubled him, "
                    f"and seat {target} did not",
                    Reason.CHOOSER_ONLY_REDOUBLES,
                )

    def apply(self, targets: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Apply a checked turn; returns the seats it (doubles, redoubles), each sorted."""
        seat = self.to_act
        assert seat is not None
        redoubles = tuple(sorted(t for t in targets if self.multipliers[t][seat] == 1))
        doubles = tuple(sorted(t for t in targets if t not in redoubles))
        for target in targets:
            level = 2 if target in redoubles else 1
            self.multipliers[seat][target] = self.multipliers[target][seat] = level
        self.turns.append(targets)
        return doubles, redoubles
