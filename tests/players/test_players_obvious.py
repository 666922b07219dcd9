"""Positions with an obvious move, per contract: normal and hard both find it."""

from __future__ import annotations

import random

import pytest

from bot.engine.actions import Action, Choose, Double, Play
from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.view import SeatView, seat_view
from bot.players.base import Player
from bot.players.hard import HardPlayer
from bot.players.normal import NormalPlayer
from tests.players.players_helpers import hands_with, position

PLAYERS: dict[str, Player] = {"normal": NormalPlayer(), "hard": HardPlayer(wall_clock=False)}

CLUBS = [f"{r}C" for r in "23456789TJQKA"]
DIAMONDS = [f"{r}D" for r in "23456789TJQKA"]
HEARTS = [f"{r}H" for r in "23456789TJQKA"]
SPADES = [f"{r}S" for r in "23456789TJQKA"]


def _kingofhearts() -> SeatView:
    # Seat 3 is void in clubs and holds the K♥: shed it.
    hands = hands_with({3: ["KH", *DIAMONDS[:12]], 1: CLUBS}, fill=[2, 0])
    return position("kingofhearts", hands, ["2C", "AD"])


def _queens() -> SeatView:
    # The A♠ is winning and seat 3 holds Q♠ and 2♠: drop the queen under it.
    hands = hands_with(
        {1: ["KS", *CLUBS[:12]], 2: ["AS", "AC", *DIAMONDS[:11]], 3: ["QS", "2S", *HEARTS[:11]]},
        fill=[0],
    )
    return position("queens", hands, ["KS", "AS"])


def _kingjacks() -> SeatView:
    # Void in clubs with K♦ and J♦: the king costs most, shed it.
    hands = hands_with({3: ["KD", "JD", *HEARTS[:11]], 1: CLUBS}, fill=[2, 0])
    return position("kingjacks", hands, ["2C", "AH"])


def _hearts() -> SeatView:
    # Void in clubs: shed the highest heart.
    hands = hands_with({3: ["AH", "KH", "2H", *DIAMONDS[:10]], 1: CLUBS}, fill=[2, 0])
    return position("hearts", hands, ["2C", "QD"])


def _ducking() -> SeatView:
    # The A♣ is winning: duck with the K♣, keep the 2♣.
    hands = hands_with(
        {1: ["AC", *DIAMONDS[:12]], 2: ["3C", *HEARTS[:12]], 3: ["KC", "2C", *SPADES[:11]]},
        fill=[0],
    )
    return position("ducking", hands, ["AC", "3C"])


def _lasttrick() -> SeatView:
    # Trick 12, seat 1 holds A♠ and 2♣: lead the ace, keep the two for the last trick
    # (seat 3's K♣ must take it). Leading the 2♣ lets seat 3 lead the 2♠ to the ace.
    hands = [
        [Card.parse(c) for c in [*CLUBS[1:11], "KS", "2D", "AH"]],
        [Card.parse(c) for c in [*DIAMONDS[2:], "2C", "AS"]],
        [Card.parse(c) for c in [*HEARTS[:12], "AC"]],
        [Card.parse(c) for c in [*SPADES[:11], "KC", "3D"]],
    ]
    seat2 = ["AC", *reversed(HEARTS[2:12])]
    seat3 = ["3D", *reversed(SPADES[1:11])]
    seat0 = ["2D", *reversed(CLUBS[2:11]), "KS"]
    plays = []
    for t, lead in enumerate(reversed(DIAMONDS[2:])):
        plays += [lead, seat2[t], seat3[t], seat0[t]]
    return position("lasttrick", hands, plays)


def _domino() -> SeatView:
    # 8♠ unlocks eleven of seat 2's spades; the 9♥ would only open the 10♥ for others.
    hands = hands_with({1: ["8H", *CLUBS[:12]], 2: [*SPADES[:11], "9H", "AD"]}, fill=[3, 0])
    return position("domino", hands, ["8H"])


def _trumps() -> SeatView:
    # Last to play, void in hearts: ruff the A♥ with the 2♠, keep the A♠.
    hands = hands_with({0: ["2S", "AS", *CLUBS[:11]], 1: ["AH", *DIAMONDS[:12]]}, fill=[2, 3])
    return position("trump-spades", hands, ["AH", "2H", "QH"])


def _notrump() -> SeatView:
    # Last to play under the A♣: keep the K♣, now the master, and play the 3♣.
    hands = hands_with({1: ["AC", *DIAMONDS[:12]], 0: ["KC", "3C", *HEARTS[:11]]}, fill=[2, 3])
    return position("trump-notrump", hands, ["AC", "2C", "2S"])


def _choose_spades() -> SeatView:
    match = Match()
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH", "AD", "KD", "AC"]
    match.start_deal(hands_with({2: strong}, fill=[0, 1, 3]))
    return seat_view(match, 2)


def _double_strong() -> SeatView:
    match = Match()
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "AD", "AC", "KH", "KD", "KC"]
    match.start_deal(hands_with({3: strong}, fill=[0, 1, 2]))
    match.apply(Choose("trump-spades"))
    return seat_view(match, 3)


CASES = {
    "kingofhearts": (_kingofhearts, {"KH"}),
    "queens": (_queens, {"QS"}),
    "kingjacks": (_kingjacks, {"KD"}),
    "hearts": (_hearts, {"AH", "KH"}),
    "ducking": (_ducking, {"KC"}),
    "lasttrick": (_lasttrick, {"AS"}),
    "domino": (_domino, {"8S"}),
    "trump-spades": (_trumps, {"2S"}),
    "trump-notrump": (_notrump, {"3C"}),
}


def _decide(level: str, view: SeatView) -> Action:
    return PLAYERS[level].choose_action(view, random.Random(7), 0.1)


@pytest.mark.parametrize("level", list(PLAYERS))
@pytest.mark.parametrize("case", list(CASES))
def test_obvious_card(level: str, case: str) -> None:
    build, expected = CASES[case]
    action = _decide(level, build())
    assert isinstance(action, Play)
    assert action.card.code in expected


@pytest.mark.parametrize("level", list(PLAYERS))
def test_chooses_a_trump_option_with_a_long_strong_suit(level: str) -> None:
    # Eight spades to the ace-king-queen and four more top cards take about every trick
    # with spades as trumps or with none, so either is right.
    action = _decide(level, _choose_spades())
    assert action in (Choose("trump-spades"), Choose("trump-notrump"))


@pytest.mark.parametrize("level", list(PLAYERS))
def test_doubles_with_a_hand_that_takes_most_tricks(level: str) -> None:
    action = _decide(level, _double_strong())
    assert isinstance(action, Double)
    assert action.targets
