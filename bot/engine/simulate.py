"""Random legal play through the public API: for the CLI, property tests and benchmarks."""

from __future__ import annotations

import random

from .match import Match
from .rules import STANDARD, Rules


def random_match(
    rng: random.Random,
    players: tuple[str, ...] = ("Ann", "Bob", "Cas", "Dirk"),
    first_dealer: int = 0,
    rules: Rules = STANDARD,
) -> Match:
    """A complete match where every action (contract, doubling, card) is a random legal one."""
    match = Match(players, first_dealer=first_dealer, rules=rules)
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        match.apply(rng.choice(match.legal_actions()))
    return match
