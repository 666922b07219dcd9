"""Certain losses: a card the counting proves worse (the cards played and the player's
own hand settle it, whatever the unseen cards) is flagged with the right better card
even when its loss is a small share of the stake; a decision whose options score the
same in every deal is never flagged; a loss that only the average shows stays under the
noise line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine.actions import PASS, Choose, Play
from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.view import seat_view
from bot.players.hard import Evaluation
from bot.review import Grade, ReviewSettings, review_deal
from bot.review.__main__ import main
from bot.review.analysis import Batches
from tests.review.review_helpers import review_each_deal_once, scripted_match

FAST = ReviewSettings(seed=3, work=2_000, batches=3)


def _cards(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


def _played(hands: list[str], contract: str, tricks: list[str]) -> dict[str, Any]:
    """A finished match whose first deal has ``hands`` (seat 0 first) and ``contract``,
    its tricks played as ``tricks`` (each in play order, seat 1 leading the first); the
    rest of it, and every later deal, by normal players."""
    actions = [Choose(contract), PASS, PASS, PASS, PASS]
    actions += [Play(card) for trick in tricks for card in _cards(trick)]
    return scripted_match([_cards(hand) for hand in hands], actions)


def _decision(record: dict[str, Any], seat: int, play: int) -> Any:
    """``seat``'s review of the card it played as the ``play``-th (0-based) of deal 0."""
    review = review_deal(record, seat, 0, FAST)
    return next(d for d in review.decisions if d.kind == "play" and d.index == play)


def _trumps_trick_12(top: str, second: str, kept: str) -> dict[str, Any]:
    """Spades trumps. Seat 1 holds ``top`` and ``second`` of the spades, J♠ T♠ 9♠ and
    the diamonds from the ace to the 7; seat 3 keeps ``kept``, the only other spade out
    after seat 1's three spade leads. Seat 1 takes the first eleven tricks and leads
    ``second`` to trick 12: seat 3 must play its last spade to it."""
    hands = [
        "2S 7C 8C 9C TC JC QC KC AC JH QH KH AH",
        f"{top} {second} JS TS 9S AD KD QD JD TD 9D 8D 7D",
        "3S 4S 5S 2D 3D 4D 5D 6D 2C 3C 4C 5C 6C",
        f"{kept} 6S 7S 8S 2H 3H 4H 5H 6H 7H 8H 9H TH",
    ]
    tricks = [
        "JS 3S 6S 2S",
        "TS 4S 7S 7C",
        "9S 5S 8S 8C",
        "AD 6D 2H 9C",
        "KD 5D 3H TC",
        "QD 4D 4H JC",
        "JD 3D 5H QC",
        "TD 2D 6H KC",
        "9D 2C 7H AC",
        "8D 3C 8H JH",
        "7D 4C 9H QH",
        second,
    ]
    return _played(hands, "trump-spades", tricks)


def test_a_trick_given_away_in_a_trump_contract_is_flagged() -> None:
    # Trick 12: seat 1 holds A♠ and Q♠, seat 3 the K♠ alone among the cards out. The
    # A♠ takes trick 12 and the Q♠ then takes trick 13; led first, the Q♠ falls to the
    # K♠. One trick, 10 points of the 130 at stake: under the 10% line, but certain.
    record = _trumps_trick_12("AS", "QS", "KS")
    assert record["deals"][0]["plays"][44] == "QS"
    lead = _decision(record, 1, 44)
    assert (lead.chosen, lead.best) == ("P:QS", "P:AS")
    assert lead.loss == 10.0 and lead.stake == 130
    assert lead.loss < 0.1 * lead.stake
    assert lead.certain
    assert lead.grade is Grade.INACCURACY
    assert lead.reason is not None and lead.reason.key == "sure_trick"
    assert dict(lead.reason.values) == {"better": "AS", "chosen": "QS"}
    assert lead.reason.message.format(**dict(lead.reason.values)) == (
        "whatever the others hold, AS takes this trick; QS lost it"
    )
    assert lead.to_json()["class"] == "inaccuracy" and lead.to_json()["certain"] is True


def test_options_that_score_the_same_in_every_deal_are_never_flagged() -> None:
    # The same, but seat 1 holds A♠ and K♠ and seat 3 the Q♠: either card led takes
    # trick 12 and the other trick 13, whatever the others hold.
    record = _trumps_trick_12("AS", "KS", "QS")
    lead = _decision(record, 1, 44)
    assert {option.value for option in lead.options} == {lead.options[0].value}
    assert lead.loss == 0.0
    assert not lead.certain
    assert lead.grade is None and lead.reason is None


