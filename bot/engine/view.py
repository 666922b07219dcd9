"""What one seat may know: the only thing computer players and the hand view are given.

A :class:`SeatView` is a frozen snapshot built from the match. It holds the seat's own
hand and everything public (cards played, the trick, doubles, scores, shown voids), and
never another seat's cards, so a computer player cannot peek even by accident.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card, Suit
from .contracts import Contract
from .deal import Trick
from .match import Match, MatchPhase, choices_per_seat


@dataclass(frozen=True)
class SeatView:
    seat: int
    phase: MatchPhase
    deal_number: int
    dealer: int | None
    chooser: int | None
    first_leader: int | None
    to_act: int | None
    hand: tuple[Card, ...]
    contract: Contract | None
    legal: tuple[Action, ...]
    doubling: tuple[frozenset[int], ...]
    doubling_order: tuple[int, ...]
    multipliers: tuple[tuple[int, ...], ...]
    plays: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    trick: tuple[tuple[int, Card], ...]
    voids: tuple[frozenset[Suit], ...]
    cards_left: tuple[int, ...]
    domino_rows: dict[Suit, tuple[int, int]]
    domino_out: tuple[int, ...]
    domino_passes: tuple[tuple[int, int], ...]
    base: tuple[int, ...]
    totals: tuple[int, ...]
    chosen_by: dict[str, int]
    choices_per_seat: tuple[int, ...]

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def played_cards(self) -> frozenset[Card]:
        return frozenset(card for _, card in self.plays)


def seat_view(match: Match, seat: int) -> SeatView:
    """Snapshot of ``match`` as seen from ``seat``."""
    deal = match.deal
    legal = tuple(match.legal_actions()) if deal is not None and deal.to_act == seat else ()
    if deal is None:
        return SeatView(
            seat=seat,
            phase=match.phase,
            deal_number=0,
            dealer=None,
            chooser=None,
            first_leader=None,
            to_act=None,
            hand=(),
            contract=None,
            legal=(),
            doubling=(),
            doubling_order=(),
            multipliers=((0,) * 4,) * 4,
            plays=(),
            tricks=(),
            trick=(),
            voids=(frozenset(),) * 4,
            cards_left=(0,) * 4,
            domino_rows={},
            domino_out=(),
            domino_passes=(),
            base=(0,) * 4,
            totals=tuple(match.totals()),
            chosen_by=dict(match.chosen_by),
            choices_per_seat=tuple(choices_per_seat(match.first_dealer)),
        )
    trick = tuple(((deal.leader + i) % 4, card) for i, card in enumerate(deal.trick))
    return SeatView(
        seat=seat,
        phase=match.phase,
        deal_number=len(match.deals),
        dealer=deal.dealer,
        chooser=deal.chooser,
        first_leader=deal.first_leader,
        to_act=deal.to_act,
        hand=tuple(deal.hand(seat)),
        contract=deal.contract,
        legal=legal,
        doubling=tuple(deal.doubling),
        doubling_order=deal.doubling_order,
        multipliers=tuple(tuple(row) for row in deal.multipliers),
        plays=tuple(deal.plays),
        tricks=tuple(deal.tricks),
        trick=trick,
        voids=tuple(frozenset(v) for v in deal.voids),
        cards_left=tuple(len(deal.hand(s)) for s in range(4)),
        domino_rows=deal.domino_rows(),
        domino_out=tuple(deal.out),
        domino_passes=tuple(deal.domino_passes),
        base=tuple(deal.base),
        totals=tuple(match.totals()),
        chosen_by=dict(match.chosen_by),
        choices_per_seat=tuple(choices_per_seat(match.first_dealer)),
    )
