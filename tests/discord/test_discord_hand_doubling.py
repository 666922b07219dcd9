"""The hand message on a doubling turn that can only be a pass says why and offers Pass."""

from __future__ import annotations

from bot.engine import Choose, Double, Match, rules_for, seat_view
from bot.engine.cards import Card
from bot.tables import SeatInfo
from bot.ui.hand import hand_message

HANDS = [  # seat 0 holds no ace and no 2; standard, dealer 0: seat 2 chooses, 3 doubles first
    "3C 4C 5C 6C 7C 8C 3D 4D 5D 6D 7D 8D 3H",
    "AC 2D 9C TC JC QC KC 9D TD JD QD KD 4H",
    "2C AD AH 2H 5H 6H 7H 8H 9H TH JH QH KH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]
SEATS = [SeatInfo(name, None, "normal", False, False) for name in ("N", "E", "S", "W")]


def _match(rules_name: str, contract: str) -> Match:
    rules = rules_for("standard", {"domino_doubling": rules_name})
    match = Match(rules=rules)
    match.start_deal([[Card.parse(code) for code in hand.split()] for hand in HANDS])
    match.apply(Choose(contract))
    return match


def _buttons(view) -> list[str]:  # type: ignore[no-untyped-def]
    return [item.custom_id for item in view.children]


async def test_without_an_ace_or_a_2_in_domino_the_hand_offers_only_pass_and_says_why() -> None:
    match = _match("ace_or_two", "domino")
    match.apply(Double.of(0))  # seat 3 doubles seat 0, who may not redouble
    text, ui = hand_message(7, 1, seat_view(match, 0), SEATS)
    assert "only a player holding an ace or a 2 may double" in text
    assert _buttons(ui) == ["bonken:dblok:7:1:D:-:pass"]


async def test_the_chooser_nobody_doubled_is_told_he_can_only_pass() -> None:
    match = _match("any", "queens")
    for _ in range(3):
        match.apply(Double.of())
    text, ui = hand_message(7, 3, seat_view(match, 2), SEATS)
    assert "Nobody doubled you" in text and len(_buttons(ui)) == 1


async def test_a_player_who_may_double_gets_the_toggles() -> None:
    match = _match("ace_or_two", "domino")
    text, ui = hand_message(7, 0, seat_view(match, 3), SEATS)
    assert "Toggle the players" in text
    assert len([b for b in _buttons(ui) if ":dbl:" in b]) == 3
