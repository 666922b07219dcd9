"""The one error the daily service raises for a request it will not carry out.

As the table service's refusals do, a :class:`DailyRefusal` carries a reason beside an
English sentence: a :class:`DailyReason` of the service's own, or the engine's
:class:`~bot.engine.Reason` for a move the rules forbid. A front end words it by its
reason; nothing changed when it is raised.
"""

from __future__ import annotations

from datetime import date
from enum import Enum

from bot.engine import Action, Reason


class DailyReason(Enum):
    NO_SUCH_ATTEMPT = "no_such_attempt"
    """The attempt a button names does not exist (a forged or mangled button)."""
    NOT_YOURS = "not_yours"
    """Someone else's attempt."""
    ALREADY_PLAYED = "already_played"
    """The person finished today's deals already: one attempt a day."""
    FINISHED = "finished"
    """The attempt is over; its buttons do nothing any more."""
    CLOSED = "closed"
    """The attempt's day has closed: it can no longer be finished."""
    STALE = "stale"
    """The button was for an earlier move of the attempt."""
    BAD_DATE = "bad_date"
    """A date that is not ``YYYY-MM-DD``."""
    FUTURE_DATE = "future_date"
    """A day that has not begun yet."""
    BAD_DEALS = "bad_deals"
    """A number of deals a day outside 1 to 11."""
    NOT_SAVED = "not_saved"
    """The store did not take it; trying again may work."""


class DailyRefusal(Exception):
    """A polite refusal: nothing changed, and the sentence is for the person who asked.

    ``day`` is the day a refusal is about (an attempt's, or a date asked for), ``action``
    the move the rules refused (so the front end can name its card)."""

    def __init__(
        self,
        message: str,
        reason: DailyReason | Reason,
        *,
        day: date | None = None,
        action: Action | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.day = day
        self.action = action
