"""The Discord bot: opens the store, starts the table service, loads the cogs.

``setup_hook`` runs once, after login and before the gateway connects: it opens the
database (refusing a bad file before anything else happens), registers the dynamic
buttons so clicks on old messages still work, restores every open table and syncs the
slash commands if they changed since the last sync.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import logging
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Action, SeatView
from bot.players.pool import PlayerPool
from bot.ratings import OpenSkillRater
from bot.settings import Settings
from bot.store import Store, StoreError, open_store
from bot.tables import TableService
from bot.ui.answers import Answers
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.hands import HandController
from bot.ui.lobby import LobbyController
from bot.ui.presenter import Presenter
from bot.ui.translator import CatalogueTranslator

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.bonken",)
SYNCED_COMMANDS = "synced-commands"
"""The fact (in the store) holding :func:`command_digest` of the last successful sync."""


class BonkenBot(commands.Bot):
    """A slash-command-only bot: no message content, no privileged intents."""

    store: Store
    service: TableService
    players: PlayerPool

    def __init__(self, settings: Settings, **options: Any) -> None:
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
        self.presenter = Presenter(self, answers)
        self.hands = HandController(self)
        self.lobby = LobbyController(self)

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.database)
        self.players = PlayerPool()
        decide = partial(_decide, self.players, self.settings.think_seconds)
        self.service = TableService(
            self.store,
            self.presenter.publish,
            decide=decide,
            pace=self.settings.pace,
            rater=OpenSkillRater(),
            owns_guild=self.settings.shards.owns,
        )
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # What is alive now lives as long as the bot (modules, discord.py, the catalogues):
        # kept out of the cyclic collector, whose full passes then walk only what the
        # tables made since and pause the event loop for a fraction of the time.
        gc.freeze()
        restored = await self.service.restore()
        log.info("%s: restored %d open table(s)", self.settings.shards.describe(), restored)
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
        if await self.store.facts.get(SYNCED_COMMANDS) == digest:
            log.info("commands unchanged since the last sync; not syncing")
            return
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as error:  # Discord keeps the commands it has
            log.error("syncing the commands failed (will retry at the next start): %s", error)
            return
        await self.store.facts.put(SYNCED_COMMANDS, digest)
        where = "globally" if guild_id is None else f"to guild {guild_id}"
        log.info("synced %d command(s) %s", len(synced), where)

    async def close(self) -> None:
        """Stop the tables, then send what the channels and hands still have queued (for a
        few seconds: what does not go out is posted at the next start), then stop."""
        if hasattr(self, "service"):
            await self.service.close()
            await self.presenter.drain()
            with contextlib.suppress(StoreError):  # at worst the next owner finds us gone
                await self.store.claims.release_all()
        self.presenter.close()
        self.hands.close()
        if hasattr(self, "players"):
            self.players.close()
        if hasattr(self, "store"):
            await self.store.close()
        gc.unfreeze()  # (a process that goes on, as the tests do, collects it all again)
        await super().close()


class ShardedBonkenBot(BonkenBot, commands.AutoShardedBot):
    """The bot running some of the bot's shards (``--shards`` of ``--shard-count``) in
    this process: Discord's way past 2,500 guilds, several processes sharing one
    PostgreSQL database, each driving its own shards' tables."""

    def __init__(self, settings: Settings) -> None:
        shards = settings.shards
        super().__init__(settings, shard_ids=list(shards.ids), shard_count=shards.count)


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


async def _decide(pool: PlayerPool, budget: float, level: str, view: SeatView, seed: int) -> Action:
    """The table service's decider: the player pool with the configured thinking time."""
    return await pool.decide(level, view, seed, budget)
