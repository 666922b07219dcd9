"""The Discord bot: builds its parts, adds the cogs, restores the tables.

``setup_hook`` runs once, after login and before the gateway connects: it builds the
bot's parts (:mod:`bot.parts`; the store opens first, refusing a bad database before
anything else happens), gives the cogs theirs, registers the dynamic buttons so clicks
on old messages still work, restores every open table and syncs the slash commands if
they changed since the last sync.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.archive import FinishedMatchService
from bot.heap import FrozenHeap
from bot.parts import Parts, build_parts
from bot.review import ReviewSettings
from bot.settings import Settings
from bot.ui.answers import Answers
from bot.ui.daily import DailyController
from bot.ui.daily_replay import DailyReplays
from bot.ui.hands import HandController
from bot.ui.items import DYNAMIC_ITEMS
from bot.ui.lobby import LobbyController
from bot.ui.pacing import Pacing
from bot.ui.places import Places
from bot.ui.rematch import Rematch
from bot.ui.replay import Replays
from bot.ui.replies import Guard
from bot.ui.review import ReviewController
from bot.ui.standings import Boards
from bot.ui.tally import TallyController
from bot.ui.translator import CatalogueTranslator
from cogs.admin import BonkenAdmin
from cogs.bonken import Bonken

log = logging.getLogger(__name__)

SYNCED_COMMANDS = "synced-commands"
"""The fact (in the store) holding :func:`command_digest` of the last successful sync."""


class BonkenBot(commands.Bot):
    """A slash-command-only bot: no message content, no privileged intents.

    It offers the objects discord.py builds itself (buttons, menus, autocomplete) the
    parts they may use, as properties of the parts built in ``setup_hook``: the guard
    every click runs in (:class:`~bot.ui.front.Front`), and the parts each feature's
    ``Protocol`` names (``TableFront``, ``ReplayFront``, ...).
    """

    def __init__(
        self,
        settings: Settings,
        pacing: Pacing | None = None,
        review: ReviewSettings | None = None,
        **options: Any,
    ) -> None:
        """``pacing``: the presenter's timings (Discord's by default; tests pass small ones);
        ``review``: how reviews are computed (the settings' work by default; tests pass
        little)."""
        # Text channels only: the warnings that voice needs PyNaCl and davey are noise here.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels and permissions; nothing privileged
        answers = Answers()  # which posts Discord has answered (a quick, complete stop)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            http_trace=answers.trace(),
            **options,
        )
        self.settings = settings
        self._answers = answers
        self._pacing = pacing or Pacing()
        self._review = review or ReviewSettings(work=settings.review_work)
        self._parts: Parts | None = None
        self._heap = FrozenHeap()

    @property
    def parts(self) -> Parts:
        """What the bot built in ``setup_hook``, after login and before the gateway
        connects: no interaction arrives before it, none is served after ``close``."""
        if self._parts is None:
            raise RuntimeError("the bot's parts are built in setup_hook and gone after close")
        return self._parts

    @property
    def guard(self) -> Guard:
        return self.parts.guard

    @property
    def places(self) -> Places:
        return self.parts.places

    @property
    def lobby(self) -> LobbyController:
        return self.parts.lobby

    @property
    def hands(self) -> HandController:
        return self.parts.hands

    @property
    def rematch(self) -> Rematch:
        return self.parts.rematch

    @property
    def boards(self) -> Boards:
        return self.parts.boards

    @property
    def tally(self) -> TallyController:
        return self.parts.tally

    @property
    def daily(self) -> DailyController:
        return self.parts.daily

    @property
    def daily_replays(self) -> DailyReplays:
        return self.parts.daily.replays

    @property
    def reviews(self) -> ReviewController:
        return self.parts.reviews

    @property
    def archive(self) -> FinishedMatchService:
        return self.parts.archive

    @property
    def replays(self) -> Replays:
        return self.parts.replays

    async def setup_hook(self) -> None:
        parts = self._parts = await build_parts(
            self.settings, self, self._answers, self._pacing, self._review
        )
        await self.tree.set_translator(CatalogueTranslator())
        for cog in command_cogs(parts):
            await self.add_cog(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # What is alive now lives as long as the bot (modules, discord.py, the catalogues,
        # its parts): kept out of the cyclic collector, whose full passes then walk only
        # what the tables made since and pause the event loop for a fraction of the time.
        self._heap.freeze()
        restored = await parts.service.restore()
        log.info("%s: restored %d open table(s)", self.settings.shards.describe(), restored)
        for table_id, match_id in await parts.presenter.unshown_ends():
            if await parts.service.restore_end(table_id, match_id):
                log.info("table %s: its match's end is shown again", table_id)
        sheets = await parts.tally_feed.restore(self.settings.shards.owns)
        log.info("looked for scoresheet posts a stop kept back in %d sheet(s)", sheets)
        resumed = await parts.review_service.restore(self.settings.shards.owns)
        if resumed:
            log.info("resumed %d review(s) of finished matches", resumed)
        await self._sync_commands()

    async def _sync_commands(self) -> None:
        """Sync the slash commands with Discord only when they changed since the last
        sync: Discord limits how many commands an application may create a day, and a
        bot restarted often would spend that on syncing the same commands again."""
        guild_id = self.settings.dev_guild_id
        guild = None if guild_id is None else discord.Object(id=guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = await command_digest(self.tree, guild_id)
        facts = self.parts.store.facts
        if await facts.get(SYNCED_COMMANDS) == digest:
            log.info("commands unchanged since the last sync; not syncing")
            return
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as error:  # Discord keeps the commands it has
            log.error("syncing the commands failed (will retry at the next start): %s", error)
            return
        await facts.put(SYNCED_COMMANDS, digest)
        where = "globally" if guild_id is None else f"to guild {guild_id}"
        log.info("synced %d command(s) %s", len(synced), where)

    async def close(self) -> None:
        """Close what ``setup_hook`` built (see :meth:`Parts.close`), then Discord."""
        parts, self._parts = self._parts, None
        if parts is not None:  # (a start that failed before the store opened built none)
            await parts.close()
        self._heap.unfreeze()
        await super().close()


class ShardedBonkenBot(BonkenBot, commands.AutoShardedBot):
    """The bot running some of the bot's shards (``--shards`` of ``--shard-count``) in
    this process: Discord's way past 2,500 guilds, several processes sharing one
    PostgreSQL database, each driving its own shards' tables."""

    def __init__(self, settings: Settings) -> None:
        shards = settings.shards
        super().__init__(settings, shard_ids=list(shards.ids), shard_count=shards.count)


