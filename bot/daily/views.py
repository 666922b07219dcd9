"""What the daily service hands a front end: frozen snapshots, no live objects.

An :class:`AttemptView` is what the person may see of their attempt: their own hand and
what is public in the deal in play, never another hand, a deal still to come or the
day's seed. :class:`DayResults` is a day's results as one reader may see them: the
ranking always; each deal's comparison only for someone who finished the day, or for
everyone once its results have closed, when the replay of every attempt comes too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from bot.engine import PublicView, SeatView


@dataclass(frozen=True)
class DealResult:
    """A deal the person finished: its number (1-based), contract and every seat's scores."""

    number: int
    contract: str
    base: tuple[int, ...]
    final: tuple[int, ...]
    """After doubling; the person's is at their seat."""


@dataclass(frozen=True)
class Standing:
    """A day's result so far: the percentage, the place (1 the best) among ``field``."""

    percent: float
    rank: int
    field: int


@dataclass(frozen=True)
class AttemptView:
    """The person's attempt as it stands; unless finished, it is the person's turn.

    ``step`` is the number the person's buttons carry, so a click on an older message is
    refused as stale; ``previous`` is the deal just ended while the next one is still in
    its doubling (or the last deal once the attempt is finished); ``standing`` the day's
    result so far once the attempt is finished."""

    attempt_id: int
    guild_id: int
    user_id: int
    day: date
    closes_at: datetime
    step: int
    deal_number: int
    deals: int
    players: tuple[str, ...]
    seat: SeatView
    public: PublicView
    scores: tuple[int | None, ...]
    """The person's final score on each deal of the day (None: not finished)."""
    previous: DealResult | None
    finished: bool
    standing: Standing | None = None


@dataclass(frozen=True)
class RankedAttempt:
    rank: int
    user_id: int
    name: str
    percent: float
    finished: bool


@dataclass(frozen=True)
class DealComparison:
    """One deal of the day across its field: the reader's score, everyone's, the best
    and who made it (None: a deal left unfinished, which ranks last)."""

    number: int
    contract: str
    mine: int | None
    field: tuple[int | None, ...]
    """Every score of the field, best first, unfinished last."""
    best: int | None
    best_by: tuple[str, ...]


@dataclass(frozen=True)
class AttemptReplay:
    """A closed day's attempt for its replay: the player, their result, and each deal as
    a ``bonken-record/1`` document of one deal (all four hands, every move)."""

    attempt_id: int
    name: str
    percent: float
    records: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class DayResults:
    """A day's results for one reader. While the day is open the ranking counts the
    attempts finished so far; once closed, every attempt (unfinished deals last)."""

    guild_id: int
    day: date
    closed: bool
    closes_at: datetime
    deals: int
    ranking: tuple[RankedAttempt, ...]
    played: bool
    """The reader has finished this day's deals."""
    comparisons: tuple[DealComparison, ...] | None
    """Each deal's comparison, None while hidden from this reader."""
    replays: tuple[AttemptReplay, ...] | None
    """Every attempt's replay, once the day has closed."""
