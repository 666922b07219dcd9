"""``/bonken replay``: a finished match again, one card at a time, every hand face up."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.replay import Replays
from bot.ui.replies import Guard

from .choices import match_autocomplete

Interaction = discord.Interaction[Any]


class ReplayCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    replays: Replays

    @app_commands.command(
        name="replay", description="Watch a finished match again, all hands face up"
    )
    @app_commands.describe(
        match="A finished match of this server; default the last one played here",
        public="Post it in the channel for everyone (default: only you see it)",
    )
    @app_commands.autocomplete(match=match_autocomplete)
    async def replay(
        self, interaction: Interaction, match: str | None = None, public: bool = False
    ) -> None:
        await self.guard(interaction, lambda: self.replays.open(interaction, match, public=public))