def command_cogs(parts: Parts) -> list[commands.Cog]:
    """The slash commands, each cog given what it uses."""
    store = parts.store
    return [
        Bonken(
            guard=parts.guard,
            places=parts.places,
            service=parts.service,
            lobby=parts.lobby,
            hands=parts.hands,
            boards=parts.boards,
            tally=parts.tally,
            daily=parts.daily,
            reviews=parts.reviews,
            tables=store.tables,
            matches=store.matches,
            replays=parts.replays,
            web=parts.web,
        ),
        BonkenAdmin(
            guard=parts.guard,
            boards=parts.boards,
            server_settings=parts.server_settings,
            seasons=store.seasons,
            tables=store.tables,
        ),
    ]


def make_bot(settings: Settings) -> BonkenBot:
    """The bot for these settings: sharded when ``--shard-count`` was given."""
    return BonkenBot(settings) if settings.shards.count is None else ShardedBonkenBot(settings)


async def command_digest(tree: app_commands.CommandTree[BonkenBot], guild_id: int | None) -> str:
    """A hash of what a sync would send (the commands as Discord receives them, with
    every translation: a catalogue change syncs again) and of where it sends them
    (globally or to the dev guild)."""
    guild = None if guild_id is None else discord.Object(id=guild_id)
    translator = tree.translator
    payload = [
        command.to_dict(tree)
        if translator is None
        else await command.get_translated_payload(tree, translator)
        for command in tree.get_commands(guild=guild)
    ]
    text = json.dumps({"guild": guild_id, "commands": payload}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()
