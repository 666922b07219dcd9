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

#: The share of a contract's size that a double's expected gain must clear.
MARGIN_SHARE = 0.1


def choice_value(contract: Contract, expected: float, premium: float = TRUMP_PREMIUM) -> float:
    """What choosing ``contract`` now is worth, given this hand's expected base score
    (a trump option less ``premium``)."""
    average, spent = choice_costs(contract, premium)
    return expected - average - spent


def choice_costs(contract: Contract, premium: float = TRUMP_PREMIUM) -> tuple[float, float]:
    """What :func:`choice_value` takes off a hand's expected base score in ``contract``,
    one after the other: the contract's average per seat, then ``premium`` for a trump
    option (0 for any other)."""
    return contract.total / 4, premium if contract.is_trump_option else 0.0


def best_choice(
    view: SeatView, expected: Mapping[str, float], premium: float = TRUMP_PREMIUM
) -> Action:
    """The legal ``Choose`` with the highest :func:`choice_value`."""
    choices = [a for a in view.legal if isinstance(a, Choose)]
    contracts = view.rules.by_id
    return max(
        choices,
        key=lambda a: choice_value(contracts[a.contract], expected[a.contract], premium),
    )


def margin(contract: Contract, share: float = MARGIN_SHARE) -> float:
    """The expected gain a double must clear, in points."""
    return share * abs(contract.total)


def claimed_edge(view: SeatView, other: int) -> float:
    """How much better than average ``other`` is assumed to be, from his public choices."""
    assert view.contract is not None
    doubled_me = view.multipliers[other][view.seat] == 1
    return edge_claimed(other == view.chooser, doubled_me, margin(view.contract))


def edge_claimed(chose: bool, doubled: bool, need: float) -> float:
    """How much better than average a seat is assumed to be that ``chose`` the contract
    and ``doubled`` the seat asking, or not: the contract's margin ``need`` for choosing
    it, half of that for a double."""
    claimed = need if chose else 0.0
    if doubled:
        claimed += need / 2
    return claimed


def doubling_turn(
    view: SeatView, gains: Mapping[int, float], share: float = MARGIN_SHARE
) -> Action:
    """The legal ``Double`` naming every seat whose expected ``base_me - base_j`` clears
    the margin (``share`` of the contract's size); ``gains`` already includes what the
    other seats' choices claim."""
    assert view.contract is not None
    need = margin(view.contract, share)
    wanted = frozenset(j for j, gain in gains.items() if gain > need)
    doubles = [a for a in view.legal if isinstance(a, Double)]
    allowed = frozenset().union(*(a.targets for a in doubles))
    return Double(wanted & allowed)
