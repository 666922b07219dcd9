"""The live table's parts on the web server: the hub, the page and the socket."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from bot.store.live_seats import LiveSeatStore
from bot.tables import TableService
from bot.tables import events as ev

from ..tokens import Signer
from .hub import LiveHub
from .page import SOCKET_PATH, TablePage
from .socket import Access, FrameLimit, LiveSocket


class Live:
    """The live table of one bot: :meth:`publish` is told every event of its service."""

    def __init__(
        self,
        service: TableService,
        signer: Signer,
        access: Access,
        seats: LiveSeatStore,
        after_act: Callable[[int, int], None] | None = None,
        limit: FrameLimit | None = None,
    ) -> None:
        """``access(guild)``: the server's web setting; ``seats``: which browser holds
        each seat's link (the store's); ``after_act(table, user)``: a person acted from a
        page (see :class:`~bot.web.live.hub.LiveHub`); ``limit`` the frames a socket may
        send (the default: a person's)."""
        self.hub = LiveHub(service, after_act)
        self.page = TablePage(self.hub, signer, access, seats)
        self.socket = LiveSocket(self.hub, signer, access, limit)
        self.release = self.page.release

    def publish(self, event: ev.Event) -> None:
        """One event of the table service (see :meth:`LiveHub.publish`)."""
        self.hub.publish(event)
        if isinstance(event, ev.TableClosed):
            self.page.forget(event.table_id)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/table/{token}", self.page.handle)
        app.router.add_get(SOCKET_PATH, self.socket.handle)
        app.on_shutdown.append(self._shutdown)

    async def _shutdown(self, app: web.Application) -> None:
        await self.hub.close()
