"""The easy player: always legal, roughly sensible, and beatable by a beginner.

It picks contracts at random, never doubles, and plays a card at random half the time;
the other half it does what a beginner does first: the lowest card in a negative
contract, the highest in a trump contract. No counting, no planning.
"""

from __future__ import annotations

import random

from bot.engine.actions import PASS, Action, Choose, Double, Play
from bot.engine.view import SeatView


class EasyPlayer:
    """See the module docstring; ``budget`` is ignored (it decides instantly)."""

    def choose_action(self, view: SeatView, rng: random.Random, budget: float) -> Action:
        legal = list(view.legal)
        first = legal[0]
        if isinstance(first, Choose):
            return rng.choice(legal)
        if isinstance(first, Double):
            return PASS
        plays = [a for a in legal if isinstance(a, Play)]
        if rng.random() < 0.5 or view.contract is None or view.contract.domino:
            return rng.choice(plays)
        by_rank = sorted(plays, key=lambda p: p.card.rank)
        return by_rank[-1] if view.contract.per_trick > 0 else by_rank[0]
