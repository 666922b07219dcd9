"""The one error the tally service raises for a request it will not carry out.

As the table service's :class:`~bot.tables.Refusal`: a machine-readable reason beside an
English sentence, so a front end words it by its reason. A :class:`TallyReason` is the
service's own (not at the tally, a stale button, a closed tally); the engine's
:class:`~bot.engine.Reason` is a rule's, and then ``error`` holds the engine's refusal with
what it names (the deal, the player, the count).
"""

from __future__ import annotations

from enum import Enum

from bot.engine import Reason, TallyError


class TallyReason(Enum):
    """Why the tally service refused a request (the rules' refusals are :class:`Reason`)."""

    NO_TALLY = "no_tally"
    CLOSED = "closed"
    """The tally is finished or cancelled: its buttons do nothing any more."""
    NOT_AT_THE_TALLY = "not_at_the_tally"
    """Only the players seated at a tally, and who opened it, enter its deals."""
    STALE = "stale"
    """The button was shown before the last change to the sheet."""
    NOT_SAVED = "not_saved"
    """The store did not take it; trying again may work."""
    MEMBER_TWICE = "member_twice"
    """A member was named for two seats."""


class TallyRefusal(Exception):
    """A polite refusal: nothing changed, and the sentence is for the person who asked."""

    def __init__(
        self, message: str, reason: TallyReason | Reason, *, error: TallyError | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.error = error

    @classmethod
    def of(cls, error: TallyError) -> TallyRefusal:
        """The engine's refusal, with what it names."""
        return cls(str(error), error.reason, error=error)
