"""``/bonken daily``: play today's daily deals privately, or see a day's results."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.ui.daily import DailyController
from bot.ui.front import front_of
from bot.ui.replies import Guard

Interaction = discord.Interaction[Any]


@runtime_checkable
class DailyFront(Protocol):
    """The part of the bot the day option's list uses."""

    @property
    def daily(self) -> DailyController: ...


async def day_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Today, yesterday and the days before, in the asker's language."""
    typed = current.strip().lower()
    with i18n.using(interaction.locale):
        days = front_of(interaction, DailyFront).daily.recent_days()
    return [
        app_commands.Choice(name=label[:100], value=value)
        for label, value in days
        if typed in label.lower()
    ][:25]


class DailyCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    daily: DailyController

    @app_commands.command(
        name="daily", description="Play today's daily deals (only you see them), or a day's results"
    )
    @app_commands.describe(results="See a day's results instead (YYYY-MM-DD)")
    @app_commands.autocomplete(results=day_autocomplete)
    async def daily_deals(self, interaction: Interaction, results: str | None = None) -> None:
        async def work() -> None:
            if results is None:
                await self.daily.start(interaction)
            else:
                await self.daily.results(interaction, results)

        await self.guard(interaction, work)
