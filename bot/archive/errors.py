"""The one error the finished-match service raises for a match it will not give.

As the table, daily and tally services do, an :class:`ArchiveRefusal` carries a reason
(an :class:`ArchiveReason`) beside an English sentence, and the facts of the match it is
about, so a front end words it by its reason (:mod:`bot.render.archive`) and never by
the sentence. Nothing changed when it is raised.
"""

from __future__ import annotations

from enum import Enum


class ArchiveReason(Enum):
    NO_SERVER = "no_server"
    """Asked outside a server: finished matches belong to one."""
    UNKNOWN = "unknown"
    """No such match on this server: a typed id that names none, or another server's
    match (told apart from no match at all, so nothing says it is there)."""
    IN_PLAY = "in_play"
    """The match is still being played: its hands are hidden until it ends."""
    CANCELLED = "cancelled"
    """The match was cancelled before its end: there is nothing to look back at."""
    NONE_HERE = "none_here"
    """No match has finished (or is being played) in this channel or its threads."""
    NOT_REPLAYABLE = "not_replayable"
    """The stored record does not replay (logged: the store holds something wrong)."""
    NO_SUCH_POINT = "no_such_point"
    """The match has no such deal or step (a forged or mangled button)."""


class ArchiveRefusal(Exception):
    """A polite refusal: the sentence is for the person who asked.

    ``match_id`` is the match it is about, when there is one; ``typed`` what was typed
    for a match that is unknown; ``deal`` and ``deals`` how far a match still in play is
    (its deals begun, of the deals its rules have)."""

    def __init__(
        self,
        message: str,
        reason: ArchiveReason,
        *,
        match_id: int | None = None,
        typed: str | None = None,
        deal: int | None = None,
        deals: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.match_id = match_id
        self.typed = typed
        self.deal = deal
        self.deals = deals
