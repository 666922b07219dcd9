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
from bot.daily import MAX_DEALS, DailyRefusal, DailyService
from bot.i18n import N_, _
from bot.render.daily import daily_refusal_text
from bot.render.rules import rules_line
from bot.store import (
    Conflict,
    GuildSettings,
    LeaderboardSort,
    NotFound,
    TablePlace,
    TableSettings,
    WebAccess,
)
from bot.store.seasons import SeasonStore
from bot.store.tables import TableStore
from bot.tables import LEVELS, Refusal
from bot.ui.embeds import level_name
from bot.ui.lobby import MAX_TURN, MIN_TURN, language_refusal, level_refusal, turn_time_refusal
from bot.ui.replies import Guard, apologise, is_admin, literal
from bot.ui.rules_options import OPTIONS, TITLES, chosen_rules, rule_options
from bot.ui.standings import NO_MENTIONS, Boards, leaderboard_embed, leaderboard_view

from .lobby import LANGUAGE_CHOICES, LEVEL_CHOICES

Interaction = discord.Interaction[Any]
SEASON_NAME_LENGTH = 50
PLACE_WORDS = {
    TablePlace.THREAD: N_(
        "a thread of its own, opened on the lobby message when the match starts (where I "
        "may create threads; elsewhere in the channel)"
    ),
    TablePlace.CHANNEL: N_("the channel the table is opened in"),
}
IMAGE_WORDS = {
    True: N_("on (the table, the Domino rows and the score chart are drawn)"),
    False: N_("off (text only)"),
}
RATED_WORDS = {
    True: N_(
        "- Matches kept by a scoresheet (`/bonken tally new`) change the ratings: **yes** "
        "(they count in the standings either way)"
    ),
    False: N_(
        "- Matches kept by a scoresheet (`/bonken tally new`) change the ratings: **no** "
        "(they count in the standings either way)"
    ),
}
WEB_WORDS = {
    WebAccess.OFF: N_("- Web pages: **off** (no page of this server is served)"),
    WebAccess.LINK: N_(
        "- Web pages: **by link** (a page opens only through the link its message carries)"
    ),
    WebAccess.PUBLIC: N_(
        "- Web pages: **public** (the server's page also lists its players, matches and days)"
    ),
}
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


def settings_text(
    settings: GuildSettings, changed: list[str], guild_language: str, daily_deals: int
) -> str:
    """The server's defaults for new tables, as the settings command shows them
    (``guild_language``: the server's preferred locale's, followed while none is set),
    and the number of deals of its daily deals."""
    defaults = settings.table_defaults
    head = (
        _("Changed: {what}. Tables open now keep their settings.", what=", ".join(changed)) + "\n"
        if changed
        else ""
    )
    if settings.language is None:
        language = _(
            "{language}, the server's language in Discord",
            language=i18n.LANGUAGE_NAMES[guild_language],
        )
    else:
        language = i18n.LANGUAGE_NAMES[settings.language]
    return (
        head
        + _(
            "This server's defaults for new tables (`/bonken new` may still choose the "
            "turn time, the level, the rules, the pictures and the language):\n"
            "- Turn time: **{seconds} s** per card (choosing and doubling get 1.5×)\n"
            "- Computer level: **{level}**\n"
            "- Where a match plays: **{place}**\n"
            "- Rules: **{rules}**\n"
            "- Pictures: **{pictures}**\n"
            "- Language of the tables' posts: **{language}** (private replies speak each "
            "player's own Discord language)\n"
            "- Daily deals: **{daily_deals}** a day (a change counts from the next day nobody "
            "has begun)",
            seconds=defaults.turn_seconds,
            level=level_name(defaults.computer_level),
            place=_(PLACE_WORDS[settings.place]),
            rules=rules_line(defaults.rules),
            pictures=_(IMAGE_WORDS[defaults.images]),
            language=language,
            daily_deals=daily_deals,
        )
        + "\n"
        + _(RATED_WORDS[settings.rate_tallies])
        + "\n"
        + _(WEB_WORDS[settings.web])
    )


def _require_manage_server(interaction: Interaction, what: str) -> None:
    if not is_admin(interaction):
        raise Refusal(_("only members with the Manage Server permission can {what}", what=_(what)))


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
        daily: DailyService,
        seasons: SeasonStore,
        tables: TableStore,
    ) -> None:
        """``seasons``: started and ended here; ``tables``: the server's settings;
        ``daily``: the number of its daily deals."""
        self.guard = guard
        self.boards = boards
        self.daily = daily
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
                raise Refusal(_("seasons belong to a server; use this command in one"))
            if not name.strip():
                raise Refusal(_("a season needs a name"))
            seasons = self.seasons
            previous = await seasons.active_season(guild_id)
            try:
                started = await seasons.start_season(guild_id, name)
            except Conflict:
                raise Refusal(
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
                raise Refusal(_("seasons belong to a server; use this command in one"))
            try:
                ended = await self.seasons.end_season(guild_id)
            except NotFound:
                raise Refusal(_("there is no active season to end")) from None
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
            guild_id = interaction.guild_id
            if guild_id is None:
                raise Refusal(_("settings belong to a server; use this command in one"))
            if turn_seconds is not None and not MIN_TURN <= turn_seconds <= MAX_TURN:
                raise Refusal(turn_time_refusal())
            if computer_level is not None and computer_level not in LEVELS:
                raise Refusal(level_refusal())
            places = [place.value for place in TablePlace]
            if where is not None and where not in places:
                raise Refusal(_("a match plays in one of: {places}", places=", ".join(places)))
            if language is not None and language not in i18n.LANGUAGES:
                raise Refusal(language_refusal())
            if web is not None and web not in set(WebAccess):
                raise Refusal(_("the web pages are one of: off, link, public"))
            tables = self.tables
            now = await tables.guild_settings(guild_id)
            defaults = now.table_defaults
            new = GuildSettings(
                table_defaults=TableSettings(
                    turn_seconds=turn_seconds or defaults.turn_seconds,
                    computer_level=computer_level or defaults.computer_level,
                    rules=chosen_rules(defaults.rules, rules),
                    images=defaults.images if images is None else images,
                ),
                place=TablePlace(where) if where is not None else now.place,
                language=language or now.language,
                rate_tallies=now.rate_tallies if rate_scoresheets is None else rate_scoresheets,
                web=now.web if web is None else WebAccess(web),
            )
            changed = [
                _(what)
                for what, given in (
                    (N_("turn time"), turn_seconds),
                    (N_("computer level"), computer_level),
                    (N_("where a match plays"), where),
                    (N_("language"), language),
                    *((TITLES[name], rules.get(name)) for name in OPTIONS),
                    (N_("pictures"), images),
                    (N_("scoresheets in the ratings"), rate_scoresheets),
                    (N_("daily deals"), daily_deals),
                    (N_("web pages"), web),
                )
                if given is not None
            ]
            if daily_deals is not None:
                try:
                    await self.daily.set_deals_per_day(guild_id, daily_deals)
                except DailyRefusal as refusal:
                    raise Refusal(daily_refusal_text(refusal, self.daily.today())) from None
            if new != now:
                await tables.set_guild_settings(guild_id, new)
            guild_language = i18n.language_of(interaction.guild_locale)
            deals = await self.daily.deals_per_day(guild_id)
            await interaction.response.send_message(
                settings_text(new, changed, guild_language, deals),
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )

        await self.guard(interaction, work)

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await apologise(interaction, error)
