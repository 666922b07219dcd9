"""The ``/bonken`` command group: one cog made of the lobby, play, info and standings
commands; and ``/bonken-admin`` (:mod:`cogs.admin`) beside it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.components import answer_unclaimed
from bot.ui.replies import apologise

from .admin import BonkenAdmin
from .info import InfoCommands
from .lobby import LobbyCommands
from .play import PlayCommands
from .standings import StandingsCommands

if TYPE_CHECKING:
    from bot.app import BonkenBot

log = logging.getLogger(__name__)


@app_commands.guild_only()
class Bonken(
    LobbyCommands,
    PlayCommands,
    InfoCommands,
    StandingsCommands,
    commands.GroupCog,
    group_name="bonken",
    group_description="Play Bonken, the Dutch trick-taking game",
):
    def __init__(self, bot: BonkenBot) -> None:
        self.bot = bot
        super().__init__()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a button or menu that no item of ours claims still gets an answer."""
        try:
            await answer_unclaimed(interaction)
        except discord.HTTPException:
            log.warning("could not answer the unclaimed interaction %s", interaction.id)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await apologise(interaction, error)


async def setup(bot: BonkenBot) -> None:
    await bot.add_cog(Bonken(bot))
    await bot.add_cog(BonkenAdmin(bot))
