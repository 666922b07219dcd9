"""What a table's channel post says: a pure function of the event and the table's view.

Nothing here sends, edits, draws, encodes or waits. Each function returns a
:class:`Post`: its words (in the current language: the caller speaks the table's), its
embed, its buttons, the record it attaches, and the picture it shows; the feed encodes
the record and draws the picture off the event loop, and leaves the picture out if the
table shows text only or drawing fails. When and where a post goes, and in what order,
is the feed's business (:mod:`bot.ui.feed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot import i18n
from bot.i18n import N_, _
from bot.render import text
from bot.render.chart import ChartData
from bot.store import TableStatus
from bot.tables import TableView
from bot.tables import events as ev
from bot.tables.table import SEAT_NAMES

from .components import lobby_view, rematch_view, table_view
from .embeds import deal_embed, lobby_embed, seat_labels
from .pictures import ChartPicture, Picture, TablePicture
from .replies import literal
from .web import with_web_link

RESTORED = N_(
    "The bot restarted; the table is restored. Press **Show my hand** if your hand "
    "stopped updating."
)
RESTORED_LOBBY = N_("The bot restarted; the table is restored.")
CHART_TITLE = N_("The match, deal by deal")
"""Above the score chart under the final standings."""


@dataclass(frozen=True)
class RecordAttachment:
    """A match record the post attaches as a JSON file named ``filename``: encoded when
    the post is sent, in a worker thread (:mod:`bot.ui.records`), as it grows with the
    match."""

    filename: str
    record: dict[str, Any]


@dataclass(frozen=True)
class Post:
    """One message of the table's channel (or thread), or one edit of its table message."""

    content: str | None = None
    embed: discord.Embed | None = None
    buttons: discord.ui.View | None = None
    """The message's buttons; None: it has (or keeps) none."""
    files: tuple[RecordAttachment, ...] = ()
    picture: Picture | None = None
    pings: bool = False
    """It mentions a player to call them (a turn reminder); every other post is quiet."""


POSTING = (
    ev.DealStarted,
    ev.DealScored,
    ev.MatchEnded,
    ev.TableClosed,
    ev.TableRestored,
    ev.Reminder,
    ev.TimedOut,
    ev.SeatAway,
    ev.SeatBack,
    ev.LobbyChanged,
)
"""The events that post something (or may: a lobby change, during a match); the others
change the table message only."""


def table_language(view: TableView | None) -> str:
    """The language of a table's channel posts: chosen when it was opened (the table's
    option, else the server's setting, else the server's preferred locale), whoever's
    action caused them."""
    return i18n.language_of(view.settings.language if view is not None else None)


def labels(view: TableView | None) -> list[str]:
    """The seats as trick and score lines name them."""
    return seat_labels(view, short=True) if view is not None else list(SEAT_NAMES)


def said(words: ev.Words) -> str:
    """An event's sentence (its catalogue message and values) in the current language."""
    message, values = words
    return _(message, **dict(values))


def line(event: ev.Event, view: TableView | None, *, hand_live: bool = True) -> Post | None:
    """The line an event posts in the channel as it happens, or None if it posts none
    (it changes the table message only; a deal's message, its end, the final standings
    and the restart notice are :func:`deal_message`, :func:`deal_end`, :func:`result` and
    :func:`restored`).
    ``hand_live``: a reminder's player has a hand message that still updates itself
    (else the reminder says how to get one)."""
    names = labels(view)
    match event:
        case ev.TableClosed(reason=reason, finished=False):
            return Post(_("The table is closed: {reason}.", reason=_(reason)))
        case ev.Reminder(user_id=user_id, seconds_left=left):
            words = _(
                "<@{user}>, it is your turn: {seconds} seconds left before a computer "
                "plays for you.",
                user=user_id,
                seconds=f"{left:.0f}",
            )
            if not hand_live:
                words += " " + _("Press **Show my hand** for your cards.")
            return Post(words, pings=True)
        case ev.TimedOut(seat=seat):
            return Post(_("{name} ran out of time; a computer played for them.", name=names[seat]))
        case ev.SeatAway(seat=seat):
            return Post(
                _(
                    "{name} is away: a computer plays their seat until they act again "
                    "(or use `/bonken back`).",
                    name=names[seat],
                )
            )
        case ev.SeatBack(seat=seat):
            return Post(_("{name} is back.", name=names[seat]))
        case ev.LobbyChanged(what=what, words=words):  # someone left, was removed, took over
            return Post(f"{literal(said(words) if words[0] else what)}.")
    return None


