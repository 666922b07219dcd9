"""The one error the table service raises for a request it will not carry out.

A :class:`Refusal` carries a machine-readable reason beside the player's sentence: a
:class:`TableReason` for the service's own refusals (not seated, not your turn, no table
here, ...) or the engine's :class:`~bot.engine.Reason` for a move the rules forbid. A
front end or a translation picks its words by the reason, never by matching the text;
the sentence is plain English with no front end's words in it (no commands, no
permission names), so each front end adds its own where it needs them.
"""

from __future__ import annotations

from enum import Enum

from bot.engine import Action, IllegalAction, Reason


class TableReason(Enum):
    """Why the table service refused a request (the rules' refusals are :class:`Reason`)."""

    NO_TABLE = "no_table"
    """No table in this channel."""
    TABLE_CLOSED = "table_closed"
    CHANNEL_TAKEN = "channel_taken"
    """The channel has a table already."""
    UNKNOWN_LEVEL = "unknown_level"
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    NO_FREE_SEAT = "no_free_seat"
    """The match is under way and nobody left a seat to take over."""
    NOT_HOST = "not_host"
    """Only the host (or a front end's administrator) may do this; ``subject`` says what."""
    EMPTY_SEAT = "empty_seat"
    HOST_STAYS = "host_stays"
    """The host cannot be removed from the lobby."""
    COMPUTER_PLAYS = "computer_plays"
    """A computer plays that seat already."""
    ALREADY_STARTED = "already_started"
    NOT_STARTED = "not_started"
    STALE_TURN = "stale_turn"
    """The button or command was for an earlier turn."""
    NOT_YOUR_TURN = "not_your_turn"
    """Someone else is to act; ``seat`` says who (None: nobody)."""
    PLAYING_ALREADY = "playing_already"
    """``take_back`` by a player who is not away."""
    NOT_SAVED = "not_saved"
    """The store did not take it; trying again may work."""


class Refusal(Exception):
    """A polite refusal: nothing changed, and the sentence is for the person who asked.

    ``reason`` says the same for a program (None for a front end's own refusal, whose
    sentence is all there is); ``subject`` is what a :attr:`TableReason.NOT_HOST`
    refusal was about ("start the match"), ``seat`` the seat a refusal names, ``action``
    the move the rules refused (so a translation can name its card or contract)."""

    def __init__(
        self,
        message: str,
        reason: TableReason | Reason | None = None,
        *,
        subject: str = "",
        seat: int | None = None,
        action: Action | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.subject = subject
        self.seat = seat
        self.action = action

    @classmethod
    def illegal(cls, error: IllegalAction, action: Action | None = None) -> Refusal:
        """The engine's refusal of ``action``, with its reason."""
        return cls(str(error), error.reason, action=action)
