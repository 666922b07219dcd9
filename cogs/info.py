"""``/bonken scores, rules, record``: what a player may want to look up."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import CONTRACTS
from bot.render.rules import rules_text
from bot.tables import Refusal
from bot.tables.table import SEAT_NAMES
from bot.ui.lobby import channel_id
from bot.ui.replies import guarded

if TYPE_CHECKING:
    from bot.app import BonkenBot

Interaction = discord.Interaction[Any]
CONTRACT_CHOICES = [app_commands.Choice(name=c.name, value=c.id) for c in CONTRACTS.values()]


class InfoCommands:
    """Mixed into the ``/bonken`` group cog."""

    bot: BonkenBot

    @app_commands.command(name="scores", description="The scores of this match so far")
    async def scores(self, interaction: Interaction) -> None:
        async def work() -> None:
            table = self.bot.lobby.table_here(interaction)
            deals = self.bot.service.scores(table.table_id)
            if not deals:
                raise Refusal("no deal has been scored yet")
            header = " | ".join(f"{SEAT_NAMES[s][0]}" for s in range(4))
            rows = [f"`#  contract        {header}`"]
            for number, contract, _base, final in deals:
                cells = " ".join(f"{score:>5}" for score in final)
                rows.append(f"`{number:<2} {CONTRACTS[contract].name:<14} {cells}`")
            totals = " ".join(f"{total:>5}" for total in table.totals)
            rows.append(f"`   {'total':<14} {totals}`")
            names = " · ".join(f"{SEAT_NAMES[s]}: {table.seats[s].name}" for s in range(4))
            embed = discord.Embed(
                title="Scores so far (after doubling)", description="\n".join(rows)
            )
            embed.set_footer(text=names)
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, work)

    @app_commands.command(name="rules", description="How Bonken is played, or one contract")
    @app_commands.describe(contract="One contract's rules")
    @app_commands.choices(contract=CONTRACT_CHOICES)
    async def rules(self, interaction: Interaction, contract: str | None = None) -> None:
        async def work() -> None:
            await interaction.response.send_message(rules_text(contract), ephemeral=True)

        await guarded(interaction, work)

    @app_commands.command(name="record", description="This (or the last) match's record file")
    async def record(self, interaction: Interaction) -> None:
        async def work() -> None:
            channel = channel_id(interaction)
            table = self.bot.service.table_in_channel(channel)
            record = self.bot.service.record(table.table_id) if table else None
            if record is None:
                record = await self.bot.store.matches.latest_record_in_channel(channel)
            if record is None:
                raise Refusal("no match has been played in this channel yet")
            data = json.dumps(record, indent=1).encode()
            file = discord.File(io.BytesIO(data), filename="bonken-match.json")
            await interaction.response.send_message(
                "The match record (`bonken-record/1`); `python -m bot.engine verify` checks it.",
                file=file,
                ephemeral=True,
            )

        await guarded(interaction, work)
