"""``/bonken review``: a player's review of a finished match (the final standings' Review
button does the same for the one who clicks it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.replies import Guard
from bot.ui.review import ReviewController

from .choices import match_autocomplete

Interaction = discord.Interaction[Any]


class ReviewCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    reviews: ReviewController

    @app_commands.command(
        name="review", description="Where a player lost points in a finished match"
    )
    @app_commands.describe(
        match="A finished match of this server; default the newest one played here",
        player="Whose decisions; default yours",
    )
    @app_commands.autocomplete(match=match_autocomplete)
    async def review(
        self,
        interaction: Interaction,
        match: str | None = None,
        player: discord.User | None = None,
    ) -> None:
        await self.guard(interaction, lambda: self.reviews.review(interaction, match, player))
