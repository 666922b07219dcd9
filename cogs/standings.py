"""``/bonken leaderboard, stats``: standings and statistics (seasons are started and
ended with ``/bonken-admin season``, in :mod:`cogs.admin`)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import _
from bot.render.standings import SORT_NAMES
from bot.store import LeaderboardSort
from bot.ui.daily import DailyController
from bot.ui.front import front_of
from bot.ui.replies import Guard, literal, say_privately
from bot.ui.standings import (
    NO_MENTIONS,
    Boards,
    leaderboard_embed,
    leaderboard_view,
    stats_embed,
)
from bot.ui.web import WebLinker, with_web_link

Interaction = discord.Interaction[Any]


@runtime_checkable
class BoardsFront(Protocol):
    """The part of the bot the season option's list uses."""

    @property
    def boards(self) -> Boards: ...


SORT_CHOICES = [
    app_commands.Choice(name=SORT_NAMES[sort], value=sort.value) for sort in LeaderboardSort
]
SEASON_NAME_LENGTH = 50


async def season_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The guild's seasons, newest first, the active one marked."""
    if interaction.guild_id is None:
        return []
    seasons = await front_of(interaction, BoardsFront).boards.seasons_of(interaction.guild_id)
    typed = current.strip().lower()
    with i18n.using(interaction.locale):
        active = " " + _("(active)")
    return [
        app_commands.Choice(
            name=(season.name + (active if season.active else ""))[:100], value=season.name
        )
        for season in seasons
        if typed in season.name.lower()
    ][:25]


class StandingsCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    boards: Boards
    daily: DailyController
    web: WebLinker

    @app_commands.command(name="leaderboard", description="This server's Bonken standings")
    @app_commands.describe(
        season="A season by name; default the active one",
        sort="What to rank by; default total points",
        daily="The daily deals' board instead: the mean percentage over the days played",
    )
    @app_commands.autocomplete(season=season_autocomplete)
    @app_commands.choices(sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        season: str | None = None,
        sort: str | None = None,
        daily: bool = False,
    ) -> None:
        async def work() -> None:
            if daily:
                await self.daily.board(interaction, season)
                return
            found = await self.boards.season(interaction.guild_id, season)
            order = LeaderboardSort(sort or LeaderboardSort.POINTS)
            viewer = interaction.user.id
            page = await self.boards.page(found.season_id, order, 0, viewer)
            url = await self.web.server(found.guild_id)
            with i18n.using(await self.boards.language(interaction)):  # posted for the channel
                view = with_web_link(leaderboard_view(found.guild_id, page, viewer), url)
                embed = leaderboard_embed(page, viewer)
            await interaction.response.send_message(
                embed=embed,
                allowed_mentions=NO_MENTIONS,
                view=discord.utils.MISSING if view is None else view,
            )

        await self.guard(interaction, work)

    @app_commands.command(name="stats", description="A player's Bonken statistics")
    @app_commands.describe(
        player="Whose statistics; default yours", season="A season by name; default the active one"
    )
    @app_commands.autocomplete(season=season_autocomplete)
    async def stats(
        self,
        interaction: Interaction,
        player: discord.User | None = None,
        season: str | None = None,
    ) -> None:
        async def work() -> None:
            found = await self.boards.season(interaction.guild_id, season)
            who = player or interaction.user
            stats = await self.boards.stats(found.season_id, who.id)
            if stats is None:
                season_name = literal(found.name)
                words = (
                    _("You have not finished a match in {season} yet.", season=season_name)
                    if who.id == interaction.user.id
                    else _(
                        "{user} has not finished a match in {season} yet.",
                        user=who.mention,
                        season=season_name,
                    )
                )
                await say_privately(interaction, words)
                return
            url = await self.web.player(found.guild_id, who.id)
            with i18n.using(await self.boards.language(interaction)):  # posted for the channel
                embed = stats_embed(stats, who.display_name)
                view = with_web_link(None, url)
            await interaction.response.send_message(
                embed=embed,
                allowed_mentions=NO_MENTIONS,
                view=discord.utils.MISSING if view is None else view,
            )

        await self.guard(interaction, work)