CONTENT_LIMIT = 2000
"""Discord's longest message content."""


def deal_end(
    event: ev.DealScored, tricks: Sequence[ev.TrickTaken], view: TableView | None
) -> list[str]:
    """A deal's end as the thread tells it: each of its ``tricks`` (who played what, who
    took it), then its scores, one entry each (:func:`carrying` posts them)."""
    names = labels(view)
    return [*(text.trick_text(names, trick) for trick in tricks), text.deal_text(names, event)]


def carrying(said: Sequence[str], host: Post | None) -> list[Post]:
    """The posts that say ``said`` (a deal's end), then ``host`` (the next deal's
    message): as few as Discord takes, ``host`` last, carrying above its own words what
    fits of ``said``; the rest goes before it, never splitting an entry. Without a host,
    ``said`` alone."""
    parts: list[str] = []
    for words in said:
        if parts and len(parts[-1]) + 1 + len(words) <= CONTENT_LIMIT:
            parts[-1] += "\n" + words
        else:
            parts.append(words[:CONTENT_LIMIT])
    if host is None:
        return [Post(part) for part in parts]
    own = host.content
    if own is not None:
        if parts and len(parts[-1]) + 1 + len(own) <= CONTENT_LIMIT:
            parts[-1] += "\n" + own
        else:
            parts.append(own)
    last = parts.pop() if parts else None
    return [*(Post(part) for part in parts), replace(host, content=last)]


def restored(view: TableView) -> Post:
    """After a restart, below what the channel had not been shown yet."""
    return Post(_(RESTORED) if view.match_id is not None else _(RESTORED_LOBBY))


def result(
    view: TableView | None,
    event: ev.MatchEnded,
    chart: ChartData | None,
    web: str | None = None,
) -> Post:
    """The final standings, the match record attached, the score chart of ``chart``, and
    Play again, Replay and Review (and the match's page, at ``web``)."""
    record = RecordAttachment(f"bonken-match-{event.match_id}.json", event.record)
    return Post(
        _("**The match is over.** Final standings:")
        + "\n"
        + text.standings_text(labels(view), event.totals, event.ranks)
        + "\n"
        + _("The match record is attached (`python -m bot.engine verify` checks it)."),
        buttons=with_web_link(rematch_view(event.table_id, event.match_id), web),
        files=(record,),
        picture=None if chart is None else ChartPicture(chart, _(CHART_TITLE)),
    )


def lobby_message(view: TableView, *, closed: bool = False, activity: bool = False) -> Post:
    """The table message before the match: the seats, and the lobby's buttons while the
    table waits for its players (none once it started or ``closed``); ``activity``: Play
    in an Activity among them."""
    waiting = view.status is TableStatus.LOBBY and not closed
    buttons = lobby_view(view.table_id, activity=activity) if waiting else None
    return Post(embed=lobby_embed(view), buttons=buttons)


def deal_message(
    view: TableView,
    *,
    closed: str | None = None,
    final: bool = False,
    deadline: float | None = None,
    tricks: Sequence[str] = (),
) -> Post:
    """A deal's table message as ``view`` shows it: Show my hand while it is played; the
    deal as it ended once ``final`` (or ``closed``, a catalogue message: why the table
    closed); a person's turn counting down to ``deadline`` (Unix time); the deal's
    finished ``tricks``, one line each."""
    done = _(closed) if closed else (_("Deal over.") if final else None)
    return Post(
        embed=deal_embed(view, closed=done, deadline=deadline, tricks=tricks),
        buttons=None if done else table_view(view.table_id),
        picture=TablePicture(over=done is not None),
    )
