"""The server page: the season's standings in the leaderboard's sorts, the earlier
seasons, the daily board, the newest finished matches and closed days."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from bot.boards import PAGE_SIZE
from bot.i18n import _
from bot.render.standings import SORT_NAMES, rating_text, season_status
from bot.render.standings_image import ROWS, StandingsPicture, StandingsRow, standings_png
from bot.store import LeaderboardSort

from ..site import NotThere, Page, Reader, Services
from .common import chosen_season, number, only, shown_name, when

NEWEST = 10
"""Finished matches and closed days listed."""
BOARD_ROWS = 20
"""Lines of the daily board shown."""


async def server_page(services: Services, reader: Reader, query: Mapping[str, str]) -> Page:
    only(query, {"sort", "season", "page"})
    guild_id = reader.guild_id
    sort = LeaderboardSort(query["sort"]) if query.get("sort") in _SORTS else None
    if "sort" in query and sort is None:
        raise NotThere("no such sort")
    sort = sort or LeaderboardSort.POINTS
    page = number(query["page"]) if "page" in query else 1
    if page < 1:
        raise NotThere("no such page")
    seasons = await services.boards.seasons_of(guild_id)
    context: dict[str, Any] = {"title": _("Bonken standings"), "seasons": []}
    if not seasons:
        context["empty"] = True
        return Page("server.html", context)
    season = chosen_season(seasons, query)
    board = await services.boards.page(season.season_id, sort, (page - 1) * PAGE_SIZE, None)
    if board.rows and board.offset != (page - 1) * PAGE_SIZE:
        raise NotThere("past the last page")
    names = await services.standings.names([row.user_id for row in board.rows])
    base = reader.links.server_path(guild_id)
    context["og_image"] = reader.links.standings_path(guild_id)

    def here(**changes: object) -> str:
        values: dict[str, object] = {"season": season.season_id, "sort": sort.value}
        values.update(changes)
        if season.active and "season" not in changes:
            values.pop("season")
        return base + "?" + "&".join(f"{k}={v}" for k, v in values.items() if v is not None)

    daily = await services.daily.board(guild_id, season.season_id)
    context.update(
        season=season.name,
        season_status=season_status(season),
        description=_(
            "{season}: {players} players, sorted {sort}",
            season=season.name,
            players=board.players,
            sort=_(SORT_NAMES[sort]),
        ),
        sorts=[
            {"name": _(SORT_NAMES[s]), "href": here(sort=s.value, page=None), "on": s is sort}
            for s in LeaderboardSort
        ],
        sort=sort.value,
        rows=[
            {
                "rank": row.rank,
                "name": shown_name(names.get(row.user_id)),
                "href": reader.links.player_path(guild_id, row.user_id) if reader.public else None,
                "matches": row.matches,
                "wins": row.wins,
                "points": row.points,
                "average": f"{row.average:.1f}",
                "rating": rating_text(row.rating),
            }
            for row in board.rows
        ],
        players=board.players,
        previous=here(page=page - 1) if page > 1 else None,
        following=here(page=page + 1) if page * PAGE_SIZE < board.players else None,
        seasons=[
            {
                "name": s.name,
                "status": season_status(s),
                "href": here(season=s.season_id, page=None),
                "on": s.season_id == season.season_id,
            }
            for s in seasons
        ],
        daily=[
            {
                "rank": row.rank,
                "name": shown_name(row.name),
                "days": row.days,
                "percent": f"{row.percent:.1f}",
            }
            for row in daily[:BOARD_ROWS]
        ],
        public=reader.public,
    )
    if reader.public:
        context["matches"] = [
            {
                "href": reader.links.match_path(guild_id, found.match_id),
                "names": ", ".join(shown_name(name) for name in found.names),
                "when": when(found.ended_at),
            }
            for found in await services.archive.recent(guild_id, NEWEST)
        ]
        context["days"] = [
            {"href": reader.links.day_path(guild_id, day), "day": day.isoformat()}
            for day in await services.daily.closed_days(guild_id, NEWEST)
        ]
    return Page("server.html", context)


async def standings_picture(services: Services, reader: Reader) -> bytes:
    """The active (or newest) season's top rows by points as a PNG, the server page's
    link preview, drawn off the loop."""
    guild_id = reader.guild_id
    if not await services.boards.seasons_of(guild_id):
        raise NotThere("no standings yet")
    season = await services.boards.season(guild_id, None)
    board = await services.boards.page(season.season_id, LeaderboardSort.POINTS, 0, None)
    names = await services.standings.names([row.user_id for row in board.rows[:ROWS]])
    picture = StandingsPicture(
        title=_("Bonken standings"),
        subtitle=_(
            "{season}: {players} players, sorted {sort}",
            season=season.name,
            players=board.players,
            sort=_(SORT_NAMES[LeaderboardSort.POINTS]),
        ),
        rows=tuple(
            StandingsRow(
                rank=row.rank,
                name=shown_name(names.get(row.user_id)),
                points=row.points,
                rating=rating_text(row.rating),
            )
            for row in board.rows[:ROWS]
        ),
        language=reader.language,
    )
    return await asyncio.to_thread(standings_png, picture)


_SORTS = {sort.value for sort in LeaderboardSort}
