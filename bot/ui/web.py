"""The "On the web" link buttons: a Discord message's page, when the server allows it.

A button is added only when the bot has an address for its pages (``BONKEN_WEB_URL``
or ``BONKEN_WEB_PORT``) and the server's web setting is not ``off``; its link carries
the page's token (:mod:`bot.web.links`), so the link is what opens the page.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import discord

from bot.i18n import _
from bot.store import StoreError, WebAccess
from bot.store.tables import TableStore
from bot.web.links import WebLinks

URL_LENGTH = 512
"""The longest URL Discord takes on a link button."""


class WebLinker:
    """The links a server's messages may carry (None where none may)."""

    def __init__(self, links: WebLinks | None, tables: TableStore | None) -> None:
        self._links = links
        self._tables = tables

    @classmethod
    def none(cls) -> WebLinker:
        """No pages: no message carries a link."""
        return cls(None, None)

    async def _allowed(self, guild_id: int | None) -> WebLinks | None:
        if self._links is None or self._tables is None or guild_id is None:
            return None
        try:
            settings = await self._tables.guild_settings(guild_id)
        except StoreError:
            return None  # a message goes out without its link rather than not at all
        return None if settings.web is WebAccess.OFF else self._links

    async def server(self, guild_id: int | None) -> str | None:
        links = await self._allowed(guild_id)
        return None if links is None or guild_id is None else links.server(guild_id)

    async def player(self, guild_id: int | None, user_id: int) -> str | None:
        links = await self._allowed(guild_id)
        return None if links is None or guild_id is None else links.player(guild_id, user_id)

    async def match(self, guild_id: int | None, match_id: int) -> str | None:
        links = await self._allowed(guild_id)
        return None if links is None or guild_id is None else links.match(guild_id, match_id)

    async def day(self, guild_id: int | None, day: date) -> str | None:
        links = await self._allowed(guild_id)
        return None if links is None or guild_id is None else links.day(guild_id, day)

    async def table_seat(self, guild_id: int | None, table_id: int, user_id: int) -> str | None:
        """The person's own link to the live table (the hand message's button)."""
        links = await self._allowed(guild_id)
        if links is None or guild_id is None:
            return None
        return links.table_seat(guild_id, table_id, user_id)

    async def table_watch(self, guild_id: int | None, table_id: int) -> str | None:
        """The live table's spectators' link (anyone's: it shows nobody's hand)."""
        links = await self._allowed(guild_id)
        if links is None or guild_id is None:
            return None
        return links.table_watch(guild_id, table_id)

    async def sheet(self, guild_id: int | None, tally_id: int) -> str | None:
        links = await self._allowed(guild_id)
        return None if links is None or guild_id is None else links.sheet(guild_id, tally_id)


def web_button(url: str) -> discord.ui.Button[Any]:
    """The link button to ``url``, in the current language."""
    return discord.ui.Button(
        label=_("On the web"), emoji="🌐", style=discord.ButtonStyle.link, url=url
    )


def table_button(url: str) -> discord.ui.Button[Any]:
    """The "Open the table" link button (the live table, for this person alone)."""
    return discord.ui.Button(
        label=_("Open the table"), emoji="🃏", style=discord.ButtonStyle.link, url=url
    )


def watch_button(url: str) -> discord.ui.Button[Any]:
    """The "Watch" link button (the live table as a spectator sees it, no hand)."""
    return discord.ui.Button(label=_("Watch"), emoji="👀", style=discord.ButtonStyle.link, url=url)


def with_web_link(view: discord.ui.View | None, url: str | None) -> discord.ui.View | None:
    """``view`` with the link button added (a view made for it if there was none);
    ``view`` as it is without a link."""
    if url is None or len(url) > URL_LENGTH:
        return view
    if view is None:
        view = discord.ui.View(timeout=None)
    view.add_item(web_button(url))
    return view
