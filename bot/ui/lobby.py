"""Lobby actions shared by the slash commands and the lobby message's buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.store import TablePlace, TableSettings, TableStatus
from bot.tables import LEVELS, Refusal, TableReason, TableService, TableView
from bot.tables.lobby import Left
from bot.tables.table import SEAT_NAMES

from .components import lobby_view
from .embeds import lobby_embed
from .presenter import THREAD
from .replies import display_name, is_admin
from .rules_options import chosen_rules

if TYPE_CHECKING:
    from bot.app import BonkenBot

Interaction = discord.Interaction[Any]

NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")
THREAD_NEEDED = ("create_public_threads", "send_messages_in_threads")
"""Without these the table plays in its channel, as it does where threads cannot be."""
THREADED = (discord.ChannelType.text, discord.ChannelType.news)
"""Channels whose messages can start a public thread."""
MIN_TURN, MAX_TURN = 15, 600
LEFT_WORDS = {
    Left.SEAT_FREED: "You left the table.",
    Left.TABLE_CLOSED: "You left the table; no other person sat at it, so it is closed.",
    Left.COMPUTER_PLAYS: (
        "You left the match; a computer plays your seat, and anyone (you too) may take it "
        "with `/bonken join`."
    ),
    Left.MATCH_CANCELLED: (
        "You left the match. Nobody else played in it, so it is cancelled and counts for nobody."
    ),
}


def channel_id(interaction: Interaction) -> int:
    """The channel whose table the interaction is about: its own channel, or, from the
    thread a table plays in, the channel the table was opened in."""
    if interaction.channel_id is None or interaction.guild_id is None:
        raise Refusal("Bonken is played in a server's text channel")
    return interaction.client.presenter.table_channel(interaction.channel_id)


def can_thread(interaction: Interaction) -> bool:
    """A table opened here may play in a thread of its own: the channel can have threads
    (a thread cannot) and the bot may open and post in them."""
    channel_type = getattr(interaction.channel, "type", None)
    allowed = interaction.app_permissions
    return channel_type in THREADED and all(getattr(allowed, p) for p in THREAD_NEEDED)


class LobbyController:
    def __init__(self, bot: BonkenBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    def table_here(self, interaction: Interaction) -> TableView:
        view = self.service.table_in_channel(channel_id(interaction))
        if view is None:
            raise Refusal("there is no Bonken table in this channel", TableReason.NO_TABLE)
        return view

    async def open(
        self,
        interaction: Interaction,
        turn_seconds: int | None,
        level: str | None,
        rules: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None),
        images: bool | None = None,
    ) -> None:
        """Open a table; ``rules`` is (variant, heart_lead, first_lead, domino_doubling) as
        chosen, each None for the server's default."""
        channel = channel_id(interaction)
        missing = [p for p in NEEDED if not getattr(interaction.app_permissions, p)]
        if missing:
            names = ", ".join(p.replace("_", " ").title() for p in missing)
            raise Refusal(f"I need these permissions in this channel first: {names}")
        guild = await self.bot.store.tables.guild_settings(interaction.guild_id or 0)
        defaults = guild.table_defaults
        if turn_seconds is not None and not MIN_TURN <= turn_seconds <= MAX_TURN:
            raise Refusal(f"the turn time must be {MIN_TURN}-{MAX_TURN} seconds")
        if level is not None and level not in LEVELS:
            raise Refusal(f"the computer level must be one of {', '.join(LEVELS)}")
        settings = TableSettings(
            turn_seconds or defaults.turn_seconds,
            level or defaults.computer_level,
            chosen_rules(defaults.rules, *rules),
            defaults.images if images is None else images,
        )
        assert interaction.guild_id is not None  # channel_id() refused a direct message
        view = await self.service.open_table(
            interaction.guild_id, channel, interaction.user.id, display_name(interaction), settings
        )
        if guild.place is TablePlace.THREAD and can_thread(interaction):
            await self.bot.presenter.play_in_thread(view.table_id)
        await interaction.response.send_message(
            embed=lobby_embed(view), view=lobby_view(view.table_id)
        )
        message = await interaction.original_response()
        await self.service.remember_message(view.table_id, "table", message.id)
        self.bot.presenter.adopt_message(channel, view.table_id, message.id)

    async def join(self, interaction: Interaction) -> None:
        view = await self.service.join(
            channel_id(interaction), interaction.user.id, display_name(interaction)
        )
        seat = next(i for i, s in enumerate(view.seats) if s.user_id == interaction.user.id)
        await _confirm(interaction, f"You sit {SEAT_NAMES[seat]}.")

    async def leave(self, interaction: Interaction) -> None:
        left = await self.service.leave(channel_id(interaction), interaction.user.id)
        await _confirm(interaction, LEFT_WORDS[left])

    async def add_computer(self, interaction: Interaction, level: str | None) -> None:
        await self.service.add_computer(
            channel_id(interaction), interaction.user.id, level, is_admin=is_admin(interaction)
        )
        await _confirm(interaction, "A computer player sits down.")

    async def start(self, interaction: Interaction) -> None:
        view = await self.service.start(
            channel_id(interaction), interaction.user.id, is_admin=is_admin(interaction)
        )
        where = " in its thread, under the table message" if THREAD in view.messages else ""
        await _confirm(
            interaction, f"The match starts{where}: press **Show my hand** to see your cards."
        )

    async def kick(self, interaction: Interaction, seat: int) -> None:
        view = await self.service.kick(
            channel_id(interaction), interaction.user.id, seat, is_admin=is_admin(interaction)
        )
        if view.status is TableStatus.CANCELLED:  # that was the last person in the match
            words = "nobody else played in the match, so it is cancelled and counts for nobody"
            await _confirm(interaction, f"{SEAT_NAMES[seat]} was removed; {words}.")
        elif view.match_id is not None:
            await _confirm(
                interaction, f"{SEAT_NAMES[seat]} was removed; a computer plays the seat."
            )
        else:
            await _confirm(interaction, f"{SEAT_NAMES[seat]}'s seat is freed.")

    async def cancel(self, interaction: Interaction) -> None:
        await self.service.cancel(
            channel_id(interaction), interaction.user.id, is_admin=is_admin(interaction)
        )
        await _confirm(interaction, "The table is cancelled.")

    async def button(self, interaction: Interaction, table_id: int, op: str) -> None:
        """A lobby button: only for the table that is open in this channel now."""
        view = self.service.table_in_channel(channel_id(interaction))
        if view is None or view.table_id != table_id:
            raise Refusal("this table is closed", TableReason.TABLE_CLOSED)
        actions = {
            "join": lambda: self.join(interaction),
            "leave": lambda: self.leave(interaction),
            "addbot": lambda: self.add_computer(interaction, None),
            "start": lambda: self.start(interaction),
        }
        await actions[op]()


async def _confirm(interaction: Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)
