"""The daily deals' calendar: days are UTC dates, and a day's results close at the end of
the next UTC day.

Everyone in a server plays the same deals on the same UTC date, wherever they live. An
attempt counts for the day it started and may be finished until that day's results close
(the start of the day after next, UTC), so a person who starts just before midnight still
has a whole day to finish; from then on the day's deals and every attempt at them are
shown to everyone.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta

Clock = Callable[[], datetime]
"""The time now, aware (the service is given one, so tests need no waiting)."""

ONE_DAY = timedelta(days=1)


def utc_now() -> datetime:
    return datetime.now(UTC)


def day_of(moment: datetime) -> date:
    """The UTC date of ``moment`` (an aware time)."""
    return moment.astimezone(UTC).date()


def closes_at(day: date) -> datetime:
    """When ``day``'s results close: the end of the next UTC day."""
    return datetime.combine(day + 2 * ONE_DAY, time(), UTC)


def is_closed(day: date, moment: datetime) -> bool:
    """Whether ``day``'s results have closed at ``moment``."""
    return moment >= closes_at(day)


def open_days(moment: datetime) -> tuple[date, date]:
    """The days whose attempts may still be played at ``moment``: yesterday and today."""
    today = day_of(moment)
    return today - ONE_DAY, today


def last_closed_day(moment: datetime) -> date:
    """The latest day whose results have closed at ``moment`` (the day before yesterday)."""
    return day_of(moment) - 2 * ONE_DAY


def parse_day(text: str) -> date:
    """A date written ``YYYY-MM-DD``; ``ValueError`` for anything else."""
    text = text.strip()
    if len(text) != 10:
        raise ValueError(f"not a date: {text!r}")
    return date.fromisoformat(text)
