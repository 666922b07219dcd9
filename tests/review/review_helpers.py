"""Finished matches for the review's tests, played through the public engine API."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.record import to_record
from bot.engine.rules import STANDARD, Rules
from bot.engine.view import seat_view
from bot.players.normal import NormalPlayer

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
