"""``/bonken-admin season start|end`` and ``settings``: what only members with Manage
Server may do.

The commands have their own top-level group because Discord's ``default_permissions``
(hiding a command from members without the permission) applies to top-level commands
only. Server admins can change who sees them under Server Settings → Integrations, so
each command still checks the permission when it runs."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.daily import MAX_DEALS
from bot.i18n import N_, _
from bot.store import Conflict, LeaderboardSort, NotFound, TablePlace, WebAccess
from bot.store.seasons import SeasonStore
from bot.store.tables import TableStore
from bot.ui.lobby import MAX_TURN, MIN_TURN
from bot.ui.replies import Guard, UIRefusal, apologise, is_admin, literal
from bot.ui.rules_options import rule_options
from bot.ui.settings import Asked, ServerSettings
from bot.ui.standings import NO_MENTIONS, Boards, leaderboard_embed, leaderboard_view

from .lobby import LANGUAGE_CHOICES, LEVEL_CHOICES

Interaction = discord.Interaction[Any]
SEASON_NAME_LENGTH = 50
WEB_CHOICES = [
    app_commands.Choice(name="off: no web pages", value=WebAccess.OFF.value),
    app_commands.Choice(name="link: a page only through its link", value=WebAccess.LINK.value),
    app_commands.Choice(
        name="public: the server page lists its pages", value=WebAccess.PUBLIC.value
    ),
]
PLACE_CHOICES = [
    app_commands.Choice(name="a thread per match", value=TablePlace.THREAD.value),
    app_commands.Choice(name="the channel itself", value=TablePlace.CHANNEL.value),
]


def _require_manage_server(interaction: Interaction, what: str) -> None:
    if not is_admin(interaction):
        raise UIRefusal(
            _("only members with the Manage Server permission can {what}", what=_(what))
        )


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class BonkenAdmin(
    commands.GroupCog,
    group_name="bonken-admin",
    group_description="Bonken for server admins (Manage Server)",
):
    def __init__(
        self,
        *,
        guard: Guard,
        boards: Boards,
        server_settings: ServerSettings,
        seasons: SeasonStore,
        tables: TableStore,
    ) -> None:
        """``server_settings``: the settings command's work; ``seasons``: started and
        ended here; ``tables``: the server's language."""
        self.guard = guard
        self.boards = boards
        self.server_settings = server_settings
        self.seasons = seasons
        self.tables = tables
        super().__init__()

    season = app_commands.Group(
        name="season", description="Start or end this server's Bonken season"
    )

    @season.command(name="start", description="Start a new season (ends the active one)")
    @app_commands.describe(name="The new season's name, unique in this server")
    async def season_start(
        self, interaction: Interaction, name: app_commands.Range[str, 1, SEASON_NAME_LENGTH]
    ) -> None:
        async def work() -> None:
            _require_manage_server(interaction, N_("start a season"))
            guild_id = interaction.guild_id
            if guild_id is None:
                raise UIRefusal(_("seasons belong to a server; use this command in one"))
            if not name.strip():
                raise UIRefusal(_("a season needs a name"))
            seasons = self.seasons
            previous = await seasons.active_season(guild_id)
            try:
                started = await seasons.start_season(guild_id, name)
            except Conflict:
                raise UIRefusal(
                    _("there is already a season named {name}", name=repr(name.strip()))
                ) from None
            with i18n.using(await self.boards.language(interaction)):  # posted for the channel
                text = _(
                    "🏁 Season **{name}** has started: finished matches count in it.",
                    name=literal(started.name),
                )
                if previous is not None:
                    text += "\n" + _(
                        "**{name}** is archived; `/bonken leaderboard` with "
                        "its name as the season still shows it.",
                        name=literal(previous.name),
                    )
            await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)

        await self.guard(interaction, work)

    @season.command(name="end", description="End the active season and archive it")
    async def season_end(self, interaction: Interaction) -> None:
        async def work() -> None:
            _require_manage_server(interaction, N_("end a season"))
            guild_id = interaction.guild_id
            if guild_id is None:
                raise UIRefusal(_("seasons belong to a server; use this command in one"))
            try:
                ended = await self.seasons.end_season(guild_id)
            except NotFound:
                raise UIRefusal(_("there is no active season to end")) from None
            viewer = interaction.user.id
            page = await self.boards.page(ended.season_id, LeaderboardSort.POINTS, 0, viewer)
            with i18n.using(await self.boards.language(interaction)):  # posted for the channel
                view = leaderboard_view(guild_id, page, viewer)
                embed = leaderboard_embed(page, viewer)
                text = _(
                    "🏁 **{name}** has ended and is archived with its final "
                    "standings; `/bonken leaderboard` with its name as the season shows them any "
                    "time. The next finished match starts a new season unless you name one with "
                    "`/bonken-admin season start`.",
                    name=literal(ended.name),
                )
            await interaction.response.send_message(
                text,
                embed=embed,
                allowed_mentions=NO_MENTIONS,
                view=discord.utils.MISSING if view is None else view,
            )

        await self.guard(interaction, work)

    @app_commands.command(
        name="settings", description="Show or change this server's defaults for new tables"
    )
    @app_commands.describe(
        turn_seconds="Seconds to play a card (choosing and doubling get 1.5×)",
        computer_level="How strong the computer players are",
        where="Play each match in a thread of its lobby message, or in the channel",
        images="Draw the table and the score chart as pictures (off: text only)",
        language="The language of the tables' posts; default the server's language in Discord",
        rate_scoresheets="Let matches kept by a scoresheet (real cards) change the ratings",
        daily_deals="How many deals the server's daily deals have (from the next day begun)",
        web="Who may open the server's web pages (default: only through their links)",
    )
    @app_commands.choices(
        computer_level=LEVEL_CHOICES,
        where=PLACE_CHOICES,
        language=LANGUAGE_CHOICES,
        web=WEB_CHOICES,
    )
    @rule_options
    async def settings(
        self,
        interaction: Interaction,
        /,
        turn_seconds: app_commands.Range[int, MIN_TURN, MAX_TURN] | None = None,
        computer_level: str | None = None,
        where: str | None = None,
        language: str | None = None,
        images: bool | None = None,
        rate_scoresheets: bool | None = None,
        daily_deals: app_commands.Range[int, 1, MAX_DEALS] | None = None,
        web: str | None = None,
        **rules: str | None,
    ) -> None:
        async def work() -> None:
            _require_manage_server(interaction, N_("change the server's Bonken settings"))
            asked = Asked(
                turn_seconds=turn_seconds,
                computer_level=computer_level,
                where=where,
                language=language,
                images=images,
                rate_scoresheets=rate_scoresheets,
                daily_deals=daily_deals,
                web=web,
                rules=rules,
            )
            await self.server_settings.change(interaction, asked)

        await self.guard(interaction, work)

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await apologise(interaction, error)
