"""What the pages are made from: the services and stores a button calls, handed in.

The pages read through the same services and store calls as the Discord commands (the
leaderboard's :class:`~bot.boards.Boards`, the daily service, the tally service,
the matches' store), so a page shows what the bot says and hides what it hides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.archive import FinishedMatchService
from bot.boards import Boards
from bot.daily import DailyService
from bot.store import Store, WebAccess
from bot.store.matches import MatchStore
from bot.store.reviews import ReviewStore
from bot.store.standings import StandingsStore
from bot.store.tables import TableStore
from bot.store.tallies import TallyStore
from bot.tally import TallyService

from .links import WebLinks


class NotThere(Exception):
    """The page does not exist for this reader: answered 404, like a forged link."""


class BadQuery(Exception):
    """A query the page does not take: answered 400."""


@dataclass(frozen=True)
class Services:
    """Everything the pages read (see the module)."""

    tables: TableStore
    boards: Boards
    standings: StandingsStore
    matches: MatchStore
    archive: FinishedMatchService
    """The finished matches (as the replay and the review find them)."""
    tallies: TallyStore
    reviews: ReviewStore
    daily: DailyService
    tally: TallyService

    @classmethod
    def of(
        cls,
        store: Store,
        *,
        daily: DailyService | None = None,
        boards: Boards | None = None,
        archive: FinishedMatchService | None = None,
    ) -> Services:
        """The services on ``store``; the bot passes its own daily service, boards and
        finished matches (whose replays it keeps)."""
        return cls(
            tables=store.tables,
            boards=boards or Boards(store.seasons, store.standings),
            standings=store.standings,
            matches=store.matches,
            archive=archive or FinishedMatchService(store.matches),
            tallies=store.tallies,
            reviews=store.reviews,
            daily=daily or DailyService(store.daily, store.tables),
            tally=TallyService(store),
        )


@dataclass(frozen=True)
class Reader:
    """Who the page is for: the server it belongs to, its web setting, the language."""

    guild_id: int
    access: WebAccess
    language: str
    links: WebLinks

    @property
    def public(self) -> bool:
        """Whether the page may link to the server's other pages."""
        return self.access is WebAccess.PUBLIC


@dataclass(frozen=True)
class Page:
    """A page to draw: its template, what it shows, and whether it never changes."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)
    final: bool = False
    """A finished match or closed day: cached, with an ETag and a long Cache-Control."""
