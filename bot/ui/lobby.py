"""Lobby actions shared by the slash commands and the lobby message's buttons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot import i18n
from bot.i18n import N_, _
from bot.store import TablePlace, TableSettings, TableStatus
from bot.store.tables import TableStore
from bot.tables import LEVELS, Refusal, TableReason, TableService
from bot.tables.lobby import Left

from .components import lobby_view
from .embeds import compass, level_name, lobby_embed
from .places import Places
from .replies import UIRefusal, display_name, is_admin
from .rules_options import chosen_rules
from .table_message import TABLE_MESSAGE
from .threads import THREAD, THREAD_WANTED

Interaction = discord.Interaction[Any]

NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")
PERMISSION_NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}
""":data:`NEEDED` as Discord's settings name them, in the reader's language."""
THREAD_NEEDED = ("create_public_threads", "send_messages_in_threads")
"""Without these the table plays in its channel, as it does where threads cannot be."""
THREADED = (discord.ChannelType.text, discord.ChannelType.news)
"""Channels whose messages can start a public thread."""
MIN_TURN, MAX_TURN = 15, 600
LEFT_WORDS = {
    Left.SEAT_FREED: N_("You left the table."),
    Left.TABLE_CLOSED: N_("You left the table; no other person sat at it, so it is closed."),
    Left.COMPUTER_PLAYS: N_(
        "You left the match; a computer plays your seat, and anyone (you too) may take it "
        "with `/bonken join`."
    ),
    Left.MATCH_CANCELLED: N_(
        "You left the match. Nobody else played in it, so it is cancelled and counts for nobody."
    ),
}


def can_thread(interaction: Interaction) -> bool:
    """A table opened here may play in a thread of its own: the channel can have threads
    (a thread cannot) and the bot may open and post in them."""
    channel = interaction.channel
    channel_type = None if channel is None else channel.type
    allowed = interaction.app_permissions
    return channel_type in THREADED and all(getattr(allowed, p) for p in THREAD_NEEDED)


class LobbyMessages(Protocol):
    """What the channel's presenter is told of a new table: which message is its lobby
    (posted as a command's answer, so the presenter did not post it itself)."""

    def adopt_message(self, table_id: int, message_id: int) -> None: ...


class LobbyController:
    def __init__(
        self,
        service: TableService,
        tables: TableStore,
        presenter: LobbyMessages,
        places: Places,
        *,
        activity: bool = False,
    ) -> None:
        """``tables``: the server's defaults for new tables; ``presenter``: told of the
        lobby message a table opens with; ``places``: which table an interaction is about;
        ``activity``: the lobby offers Play in an Activity (:mod:`.activity`)."""
        self.service = service
        self.tables = tables
        self.presenter = presenter
        self.places = places
        self.activity = activity

    async def open(
        self,
        interaction: Interaction,
        turn_seconds: int | None,
        level: str | None,
        rules: Mapping[str, str | None] | None = None,
        images: bool | None = None,
        language: str | None = None,
    ) -> None:
        """Open a table; ``rules`` is the rules options as chosen (the variant and house
        rules by name, each left out or None for the server's default; see
        :func:`~.rules_options.chosen_rules`); its channel posts speak ``language``,
        else the server's setting, else the server's preferred locale (a table keeps the
        language it opened with)."""
        channel = self.places.channel_of(interaction)
        missing = [p for p in NEEDED if not getattr(interaction.app_permissions, p)]
        if missing:
            names = ", ".join(_(PERMISSION_NAMES[p]) for p in missing)
            raise UIRefusal(
                _("I need these permissions in this channel first: {names}", names=names)
            )
        guild = await self.tables.guild_settings(interaction.guild_id or 0)
        defaults = guild.table_defaults
        if turn_seconds is not None and not MIN_TURN <= turn_seconds <= MAX_TURN:
            raise UIRefusal(turn_time_refusal())
        if level is not None and level not in LEVELS:
            raise UIRefusal(level_refusal())
        if language is not None and language not in i18n.LANGUAGES:
            raise UIRefusal(language_refusal())
        chosen = language or guild.language or i18n.language_of(interaction.guild_locale)
        settings = TableSettings(
            turn_seconds=turn_seconds or defaults.turn_seconds,
            computer_level=level or defaults.computer_level,
            rules=chosen_rules(defaults.rules, rules or {}),
            images=defaults.images if images is None else images,
            language=chosen,
        )
        assert interaction.guild_id is not None  # channel_id() refused a direct message
        threaded = guild.place is TablePlace.THREAD and can_thread(interaction)
        view = await self.service.open_table(
            interaction.guild_id,
            channel,
            interaction.user.id,
            display_name(interaction),
            settings,
            messages={THREAD: THREAD_WANTED} if threaded else None,
        )
        with i18n.using(view.settings.language):  # a channel post: the table's language
            embed = lobby_embed(view)
            buttons = lobby_view(view.table_id, activity=self.activity)
        await interaction.response.send_message(embed=embed, view=buttons)
        message = await interaction.original_response()
        await self.service.remember_message(view.table_id, TABLE_MESSAGE, message.id)
        self.presenter.adopt_message(view.table_id, message.id)

    async def join(self, interaction: Interaction) -> None:
        view = await self.service.join(
            self.places.channel_of(interaction), interaction.user.id, display_name(interaction)
        )
        seat = next(i for i, s in enumerate(view.seats) if s.user_id == interaction.user.id)
        await _confirm(interaction, _("You sit {seat}.", seat=compass(seat)))

    async def leave(self, interaction: Interaction) -> None:
        left = await self.service.leave(self.places.channel_of(interaction), interaction.user.id)
        await _confirm(interaction, _(LEFT_WORDS[left]))

    async def add_computer(self, interaction: Interaction, level: str | None) -> None:
        await self.service.add_computer(
            self.places.channel_of(interaction),
            interaction.user.id,
            level,
            is_admin=is_admin(interaction),
        )
        await _confirm(interaction, _("A computer player sits down."))

    async def start(self, interaction: Interaction) -> None:
        view = await self.service.start(
            self.places.channel_of(interaction), interaction.user.id, is_admin=is_admin(interaction)
        )
        if THREAD in view.messages:
            words = _(
                "The match starts in a thread opened on the lobby message: press "
                "**Show my hand** under the table message there to see your cards."
            )
        else:
            words = _("The match starts: press **Show my hand** to see your cards.")
        await _confirm(interaction, words)

    async def kick(self, interaction: Interaction, seat: int) -> None:
        view = await self.service.kick(
            self.places.channel_of(interaction),
            interaction.user.id,
            seat,
            is_admin=is_admin(interaction),
        )
        if view.status is TableStatus.CANCELLED:  # that was the last person in the match
            words = _(
                "{seat} was removed; nobody else played in the match, so it is cancelled "
                "and counts for nobody.",
                seat=compass(seat),
            )
            await _confirm(interaction, words)
        elif view.match_id is not None:
            await _confirm(
                interaction,
                _("{seat} was removed; a computer plays the seat.", seat=compass(seat)),
            )
        else:
            await _confirm(interaction, _("{seat}'s seat is freed.", seat=compass(seat)))

    async def cancel(self, interaction: Interaction) -> None:
        await self.service.cancel(
            self.places.channel_of(interaction), interaction.user.id, is_admin=is_admin(interaction)
        )
        await _confirm(interaction, _("The table is cancelled."))

    async def button(self, interaction: Interaction, table_id: int, op: str) -> None:
        """A lobby button: only for the table that is open in this channel now."""
        self._open_here(interaction, table_id)
        actions = {
            "join": lambda: self.join(interaction),
            "leave": lambda: self.leave(interaction),
            "addbot": lambda: self.add_computer(interaction, None),
            "start": lambda: self.start(interaction),
        }
        await actions[op]()

    async def launch_activity(self, interaction: Interaction, table_id: int) -> None:
        """Play in an Activity: Discord opens the Activity in this channel, where it finds
        this table (:mod:`bot.web.activity`). Only while the table is open here."""
        self._open_here(interaction, table_id)
        await interaction.response.launch_activity()

    def _open_here(self, interaction: Interaction, table_id: int) -> None:
        view = self.service.table_in_channel(self.places.channel_of(interaction))
        if view is None or view.table_id != table_id:
            raise Refusal("this table is closed", TableReason.TABLE_CLOSED)


def turn_time_refusal() -> str:
    return _("the turn time must be {low}-{high} seconds", low=MIN_TURN, high=MAX_TURN)


def level_refusal() -> str:
    levels = ", ".join(level_name(level) for level in LEVELS)
    return _("the computer level must be one of {levels}", levels=levels)


def language_refusal() -> str:
    return _("the language must be one of {languages}", languages=", ".join(i18n.LANGUAGES))


async def _confirm(interaction: Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)
