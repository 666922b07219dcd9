"""Matches played by computers, their reviews and daily attempts, for the viewer's tests."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from bot.engine.match import Match
from bot.engine.record import to_record
from bot.engine.view import seat_view
from bot.players.normal import NormalPlayer
from bot.review import PlayerReview, ReviewSettings, assemble, review_deal
from bot.review.analysis import finished_match
from bot.review.replay import Replay
from bot.tables.table import computer_name
from tests.review.review_helpers import normal_match

QUICK = ReviewSettings(seed=2, work=2_000, batches=1)
"""A review's smallest budget: its grades are rough, its decisions real."""


@cache
def record(seed: int) -> dict[str, Any]:
    """A whole match of four normal computer players, as the store keeps it."""
    return normal_match(seed)


def replay(seed: int) -> Replay:
    """The match's replay, from its record as the bot's replay gets it."""
    return Replay.from_record(record(seed))


@cache
def review(seed: int, seat: int) -> PlayerReview:
    """``seat``'s review of the match, every deal reviewed on :data:`QUICK`."""
    match = finished_match(record(seed))
    deals = [review_deal(record(seed), seat, deal, QUICK) for deal in range(len(match.deals))]
    return assemble(match, seat, QUICK, deals)


def attempt(seed: int, deals: int, *, unfinished: int | None = None) -> list[dict[str, Any]]:
    """A daily attempt's records: ``deals`` matches of one deal each, played by normal
    players; deal ``unfinished`` (0-based) stops after its contract, as a closed day
    keeps a deal its player left."""
    rng, normal = random.Random(seed), NormalPlayer()
    names = ("Ann", *(computer_name(seat) for seat in range(1, 4)))
    records = []
    for index in range(deals):
        match = Match(names, first_dealer=index % 4)
        match.deal_random(rng)
        acted = 0
        while match.to_act is not None and not (index == unfinished and acted == 1):
            match.apply(normal.choose_action(seat_view(match, match.to_act), rng, 0.0))
            acted += 1
        records.append(to_record(match))
    return records
