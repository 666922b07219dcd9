"""``python -m bot web``: the web pages alone, from the bot's database, without Discord.

The way to serve the pages beside several sharded bot processes sharing PostgreSQL (the
bots set only ``BONKEN_WEB_URL``, to link to them). It reads the same settings as the
bot; a bad one, a database it cannot open or a port it cannot listen on is one
``Cannot start: ...`` line. SIGTERM and SIGINT stop it cleanly.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from bot.heap import FrozenHeap
from bot.settings import Settings
from bot.store import open_store

from .app import WebServer, make_app
from .links import WebLinks
from .site import Services
from .tokens import load_signer

log = logging.getLogger(__name__)
NO_PORT = (
    "BONKEN_WEB_PORT is not set: python -m bot web serves the pages on that port "
    "(see docs/operating.md)"
)


async def serve_alone(settings: Settings) -> None:
    """Serve the pages until SIGTERM or SIGINT; the store's and the server's errors
    rise to the caller, which says them in one line."""
    assert settings.web_port is not None and settings.web_address is not None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    async with await open_store(settings.database) as store:
        links = WebLinks(settings.web_address, await load_signer(store.facts))
        server = WebServer(
            make_app(Services.of(store), links), settings.web_host, settings.web_port
        )
        await server.start()
        # What is alive now lives as long as the process (as BonkenBot.setup_hook does):
        # kept out of the cyclic collector, whose passes then walk only what the pages
        # being drawn made (else a few per cent of the work of a page drawn for one reader).
        heap = FrozenHeap()
        heap.freeze()
        try:
            await stop.wait()
        finally:
            log.info("closing the web pages")
            await server.close()
            heap.unfreeze()
