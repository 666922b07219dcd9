"""One-line reasons for a card's loss, only where the position proves them.

The search says *that* a card lost points; a player also wants to know *why*. A few
patterns can be read off the position with certainty, by counting cards and from the
trick on the table, and only those are said: a reason is never a guess. When none of
them fits, the decision has no reason, and the review shows the better card alone.

Each pattern is a message in English with ``{placeholders}`` (a card code, a suit
letter), marked for the catalogue here; the front end translates it and writes the
cards in the reader's words (:func:`bot.render.review.reason_text`). The patterns (``key``):

- ``sure_winner``: a lead in a negative contract that nobody else could follow, so it
  was certain to take a trick that cost points, while the better card was certain to
  lose (every card of its suit still out is higher);
- ``duck_under``: following in a negative contract with a card over the one winning,
  taking a trick that cost points, when the better card was under it;
- ``kept_too_long``: unable to follow in a negative contract, keeping a point card that
  costs more than the one discarded, and taking it later in the deal;
- ``discard``: the same, without the later trick;
- ``last_wins``: last to play in a trump contract, a card that lost the trick when the
  better card would have taken it.
"""

from __future__ import annotations

from bot.engine.cards import CARDS, Card
from bot.engine.deal import Deal, trick_winner
from bot.engine.view import SeatView
from bot.i18n import N_

from .result import Explanation

SURE_WINNER = N_(
    "nobody else held a {suit}: {chosen} was sure to take the trick, {better} sure to lose it"
)
DUCK_UNDER = N_("{better} would have stayed under the {winning}; {chosen} took the trick")
KEPT_TOO_LONG = N_("kept {better} too long: it could have gone on this {suit} trick")
DISCARD = N_("you had no {suit}: {better} could have gone on this trick")
LAST_WINS = N_("last to play, {better} would have taken this trick")


def explain(view: SeatView, chosen: Card, better: Card, deal: Deal) -> Explanation | None:
    """The reason ``better`` was the better card than ``chosen`` in ``view`` (the seat's
    view before it played), if one of the patterns proves it; ``deal`` is the finished
    deal, for what happened to the trick and to the cards later. None otherwise."""
    contract = view.contract
    if contract is None or contract.domino or chosen is better:
        return None
    trick = deal.tricks[len(view.tricks)]  # the trick this card went to
    if contract.is_trump_option:
        return _last_wins(view, chosen, better)
    if trick.winner == view.seat and trick.points < 0:
        reason = _sure_winner(view, chosen, better) or _duck_under(view, chosen, better)
        if reason is not None:
            return reason
    return _discard(view, chosen, better, deal)


def _unseen(view: SeatView, suit: int) -> list[Card]:
    """The cards of ``suit`` the seat has neither held nor seen played: the others'."""
    seen = set(view.hand) | {card for _, card in view.plays}
    return [card for card in CARDS if card.suit == suit and card not in seen]


def _sure_winner(view: SeatView, chosen: Card, better: Card) -> Explanation | None:
    if view.trick or _unseen(view, chosen.suit):
        return None
    out = _unseen(view, better.suit)
    if not out or any(card.rank < better.rank for card in out):
        return None
    values = {"suit": chosen.suit.letter, "chosen": chosen.code, "better": better.code}
    return Explanation("sure_winner", SURE_WINNER, tuple(values.items()))


def _duck_under(view: SeatView, chosen: Card, better: Card) -> Explanation | None:
    if not view.trick:
        return None
    led = view.trick[0][1].suit
    winning = max((card for _, card in view.trick if card.suit is led), key=lambda c: c.rank)
    if not (chosen.suit is better.suit is led and better.rank < winning.rank < chosen.rank):
        return None
    values = {"better": better.code, "winning": winning.code, "chosen": chosen.code}
    return Explanation("duck_under", DUCK_UNDER, tuple(values.items()))


def _discard(view: SeatView, chosen: Card, better: Card, deal: Deal) -> Explanation | None:
    contract = view.contract
    if contract is None or not view.trick:
        return None
    led = view.trick[0][1].suit
    if any(card.suit is led for card in view.hand):
        return None  # it could follow: not a discard
    table = contract.point_table
    if not table[better.index] < min(0, table[chosen.index]):
        return None
    values = {"better": better.code, "suit": led.letter}
    later = deal.tricks[len(view.tricks) + 1 :]
    if any(t.winner == view.seat and better in t.cards for t in later):
        return Explanation("kept_too_long", KEPT_TOO_LONG, tuple(values.items()))
    return Explanation("discard", DISCARD, tuple(values.items()))


def _last_wins(view: SeatView, chosen: Card, better: Card) -> Explanation | None:
    if len(view.trick) != 3:
        return None
    assert view.contract is not None
    cards = [card for _, card in view.trick]
    trump = view.contract.trump
    if trick_winner([*cards, better], trump) != 3 or trick_winner([*cards, chosen], trump) == 3:
        return None
    return Explanation("last_wins", LAST_WINS, (("better", better.code),))
