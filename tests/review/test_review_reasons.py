"""The reasons and the hindsight line, on positions built card by card: each reason is
said only where the position proves it, and hindsight solves the real deal."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot import i18n
from bot.engine.actions import PASS, Choose, Play
from bot.engine.cards import CARDS, Card, Suit
from bot.engine.match import Match
from bot.engine.view import SeatView, seat_view
from bot.render.review import reason_text
from bot.review.hindsight import hindsight
from bot.review.reasons import explain
from bot.review.result import Explanation


def _cards(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


def _suit(suit: Suit, ranks: range) -> list[Card]:
    return [card for card in CARDS if card.suit is suit and card.rank in ranks]


def _played(
    hands: Sequence[Sequence[Card]], contract: str, before: str, after: str
) -> tuple[Match, SeatView]:
    """The first deal of a match with ``hands`` and ``contract``: the cards ``before``
    are played, the view of the seat to act is taken, then the cards ``after``."""
    match = Match()
    match.start_deal(hands)
    match.apply(Choose(contract))
    for _ in range(4):
        match.apply(PASS)
    for card in _cards(before):
        match.apply(Play(card))
    assert match.to_act is not None
    view = seat_view(match, match.to_act)
    for card in _cards(after):
        match.apply(Play(card))
    return match, view


def _reason(match: Match, view: SeatView, chosen: str, better: str) -> Explanation | None:
    return explain(view, Card.parse(chosen), Card.parse(better), match.deals[0])


def _queens_hands() -> list[list[Card]]:
    """Seat 3 holds the Q♠ alone with twelve hearts; seat 2 the A♣ and the high spades."""
    return [
        [*_cards("AH"), *_suit(Suit.DIAMONDS, range(3, 15))],
        [*_suit(Suit.CLUBS, range(2, 14)), *_cards("2S")],
        [*_cards("AC 2D KS AS"), *_suit(Suit.SPADES, range(3, 12))],
        [*_cards("QS"), *_suit(Suit.HEARTS, range(2, 14))],
    ]


def test_a_point_card_kept_and_taken_later_was_kept_too_long() -> None:
    # Seat 3 cannot follow the 2♣ and keeps the Q♠; the 3♠ led next forces it out, and
    # it takes its own queen.
    match, view = _played(_queens_hands(), "queens", "2C AC", "2H 3D 3S QS 4D 2S")
    assert match.deals[0].tricks[1].winner == 3
    reason = _reason(match, view, "2H", "QS")
    assert reason is not None and reason.key == "kept_too_long"
    assert dict(reason.values) == {"better": "QS", "suit": "C"}


def test_a_point_card_kept_but_not_taken_later_is_only_a_missed_discard() -> None:
    match, view = _played(_queens_hands(), "queens", "2C AC", "2H 3D KS QS 4D 2S")
    assert match.deals[0].tricks[1].winner == 2
    reason = _reason(match, view, "2H", "QS")
    assert reason is not None and reason.key == "discard"
    assert reason.message.format(**dict(reason.values)) == (
        "you had no C: QS could have gone on this trick"
    )


def test_a_card_over_the_winning_one_that_took_the_trick_could_have_ducked() -> None:
    hands = [
        [*_cards("KH AH"), *_suit(Suit.DIAMONDS, range(4, 15))],
        [*_suit(Suit.SPADES, range(3, 9)), *_suit(Suit.CLUBS, range(2, 9))],
        [*_cards("9S TS JS KS AS 2D 3D"), *_suit(Suit.CLUBS, range(9, 15))],
        [*_cards("QS 2S"), *_suit(Suit.HEARTS, range(2, 13))],
    ]
    match, view = _played(hands, "queens", "5S 9S", "QS 4D")
    reason = _reason(match, view, "QS", "2S")
    assert reason is not None and reason.key == "duck_under"
    assert dict(reason.values) == {"better": "2S", "winning": "9S", "chosen": "QS"}
    # A card under the winning one was never the trick's taker: nothing to say.
    assert _reason(match, view, "2S", "QS") is None


def _trumps(card: str) -> tuple[Match, SeatView]:
    # Seat 0 plays ``card`` last to the A♥, void in hearts, with the 2♠ (a trump) and clubs.
    spades = _cards("2S AS")
    clubs = _suit(Suit.CLUBS, range(2, 13))
    seat1 = [*_cards("AH"), *_suit(Suit.DIAMONDS, range(2, 14))]
    rest = [c for c in CARDS if c not in spades and c not in clubs and c not in seat1]
    hands = [[*spades, *clubs], seat1, rest[:13], rest[13:]]
    return _played(hands, "trump-spades", "AH 2H QH", card)


def test_last_to_play_in_trumps_a_card_that_loses_the_trick_when_another_takes_it() -> None:
    match, view = _trumps("2C")
    reason = _reason(match, view, "2C", "2S")
    assert reason is not None and reason.key == "last_wins"
    assert dict(reason.values) == {"better": "2S"}
    match, view = _trumps("AS")
    assert _reason(match, view, "AS", "2S") is None  # both take it: no reason


def _trump_lead() -> tuple[Match, SeatView]:
    # Spades trumps: seat 1 leads the 2♣ holding the A♠ and the A♦; seat 2 takes the
    # trick with the A♣, seat 3 (every other spade) sheds a diamond.
    hands = [
        _suit(Suit.HEARTS, range(2, 15)),
        [*_cards("AS 2C"), *_suit(Suit.DIAMONDS, range(4, 15))],
        [*_cards("3D"), *_suit(Suit.CLUBS, range(3, 15))],
        [*_cards("2D"), *_suit(Suit.SPADES, range(2, 14))],
    ]
    return _played(hands, "trump-spades", "", "2C AC 2D 2H")


def test_a_trick_lost_that_a_card_no_other_can_beat_would_have_taken() -> None:
    match, view = _trump_lead()
    assert match.deals[0].tricks[0].winner == 2
    reason = _reason(match, view, "2C", "AS")
    assert reason is not None and reason.key == "sure_trick"
    assert reason.message.format(**dict(reason.values)) == (
        "whatever the others hold, AS takes this trick; 2C lost it"
    )
    with i18n.using("nl"):
        assert reason_text(reason) == "wat de anderen ook hebben, A♠ wint deze slag; 2♣ verloor hem"


def test_a_card_that_a_trump_still_out_could_beat_is_not_sure_to_take_the_trick() -> None:
    match, view = _trump_lead()
    assert _reason(match, view, "2C", "AD") is None  # seat 3 may hold a spade and no ♦
    # A certain loss no pattern explains says only what the search found.
    reason = explain(view, Card.parse("2C"), Card.parse("AD"), match.deals[0], certain=True)
    assert reason is not None and reason.key == "every_deal"
    assert reason.message.format(**dict(reason.values)) == (
        "AD scored more in every deal the search tried"
    )


def test_a_lead_that_someone_else_may_still_follow_is_no_sure_winner() -> None:
    # Seat 1 leads first; seat 2 still holds a spade, so no spade is sure to win.
    hands = [
        _suit(Suit.HEARTS, range(2, 15)),
        [*_suit(Suit.SPADES, range(3, 15)), *_cards("2C")],
        [*_cards("2S"), *_suit(Suit.CLUBS, range(3, 15))],
        _suit(Suit.DIAMONDS, range(2, 15)),
    ]
    match, view = _played(hands, "kingjacks", "", "KS 2S 2D 2H")
    reason = _reason(match, view, "KS", "2C")
    # Only that the 2♣ was sure to lose: every club still out is higher.
    assert reason is not None and reason.key == "sure_duck"
    assert dict(reason.values) == {"better": "2C", "chosen": "KS"}


def _last_trick_endgame() -> Match:
    # Trick 12 of Last trick: seat 1 leads, holding A♠ and 2♣; seat 3 holds K♣ and 2♠.
    hands = [
        [*_suit(Suit.CLUBS, range(3, 13)), *_cards("KS 2D AH")],
        [*_suit(Suit.DIAMONDS, range(4, 15)), *_cards("2C AS")],
        [*_suit(Suit.HEARTS, range(2, 14)), *_cards("AC")],
        [*_suit(Suit.SPADES, range(2, 13)), *_cards("KC 3D")],
    ]
    # Seat 1 leads its eleven diamonds and takes every trick; the others shed.
    leads = [f"{r}D" for r in "AKQJT987654"]
    seat2 = ["AC", *(f"{r}H" for r in "KQJT98765"), "4H"]
    seat3 = ["3D", *(f"{r}S" for r in "QJT98765"), "4S", "3S"]
    seat0 = ["2D", *(f"{r}C" for r in "QJT98765"), "4C", "KS"]
    plays = [card for trick in zip(leads, seat2, seat3, seat0, strict=True) for card in trick]
    match, _ = _played(hands, "lasttrick", " ".join(plays), "")
    return match


def test_hindsight_solves_the_last_tricks_on_the_real_hands() -> None:
    match = _last_trick_endgame()
    deal = match.deals[0]
    assert len(deal.hand(1)) == 2 and deal.to_act == 1
    line = hindsight(deal, Play(Card.parse("2C")))
    assert line is not None
    assert line.best == "P:AS"
    assert line.loss == 50.0  # the 2♣ lets seat 3 lead the 2♠ to the ace
    assert {option.action for option in line.options} == {"P:AS", "P:2C"}
    played = hindsight(deal, Play(Card.parse("AS")))
    assert played is not None and played.loss == 0.0


def test_no_hindsight_before_the_last_tricks_nor_in_domino() -> None:
    match, _ = _played(_queens_hands(), "queens", "2C", "")
    assert hindsight(match.deals[0], Play(Card.parse("AC"))) is None
    match = Match()
    match.start_deal(_queens_hands())
    match.apply(Choose("domino"))
    for _ in range(4):
        match.apply(PASS)
    deal = match.deals[0]
    with pytest.raises(StopIteration):
        next(card for card in deal.legal_cards() if hindsight(deal, Play(card)) is not None)
