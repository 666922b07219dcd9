"""``/bonken hand, choose, double, pass, back``: the same moves as the hand buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Choose, Double
from bot.i18n import _
from bot.render.text import contract_name, names_text
from bot.tables import TableService
from bot.tables.table import SEAT_NAMES
from bot.ui.embeds import seat_labels
from bot.ui.hands import HandController
from bot.ui.places import Places
from bot.ui.replies import Guard, UIRefusal

from .choices import contract_autocomplete, double_target_autocomplete, parse_seat

Interaction = discord.Interaction[Any]


class PlayCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    places: Places
    service: TableService
    hands: HandController

    @app_commands.command(name="hand", description="See your hand (only you can see it)")
    async def hand(self, interaction: Interaction) -> None:
        async def work() -> None:
            table = self.places.table_here(interaction)
            await self.hands.show(interaction, table.table_id)

        await self.guard(interaction, work)

    @app_commands.command(name="choose", description="Choose this deal's contract")
    @app_commands.describe(contract="Only the contracts you may choose are offered")
    @app_commands.autocomplete(contract=contract_autocomplete)
    async def choose(self, interaction: Interaction, contract: str) -> None:
        async def work() -> None:
            await self.service.act_in_channel(
                self.places.channel_of(interaction), interaction.user.id, Choose(contract)
            )
            await interaction.response.send_message(
                _("You chose **{contract}**.", contract=contract_name(contract)), ephemeral=True
            )

        await self.guard(interaction, work)

    @app_commands.command(name="double", description="Double (or redouble) up to three players")
    @app_commands.describe(player="A player to double", player2="Another", player3="Another")
    @app_commands.autocomplete(
        player=double_target_autocomplete,
        player2=double_target_autocomplete,
        player3=double_target_autocomplete,
    )
    async def double(
        self,
        interaction: Interaction,
        player: str,
        player2: str | None = None,
        player3: str | None = None,
    ) -> None:
        async def work() -> None:
            seats = [parse_seat(p) for p in (player, player2, player3) if p is not None]
            if len(set(seats)) != len(seats):
                raise UIRefusal(_("you named the same player twice"))
            channel = self.places.channel_of(interaction)
            await self.service.act_in_channel(
                channel, interaction.user.id, Double(frozenset(seats))
            )
            view = self.service.table_in_channel(channel)
            shown = seat_labels(view, short=True) if view else list(SEAT_NAMES)
            named = names_text(shown, sorted(seats))
            await interaction.response.send_message(
                _("You doubled {names}.", names=named), ephemeral=True
            )

        await self.guard(interaction, work)

    @app_commands.command(name="pass", description="Pass your doubling turn")
    async def pass_(self, interaction: Interaction) -> None:
        async def work() -> None:
            await self.service.act_in_channel(
                self.places.channel_of(interaction), interaction.user.id, Double(frozenset())
            )
            await interaction.response.send_message(_("You passed."), ephemeral=True)

        await self.guard(interaction, work)

    @app_commands.command(name="back", description="Take your seat back from the computer")
    async def back(self, interaction: Interaction) -> None:
        async def work() -> None:
            await self.service.take_back(self.places.channel_of(interaction), interaction.user.id)
            await interaction.response.send_message(
                _("Welcome back: you play your seat again."), ephemeral=True
            )

        await self.guard(interaction, work)
