"""The daily board of a season: each player's mean result over the days they played.

A day counts once it is played: once its results close (every attempt, its unfinished
deals last), or earlier for an attempt finished, at its result so far. Ranking asks for
:data:`MIN_DAYS` days, so one lucky day does not top the board; players with fewer are
listed after the ranked ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .scoring import ranks

MIN_DAYS = 3
"""Days a player must have played in the season to be ranked on the daily board."""


@dataclass(frozen=True)
class BoardRow:
    """One player's line: ``rank`` None while they have played fewer than the minimum."""

    rank: int | None
    user_id: int
    name: str
    days: int
    percent: float
    """The mean of their days' results."""


def daily_board(
    tallies: Mapping[int, tuple[int, float]], names: Mapping[int, str]
) -> list[BoardRow]:
    """The board from each player's days played and the sum of their results (by user
    id): the ranked players best first, then the others, most days first."""
    means = {user: total / days for user, (days, total) in tallies.items() if days}
    ranked = {user: mean for user, mean in means.items() if tallies[user][0] >= MIN_DAYS}
    places = ranks(ranked)
    rows = [
        BoardRow(
            rank=places.get(user),
            user_id=user,
            name=names.get(user, ""),
            days=tallies[user][0],
            percent=mean,
        )
        for user, mean in means.items()
    ]
    rows.sort(key=lambda r: (r.rank is None, r.rank or 0, -r.days, -r.percent, r.user_id))
    return rows
