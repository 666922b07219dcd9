"""The server's standings as every front end shows them: its seasons, the leaderboard's
pages and a player's statistics.

The leaderboard and ``/bonken stats`` in Discord (:mod:`bot.ui.standings`) and the server
and player pages on the web (:mod:`bot.web.pages`) read them here, so a season is found
and a page is cut the same way wherever it is shown. No Discord: the words that go with
the standings are :mod:`bot.render.standings`.
"""

from __future__ import annotations

from bot.i18n import _
from bot.store import LeaderboardPage, LeaderboardSort, PlayerStats, Season
from bot.store.seasons import SeasonStore
from bot.store.standings import StandingsStore

PAGE_SIZE = 10
"""Rows of a leaderboard's page (Discord's embed and the web page's alike)."""


class NoSeason(Exception):
    """A season that cannot be found: its sentence, worded in the language current when
    it was raised, says why. Nothing changed."""


async def resolve_season(seasons: SeasonStore, guild_id: int | None, name: str | None) -> Season:
    """The season named ``name`` in the guild; without a name the active season, or the
    newest one if the guild has none active."""
    if guild_id is None:
        raise NoSeason(_("seasons belong to a server; use this command in one"))
    if name is not None and name.strip():
        season = await seasons.season_named(guild_id, name)
        if season is None:
            raise NoSeason(
                _("there is no season named {name} in this server", name=repr(name.strip()))
            )
        return season
    season = await seasons.active_season(guild_id)
    if season is not None:
        return season
    every = await seasons.seasons(guild_id)
    if not every:
        raise NoSeason(_("no Bonken match has been finished in this server yet"))
    return every[0]


async def fetch_page(
    standings: StandingsStore,
    season_id: int,
    sort: LeaderboardSort,
    offset: int,
    viewer: int | None,
) -> LeaderboardPage:
    """The page at ``offset`` (the last page if the board is shorter than that), with
    ``viewer``'s own row (None: a page nobody in particular reads)."""
    offset = max(0, offset - offset % PAGE_SIZE)
    page = await standings.leaderboard(
        season_id, sort, offset=offset, limit=PAGE_SIZE, viewer=viewer
    )
    if not page.rows and page.players:
        last = (page.players - 1) // PAGE_SIZE * PAGE_SIZE
        page = await standings.leaderboard(
            season_id, sort, offset=last, limit=PAGE_SIZE, viewer=viewer
        )
    return page


class Boards:
    """A server's seasons, the leaderboard's pages and a player's statistics."""

    def __init__(self, seasons: SeasonStore, standings: StandingsStore) -> None:
        self._seasons = seasons
        self._standings = standings

    async def season(self, guild_id: int | None, name: str | None) -> Season:
        """:func:`resolve_season` in this store."""
        return await resolve_season(self._seasons, guild_id, name)

    async def seasons_of(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        return await self._seasons.seasons(guild_id)

    async def page(
        self, season_id: int, sort: LeaderboardSort, offset: int, viewer: int | None
    ) -> LeaderboardPage:
        """:func:`fetch_page` in this store."""
        return await fetch_page(self._standings, season_id, sort, offset, viewer)

    async def stats(
        self, season_id: int, user_id: int, *, variants: bool = True
    ) -> PlayerStats | None:
        """The player's season statistics (``variants=False``: without the results per
        variant, which only ``/bonken stats`` shows)."""
        return await self._standings.player_stats(season_id, user_id, variants=variants)
