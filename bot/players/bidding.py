"""Turning score estimates into a contract choice and a doubling turn.

Both the normal player (estimates from :mod:`bot.players.hand`) and the hard player
(estimates from simulated deals) decide the same way, so the two differ only in how well
they estimate, not in how they bet.

Choosing: every negative contract is played once per match anyway, so choosing one now
is worth what this hand expects beyond an average hand (``total / 4``). A trump option
also uses up the chooser's one trump pick; picking it now gives up picking it later with
a hand chosen for it, so it must beat the average by :data:`TRUMP_PREMIUM` as well.

Doubling: naming seat j is a bet of ``base_me - base_j`` (twice that if redoubled). It
is placed when the expected difference clears a margin that grows with the contract's
size, because estimates are rough and a doubled seat that is strong may redouble. The
chooser picked the contract for his hand and a doubler claims strength, so both are
assumed to be better than average by that margin.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.actions import Action, Choose, Double
from bot.engine.contracts import Contract
from bot.engine.view import SeatView

TRUMP_PREMIUM = 10.0


def choice_value(contract: Contract, expected: float) -> float:
    """What choosing ``contract`` now is worth, given this hand's expected base score."""
    value = expected - contract.total / 4
    return value - TRUMP_PREMIUM if contract.is_trump_option else value


def best_choice(view: SeatView, expected: Mapping[str, float]) -> Action:
    """The legal ``Choose`` with the highest :func:`choice_value`."""
    choices = [a for a in view.legal if isinstance(a, Choose)]
    contracts = view.rules.by_id
    return max(choices, key=lambda a: choice_value(contracts[a.contract], expected[a.contract]))


def margin(contract: Contract) -> float:
    """The expected gain a double must clear, in points."""
    return 0.1 * abs(contract.total)


def claimed_edge(view: SeatView, other: int) -> float:
    """How much better than average ``other`` is assumed to be, from his public choices."""
    assert view.contract is not None
    claimed = 0.0
    if other == view.chooser:
        claimed += margin(view.contract)
    if view.multipliers[other][view.seat] == 1:
        claimed += margin(view.contract) / 2  # he doubled me
    return claimed


def doubling_turn(view: SeatView, gains: Mapping[int, float]) -> Action:
    """The legal ``Double`` naming every seat whose expected ``base_me - base_j`` clears
    the margin; ``gains`` already includes what the other seats' choices claim."""
    assert view.contract is not None
    wanted = frozenset(j for j, gain in gains.items() if gain > margin(view.contract))
    doubles = [a for a in view.legal if isinstance(a, Double)]
    allowed = frozenset().union(*(a.targets for a in doubles))
    return Double(wanted & allowed)
