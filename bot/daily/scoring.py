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

Each player's matchpoints are counted from the field's scores in order (how many are
below theirs, how many level), not by comparing every pair: a day's results are asked
for each time someone finishes, and two hundred players are forty thousand pairs a deal.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
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
    return {
        player: Fraction(100 * halves, 2 * (field - 1))
        for player, halves in _halves(scores).items()
    }


UNFINISHED = float("-inf")
"""Where a deal left unfinished stands among the scores: below every one of them."""


def _halves(scores: Mapping[Player, int | None]) -> dict[Player, int]:
    """Each player's half matchpoints on one deal: 2 for each other player of the field
    whose score they beat, 1 for each they tie (so a tie is exact)."""
    ranked = sorted(UNFINISHED if score is None else score for score in scores.values())
    halves: dict[Player, int] = {}
    for player, score in scores.items():
        mine = UNFINISHED if score is None else score
        beaten = bisect_left(ranked, mine)
        tied = bisect_right(ranked, mine) - beaten - 1  # not themselves
        halves[player] = 2 * beaten + tied
    return halves


def day_percentages(
    attempts: Mapping[Player, Sequence[int | None]], deals: int
) -> dict[Player, Fraction]:
    """Each player's result for the day: the mean over the ``deals`` deals of their
    percentage on each. ``attempts`` holds each player's score per deal, None where the
    deal was not finished; every player listed is in the field of every deal."""
    field = len(attempts)
    if field <= 1:
        return dict.fromkeys(attempts, HALF)
    return {
        player: _mean_percentage(total, field, deals)
        for player, total in _day_halves(attempts, deals).items()
    }


def day_standing(
    attempts: Mapping[Player, Sequence[int | None]], deals: int, player: Player
) -> tuple[Fraction, int]:
    """``player``'s result for the day and place: what :func:`day_percentages` and
    :func:`ranks` give them, for one player (asked each time someone finishes). The
    places are counted on the half matchpoints, which every result divides by the same
    number, so they rank alike without making a fraction for each player."""
    field = len(attempts)
    if field <= 1:
        return HALF, 1
    totals = _day_halves(attempts, deals)
    return _mean_percentage(totals[player], field, deals), ranks(totals)[player]


def _day_halves(attempts: Mapping[Player, Sequence[int | None]], deals: int) -> dict[Player, int]:
    """Each player's half matchpoints over the ``deals`` deals."""
    totals = dict.fromkeys(attempts, 0)
    for index in range(deals):
        for player, halves in _halves({p: scores[index] for p, scores in attempts.items()}).items():
            totals[player] += halves
    return totals


def _mean_percentage(halves: int, field: int, deals: int) -> Fraction:
    """The mean of the deals' percentages, each 100 * halves / (2 * (field - 1))."""
    return Fraction(100 * halves, 2 * (field - 1) * deals)


def ranks(results: Mapping[Player, Fraction | float | int]) -> dict[Player, int]:
    """Each player's place, 1 the best; equal results share a place."""
    keys = _comparable(list(results.values()))
    ordered = sorted(keys)
    return {
        player: 1 + len(ordered) - bisect_right(ordered, key)
        for player, key in zip(results, keys, strict=True)
    }


def _comparable(values: list[Fraction | float]) -> list[Fraction | float] | list[int]:
    """``values`` in the same order, as integers over their common denominator if they
    are all fractions: compared exactly, and far quicker (ranking a field of two
    hundred compares them some three thousand times)."""
    if not all(isinstance(value, Fraction) for value in values):
        return values
    fractions = [value for value in values if isinstance(value, Fraction)]
    common = math.lcm(*(value.denominator for value in fractions))
    return [value.numerator * (common // value.denominator) for value in fractions]
