"""``/bonken scores, rules, record``: what a player may want to look up."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import CONTRACTS, from_record, public_record
from bot.render.rules import rules_text
from bot.tables import Refusal
from bot.tables.table import SEAT_NAMES
from bot.ui.lobby import channel_id
from bot.ui.replies import guarded

if TYPE_CHECKING:
    from bot.app import BonkenBot

Interaction = discord.Interaction[Any]
RECORD_DONE = "The match record (`bonken-record/1`); `python -m bot.engine verify` checks it."
RECORD_SO_FAR = (
    "The match so far (`bonken-record/1`): every finished deal in full; of the deal in "
    "play only your own hand, and no seed. The full record is posted in the channel when "
    "the match ends."
)
RECORD_STOPPED = (
    "The last match here was not played to the end: its finished deals in full, without "
    "the hands of the deal it stopped in and without the seed."
)
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
            record, note = await self._record_for(interaction)
            data = json.dumps(record, indent=1).encode()
            file = discord.File(io.BytesIO(data), filename="bonken-match.json")
            await interaction.response.send_message(note, file=file, ephemeral=True)

        await guarded(interaction, work)

    async def _record_for(self, interaction: Interaction) -> tuple[dict[str, Any], str]:
        """The record the asking player may have now, and the words that go with it: the
        match in play as everyone may know it, else the channel's last match, in full
        only if it was played to the end (the hands and seed are for after the match)."""
        channel = channel_id(interaction)
        table = self.bot.service.table_in_channel(channel)
        if table is not None:
            record = self.bot.service.record(table.table_id, interaction.user.id)
            if record is not None:
                return record, RECORD_SO_FAR
        stored = await self.bot.store.matches.latest_record_in_channel(channel)
        if stored is None:
            raise Refusal("no match has been played in this channel yet")
        match = from_record(stored)
        if match.is_over:
            return stored, RECORD_DONE
        return public_record(match), RECORD_STOPPED
