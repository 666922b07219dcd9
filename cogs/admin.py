"""``/bonken-admin season start|end`` and ``settings``: what only members with Manage
Server may do.

The commands have their own top-level group because Discord's ``default_permissions``
(hiding a command from members without the permission) applies to top-level commands
only. Server admins can change who sees them under Server Settings → Integrations, so
each command still checks the permission when it runs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.rules import rules_line
from bot.store import Conflict, GuildSettings, LeaderboardSort, NotFound, TablePlace, TableSettings
from bot.tables import LEVELS, Refusal
from bot.ui.lobby import MAX_TURN, MIN_TURN
from bot.ui.replies import apologise, guarded, is_admin, literal
from bot.ui.rules_options import (
    DESCRIPTIONS,
    DOMINO_DOUBLING_CHOICES,
    FIRST_LEAD_CHOICES,
    HEART_LEAD_CHOICES,
    VARIANT_CHOICES,
    chosen_rules,
)
from bot.ui.standings import NO_MENTIONS, fetch_page, leaderboard_embed, leaderboard_view

from .lobby import LEVEL_CHOICES

if TYPE_CHECKING:
    from bot.app import BonkenBot

Interaction = discord.Interaction[Any]
SEASON_NAME_LENGTH = 50
PLACE_WORDS = {
    TablePlace.THREAD: (
        "a thread of its own, opened on the table message when the match starts (where I "
        "may create threads; elsewhere in the channel)"
    ),
    TablePlace.CHANNEL: "the channel the table is opened in",
}
IMAGE_WORDS = {
    True: "on (the table, the Domino rows and the score chart are drawn)",
    False: "off (text only)",
}
PLACE_CHOICES = [
    app_commands.Choice(name="a thread per match", value=TablePlace.THREAD.value),
    app_commands.Choice(name="the channel itself", value=TablePlace.CHANNEL.value),
]


def settings_text(settings: GuildSettings, changed: list[str]) -> str:
    """The server's defaults for new tables, as the settings command shows them."""
    defaults = settings.table_defaults
    head = (
        f"Changed: {', '.join(changed)}. Tables open now keep their settings.\n" if changed else ""
    )
    return (
        f"{head}This server's defaults for new tables (`/bonken new` may still choose the "
        "turn time, the level and the rules):\n"
        f"- Turn time: **{defaults.turn_seconds} s** per card (choosing and doubling get "
        "1.5×)\n"
        f"- Computer level: **{defaults.computer_level}**\n"
        f"- Where a match plays: **{PLACE_WORDS[settings.place]}**\n"
        f"- Rules: **{rules_line(defaults.rules)}**\n"
        f"- Pictures: **{IMAGE_WORDS[defaults.images]}**"
    )


def _require_manage_server(interaction: Interaction, what: str) -> None:
    if not is_admin(interaction):
        raise Refusal(f"only members with the Manage Server permission can {what}")


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class BonkenAdmin(
    commands.GroupCog,
    group_name="bonken-admin",
    group_description="Bonken for server admins (Manage Server)",
):
    def __init__(self, bot: BonkenBot) -> None:
        self.bot = bot
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
            text = (
                f"🏁 Season **{literal(started.name)}** has started: finished matches count in it."
            )
            if previous is not None:
                text += (
                    f"\n**{literal(previous.name)}** is archived; `/bonken leaderboard` with "
                    "its name as the season still shows it."
                )
            await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)

        await guarded(interaction, work)

    @season.command(name="end", description="End the active season and archive it")
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
            await interaction.response.send_message(
                f"🏁 **{literal(ended.name)}** has ended and is archived with its final "
                "standings; `/bonken leaderboard` with its name as the season shows them any "
                "time. The next "
                "finished match starts a new season unless you name one with "
                "`/bonken-admin season start`.",
                embed=leaderboard_embed(page, viewer),
                allowed_mentions=NO_MENTIONS,
                view=discord.utils.MISSING if view is None else view,
            )

        await guarded(interaction, work)

    @app_commands.command(
        name="settings", description="Show or change this server's defaults for new tables"
    )
    @app_commands.describe(
        turn_seconds="Seconds to play a card (choosing and doubling get 1.5×)",
        computer_level="How strong the computer players are",
        where="Play each match in a thread of its table message, or in the channel",
        images="Draw the table and the score chart as pictures (off: text only)",
        **DESCRIPTIONS,
    )
    @app_commands.choices(
        computer_level=LEVEL_CHOICES,
        where=PLACE_CHOICES,
        variant=VARIANT_CHOICES,
        heart_lead=HEART_LEAD_CHOICES,
        first_lead=FIRST_LEAD_CHOICES,
        domino_doubling=DOMINO_DOUBLING_CHOICES,
    )
    async def settings(
        self,
        interaction: Interaction,
        turn_seconds: app_commands.Range[int, MIN_TURN, MAX_TURN] | None = None,
        computer_level: str | None = None,
        where: str | None = None,
        variant: str | None = None,
        heart_lead: str | None = None,
        first_lead: str | None = None,
        domino_doubling: str | None = None,
        images: bool | None = None,
    ) -> None:
        async def work() -> None:
            _require_manage_server(interaction, "change the server's Bonken settings")
            guild_id = interaction.guild_id
            if guild_id is None:
                raise Refusal("settings belong to a server; use this command in one")
            if turn_seconds is not None and not MIN_TURN <= turn_seconds <= MAX_TURN:
                raise Refusal(f"the turn time must be {MIN_TURN}-{MAX_TURN} seconds")
            if computer_level is not None and computer_level not in LEVELS:
                raise Refusal(f"the computer level must be one of {', '.join(LEVELS)}")
            places = [place.value for place in TablePlace]
            if where is not None and where not in places:
                raise Refusal(f"a match plays in one of: {', '.join(places)}")
            tables = self.bot.store.tables
            now = await tables.guild_settings(guild_id)
            defaults = now.table_defaults
            rules = chosen_rules(defaults.rules, variant, heart_lead, first_lead, domino_doubling)
            new = GuildSettings(
                TableSettings(
                    turn_seconds or defaults.turn_seconds,
                    computer_level or defaults.computer_level,
                    rules,
                    defaults.images if images is None else images,
                ),
                TablePlace(where) if where is not None else now.place,
            )
            changed = [
                what
                for what, given in (
                    ("turn time", turn_seconds),
                    ("computer level", computer_level),
                    ("where a match plays", where),
                    ("variant", variant),
                    ("heart lead", heart_lead),
                    ("first lead", first_lead),
                    ("Domino doubling", domino_doubling),
                    ("pictures", images),
                )
                if given is not None
            ]
            if new != now:
                await tables.set_guild_settings(guild_id, new)
            await interaction.response.send_message(
                settings_text(new, changed), ephemeral=True, allowed_mentions=NO_MENTIONS
            )

        await guarded(interaction, work)

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await apologise(interaction, error)
