"""What one seat may know, and what everyone may know: the only snapshots others read.

A :class:`SeatView` is a frozen snapshot built from the match. It holds the seat's own
hand and everything public (cards played, the trick, doubles, scores, shown voids), and
never another seat's cards, so a computer player cannot peek even by accident.

A :class:`PublicView` is the table's part of it, nobody's hand: what a table message
shows. Front ends build from it instead of reaching into the deal's attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from .actions import Action, Double
from .cards import CARDS, Card, Suit
from .contracts import Contract
from .deal import Deal, DominoTable, Phase, Trick, trick_playable
from .match import Match
from .rules import STANDARD, Rules

NO_MULTIPLIERS: tuple[tuple[int, ...], ...] = ((0,) * 4,) * 4


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` knows. The deal fields keep their defaults before the first deal."""

    seat: int
    phase: Phase
    totals: tuple[int, ...]
    chosen_by: dict[str, int]
    choices_per_seat: tuple[int, ...]
    rules: Rules = STANDARD
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
    multipliers: tuple[tuple[int, ...], ...] = NO_MULTIPLIERS
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

    @property
    def doubling_targets(self) -> list[int]:
        """The seats this player may name in his doubling turn, as the engine allows
        (every front end's doubling choices)."""
        return sorted(
            {seat for action in self.legal if isinstance(action, Double) for seat in action.targets}
        )


def seat_view(match: Match, seat: int) -> SeatView:
    """Snapshot of ``match`` as seen from ``seat``: made in one go, reading each part of
    the deal once (the computers and every front end ask for one at each turn)."""
    deal = match.deal
    view = partial(
        SeatView,
        seat=seat,
        phase=match.phase,
        totals=tuple(match.totals()),
        chosen_by=dict(match.chosen_by),
        choices_per_seat=match.choices_per_seat,
        rules=match.rules,
    )
    if deal is None:
        return view()
    hand = deal.hand(seat)
    to_act = deal.to_act
    return view(
        deal_number=len(match.deals),
        dealer=deal.dealer,
        chooser=deal.chooser,
        first_leader=deal.first_leader,
        to_act=to_act,
        hand=tuple(hand),
        contract=deal.contract,
        legal=tuple(match.legal_actions()) if to_act == seat else (),
        doubling=tuple(deal.doubling),
        doubling_order=deal.doubling_order,
        multipliers=tuple(map(tuple, deal.multipliers)),
        plays=tuple(deal.plays),
        tricks=tuple(deal.tricks),
        trick=current_trick(deal),
        voids=tuple(map(frozenset, deal.voids)),
        cards_left=deal.cards_left(),
        domino_rows=deal.domino_rows(),
        domino_out=tuple(deal.out),
        domino_passes=tuple(deal.domino_passes),
        base=tuple(deal.base),
    )


def current_trick(deal: Deal) -> tuple[tuple[int, Card], ...]:
    """The trick in progress as (seat, card) pairs in play order."""
    return tuple(((deal.leader + i) % 4, card) for i, card in enumerate(deal.trick))


@dataclass(frozen=True)
class PublicView:
    """Everything public about a match and its current deal; nobody's hand.

    ``doubled`` lists each doubled pair once as ``(i, j, level)`` with ``i < j`` and
    level 1 (double) or 2 (redouble); ``doubling_done`` the seats that have had their
    doubling turn, in order. The deal fields keep their defaults before the first deal.
    """

    phase: Phase
    rules: Rules
    totals: tuple[int, ...]
    chosen_by: dict[str, int]
    played_contracts: tuple[str, ...]
    deal_number: int = 0
    dealer: int | None = None
    chooser: int | None = None
    contract: Contract | None = None
    to_act: int | None = None
    trick: tuple[tuple[int, Card], ...] = ()
    tricks_taken: tuple[int, ...] = (0,) * 4
    last_trick: Trick | None = None
    doubled: tuple[tuple[int, int, int], ...] = ()
    doubling_done: tuple[int, ...] = ()
    base: tuple[int, ...] = (0,) * 4
    cards_left: tuple[int, ...] = (0,) * 4
    domino_rows: dict[Suit, tuple[int, int]] = field(default_factory=dict)
    domino_out: tuple[int, ...] = ()


def public_view(match: Match) -> PublicView:
    """Snapshot of what every seat and every onlooker may know about ``match``."""
    deal = match.deal
    totals = tuple(match.totals())
    played = tuple(match.chosen_by)  # in the order chosen
    if deal is None:
        return PublicView(
            phase=match.phase,
            rules=match.rules,
            totals=totals,
            chosen_by=dict(match.chosen_by),
            played_contracts=played,
        )
    taken = [0, 0, 0, 0]
    for trick in deal.tricks:
        taken[trick.winner] += 1
    m = deal.multipliers
    return PublicView(
        phase=match.phase,
        rules=match.rules,
        totals=totals,
        chosen_by=dict(match.chosen_by),
        played_contracts=played,
        deal_number=len(match.deals),
        dealer=deal.dealer,
        chooser=deal.chooser,
        contract=deal.contract,
        to_act=deal.to_act,
        trick=current_trick(deal),
        tricks_taken=tuple(taken),
        last_trick=deal.tricks[-1] if deal.tricks else None,
        doubled=tuple((i, j, m[i][j]) for i in range(4) for j in range(i + 1, 4) if m[i][j]),
        doubling_done=deal.doubling_order[: len(deal.doubling)],
        base=tuple(deal.base),
        cards_left=deal.cards_left(),
        domino_rows=deal.domino_rows(),
        domino_out=tuple(deal.out),
    )


def ruled_out(view: SeatView) -> tuple[frozenset[Card], ...]:
    """For each seat, the cards ``view.seat`` has not seen that the rules say that seat
    does not hold: every card that would have made one of its plays illegal (a card of
    the suit it did not follow, a heart when it led one where hearts may not be led yet,
    and whatever a house rule adds), and in Domino every card that connected when it
    passed. Hands only shrink, so what a seat did not hold then it does not hold now.

    Read from the card rules themselves (:func:`~bot.engine.deal.trick_playable`,
    :class:`~bot.engine.deal.DominoTable`): a card played was legal from a hand that held
    it and the card in question exactly when that card is not ruled out, so a new rule
    is inferred from as soon as the engine plays by it.
    """
    contract = view.contract
    seen = set(view.hand) | {card for _, card in view.plays}
    unseen = [card for card in CARDS if card not in seen]
    out: list[set[Card]] = [set(), set(), set(), set()]
    if contract is None:
        return tuple(frozenset(cards) for cards in out)
    if contract.domino:
        table, played = DominoTable.dealt(contract), 0
        for seat, count in view.domino_passes:
            for _, card in view.plays[played:count]:
                table = table.laid(card)
            played = count
            out[seat].update(card for card in unseen if table.connects(card))
        return tuple(frozenset(cards) for cards in out)
    tricks = [list(trick.played()) for trick in view.tricks] + [list(view.trick)]
    hearts_played = False
    for trick in tricks:
        for position, (seat, card) in enumerate(trick):
            before = [played for _, played in trick[:position]]
            for other in unseen:
                legal, _ = trick_playable(contract, before, [card, other], hearts_played)
                if card not in legal:
                    out[seat].add(other)
        hearts_played = hearts_played or any(card.suit is Suit.HEARTS for _, card in trick)
    return tuple(frozenset(cards) for cards in out)
