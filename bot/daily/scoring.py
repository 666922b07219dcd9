"""Duplicate scoring: each deal compared with everyone who played the same cards.

On a deal, a player scores one matchpoint for each other player of the field whose score
they beat and half a point for each one they tie, as a percentage of the most they could
have had (one point per other player):

    percentage = 100 * (beaten + ties / 2) / (field - 1)

A player alone on a deal (a field of one) has nobody to beat or lose to and scores 50%,
as a player tied with everyone does. A deal left unfinished when the day's results close
ranks last on that deal: below every finished score, level with the other unfinished
ones. The day's result is the mean of the deal percentages. Everything is an exact
fraction, so equal results rank equal.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)

HALF = Fraction(50)


def deal_percentages(scores: Mapping[Player, int | None]) -> dict[Player, Fraction]:
    """Each player's percentage on one deal; ``None`` is a deal left unfinished."""
    field = len(scores)
    if field == 1:
        return dict.fromkeys(scores, HALF)
    result: dict[Player, Fraction] = {}
    for player, mine in scores.items():
        halves = 0  # half matchpoints, so a tie is exact
        for other, theirs in scores.items():
            if other == player:
                continue
            halves += _halves(mine, theirs)
        result[player] = Fraction(100 * halves, 2 * (field - 1))
    return result


def _halves(mine: int | None, theirs: int | None) -> int:
    """Half matchpoints for one comparison: 2 for a win, 1 for a tie, 0 for a loss."""
    if mine is None:
        return 1 if theirs is None else 0
    if theirs is None or mine > theirs:
        return 2
    return 1 if mine == theirs else 0


def day_percentages(
    attempts: Mapping[Player, Sequence[int | None]], deals: int
) -> dict[Player, Fraction]:
    """Each player's result for the day: the mean over the ``deals`` deals of their
    percentage on each. ``attempts`` holds each player's score per deal, None where the
    deal was not finished; every player listed is in the field of every deal."""
    if not attempts:
        return {}
    totals = dict.fromkeys(attempts, Fraction(0))
    for index in range(deals):
        on_deal = deal_percentages({p: scores[index] for p, scores in attempts.items()})
        for player, percent in on_deal.items():
            totals[player] += percent
    return {player: total / deals for player, total in totals.items()}


def ranks(results: Mapping[Player, Fraction | float]) -> dict[Player, int]:
    """Each player's place, 1 the best; equal results share a place."""
    values = list(results.values())
    return {p: 1 + sum(1 for other in values if other > mine) for p, mine in results.items()}
