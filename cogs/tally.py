"""``/bonken tally new``: the bot keeps the scores of a match played with real cards."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.replies import Guard
from bot.ui.rules_options import rule_options
from bot.ui.tally import GUEST_NAME, TallyController

from .lobby import LANGUAGE_CHOICES

Interaction = discord.Interaction[Any]
Guest = app_commands.Range[str, 1, GUEST_NAME]


class TallyCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    tally: TallyController

    tally_group = app_commands.Group(
        name="tally", description="Keep the scores of a match played with real cards"
    )

    @tally_group.command(
        name="new", description="Keep the scores of a match played with real cards at this table"
    )
    @app_commands.describe(
        player1="The first player, who deals first (a member; or give guest1)",
        player2="The second player, on the first one's left (a member; or give guest2)",
        player3="The third player (a member; or give guest3)",
        player4="The fourth player (a member; or give guest4)",
        guest1="The first player's name, if not a member of this server",
        guest2="The second player's name, if not a member of this server",
        guest3="The third player's name, if not a member of this server",
        guest4="The fourth player's name, if not a member of this server",
        language="The language of the scoresheet; default the server's",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @rule_options
    async def tally_new(
        self,
        interaction: Interaction,
        /,
        player1: discord.Member | None = None,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        guest1: Guest | None = None,
        guest2: Guest | None = None,
        guest3: Guest | None = None,
        guest4: Guest | None = None,
        language: str | None = None,
        **rules: str | None,
    ) -> None:
        """The four players in the order they sit, each a member or a guest's name; the
        rules as ``/bonken new`` takes them (the server's defaults where not given)."""
        members = (player1, player2, player3, player4)
        guests = (guest1, guest2, guest3, guest4)
        await self.guard(
            interaction, lambda: self.tally.open(interaction, members, guests, rules, language)
        )
