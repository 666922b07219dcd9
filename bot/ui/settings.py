"""``/bonken-admin settings``: a server's defaults for new tables and its daily deals.

The command's options are checked here (a value out of range is refused, changing
nothing), then stored: the table defaults in the server's settings, the number of its
daily deals through the daily service (which checks it too). The reply shows every
setting as it now is. The cog only checks the permission and hands the options over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import i18n
from bot.daily import DailyRefusal, DailyService
from bot.i18n import N_, _
from bot.render.daily import daily_refusal_text
from bot.render.rules import rules_line
from bot.store import GuildSettings, TablePlace, TableSettings, WebAccess
from bot.store.tables import TableStore
from bot.tables import LEVELS

from .embeds import level_name
from .lobby import MAX_TURN, MIN_TURN, language_refusal, level_refusal, turn_time_refusal
from .replies import UIRefusal
from .rules_options import OPTIONS, TITLES, chosen_rules
from .standings import NO_MENTIONS

Interaction = discord.Interaction[Any]
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


@dataclass(frozen=True)
class Asked:
    """The settings command's options (None: not given, left as it is)."""

    turn_seconds: int | None = None
    computer_level: str | None = None
    where: str | None = None
    language: str | None = None
    images: bool | None = None
    rate_scoresheets: bool | None = None
    daily_deals: int | None = None
    web: str | None = None
    rules: Mapping[str, str | None] = field(default_factory=dict)


class ServerSettings:
    """The settings command's work (see the module)."""

    def __init__(self, tables: TableStore, daily: DailyService) -> None:
        """``tables``: the server's settings; ``daily``: the number of its daily deals."""
        self._tables = tables
        self._daily = daily

    async def change(self, interaction: Interaction, asked: Asked) -> None:
        """Change what ``asked`` gives and answer, privately, with every setting."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UIRefusal(_("settings belong to a server; use this command in one"))
        if asked.turn_seconds is not None and not MIN_TURN <= asked.turn_seconds <= MAX_TURN:
            raise UIRefusal(turn_time_refusal())
        if asked.computer_level is not None and asked.computer_level not in LEVELS:
            raise UIRefusal(level_refusal())
        places = [place.value for place in TablePlace]
        if asked.where is not None and asked.where not in places:
            raise UIRefusal(_("a match plays in one of: {places}", places=", ".join(places)))
        if asked.language is not None and asked.language not in i18n.LANGUAGES:
            raise UIRefusal(language_refusal())
        if asked.web is not None and asked.web not in set(WebAccess):
            raise UIRefusal(_("the web pages are one of: off, link, public"))
        tables = self._tables
        now = await tables.guild_settings(guild_id)
        defaults = now.table_defaults
        new = GuildSettings(
            table_defaults=TableSettings(
                turn_seconds=asked.turn_seconds or defaults.turn_seconds,
                computer_level=asked.computer_level or defaults.computer_level,
                rules=chosen_rules(defaults.rules, asked.rules),
                images=defaults.images if asked.images is None else asked.images,
            ),
            place=TablePlace(asked.where) if asked.where is not None else now.place,
            language=asked.language or now.language,
            rate_tallies=(
                now.rate_tallies if asked.rate_scoresheets is None else asked.rate_scoresheets
            ),
            web=now.web if asked.web is None else WebAccess(asked.web),
        )
        changed = [
            _(what)
            for what, given in (
                (N_("turn time"), asked.turn_seconds),
                (N_("computer level"), asked.computer_level),
                (N_("where a match plays"), asked.where),
                (N_("language"), asked.language),
                *((TITLES[name], asked.rules.get(name)) for name in OPTIONS),
                (N_("pictures"), asked.images),
                (N_("scoresheets in the ratings"), asked.rate_scoresheets),
                (N_("daily deals"), asked.daily_deals),
                (N_("web pages"), asked.web),
            )
            if given is not None
        ]
        if asked.daily_deals is not None:
            try:
                await self._daily.set_deals_per_day(guild_id, asked.daily_deals)
            except DailyRefusal as refusal:
                raise UIRefusal(daily_refusal_text(refusal, self._daily.today())) from None
        if new != now:
            await tables.set_guild_settings(guild_id, new)
        guild_language = i18n.language_of(interaction.guild_locale)
        deals = await self._daily.deals_per_day(guild_id)
        await interaction.response.send_message(
            settings_text(new, changed, guild_language, deals),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )


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
