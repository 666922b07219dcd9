"""The hindsight line: a card of the last tricks valued with all four hands known.

Once the match is over the real deal is known, and a small enough endgame can be solved
exactly on it: every seat playing the card best for its own final score, seeing every
hand (max^n, :class:`~bot.players.endgame.EndgameSolver`). That is not what the player
could know, so it is shown apart, as "with all cards known", and never counted in the
fair review's losses. It covers the trick contracts' last
:data:`~bot.players.hard.ENDGAME_TRICKS` tricks (where the hard player solves its
guesses exactly too); Domino has no such solver and no hindsight line.
"""

from __future__ import annotations

from bot.engine.actions import Play
from bot.engine.deal import Deal, settle_seat
from bot.engine.fast import play_card, position_from_deal
from bot.players.endgame import EndgameSolver
from bot.players.hard import ENDGAME_TRICKS

from .result import Hindsight, Option, points


def hindsight(deal: Deal, chosen: Play) -> Hindsight | None:
    """The hindsight line of ``chosen``, the card the seat to act in ``deal`` (the real
    deal, before the card) played; None outside the last tricks of a trick contract."""
    contract, seat = deal.contract, deal.to_act
    assert contract is not None and seat is not None
    if contract.domino or len(deal.hand(seat)) > ENDGAME_TRICKS:
        return None
    root = position_from_deal(deal)
    solver = EndgameSolver(contract, deal.multipliers, seat, "maxn")
    options = []
    for card in deal.legal_cards():
        pos = root.copy()
        play_card(pos, card.index)
        value = settle_seat(pos.base, deal.multipliers, seat) + solver.value(pos)
        options.append(Option(Play(card).code, points(value)))
    best = max(options, key=lambda option: option.value)
    played = next(option for option in options if option.action == chosen.code)
    return Hindsight(tuple(options), best.action, points(best.value - played.value))
