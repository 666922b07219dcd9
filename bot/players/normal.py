"""The normal player: a club player's rules of thumb, per contract, with no search.

Cards come from :func:`bot.players.policy.normal_card` (ducking and dumping, voids,
guarding and shedding the K♥, queens and kings, last-trick control, trump management,
blocking in Domino); contracts and doubles come from the hand estimates in
:mod:`bot.players.hand` through the shared rules in :mod:`bot.players.bidding`.
"""

from __future__ import annotations

import random

from bot.engine.actions import Action, Choose, Double
from bot.engine.view import SeatView

from .base import legal_card_masks, own_position, play_of
from .bidding import best_choice, claimed_edge, doubling_turn
from .hand import expected_base
from .policy import normal_card


class NormalPlayer:
    """See the module docstring; ``budget`` and ``rng`` are unused (it is deterministic)."""

    def choose_action(self, view: SeatView, rng: random.Random, budget: float) -> Action:
        first = view.legal[0]
        if len(view.legal) == 1:
            return first
        if isinstance(first, Choose):
            return best_choice(view, choice_estimates(view))
        if isinstance(first, Double):
            return doubling_turn(view, doubling_gains(view))
        card = normal_card(own_position(view), view.seat, legal_card_masks(view))
        return play_of(view, card)


def choice_estimates(view: SeatView) -> dict[str, float]:
    """Expected base score of this hand in each contract it may choose."""
    return {
        a.contract: expected_base(view.hand, view.rules.by_id[a.contract])
        for a in view.legal
        if isinstance(a, Choose)
    }


def doubling_gains(view: SeatView) -> dict[int, float]:
    """Expected ``base_me - base_j`` per other seat, from this hand's estimate alone."""
    contract = view.contract
    assert contract is not None
    mine = expected_base(view.hand, contract)
    others = (contract.total - mine) / 3
    return {j: mine - others - claimed_edge(view, j) for j in range(4) if j != view.seat}
