"""The daily deals: duplicate Bonken for everyone in a server, one attempt a day.

Each UTC day a server has a few deals (:mod:`.program`), the same for everyone, dealt
from a secret seed; each person plays them alone, South against three deterministic
computers (:mod:`.computers`), and is compared deal by deal with everyone who held the
same cards (:mod:`.scoring`). :class:`DailyService` runs the attempts and the results;
like the table service it knows nothing of Discord.
"""

from .board import MIN_DAYS, BoardRow
from .calendar import closes_at, day_of
from .errors import DailyReason, DailyRefusal
from .program import DEFAULT_DEALS, MAX_DEALS, PERSON_SEAT
from .service import DailyService
from .views import (
    AttemptReplay,
    AttemptView,
    DayResults,
    DealComparison,
    DealResult,
    RankedAttempt,
    Standing,
)

__all__ = [
    "DEFAULT_DEALS",
    "MAX_DEALS",
    "MIN_DAYS",
    "PERSON_SEAT",
    "AttemptReplay",
    "AttemptView",
    "BoardRow",
    "DailyReason",
    "DailyRefusal",
    "DailyService",
    "DayResults",
    "DealComparison",
    "DealResult",
    "RankedAttempt",
    "Standing",
    "closes_at",
    "day_of",
]
