"""A match: dealer rotation, the chooser's quota, totals and the winner, by its rules.

:class:`Match` is the one object everything else asks. ``legal_actions()`` answers "what
may the seat to act do now?" and ``apply()`` is the only way to change the game (it says
what happened); buttons, computer players, the store and record replay all go through
them. How many deals, which contracts and who sits where come from its :class:`Rules`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .actions import Action, Choose, IllegalAction, Reason
from .cards import CARDS, Card, deal_hands
from .deal import SEATS, Deal, Outcome, Phase
from .rules import STANDARD, Rules

DEALS_PER_MATCH = STANDARD.deals
"""The standard game's number of deals; a match's own is ``match.rules.deals``."""

MatchPhase = Phase
"""The old name of :class:`~bot.engine.deal.Phase`, kept for callers."""


class Match:
    """A whole match; ``players`` are display names, seat 0 first."""

    def __init__(
        self,
        players: Sequence[str] = ("North", "East", "South", "West"),
        *,
        first_dealer: int = 0,
        rules: Rules = STANDARD,
    ) -> None:
        if len(players) != 4:
            raise ValueError("a match needs exactly four players")
        if first_dealer not in SEATS:
            raise ValueError(f"first_dealer must be a seat 0-3, not {first_dealer!r}")
        self.players = tuple(players)
        self.first_dealer = first_dealer
        self.rules = rules
        self.deals: list[Deal] = []
        self.chosen_by: dict[str, int] = {}
        self.choices_per_seat = rules.choices_per_seat(first_dealer)
        """How many contracts each seat chooses over the match (every view shows it)."""
        self._done_totals = [0, 0, 0, 0]
        self._done_deals = 0
        """The totals of the first ``_done_deals`` deals, all finished: a finished deal's
        scores never change, and every view of the match asks for the totals."""

    # -- phase and turn -----------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        """The current (last) deal, if any has been dealt."""
        return self.deals[-1] if self.deals else None

    @property
    def phase(self) -> Phase:
        deal = self.deal
        if deal is None or deal.is_done:
            return Phase.OVER if len(self.deals) == self.rules.deals else Phase.NEEDS_DEAL
        return deal.phase

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def to_act(self) -> int | None:
        deal = self.deal
        return None if deal is None else deal.to_act

    def next_dealer(self) -> int:
        return self.rules.dealer_of(self.first_dealer, len(self.deals))

    # -- dealing ------------------------------------------------------------------------

    def start_deal(self, hands: Sequence[Sequence[Card]]) -> Deal:
        """Begin the next deal with these four hands of 13 cards."""
        if self.is_over:
            raise IllegalAction("the match is over", Reason.MATCH_OVER)
        if self.phase is not Phase.NEEDS_DEAL:
            raise IllegalAction(
                "the next deal cannot start: the current one is not finished",
                Reason.DEAL_IN_PROGRESS,
            )
        check_hands(hands)
        deal = Deal(self.next_dealer(), hands, self.rules)
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
            if self.is_over:
                raise IllegalAction("the match is over", Reason.MATCH_OVER)
            raise IllegalAction("no deal is in progress", Reason.NO_DEAL)
        if seat is not None and seat != deal.to_act:
            raise IllegalAction("it is not your turn", Reason.NOT_YOUR_TURN)
        if isinstance(action, Choose):
            if deal.phase is not Phase.CHOOSING:
                raise IllegalAction("the contract has already been chosen", Reason.WRONG_PHASE)
            refusal = self.contract_refusal(deal.chooser, action.contract)
            if refusal is not None:
                raise IllegalAction(refusal[1], refusal[0])
        else:
            deal.check(action)
        return deal

    def apply(self, action: Action, seat: int | None = None) -> Outcome:
        """Apply ``action`` for the seat to act (checked against ``seat`` when given) and
        return what it did: the front end's events come from the outcome, not a diff."""
        deal = self.check(action, seat)
        if isinstance(action, Choose):
            contract = self.rules.by_id[action.contract]
            self.chosen_by[action.contract] = deal.chooser
            deal.set_contract(contract)
            return Outcome(deal.chooser, action, contract=contract)
        outcome = deal.apply(action, checked=True)
        if outcome.deal_over and self.is_over:
            return outcome._replace(match_over=True)
        return outcome

    # -- choosing -----------------------------------------------------------------------

    def legal_contracts(self, seat: int) -> list[str]:
        """The contract ids ``seat`` may choose now, in table order."""
        return [cid for cid in self.rules.by_id if self.contract_refusal(seat, cid) is None]

    def contract_refusal(self, seat: int, contract_id: str) -> tuple[Reason, str] | None:
        """Why ``seat`` may not choose ``contract_id`` now, or None if it may: the one
        statement of the quota, which a tally of a real table's match asks too."""
        rules = self.rules
        contract = rules.contract(contract_id)
        if contract is None:
            return Reason.UNKNOWN_CONTRACT, f"there is no contract {contract_id!r}"
        if contract_id in self.chosen_by:
            return (
                Reason.CONTRACT_PLAYED,
                f"{contract.name} has already been played in this match",
            )
        picked = [rules.by_id[cid] for cid, by in self.chosen_by.items() if by == seat]
        trumps = sum(1 for c in picked if c.is_trump_option)
        if contract.is_trump_option:
            if trumps >= rules.trumps_per_seat:
                return Reason.TRUMP_ALREADY_PICKED, "you have already picked your trump option"
            return None
        negatives = len(picked) - trumps
        if negatives >= self.choices_per_seat[seat] - rules.trumps_per_seat:
            return Reason.MUST_PICK_TRUMP, "you must pick a trump option with your last choice"
        return None

    # -- scores -------------------------------------------------------------------------

    def totals(self) -> list[int]:
        """Each seat's match total so far (final deal scores, after doubling)."""
        while self._done_deals < len(self.deals) and self.deals[self._done_deals].is_done:
            finished = self.deals[self._done_deals].final_scores()
            self._done_totals = added_up((self._done_totals, finished))
            self._done_deals += 1
        return added_up(
            (self._done_totals, *(d.final_scores() for d in self.deals[self._done_deals :]))
        )

    def ranking(self) -> list[int]:
        """Each seat's place (1 = best); equal totals share a place."""
        return places(self.totals())

    def winners(self) -> list[int]:
        """The seats with the highest total (more than one on a tie)."""
        ranks = self.ranking()
        return [seat for seat in SEATS if ranks[seat] == 1]


def added_up(scores: Iterable[Sequence[int]]) -> list[int]:
    """Each seat's total of these deals' scores."""
    totals = [0, 0, 0, 0]
    for deal in scores:
        for seat, score in enumerate(deal):
            totals[seat] += score
    return totals


def places(totals: Sequence[int]) -> list[int]:
    """Each seat's place by its total (1 = best); equal totals share a place."""
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]


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
