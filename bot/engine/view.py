"""What one seat may know: the only thing computer players and the hand view are given.

A :class:`SeatView` is a frozen snapshot built from the match. It holds the seat's own
hand and everything public (cards played, the trick, doubles, scores, shown voids), and
never another seat's cards, so a computer player cannot peek even by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action
from .cards import Card, Suit
from .contracts import Contract
from .deal import Trick
from .match import Match, MatchPhase, choices_per_seat


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` knows. The deal fields keep their defaults before the first deal."""

    seat: int
    phase: MatchPhase
    totals: tuple[int, ...]
    chosen_by: dict[str, int]
    choices_per_seat: tuple[int, ...]
    deal_number: int = 0
    dealer: int | None = None
    chooser: int | None = None
    first_leader: int | None = None
    to_act: int | None = None
    hand: tuple[Card, ...] = ()
    contract: Contract | None = None
    legal: tuple[Action, ...] = ()
    doubling: tuple[frozenset[int], ...] = ()
    doubling_order: tuple[int, ...] = ()
    multipliers: tuple[tuple[int, ...], ...] = ((0,) * 4,) * 4
    plays: tuple[tuple[int, Card], ...] = ()
    tricks: tuple[Trick, ...] = ()
    trick: tuple[tuple[int, Card], ...] = ()
    voids: tuple[frozenset[Suit], ...] = (frozenset(),) * 4
    cards_left: tuple[int, ...] = (0,) * 4
    domino_rows: dict[Suit, tuple[int, int]] = field(default_factory=dict)
    domino_out: tuple[int, ...] = ()
    domino_passes: tuple[tuple[int, int], ...] = ()
    base: tuple[int, ...] = (0,) * 4

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def played_cards(self) -> frozenset[Card]:
        return frozenset(card for _, card in self.plays)


def seat_view(match: Match, seat: int) -> SeatView:
    """Snapshot of ``match`` as seen from ``seat``."""
    known = {
        "seat": seat,
        "phase": match.phase,
        "totals": tuple(match.totals()),
        "chosen_by": dict(match.chosen_by),
        "choices_per_seat": tuple(choices_per_seat(match.first_dealer)),
    }
    deal = match.deal
    if deal is None:
        return SeatView(**known)
    return SeatView(
        **known,
        deal_number=len(match.deals),
        dealer=deal.dealer,
        chooser=deal.chooser,
        first_leader=deal.first_leader,
        to_act=deal.to_act,
        hand=tuple(deal.hand(seat)),
        contract=deal.contract,
        legal=tuple(match.legal_actions()) if deal.to_act == seat else (),
        doubling=tuple(deal.doubling),
        doubling_order=deal.doubling_order,
        multipliers=tuple(tuple(row) for row in deal.multipliers),
        plays=tuple(deal.plays),
        tricks=tuple(deal.tricks),
        trick=tuple(((deal.leader + i) % 4, card) for i, card in enumerate(deal.trick)),
        voids=tuple(frozenset(v) for v in deal.voids),
        cards_left=tuple(len(deal.hand(s)) for s in range(4)),
        domino_rows=deal.domino_rows(),
        domino_out=tuple(deal.out),
        domino_passes=tuple(deal.domino_passes),
        base=tuple(deal.base),
    )
