"""A server's settings taken as read for a moment, where something reads them at every
click or page view (a daily click's picture setting, a page's web setting).

A change made with ``/bonken-admin settings``, in this process or another of a sharded
bot, reaches such readers within :data:`SETTING_SECONDS`; until then they keep what they
read, and the store is not asked again for every click of two hundred people.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .models import GuildSettings
from .tables import TableStore

SETTING_SECONDS = 2.0
"""How long a server's settings are taken as read."""
SETTINGS_KEPT = 10_000
"""Servers' settings kept at most (all forgotten at once past it)."""


class RecentSettings:
    """Each server's settings as last read from ``tables``, read again once they are
    :data:`SETTING_SECONDS` old."""

    def __init__(self, tables: TableStore, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._tables = tables
        self._clock = clock
        self._read: dict[int, tuple[float, GuildSettings]] = {}

    async def of(self, guild_id: int) -> GuildSettings:
        """The server's settings, read at most :data:`SETTING_SECONDS` ago."""
        now = self._clock()
        known = self._read.get(guild_id)
        if known is not None and now - known[0] < SETTING_SECONDS:
            return known[1]
        settings = await self._tables.guild_settings(guild_id)
        if len(self._read) >= SETTINGS_KEPT:
            self._read.clear()
        self._read[guild_id] = (now, settings)
        return settings
