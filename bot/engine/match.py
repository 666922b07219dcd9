"""A match of 11 deals: dealer rotation, the chooser's quota, totals and the winner.

:class:`Match` is the one object everything else asks. ``legal_actions()`` answers "what
may the seat to act do now?" and ``apply()`` is the only way to change the game; buttons,
computer players, the store and record replay all go through them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum

from .actions import Action, Choose, IllegalAction
from .cards import CARDS, Card, deal_hands
from .contracts import CONTRACTS, NEGATIVE_IDS, TRUMP_IDS, Contract
from .deal import SEATS, Deal, Phase

DEALS_PER_MATCH = 11


class MatchPhase(Enum):
    """The match-level phase: waiting for cards to be dealt, in a deal, or over."""

    NEEDS_DEAL = "needs_deal"
    CHOOSING = "choosing"
    DOUBLING = "doubling"
    PLAYING = "playing"
    OVER = "over"


def chooser_of(first_dealer: int, deal_index: int) -> int:
    return (first_dealer + deal_index + 2) % 4


def choices_per_seat(first_dealer: int) -> list[int]:
    """How many contracts each seat chooses over the match (3, 3, 3 and 2)."""
    counts = [0, 0, 0, 0]
    for k in range(DEALS_PER_MATCH):
        counts[chooser_of(first_dealer, k)] += 1
    return counts


class Match:
    """A whole match; ``players`` are display names, seat 0 first."""

    def __init__(
        self, players: Sequence[str] = ("North", "East", "South", "West"), *, first_dealer: int = 0
    ) -> None:
        if len(players) != 4:
            raise ValueError("a match needs exactly four players")
        if first_dealer not in SEATS:
            raise ValueError(f"first_dealer must be a seat 0-3, not {first_dealer!r}")
        self.players = tuple(players)
        self.first_dealer = first_dealer
        self.deals: list[Deal] = []
        self.chosen_by: dict[str, int] = {}
        self._choices = choices_per_seat(first_dealer)

    # -- phase and turn -----------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        """The current (last) deal, if any has been dealt."""
        return self.deals[-1] if self.deals else None

    @property
    def phase(self) -> MatchPhase:
        deal = self.deal
        if deal is None or deal.is_done:
            return MatchPhase.OVER if len(self.deals) == DEALS_PER_MATCH else MatchPhase.NEEDS_DEAL
        return MatchPhase(deal.phase.value)

    @property
    def is_over(self) -> bool:
        return self.phase is MatchPhase.OVER

    @property
    def to_act(self) -> int | None:
        deal = self.deal
        return None if deal is None else deal.to_act

    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) % 4

    # -- dealing ------------------------------------------------------------------------

    def start_deal(self, hands: Sequence[Sequence[Card]]) -> Deal:
        """Begin the next deal with these four hands of 13 cards."""
        if self.phase is not MatchPhase.NEEDS_DEAL:
            raise IllegalAction(
                "the next deal cannot start: the current one is not finished"
                if not self.is_over
                else "the match is over"
            )
        check_hands(hands)
        deal = Deal(self.next_dealer(), hands)
        self.deals.append(deal)
        return deal

    def deal_random(self, rng: random.Random) -> Deal:
        """Shuffle with ``rng`` (never module-level randomness) and start the next deal."""
        return self.start_deal(deal_hands(rng))

    # -- the two functions everything asks ----------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now; empty when nobody is to act."""
        deal = self.deal
        if deal is None:
            return []
        if deal.phase is Phase.CHOOSING:
            return [Choose(cid) for cid in self.legal_contracts(deal.chooser)]
        return deal.legal_actions()

    def check(self, action: Action, seat: int | None = None) -> Deal:
        """Raise :class:`IllegalAction` (a message for the player) unless ``action`` fits now.

        Never changes the match. Returns the deal the action belongs to.
        """
        deal = self.deal
        if deal is None or deal.is_done:
            raise IllegalAction("the match is over" if self.is_over else "no deal is in progress")
        if seat is not None and seat != deal.to_act:
            raise IllegalAction("it is not your turn")
        if isinstance(action, Choose):
            if deal.phase is not Phase.CHOOSING:
                raise IllegalAction("the contract has already been chosen")
            reason = self.why_not_contract(deal.chooser, action.contract)
            if reason is not None:
                raise IllegalAction(reason)
        else:
            deal.check(action)
        return deal

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (checked against ``seat`` when given)."""
        deal = self.check(action, seat)
        if isinstance(action, Choose):
            self.chosen_by[action.contract] = deal.chooser
            deal.set_contract(CONTRACTS[action.contract])
        else:
            deal.apply(action)

    # -- choosing -----------------------------------------------------------------------

    def legal_contracts(self, seat: int) -> list[str]:
        """The contract ids ``seat`` may choose now, in table order."""
        return [cid for cid in CONTRACTS if self.why_not_contract(seat, cid) is None]

    def why_not_contract(self, seat: int, contract_id: str) -> str | None:
        """Why ``seat`` may not choose ``contract_id`` now, or None if it may."""
        contract = CONTRACTS.get(contract_id)
        if contract is None:
            return f"there is no contract {contract_id!r}"
        if contract_id in self.chosen_by:
            return f"{contract.name} has already been played in this match"
        picked = [cid for cid, by in self.chosen_by.items() if by == seat]
        if contract.is_trump_option:
            if any(cid in TRUMP_IDS for cid in picked):
                return "you have already picked your trump option"
            return None
        negatives = sum(1 for cid in picked if cid in NEGATIVE_IDS)
        if negatives >= self._choices[seat] - 1:
            return "you must pick a trump option with your last choice"
        return None

    # -- scores -------------------------------------------------------------------------

    def totals(self) -> list[int]:
        """Each seat's match total so far (final deal scores, after doubling)."""
        totals = [0, 0, 0, 0]
        for deal in self.deals:
            for seat, score in enumerate(deal.final_scores()):
                totals[seat] += score
        return totals

    def ranking(self) -> list[int]:
        """Each seat's place (1 = best); equal totals share a place."""
        totals = self.totals()
        return [1 + sum(1 for other in totals if other > mine) for mine in totals]

    def winners(self) -> list[int]:
        """The seats with the highest total (more than one on a tie)."""
        ranks = self.ranking()
        return [seat for seat in SEATS if ranks[seat] == 1]

    def contract_of(self, deal_index: int) -> Contract | None:
        return self.deals[deal_index].contract


def check_hands(hands: Sequence[Sequence[Card]]) -> None:
    """Refuse anything but four hands of 13 that together are the 52 cards."""
    if len(hands) != 4:
        raise ValueError("a deal needs four hands")
    seen: set[Card] = set()
    for seat, hand in enumerate(hands):
        if len(hand) != 13:
            raise ValueError(f"seat {seat} has {len(hand)} cards, not 13")
        for card in hand:
            if card in seen:
                raise ValueError(f"card {card.code} is dealt twice")
            seen.add(card)
    if len(seen) != len(CARDS):
        raise ValueError("the hands are not the 52 cards")
