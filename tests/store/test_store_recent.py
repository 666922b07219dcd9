"""A server's settings taken as read for a moment (``bot.store.recent``): read once for
the clicks and pages of :data:`SETTING_SECONDS`, then read again, so a change reaches
them within that time."""

from __future__ import annotations

import pytest

from bot.store import GuildSettings, Store, TableSettings
from bot.store.recent import SETTING_SECONDS, RecentSettings

pytestmark = pytest.mark.service_logic


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_settings_are_read_once_a_moment_and_a_change_reaches_them_after(
    store: Store,
) -> None:
    clock = Clock()
    recent = RecentSettings(store.tables, clock=clock)
    reads = 0
    read = store.tables.guild_settings

    async def counted(guild_id: int) -> GuildSettings:
        nonlocal reads
        reads += 1
        return await read(guild_id)

    store.tables.guild_settings = counted  # type: ignore[method-assign]
    assert (await recent.of(1)).table_defaults.images
    no_pictures = GuildSettings(table_defaults=TableSettings(images=False))
    await store.tables.set_guild_settings(1, no_pictures)
    clock.now += SETTING_SECONDS - 0.01
    assert (await recent.of(1)).table_defaults.images  # as read a moment ago
    assert (await recent.of(2)).table_defaults.images  # another server: its own read
    assert reads == 2
    clock.now += 0.02
    assert await recent.of(1) == no_pictures
    assert reads == 3