def _ducking_or_hearts(contract: str, seat3_last: str) -> dict[str, Any]:
    """Seat 1 leads its eleven clubs from the ace and takes every trick, then leads the
    5♠ to trick 12; seat 2 plays the 7♠, seat 3 ``seat3_last`` (its two last cards are
    the 6♠ and the 4♥ in Ducking, the 2♥ and the 4♦ in Hearts); seat 0 holds the 9♠ and
    the 2♠ and plays the 9♠. The cards still out after trick 12 are the K♠ (seat 1's)
    and two cards that score nothing (Hearts) or lose to it (Ducking)."""
    if contract == "ducking":
        seat2 = "7S 3H 3C 2C KH AH AS QS JS TS 8S 4S 3S"
        seat3 = "6S 4H KD AD 2H 5H 6H 7H 8H 9H TH JH QH"
        seat0 = "9S 2S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"
    else:
        seat2 = "7S 3D 3C 2C AH AS QS JS TS 8S 6S 4S 3S"
        seat3 = "2H 4D 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
        seat0 = "9S 2S 2D 5D 6D 7D 8D 9D TD JD QD KD AD"
    seat1 = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 5S KS"
    leads, two, three, zero = (hand.split() for hand in (seat1, seat2, seat3, seat0))
    # Seat 2 follows with its two small clubs, then sheds; seats 3 and 0 shed.
    tricks = [" ".join((leads[i], two[i + 2], three[i + 2], zero[i + 2])) for i in range(11)]
    tricks.append(f"5S 7S {seat3_last} 9S")
    return _played([seat0, seat1, seat2, seat3], contract, tricks)


def test_a_trick_taken_in_ducking_is_flagged() -> None:
    # Under the 7♠ the 2♠ stays out of trick 12, and the 9♠ kept to the last trick
    # stays out of it too (the K♠ or a heart takes it). The 9♠ takes trick 12 and the
    # 2♠ led to the last trick falls to the K♠: one trick, 5 of the 65 points at stake.
    record = _ducking_or_hearts("ducking", "6S")
    card = _decision(record, 0, 47)
    assert (card.chosen, card.best) == ("P:9S", "P:2S")
    assert card.loss == 5.0 and card.stake == 65
    assert card.certain and card.grade is Grade.INACCURACY
    assert card.reason is not None and card.reason.key == "duck_under"
    assert dict(card.reason.values) == {"better": "2S", "winning": "7S", "chosen": "9S"}


def test_a_heart_taken_in_hearts_is_flagged() -> None:
    # The same in Hearts, seat 3 discarding the 2♥ on trick 12: the 9♠ takes the heart,
    # and nothing that scores is left for the last trick. One heart, 5 of 65.
    record = _ducking_or_hearts("hearts", "2H")
    card = _decision(record, 0, 47)
    assert (card.chosen, card.best) == ("P:9S", "P:2S")
    assert card.loss == 5.0 and card.stake == 65
    assert card.certain and card.grade is Grade.INACCURACY
    assert card.reason is not None and card.reason.key == "duck_under"


def test_a_loss_under_the_line_that_only_the_average_shows_is_not_certain() -> None:
    match = Match()
    match.deal_random(random.Random(1))
    view = seat_view(match, 2)
    chosen, better, other = view.legal[0], view.legal[1], view.legal[2]

    def batch(deals: list[tuple[float, float]]) -> Evaluation:
        rows = tuple(
            tuple(mine if a == chosen else theirs if a == better else -200.0 for a in view.legal)
            for mine, theirs in deals
        )
        means = tuple(sum(row[i] for row in rows) / len(rows) for i in range(len(view.legal)))
        return Evaluation(view.legal, means, chosen, len(rows), rows)

    always = Batches(view, chosen, most=3)
    for _ in range(3):
        always.add(batch([(-10.0, 0.0), (-20.0, -10.0), (0.0, 10.0)]))
    _, _, best = always.options()
    assert best.action == better.code and always.certain(best, 10)
    assert not always.certain(best, 11)  # a lead smaller than the contract's unit

    mostly = Batches(view, chosen, most=3)
    mostly.add(batch([(-10.0, 0.0), (-20.0, -10.0)]))
    mostly.add(batch([(-10.0, 0.0), (0.0, 0.0)]))  # one deal where they score the same
    _, _, best = mostly.options()
    assert best.action == better.code and not mostly.certain(best, 5)
    assert other.code != best.action

    unkept = Batches(view, chosen, most=3)
    unkept.add(Evaluation(view.legal, batch([(-10.0, 0.0)]).values, chosen, 1))
    assert not unkept.certain(unkept.options()[2], 5)  # no deals kept: never certain


def test_the_command_lines_json_and_words_flag_the_trick_given_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    review_each_deal_once(monkeypatch)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(_trumps_trick_12("AS", "QS", "KS")))
    assert main([str(path), "--seat", "1", "--json", "--work", "2000"]) == 0
    review = json.loads(capsys.readouterr().out)
    lead = next(d for d in review["decisions"] if (d["deal"], d["index"]) == (0, 44))
    assert (lead["chosen"], lead["best"], lead["loss"]) == ("QS", "AS", 10.0)
    assert lead["class"] == "inaccuracy" and lead["certain"] is True
    assert review["counts"]["inaccuracy"] >= 1
    assert main([str(path), "--seat", "1", "--work", "2000", "--lang", "en"]) == 0
    words = capsys.readouterr().out
    assert (
        "deal 1 (Spades trumps), trick 12: Q♠ instead of A♠, 10 points lost (inaccuracy ?!): "
        "whatever the others hold, A♠ takes this trick; Q♠ lost it"
    ) in words
