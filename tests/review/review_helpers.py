"""Finished matches for the review's tests, played through the public engine API."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine.actions import PASS, Action, Choose, Play
from bot.engine.cards import CARDS, Card, Suit
from bot.engine.match import Match
from bot.engine.record import to_record
from bot.engine.rules import STANDARD, Rules
from bot.engine.view import seat_view
from bot.players.normal import NormalPlayer
from bot.review import DealReview, ReviewSettings, review_deal

PLAYERS = ("Ann", "Bob", "Cas", "Dirk")


def finish(match: Match, rng: random.Random) -> None:
    """Play ``match`` to its end with normal players, dealing from ``rng``."""
    normal = NormalPlayer()
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        match.apply(normal.choose_action(seat_view(match, match.to_act), rng, 0.0))


def normal_match(seed: int, rules: Rules = STANDARD) -> dict[str, Any]:
    """The record of a whole match of four normal players, dealt from ``seed``."""
    rng = random.Random(seed)
    match = Match(PLAYERS, first_dealer=seed % 4, rules=rules)
    finish(match, rng)
    return to_record(match)


def scripted_match(
    hands: Sequence[Sequence[Card]], actions: Sequence[Action], seed: int = 1
) -> dict[str, Any]:
    """A finished match whose first deal has ``hands`` and starts with ``actions``; the
    rest of it, and every later deal, is played by normal players."""
    match = Match(PLAYERS)
    match.start_deal(hands)
    for action in actions:
        match.apply(action)
    finish(match, random.Random(seed))
    return to_record(match)


def cards_of(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


def kingjacks_blunder() -> dict[str, Any]:
    """Kingjacks; seat 1 holds every spade but the 2 and the 2♣. It takes the first
    trick with the 3♠ (seat 2's 2♠ is the last spade out), then leads the K♠ although
    nobody else holds a spade, instead of the 2♣ that every other club beats."""
    spades = [card for card in CARDS if card.suit is Suit.SPADES and card.rank > 2]
    hands = [
        [card for card in CARDS if card.suit is Suit.HEARTS],
        [*spades, Card.parse("2C")],
        cards_of("2S") + [card for card in CARDS if card.suit is Suit.CLUBS and card.rank > 2],
        [card for card in CARDS if card.suit is Suit.DIAMONDS],
    ]
    actions = [Choose("kingjacks"), PASS, PASS, PASS, PASS]
    actions += [Play(card) for card in cards_of("3S 2S 2D 2H KS")]
    return scripted_match(hands, actions)


_searched: dict[tuple[str, int, int, ReviewSettings], DealReview] = {}
"""Each deal's review :func:`review_each_deal_once` has searched in this process."""


def review_each_deal_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let ``python -m bot.review`` search each deal once in this test process: another
    run on the same record, seat and settings (to read the same review as JSON or in
    another language, in this test or another) is given the deals' reviews searched
    before. The search is seeded, so searching again would give the same review
    (test_review_analysis.py's ``test_the_same_seed_gives_the_same_review...`` checks);
    only the words differ."""

    def once(record: Any, seat: int, deal: int, settings: ReviewSettings) -> DealReview:
        key = (json.dumps(record, sort_keys=True), seat, deal, settings)
        if key not in _searched:
            _searched[key] = review_deal(record, seat, deal, settings)
        return _searched[key]

    monkeypatch.setattr("bot.review.__main__.review_deal", once)
