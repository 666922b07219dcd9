"""The doubling turn's margin: a seat is named when its expected gain clears the share of
the contract's size the player asks for (normal 10%, hard 5%)."""

from __future__ import annotations

from bot.engine.actions import Choose, Double
from bot.engine.match import Match
from bot.engine.view import SeatView, seat_view
from bot.players.bidding import doubling_turn
from bot.players.hard import DOUBLE_MARGIN
from tests.players.players_helpers import hands_with


def _doubling_turn() -> SeatView:
    match = Match()
    match.start_deal(hands_with({}, fill=[0, 1, 2, 3]))
    match.apply(Choose("trump-spades"))
    assert match.deal is not None and match.deal.to_act is not None
    view = seat_view(match, match.deal.to_act)
    assert isinstance(view.legal[0], Double)
    return view


def test_a_double_is_placed_only_where_the_gain_clears_the_asked_share() -> None:
    view = _doubling_turn()
    assert view.contract is not None
    size = abs(view.contract.total)
    others = [s for s in range(4) if s != view.seat]
    gains = {others[0]: 0.07 * size, others[1]: 0.12 * size, others[2]: -0.01 * size}
    assert doubling_turn(view, gains) == Double(frozenset({others[1]}))
    assert doubling_turn(view, gains, DOUBLE_MARGIN) == Double(frozenset(others[:2]))
    assert doubling_turn(view, gains, 0.2) == Double(frozenset())
