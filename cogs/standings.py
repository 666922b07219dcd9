"""``/bonken leaderboard, stats, season start|end``: standings, statistics and seasons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.store import Conflict, LeaderboardSort, NotFound
from bot.tables import Refusal
from bot.ui.replies import guarded, is_admin, say_privately
from bot.ui.standings import (
    NO_MENTIONS,
    SORT_NAMES,
    fetch_page,
    leaderboard_embed,
    leaderboard_view,
    resolve_season,
    stats_embed,
)

if TYPE_CHECKING:
    from bot.app import BonkenBot

Interaction = discord.Interaction[Any]
SORT_CHOICES = [
    app_commands.Choice(name=f"by {SORT_NAMES[sort]}", value=sort.value) for sort in LeaderboardSort
]
SEASON_NAME_LENGTH = 50


def _bot(interaction: Interaction) -> BonkenBot:
    return interaction.client  # type: ignore[return-value]


async def season_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The guild's seasons, newest first, the active one marked."""
    if interaction.guild_id is None:
        return []
    seasons = await _bot(interaction).store.seasons.seasons(interaction.guild_id)
    typed = current.strip().lower()
    return [
        app_commands.Choice(
            name=(season.name + (" (active)" if season.active else ""))[:100], value=season.name
        )
        for season in seasons
        if typed in season.name.lower()
    ][:25]


def _require_manage_server(interaction: Interaction, what: str) -> None:
    if not is_admin(interaction):
        raise Refusal(f"only members with the Manage Server permission can {what}")


class StandingsCommands:
    """Mixed into the ``/bonken`` group cog."""

    bot: BonkenBot

    @app_commands.command(name="leaderboard", description="This server's Bonken standings")
    @app_commands.describe(
        season="A season by name; default the active one",
        sort="What to rank by; default total points",
    )
    @app_commands.autocomplete(season=season_autocomplete)
    @app_commands.choices(sort=SORT_CHOICES)
    async def leaderboard(
        self, interaction: Interaction, season: str | None = None, sort: str | None = None
    ) -> None:
        async def work() -> None:
            store = self.bot.store
            found = await resolve_season(store, interaction.guild_id, season)
            order = LeaderboardSort(sort or LeaderboardSort.POINTS)
            viewer = interaction.user.id
            page = await fetch_page(store, found.season_id, order, 0, viewer)
            view = leaderboard_view(found.guild_id, page, viewer)
            extra = {} if view is None else {"view": view}
            await interaction.response.send_message(
                embed=leaderboard_embed(page, viewer), allowed_mentions=NO_MENTIONS, **extra
            )

        await guarded(interaction, work)

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
            store = self.bot.store
            found = await resolve_season(store, interaction.guild_id, season)
            who = player or interaction.user
            stats = await store.standings.player_stats(found.season_id, who.id)
            if stats is None:
                subject = "You have" if who.id == interaction.user.id else f"{who.mention} has"
                await say_privately(
                    interaction, f"{subject} not finished a match in {found.name} yet."
                )
                return
            await interaction.response.send_message(
                embed=stats_embed(stats, who.display_name), allowed_mentions=NO_MENTIONS
            )

        await guarded(interaction, work)

    season_group = app_commands.Group(
        name="season", description="Start or end this server's Bonken season (Manage Server)"
    )

    @season_group.command(name="start", description="Start a new season (ends the active one)")
    @app_commands.describe(name="The new season's name, unique in this server")
    async def season_start(
        self, interaction: Interaction, name: app_commands.Range[str, 1, SEASON_NAME_LENGTH]
    ) -> None:
        async def work() -> None:
            _require_manage_server(interaction, "start a season")
            guild_id = interaction.guild_id
            if guild_id is None:
                raise Refusal("seasons belong to a server; use this command in one")
            if not name.strip():
                raise Refusal("a season needs a name")
            seasons = self.bot.store.seasons
            previous = await seasons.active_season(guild_id)
            try:
                started = await seasons.start_season(guild_id, name)
            except Conflict:
                raise Refusal(f"there is already a season named {name.strip()!r}") from None
            text = f"🏁 Season **{started.name}** has started: finished matches count in it."
            if previous is not None:
                text += (
                    f"\n**{previous.name}** is archived; `/bonken leaderboard season:"
                    f"{previous.name}` still shows it."
                )
            await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)

        await guarded(interaction, work)

    @season_group.command(name="end", description="End the active season and archive it")
    async def season_end(self, interaction: Interaction) -> None:
        async def work() -> None:
            _require_manage_server(interaction, "end a season")
            guild_id = interaction.guild_id
            if guild_id is None:
                raise Refusal("seasons belong to a server; use this command in one")
            store = self.bot.store
            try:
                ended = await store.seasons.end_season(guild_id)
            except NotFound:
                raise Refusal("there is no active season to end") from None
            viewer = interaction.user.id
            page = await fetch_page(store, ended.season_id, LeaderboardSort.POINTS, 0, viewer)
            view = leaderboard_view(guild_id, page, viewer)
            extra = {} if view is None else {"view": view}
            await interaction.response.send_message(
                f"🏁 **{ended.name}** has ended and is archived with its final standings; "
                f"`/bonken leaderboard season:{ended.name}` shows them any time. The next "
                "finished match starts a new season unless you name one with "
                "`/bonken season start`.",
                embed=leaderboard_embed(page, viewer),
                allowed_mentions=NO_MENTIONS,
                **extra,
            )

        await guarded(interaction, work)
