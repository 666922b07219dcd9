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
  better card would have taken it;
- ``sure_trick``: in a trump contract, a card that lost the trick when the better card
  would have taken it whatever the others hold (no card still out could beat it);
- ``sure_duck``: in a negative contract, a card that took a trick that cost points when
  the better card would have stayed out of it whatever the others hold (a card off the
  led suit or under the winning one; a lead under every card of its suit still out);
- ``every_deal``: none of these, but the loss is certain (:mod:`.grades`): the better
  card scored more in every deal the search tried.
"""

from __future__ import annotations

from bot.engine.cards import CARDS, Card, Suit
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
SURE_TRICK = N_("whatever the others hold, {better} takes this trick; {chosen} lost it")
SURE_DUCK = N_("whatever the others hold, {better} stays out of this trick; {chosen} took it")
EVERY_DEAL = N_("{better} scored more in every deal the search tried")


def explain(
    view: SeatView, chosen: Card, better: Card, deal: Deal, certain: bool = False
) -> Explanation | None:
    """The reason ``better`` was the better card than ``chosen`` in ``view`` (the seat's
    view before it played), if one of the patterns proves it; ``deal`` is the finished
    deal, for what happened to the trick and to the cards later; ``certain``, whether the
    search found the loss in every deal it tried (``every_deal`` when no pattern fits).
    None otherwise."""
    reason = _pattern(view, chosen, better, deal)
    if reason is None and certain and chosen is not better:
        return Explanation("every_deal", EVERY_DEAL, (("better", better.code),))
    return reason


def _pattern(view: SeatView, chosen: Card, better: Card, deal: Deal) -> Explanation | None:
    contract = view.contract
    if contract is None or contract.domino or chosen is better:
        return None
    trick = deal.tricks[len(view.tricks)]  # the trick this card went to
    if contract.is_trump_option:
        reason = _last_wins(view, chosen, better)
        if reason is None and trick.winner != view.seat and _takes_for_sure(view, better):
            values = {"better": better.code, "chosen": chosen.code}
            reason = Explanation("sure_trick", SURE_TRICK, tuple(values.items()))
        return reason
    if trick.winner == view.seat and trick.points < 0:
        reason = _sure_winner(view, chosen, better) or _duck_under(view, chosen, better)
        if reason is None and _stays_out_for_sure(view, better):
            values = {"better": better.code, "chosen": chosen.code}
            reason = Explanation("sure_duck", SURE_DUCK, tuple(values.items()))
        if reason is not None:
            return reason
    return _discard(view, chosen, better, deal)


def _unseen(view: SeatView, suit: int) -> list[Card]:
    """The cards of ``suit`` the seat has neither held nor seen played: the others'."""
    seen = set(view.hand) | {card for _, card in view.plays}
    return [card for card in CARDS if card.suit == suit and card not in seen]


def _takes_for_sure(view: SeatView, card: Card) -> bool:
    """Whether ``card`` would take the trick in play whatever the others hold: it beats
    the cards already in it, and no card still out could beat it (a higher card of its
    suit; a trump, unless it is a trump itself)."""
    assert view.contract is not None
    trump = view.contract.trump
    cards = [played for _, played in view.trick]
    if trick_winner([*cards, card], trump) != len(cards):
        return False
    if len(cards) == 3:
        return True
    out = [other for suit in Suit for other in _unseen(view, suit)]
    return not any(
        (other.suit is card.suit and other.rank > card.rank)
        or (other.suit is trump and card.suit is not trump)
        for other in out
    )


def _stays_out_for_sure(view: SeatView, card: Card) -> bool:
    """Whether ``card`` would stay out of the trick in play whatever the others hold, in
    a contract without trumps: off the led suit or under the card winning it, or, led,
    under every card of its suit still out (someone must follow over it)."""
    cards = [played for _, played in view.trick]
    if cards:
        return trick_winner([*cards, card], None) != len(cards)
    out = _unseen(view, card.suit)
    return bool(out) and all(other.rank > card.rank for other in out)


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
