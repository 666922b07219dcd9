"""Small pieces the pages share: names, dates, signed numbers, query checks."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.i18n import _
from bot.render.labels import signed as signed_points
from bot.render.text import player_name
from bot.store import Season

from ..site import BadQuery, NotThere

MAX_ID = 2**63 - 1
"""The largest id a database keeps (a BIGINT)."""


def number(text: str) -> int:
    """An id or page number from a path or query: plain digits within a BIGINT."""
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID):
        raise BadQuery(text)
    return int(text)


def only(query: Mapping[str, str], allowed: set[str]) -> None:
    """Refuse a query with keys this page does not take."""
    if not set(query) <= allowed | {"lang"}:
        raise BadQuery(", ".join(sorted(set(query) - allowed)))


def when(moment: datetime | None) -> str:
    """A moment as pages show it (UTC, to the minute): ``%Y-%m-%d %H:%M UTC``, written
    field by field (``strftime`` takes some 5 us, and a player's page shows ten)."""
    if moment is None:
        return ""
    m = moment
    return f"{m.year:04d}-{m.month:02d}-{m.day:02d} {m.hour:02d}:{m.minute:02d} UTC"


def signed(value: int) -> str:
    return signed_points(value)


def shown_name(name: str | None) -> str:
    """A player's name as pages show it (a computer named after its seat)."""
    return player_name(name) if name else _("a player")


def chosen_season(seasons: list[Season], query: Mapping[str, str]) -> Season:
    """The season a page shows: the one its ``?season=`` names (one of this server's,
    else :class:`NotThere`), or as the leaderboard picks it: the active season, else the
    newest (``seasons`` is the server's, newest first, and not empty)."""
    if "season" in query:
        wanted = number(query["season"])
        season = next((s for s in seasons if s.season_id == wanted), None)
        if season is None:
            raise NotThere("another server's season")
        return season
    return next((s for s in seasons if s.active), seasons[0])
