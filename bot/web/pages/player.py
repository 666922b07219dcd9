"""A player's page: the rating over the season (a chart drawn in the page), the results
per contract, the matches at a real table and the recent matches."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import _
from bot.render.standings import rating_text, season_status
from bot.render.text import contract_name

from ..charts import rating_chart
from ..site import Page, Reader, Services
from .common import chosen_season, only, shown_name, signed, when

RECENT = 10
"""Recent matches and real-table matches listed."""


async def player_page(
    services: Services, reader: Reader, user_id: int, query: Mapping[str, str]
) -> Page:
    only(query, {"season"})
    guild_id = reader.guild_id
    seasons = await services.boards.seasons_of(guild_id)
    names = await services.standings.names([user_id])
    name = shown_name(names.get(user_id))
    context: dict[str, Any] = {"title": name, "name": name, "description": _("Bonken player")}
    if not seasons:
        return Page("player.html", context)
    season = chosen_season(seasons, query)
    stats = await services.boards.stats(season.season_id, user_id, variants=False)
    history = await services.standings.rating_history(season.season_id, user_id)
    base = reader.links.player_path(guild_id, user_id)
    context.update(
        season=season.name,
        season_status=season_status(season),
        seasons=[
            {
                "name": s.name,
                "href": base if s.active else f"{base}?season={s.season_id}",
                "on": s.season_id == season.season_id,
            }
            for s in seasons
        ],
        server=reader.links.server_path(guild_id) if reader.public else None,
    )
    if stats is None:
        return Page("player.html", context)
    context.update(
        description=_(
            "{season}: {matches} matches, {wins} won, {points} points, rating {rating}",
            season=season.name,
            matches=stats.matches,
            wins=stats.wins,
            points=stats.points,
            rating=rating_text(stats.rating),
        ),
        stats={
            "matches": stats.matches,
            "wins": stats.wins,
            "points": stats.points,
            "average": f"{stats.average:.1f}",
            "rating": rating_text(stats.rating),
            "tallies": stats.tallies,
            "takeovers": stats.takeovers,
            "doubles_made": stats.doubles_made,
            "doubles_received": stats.doubles_received,
            "doubling": f"{stats.doubling_won + stats.doubling_lost:+d}",
        },
        chart=rating_chart(
            [point.rating.ordinal for point in history], _("Rating after each match")
        )
        if len(history) >= 2
        else None,
        contracts=[
            {
                "name": contract_name(line.contract),
                "deals": line.deals,
                "average": f"{line.average:+.1f}",
                "points": signed(line.points),
            }
            for line in sorted(stats.contracts, key=lambda line: -line.average)
        ],
        recent=[
            _played(played, reader.links.match_path, reader)
            for played in await services.matches.finished_of_player(guild_id, user_id, RECENT)
        ],
        tallies=[
            _played(played, reader.links.sheet_path, reader)
            for played in await services.tallies.finished_of_player(guild_id, user_id, RECENT)
        ],
    )
    return Page("player.html", context)


def _played(played: Any, path: Callable[[int, int], str], reader: Reader) -> dict[str, Any]:
    """A match or scoresheet played, linked by ``path`` (its signed address: made only
    where the page links to it)."""
    others = [shown_name(n) for seat, n in enumerate(played.names) if seat != played.seat]
    return {
        "href": path(reader.guild_id, played.match_id) if reader.public else None,
        "when": when(played.ended_at),
        "others": ", ".join(others),
        "rank": played.rank,
        "points": signed(played.points),
    }
