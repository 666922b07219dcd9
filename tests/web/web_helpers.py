"""A store with something of everything the pages show, and the pages served over it.

Server 1 has three finished, rated matches of Ann, Bob, Cas and Dirk (users 1-4), one
match in play and one cancelled, a finished scoresheet with one undo, and a closed day of
daily deals that two people played; server 2 has a finished match of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from aiohttp import web

from bot.daily import DailyService
from bot.engine import Match
from bot.engine.tally import Undo
from bot.ratings import OpenSkillRater
from bot.store import Store, TableStatus, TallySeat, WebAccess, open_store
from bot.tally import TallyService
from bot.web.app import make_app
from bot.web.links import WebLinks
from bot.web.ratelimit import RateLimit
from bot.web.site import Services
from bot.web.tokens import load_signer
from tests.daily.daily_helpers import Clock, at_random, play_out
from tests.store.store_helpers import NAMES, play, seated_table
from tests.tally.tally_helpers import doubling_match, entries_of

GUILD, OTHER_GUILD = 1, 2
BASE = "https://bonken.example.org"


@dataclass
class Filled:
    store: Store
    links: WebLinks
    clock: Clock
    finished: list[int]
    """Server 1's finished matches, oldest first."""
    playing: int
    cancelled: int
    elsewhere: int
    """Server 2's finished match."""
    tally: int
    day: date
    attempts: list[int]
    last_match: Match

    def services(self) -> Services:
        daily = DailyService(self.store.daily, self.store.tables, clock=self.clock)
        return Services.of(self.store, daily=daily)

    def app(self, limit: RateLimit | None = None) -> web.Application:
        return make_app(self.services(), self.links, limit=limit or RateLimit(1000, 1000))

    async def set_access(self, access: WebAccess, guild: int = GUILD) -> None:
        settings = await self.store.tables.guild_settings(guild)
        await self.store.tables.set_guild_settings(guild, replace(settings, web=access))


async def finished_match(store: Store, seed: int, guild: int, channel: int) -> tuple[int, Match]:
    table = await seated_table(store, guild_id=guild, channel_id=channel)
    info = await store.matches.create_match(table.table_id, NAMES)
    match = await play(store, info.match_id, random.Random(seed))
    await store.matches.finish_match(info.match_id, rater=OpenSkillRater())
    await store.tables.update_table(table.table_id, status=TableStatus.FINISHED)
    return info.match_id, match


async def fill(store: Store) -> Filled:
    finished = []
    match = None
    for seed in range(3):
        match_id, match = await finished_match(store, seed, GUILD, 10 + seed)
        finished.append(match_id)
    assert match is not None
    table = await seated_table(store, guild_id=GUILD, channel_id=20)
    playing = await store.matches.create_match(table.table_id, NAMES)
    await play(store, playing.match_id, random.Random(5), deals=2)
    table = await seated_table(store, guild_id=GUILD, channel_id=21)
    cancelled = await store.matches.create_match(table.table_id, NAMES)
    await play(store, cancelled.match_id, random.Random(6), deals=1)
    await store.matches.cancel_match(cancelled.match_id)
    elsewhere, _ = await finished_match(store, 9, OTHER_GUILD, 30)

    tallies = TallyService(store, rater=OpenSkillRater())
    seats = [TallySeat(seat=i, name=name, user_id=i + 1) for i, name in enumerate(NAMES)]
    sheet = await tallies.open(GUILD, 40, 1, seats, rules=doubling_match(3).rules)
    entries = list(entries_of(doubling_match(3)))
    view = await tallies.enter(sheet.tally_id, 1, None, entries[0])
    view = await tallies.enter(sheet.tally_id, 2, None, Undo())
    for entry in entries:
        view = await tallies.enter(sheet.tally_id, 1, None, entry)

    clock = Clock()
    daily = DailyService(store.daily, store.tables, clock=clock)
    attempts = []
    for user, name in ((1, "Ann"), (2, "Bob")):
        view = await daily.play(GUILD, user, name)
        view = await play_out(daily, view, at_random(user))
        attempts.append(view.attempt_id)
    day = clock.now.date()
    clock.advance(days=3)
    links = WebLinks(BASE, await load_signer(store.facts))
    return Filled(
        store=store,
        links=links,
        clock=clock,
        finished=finished,
        playing=playing.match_id,
        cancelled=cancelled.match_id,
        elsewhere=elsewhere,
        tally=sheet.tally_id,
        day=day,
        attempts=attempts,
        last_match=match,
    )


async def _filled_file(path: Path) -> Filled:
    async with await open_store(path) as store:
        return await fill(store)


def filled_template(folder: Path) -> tuple[Path, Filled]:
    """A store filled once (a few seconds of play), for each test to copy."""
    path = folder / "filled.sqlite3"
    # In a thread of its own: a browser test's Playwright may hold this thread's loop.
    with ThreadPoolExecutor(1) as thread:
        return path, thread.submit(asyncio.run, _filled_file(path)).result()


@contextlib.asynccontextmanager
async def filled_copy(template: tuple[Path, Filled], folder: Path) -> AsyncIterator[Filled]:
    """A copy of the filled store, open, for one test."""
    source, filled = template
    target = folder / "bonken.sqlite3"
    shutil.copyfile(source, target)
    async with await open_store(target) as store:
        yield replace(filled, store=store, clock=Clock(filled.clock.now))
