"""``/bonken new, join, leave, addbot, kick, start, cancel``: opening and running a table."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.tables import LEVELS
from bot.ui.lobby import LobbyController
from bot.ui.replies import Guard
from bot.ui.rules_options import rule_options

from .choices import parse_seat, seat_autocomplete

Interaction = discord.Interaction[Any]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=i18n.LANGUAGE_NAMES[lang], value=lang) for lang in i18n.LANGUAGES
]


class LobbyCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    lobby: LobbyController

    @app_commands.command(name="new", description="Open a Bonken table in this channel")
    @app_commands.describe(
        turn_seconds="Seconds to play a card (choosing and doubling get 1.5×); default 60",
        computer_level="How strong the computer players are; default normal",
        images="Draw the table as a picture; default the server's setting (on)",
        language="The language of the table's posts; default the server's",
    )
    @app_commands.choices(computer_level=LEVEL_CHOICES, language=LANGUAGE_CHOICES)
    @rule_options
    async def new(
        self,
        interaction: Interaction,
        /,
        turn_seconds: app_commands.Range[int, 15, 600] | None = None,
        computer_level: str | None = None,
        language: str | None = None,
        images: bool | None = None,
        **rules: str | None,
    ) -> None:
        """The rules (the variant and each house rule, see :func:`rule_options`) default
        to the server's settings; each option given changes one."""
        await self.guard(
            interaction,
            lambda: self.lobby.open(
                interaction, turn_seconds, computer_level, rules, images, language
            ),
        )

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        await self.guard(interaction, lambda: self.lobby.join(interaction))

    @app_commands.command(name="leave", description="Leave the table (a computer takes over)")
    async def leave(self, interaction: Interaction) -> None:
        await self.guard(interaction, lambda: self.lobby.leave(interaction))

    @app_commands.command(name="addbot", description="Seat a computer player (host only)")
    @app_commands.describe(level="How strong; default the table's level")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str | None = None) -> None:
        await self.guard(interaction, lambda: self.lobby.add_computer(interaction, level))

    @app_commands.command(name="kick", description="Free a seat (host or Manage Server)")
    @app_commands.describe(player="The seat to free")
    @app_commands.autocomplete(player=seat_autocomplete)
    async def kick(self, interaction: Interaction, player: str) -> None:
        await self.guard(interaction, lambda: self.lobby.kick(interaction, parse_seat(player)))

    @app_commands.command(name="start", description="Start the match; computers fill empty seats")
    async def start(self, interaction: Interaction) -> None:
        await self.guard(interaction, lambda: self.lobby.start(interaction))

    @app_commands.command(name="cancel", description="Cancel this table (host or Manage Server)")
    async def cancel(self, interaction: Interaction) -> None:
        await self.guard(interaction, lambda: self.lobby.cancel(interaction))
