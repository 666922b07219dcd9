"""One deal as an explicit phase machine: choose, double, play, done.

The deal knows its hands, its contract, the doubling turns and the cards played, and
nothing else; the match decides which contracts the chooser may pick (that depends on
the whole match) and tells the deal which one was chosen.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from .actions import Action, Double, IllegalAction, Play
from .cards import Card, Suit
from .contracts import DOMINO_LOSS, Contract

SEATS = range(4)


class Phase(Enum):
    """Where a deal (or the match around it) stands."""

    CHOOSING = "choosing"
    DOUBLING = "doubling"
    PLAYING = "playing"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order, who took it, what it scored."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, position: int) -> int:
        return (self.leader + position) % 4

    def played(self) -> Iterator[tuple[int, Card]]:
        """(seat, card) pairs in play order."""
        return ((self.seat_of(i), card) for i, card in enumerate(self.cards))


def doubling_order(dealer: int) -> tuple[int, int, int, int]:
    """Right of the dealer first, clockwise, chooser last."""
    return ((dealer + 3) % 4, dealer, (dealer + 1) % 4, (dealer + 2) % 4)


def settle(base: Sequence[int], multipliers: Sequence[Sequence[int]]) -> list[int]:
    """Final scores: ``base_i + sum_j m_ij * (base_i - base_j)``; the total never changes."""
    return [
        base[i] + sum(multipliers[i][j] * (base[i] - base[j]) for j in SEATS if j != i)
        for i in SEATS
    ]


class Deal:
    """The state of one deal; change it only through :meth:`apply`."""

    def __init__(self, dealer: int, hands: Sequence[Sequence[Card]]) -> None:
        self.dealer = dealer
        self.chooser = (dealer + 2) % 4
        self.first_leader = (dealer + 1) % 4
        self.doubling_order = doubling_order(dealer)
        self.hands: tuple[tuple[Card, ...], ...] = tuple(tuple(sorted(h)) for h in hands)
        self.contract: Contract | None = None
        self.phase = Phase.CHOOSING
        self.to_act: int | None = self.chooser
        self.doubling: list[frozenset[int]] = []
        self.multipliers = [[0] * 4 for _ in SEATS]
        self.plays: list[tuple[int, Card]] = []
        self.base = [0, 0, 0, 0]
        self.tricks: list[Trick] = []
        self.trick: list[Card] = []
        self.leader = self.first_leader
        self.voids: list[set[Suit]] = [set() for _ in SEATS]
        self.out: list[int] = []
        self.domino_passes: list[tuple[int, int]] = []
        self._held = [list(h) for h in self.hands]
        self._rows: list[tuple[int, int] | None] = [None] * 4  # Domino: (low, high) a suit
        self._points_left = 0

    # -- what a seat holds and may do ---------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` still holds, sorted."""
        return list(self._held[seat])

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (the chooser's choice is the match's)."""
        if self.phase is Phase.DOUBLING:
            return [Double(frozenset(t)) for t in self._doubling_subsets()]
        if self.phase is Phase.PLAYING:
            return [Play(card) for card in self.legal_cards()]
        return []

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play now."""
        if self.phase is not Phase.PLAYING or self.to_act is None:
            return []
        return self._legal_cards_of(self.to_act)

    def _legal_cards_of(self, seat: int) -> list[Card]:
        held = self._held[seat]
        assert self.contract is not None
        if self.contract.domino:
            return [card for card in held if self._connects(card)]
        if self.trick:
            led = self.trick[0].suit
            following = [card for card in held if card.suit is led]
            return following or list(held)
        if self.contract.no_heart_lead:
            others = [card for card in held if card.suit is not Suit.HEARTS]
            return others or list(held)
        return list(held)

    def _connects(self, card: Card) -> bool:
        row = self._rows[card.suit]
        if row is None:
            return card.rank == 8
        return card.rank in (row[0] - 1, row[1] + 1)

    def _doubling_targets(self, seat: int) -> list[int]:
        if seat == self.chooser:
            return [other for other in SEATS if self.multipliers[other][seat] == 1]
        return [other for other in SEATS if other != seat]

    def _doubling_subsets(self) -> Iterator[tuple[int, ...]]:
        assert self.to_act is not None
        targets = self._doubling_targets(self.to_act)
        for size in range(len(targets) + 1):
            yield from combinations(targets, size)

    # -- changing the state -------------------------------------------------------------

    def set_contract(self, contract: Contract) -> None:
        """Called by the match once it has checked the chooser may pick ``contract``."""
        self.contract = contract
        self._points_left = sum(contract.card_points.values())
        self.phase = Phase.DOUBLING
        self.to_act = self.doubling_order[0]

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` does not fit; never changes the deal.

        Callers that must store an action before applying it (the table service) check
        first, so a refusal and a failed write both leave the game untouched.
        """
        if isinstance(action, Double):
            self._check_double(action.targets)
        elif isinstance(action, Play):
            self._check_play(action.card)
        else:
            raise IllegalAction(self._phase_refusal("choose a contract"))

    def apply(self, action: Action) -> None:
        """Apply a doubling turn or a card; raises :class:`IllegalAction` if it does not fit."""
        self.check(action)
        if isinstance(action, Double):
            self._double(action.targets)
        else:
            assert isinstance(action, Play)
            self._play(action.card)

    def _phase_refusal(self, what: str) -> str:
        reason = {
            Phase.CHOOSING: "the contract has not been chosen yet",
            Phase.DOUBLING: "the doubling is not finished yet",
            Phase.PLAYING: "the cards are being played",
            Phase.DONE: "this deal is over",
        }[self.phase]
        return f"you cannot {what} now: {reason}"

    def _check_double(self, targets: frozenset[int]) -> None:
        if self.phase is not Phase.DOUBLING:
            raise IllegalAction(self._phase_refusal("double"))
        seat = self.to_act
        assert seat is not None
        for target in targets:
            if target not in SEATS:
                raise IllegalAction(f"there is no seat {target}")
            if target == seat:
                raise IllegalAction("you cannot double yourself")
            if seat == self.chooser and self.multipliers[target][seat] != 1:
                raise IllegalAction(
                    f"the chooser may only redouble players who doubled him, "
                    f"and seat {target} did not"
                )

    def _double(self, targets: frozenset[int]) -> None:
        seat = self.to_act
        assert seat is not None
        for target in targets:
            level = 2 if self.multipliers[target][seat] == 1 else 1
            self.multipliers[seat][target] = self.multipliers[target][seat] = level
        self.doubling.append(targets)
        if len(self.doubling) == 4:
            self._start_play()
        else:
            self.to_act = self.doubling_order[len(self.doubling)]

    def _start_play(self) -> None:
        self.phase = Phase.PLAYING
        assert self.contract is not None
        if self.contract.domino:
            self.to_act = self._next_domino_seat(self.first_leader)
        else:
            self.to_act = self.first_leader

    def _check_play(self, card: Card) -> None:
        if self.phase is not Phase.PLAYING:
            raise IllegalAction(self._phase_refusal("play a card"))
        seat = self.to_act
        assert seat is not None
        if card not in self._held[seat]:
            raise IllegalAction(f"you do not hold the {card.label}")
        if card not in self._legal_cards_of(seat):
            raise IllegalAction(self._why_illegal(seat, card))

    def _play(self, card: Card) -> None:
        seat = self.to_act
        assert seat is not None and self.contract is not None
        self._held[seat].remove(card)
        self.plays.append((seat, card))
        if self.contract.domino:
            self._play_domino(seat, card)
        else:
            self._play_trick(seat, card)

    def _why_illegal(self, seat: int, card: Card) -> str:
        assert self.contract is not None
        if self.contract.domino:
            return (
                f"in Domino you must play an 8 or a card next to one on the table; "
                f"the {card.label} does not connect"
            )
        if self.trick:
            led = self.trick[0].suit
            return f"you must follow suit: you hold a {led.noun}"
        return "you may not lead a heart while you hold another suit"

    def _play_trick(self, seat: int, card: Card) -> None:
        assert self.contract is not None
        if self.trick and card.suit is not self.trick[0].suit:
            self.voids[seat].add(self.trick[0].suit)
        self.trick.append(card)
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner_pos = _winning_position(self.trick, self.contract.trump)
        winner = (self.leader + winner_pos) % 4
        number = len(self.tricks) + 1
        card_points = sum(self.contract.card_points.get(c, 0) for c in self.trick)
        points = self.contract.per_trick + card_points
        if number == 13:
            points += self.contract.last_trick
        self.base[winner] += points
        self._points_left -= card_points
        self.tricks.append(Trick(number, self.leader, tuple(self.trick), winner, points))
        self.trick = []
        self.leader = winner
        ended_early = self.contract.ends_when_cards_taken and self._points_left == 0
        if number == 13 or ended_early:
            self._finish()
        else:
            self.to_act = winner

    def _play_domino(self, seat: int, card: Card) -> None:
        row = self._rows[card.suit]
        rank = card.rank
        self._rows[card.suit] = (
            (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))
        )
        if not self._held[seat]:
            self.out.append(seat)
            if len(self.out) == 3:
                loser = next(s for s in SEATS if s not in self.out)
                self.base[loser] = DOMINO_LOSS
                self._finish()
                return
        self.to_act = self._next_domino_seat((seat + 1) % 4)

    def _next_domino_seat(self, start: int) -> int:
        """The first seat from ``start`` on that can play; the others pass automatically."""
        for step in range(4):
            seat = (start + step) % 4
            if not self._held[seat]:
                continue
            if any(self._connects(card) for card in self._held[seat]):
                return seat
            self.domino_passes.append((seat, len(self.plays)))
        raise AssertionError("no seat can play in Domino; the deal cannot be stuck")

    def _finish(self) -> None:
        self.phase = Phase.DONE
        self.to_act = None

    # -- scores -------------------------------------------------------------------------

    @property
    def is_done(self) -> bool:
        return self.phase is Phase.DONE

    def final_scores(self) -> list[int]:
        """Base scores so far with the doubling settlement applied."""
        return settle(self.base, self.multipliers)

    def domino_rows(self) -> dict[Suit, tuple[int, int]]:
        """For Domino: each started suit row as (lowest rank, highest rank) on the table."""
        return {suit: row for suit, row in zip(Suit, self._rows, strict=True) if row is not None}


def _winning_position(trick: Sequence[Card], trump: Suit | None) -> int:
    """Index in ``trick`` of the card that takes it."""
    best = 0
    for position in range(1, len(trick)):
        card, top = trick[position], trick[best]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best = position
        elif card.suit is trump:
            best = position
    return best
