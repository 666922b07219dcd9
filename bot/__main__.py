"""``python -m bot`` runs the Discord bot; ``python -m bot demo --seed 7`` plays a demo;
``python -m bot web`` serves the web pages alone, without Discord.

Whoever runs the bot gets one line, never a traceback, when it cannot start: a bad
setting, a token Discord refuses, no network, a database it may not open or write. Such
a line starts with ``Cannot start:`` and the exit code is 2. SIGTERM (``docker stop``)
and SIGINT (Ctrl-C) close the bot as its own ``close()`` does: tables, Discord, store.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import signal
import sqlite3
import sys
from typing import TYPE_CHECKING

from bot.settings import Settings, SettingsError
from bot.shards import Shards, ShardsError

if TYPE_CHECKING:
    from bot.app import BonkenBot

# discord.py, aiohttp and the bot itself are imported where they are first needed, once
# the settings are read: a bad setting is one line in a fifth of a second, not after
# half a second of imports it never uses.

log = logging.getLogger("bot")

CANNOT_START = 2
"""Exit code for a bot that never got going: fix the setting or the file and start again."""
STOPPED = 1
"""Exit code for a bot that was running and had to stop (the token was reset, say)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--shards", help="the Discord shards this process runs, such as 0-3 (with --shard-count)"
    )
    parser.add_argument(
        "--shard-count", type=int, help="how many shards the bot has in all, in every process"
    )
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play one all-computer match and print it")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--lang", help="en or nl (default: from LANG, else en)")
    commands.add_parser("web", help="serve the web pages alone, from the database, without Discord")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from bot.demo import main as demo_main

        return demo_main(args.seed, args.lang)
    if args.command == "web":
        return run_web()
    return run_bot(args.shards, args.shard_count)


def run_bot(shards: str | None = None, shard_count: int | None = None) -> int:
    try:
        settings = dataclasses.replace(
            Settings.from_env(), shards=Shards.parse(shards, shard_count)
        )
        token = settings.require_token()
    except (SettingsError, ShardsError) as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        return CANNOT_START
    import aiohttp
    import discord

    from bot.app import make_bot

    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    run = Run(make_bot(settings))
    try:
        asyncio.run(run.serve(token))
    except Exception as error:
        reason = why_it_stopped(error)
        if reason is None:
            raise  # a bug: the traceback is what a report needs
        if run.was_ready:
            if not isinstance(error, discord.DiscordException | aiohttp.ClientError):
                raise  # only Discord ends a running bot this way; anything else is a bug
            print(f"Stopped: {reason}", file=sys.stderr)
            return STOPPED
        print(f"Cannot start: {reason}", file=sys.stderr)
        return CANNOT_START
    log.info("closed cleanly")
    return 0


def run_web() -> int:
    """``python -m bot web``: the pages alone, until SIGTERM or SIGINT."""
    from bot.web.alone import NO_PORT, serve_alone

    try:
        settings = Settings.from_env()
        if settings.web_port is None:
            raise SettingsError(NO_PORT)
    except SettingsError as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        return CANNOT_START
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(serve_alone(settings))
    except Exception as error:
        reason = why_it_stopped(error)
        if reason is None:
            raise
        print(f"Cannot start: {reason}", file=sys.stderr)
        return CANNOT_START
    log.info("closed cleanly")
    return 0


class Run:
    """One run of the bot: started, served until something ends it, closed."""

    def __init__(self, bot: BonkenBot) -> None:
        self.bot = bot
        self.was_ready = False
        """Whether Discord said ready once: a later failure is "Stopped", not "Cannot start"."""
        self._closing: asyncio.Task[None] | None = None

    async def serve(self, token: str) -> None:
        """Run the bot until Discord, an error or a signal ends it; then close it.

        ``bot.run`` turns only Ctrl-C (as ``KeyboardInterrupt``) into a close, and Python
        run as PID 1 in a container ignores SIGTERM, so ``docker stop`` would wait and
        kill it. Here both signals call ``bot.close()``, which makes ``start()`` return.
        A second signal ends the process at once (every accepted action is committed).
        """
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, self._on_signal, number)
        self.bot.add_listener(self._on_ready, "on_ready")
        try:
            async with self.bot:
                await self.bot.start(token)
        except Exception as error:
            if self._closing is None:
                raise
            # Closed while setup_hook was still at work: its error is the close's doing.
            log.warning("closed while starting (%s)", _detail(error))
        finally:
            for number in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(number)
        if self._closing is not None:
            await self._closing

    async def _on_ready(self) -> None:
        self.was_ready = True

    def _on_signal(self, number: signal.Signals) -> None:
        if self._closing is not None:
            log.warning("%s again: stopping at once", number.name)
            os._exit(128 + number)
        log.info("%s: closing", number.name)
        self._closing = asyncio.get_running_loop().create_task(self.bot.close())


def why_it_stopped(error: BaseException) -> str | None:
    """The operator's one line for a failure they can fix, or None for a bug."""
    import aiohttp
    import discord

    from bot.store import StoreError
    from bot.web.app import CannotServe

    match error:
        case StoreError() | CannotServe():
            return str(error)
        case discord.LoginFailure() | discord.ConnectionClosed(code=4004):
            return (
                "Discord refused the token (DISCORD_TOKEN): it is wrong or was reset. "
                "Copy the bot's token again from https://discord.com/developers/applications "
                "(your application -> Bot -> Reset Token)."
            )
        case discord.PrivilegedIntentsRequired():
            return "Discord asks for privileged intents, which this bot never requests."
        case discord.GatewayNotFound() | aiohttp.ClientError() | asyncio.TimeoutError():
            return f"cannot reach Discord ({_detail(error)}); check the network and try again."
        case discord.HTTPException(status=status):
            return f"Discord answered {status} ({_detail(error)}); try again later."
        case PermissionError(filename=filename) if filename:
            return (
                f"no permission to write {filename}: "
                "let the bot write there, or point BONKEN_DATABASE elsewhere."
            )
        case OSError(strerror=reason, filename=filename) if reason and filename:
            return f"the database cannot be opened: {reason}: {filename}"
        case OSError() | sqlite3.Error():
            return f"the database cannot be opened: {_detail(error)}"
    return None


def _detail(error: BaseException) -> str:
    return str(error) or type(error).__name__


if __name__ == "__main__":
    sys.exit(main())
