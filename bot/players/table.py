"""Playing deals with four computer players through the public engine API.

The arena and the tests use this loop: deal the given hands, ask the seat to act for an
action through its :class:`~bot.players.base.Player`, check nothing (``Match.apply``
refuses anything illegal), and time every real decision. A decision with one legal
action is applied without asking, as the table service does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.rules import STANDARD, Rules
from bot.engine.view import seat_view

from .base import Player

Hands = tuple[tuple[Card, ...], ...]


@dataclass
class DealResult:
    """One deal as played: its contract and each seat's final score (after doubling)."""

    contract: str
    scores: list[int]


@dataclass
class Played:
    """The deals of one match (or the start of one) and the timed decisions per seat."""

    deals: list[DealResult] = field(default_factory=list)
    times: list[list[float]] = field(default_factory=lambda: [[], [], [], []])


def decision_rng(*key: object) -> random.Random:
    """A random source seeded from a readable key, the same in every process and run."""
    return random.Random("/".join(str(part) for part in key))


def play_deals(
    players: Sequence[Player],
    deals: Sequence[Hands],
    *,
    first_dealer: int,
    budget: float,
    seed_key: str,
    rules: Rules = STANDARD,
) -> Played:
    """Play ``deals`` (the hands of the first deals of a match) with ``players`` by seat."""
    match = Match(first_dealer=first_dealer, rules=rules)
    played = Played()
    step = 0
    for hands in deals:
        match.start_deal(hands)
        deal = match.deal
        assert deal is not None
        while not deal.is_done:
            seat = deal.to_act
            assert seat is not None
            legal = match.legal_actions()
            if len(legal) == 1:
                match.apply(legal[0], seat)
                continue
            view = seat_view(match, seat)
            rng = decision_rng(seed_key, step)
            start = time.perf_counter()
            action = players[seat].choose_action(view, rng, budget)
            played.times[seat].append(time.perf_counter() - start)
            match.apply(action, seat)
            step += 1
        assert deal.contract is not None
        played.deals.append(DealResult(deal.contract.id, deal.final_scores()))
    return played
