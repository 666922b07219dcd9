"""``/bonken review``: a player's review of a finished match (the final standings' Review
button does the same for the one who clicks it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import _
from bot.render.text import player_name
from bot.ui.front import front_of
from bot.ui.replies import Guard
from bot.ui.review import ReviewController

Interaction = discord.Interaction[Any]


async def finished_match_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The server's newest finished matches: "#12 · 2 Dec · Ann, Bob, Cas, South bot"."""
    found = await front_of(interaction).reviews.finder.choices(interaction)
    typed = current.strip().lower().removeprefix("#")
    with i18n.using(interaction.locale):
        choices = []
        for match in found:
            names = ", ".join(player_name(name) for name in match.names)
            when = f"{match.ended_at:%Y-%m-%d %H:%M}"
            label = _("#{match} · {when} · {names}", match=match.match_id, when=when, names=names)
            if typed in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=str(match.match_id)))
    return choices


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
    @app_commands.autocomplete(match=finished_match_autocomplete)
    async def review(
        self,
        interaction: Interaction,
        match: str | None = None,
        player: discord.User | None = None,
    ) -> None:
        await self.guard(interaction, lambda: self.reviews.review(interaction, match, player))
