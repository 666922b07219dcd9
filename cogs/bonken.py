"""The ``/bonken`` command group: one cog made of the lobby, play, info,
standings, scoresheet, daily, replay and review commands; and ``/bonken-admin``
(:mod:`cogs.admin`) beside it."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.store.matches import MatchStore
from bot.store.tables import TableStore
from bot.tables import TableService
from bot.ui.daily import DailyController
from bot.ui.hands import HandController
from bot.ui.items import answer_unclaimed
from bot.ui.lobby import LobbyController
from bot.ui.places import Places
from bot.ui.replay import Replays
from bot.ui.replies import Guard, apologise
from bot.ui.review import ReviewController
from bot.ui.standings import Boards
from bot.ui.tally import TallyController
from bot.ui.tally_components import submit_counts
from bot.ui.web import WebLinker

from .daily import DailyCommands
from .info import InfoCommands
from .lobby import LobbyCommands
from .play import PlayCommands
from .replay import ReplayCommands
from .review import ReviewCommands
from .standings import StandingsCommands
from .tally import TallyCommands

log = logging.getLogger(__name__)


@app_commands.guild_only()
class Bonken(
    LobbyCommands,
    PlayCommands,
    InfoCommands,
    StandingsCommands,
    TallyCommands,
    DailyCommands,
    ReplayCommands,
    ReviewCommands,
    commands.GroupCog,
    group_name="bonken",
    group_description="Play Bonken, the Dutch trick-taking game",
):
    def __init__(
        self,
        *,
        guard: Guard,
        places: Places,
        service: TableService,
        lobby: LobbyController,
        hands: HandController,
        boards: Boards,
        tally: TallyController,
        daily: DailyController,
        reviews: ReviewController,
        tables: TableStore,
        matches: MatchStore,
        replays: Replays,
        web: WebLinker | None = None,
    ) -> None:
        """What the commands use (each part above lists its own): ``tables`` the
        server's defaults, ``matches`` the records of finished matches."""
        self.web = web or WebLinker.none()
        self.guard = guard
        self.places = places
        self.service = service
        self.lobby = lobby
        self.hands = hands
        self.boards = boards
        self.tally = tally
        self.daily = daily
        self.reviews = reviews
        self.tables = tables
        self.matches = matches
        self.replays = replays
        super().__init__()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a button or menu that no item of ours claims still gets an answer;
        a scoresheet's form is answered here (discord.py routes no modal by its id)."""
        try:
            await answer_unclaimed(interaction)
            await submit_counts(interaction)
        except discord.HTTPException:
            log.warning("could not answer the unclaimed interaction %s", interaction.id)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await apologise(interaction, error)
