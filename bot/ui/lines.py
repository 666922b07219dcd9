"""The order of a table's posts, and the name of each post.

A deal's posts come in one order: its message (the deal's table message), then its end:
each of its tricks, one line each, and its scores (while the deal is played, its message
lists the tricks as they are taken; a post per trick cost 13 of a deal's calls to
Discord and buried the message under them). A deal's end rides on the next deal's
message, as the text above its table: one call fewer a deal, and the line it rides on
covers it (the last deal's end goes alone, before the final standings). Each is a
:data:`Line`, ``(deal, step)``, and lines compare in the order they are posted, so the
store keeps one pair per table, the last line posted, and a restart posts exactly the
lines after it (:func:`unposted`). How many steps a deal has is decided here, not in
the store.

Every post carries a name (Discord's message nonce, :func:`post_nonce`): a post made
again after a crash has the name of the first, and Discord answers with the message
already there instead of posting it twice. A line is named by its deal and step; any
other post by what it is and the turn it was made at.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from bot.tables import events as ev

Line = tuple[int, int]
"""A line of the channel as (deal, step)."""
DEAL_MESSAGE = 0
"""The step of a deal's message, before its lines."""
SCORE_STEP = 14
"""The step of a deal's end (its tricks and scores) when it is posted alone, with no
next deal's message to ride on (the last deal, or a table closed after it). Steps 1-13
were its trick lines when each trick had a post of its own: a table stored as far as one
of them posts the deal's end, with every trick, at its next start."""
END_STEP = 15
"""The step of a match's end (its final standings), after its last deal's score line: a
finished table whose last line is before it has not been shown its end."""
NOTHING_POSTED: Line = (0, 0)
"""The last line of a table whose channel was shown no deal yet."""
NONCE_LIMIT = 25
"""Discord's longest message nonce."""

Lined = ev.DealStarted | ev.DealScored
"""The events that post a deal's lines."""


def message_line(deal: int) -> Line:
    """The line of a deal's message: the first of the deal."""
    return (deal, DEAL_MESSAGE)


def end_line(deal: int) -> Line:
    """The line of a match's end, whose last deal is ``deal``."""
    return (deal, END_STEP)


def line_of(event: Lined) -> Line:
    """The line an event posts."""
    match event:
        case ev.DealStarted(deal_number=number):
            return message_line(number)
        case ev.DealScored(deal_number=number):
            return (number, SCORE_STEP)


def unposted(events: Sequence[ev.Event], last: Line) -> list[tuple[Line, Lined]]:
    """Of a restored table's last deals' ``events``, in order, the lines still to post
    after ``last``: each deal's end, and each deal's message, which the end before it
    rides on. Only the message of the deal in play is posted again (a past deal's message
    cannot be rebuilt: its table is gone); the end that rode on a past one goes alone,
    under that message's name (the feed's business)."""
    wanted: list[tuple[Line, Lined]] = []
    for event in events:
        if not isinstance(event, Lined):
            continue
        line = line_of(event)
        if line > last:
            wanted.append((line, event))
    return wanted


def tricks_of(events: Sequence[ev.Event], deal_number: int) -> list[ev.TrickTaken]:
    """Of a restored table's last deals' ``events``, the tricks of deal ``deal_number`` (its table
    message lists them; its score line carries them)."""
    tricks: list[ev.TrickTaken] = []
    deal = 0
    for event in events:
        if isinstance(event, ev.DealStarted):
            deal = event.deal_number
        elif isinstance(event, ev.TrickTaken) and deal == deal_number:
            tricks.append(event)
    return tricks


def post_nonce(table_id: int, *what: object) -> str:
    """The name of a post for Discord's ``enforce_nonce``: the table and what the post is
    (a deal and its step, a turn and its notice), so a post made again after a restart
    is the same post. At most :data:`NONCE_LIMIT` characters (a hash if longer)."""
    name = ".".join(str(part) for part in ("bk", table_id, *what))
    if len(name) <= NONCE_LIMIT:
        return name
    return hashlib.blake2b(name.encode(), digest_size=12).hexdigest()


def notice_name(event: ev.Event, turn: int, notices: int) -> tuple[object, ...]:
    """What names a post that is not a deal's line: what it is, and the table's ``turn``
    when it came (a restart times the turn again: its reminder is the same post);
    ``notices``: the seat notices posted in this match, this one counted."""
    match event:
        case ev.TableClosed():
            return ("closed",)
        case ev.Reminder():
            return ("remind", turn)
        case ev.TimedOut():
            return ("timeout", turn)
        case ev.SeatAway(seat=seat):
            return ("away", turn, seat)
        case ev.SeatBack(seat=seat):
            return ("back", turn, seat)
        case ev.LobbyChanged():
            return ("seat", turn, notices)
        case ev.MatchEnded():
            return ("end",)
        case ev.TableRestored():
            return ("restored", turn)
    raise ValueError(f"{type(event).__name__} posts nothing")
