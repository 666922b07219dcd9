"""Fixtures for the daily deals' tests: a fresh store on each backend, a clock moved by
hand, and services on them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.daily import DailyService
from bot.store import Store, open_store
from tests.daily.daily_helpers import Clock


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    """A fresh store on each backend (``database``: see tests/conftest.py)."""
    async with await open_store(database) as opened:
        yield opened


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> DailyService:
    return DailyService(store.daily, store.tables, clock=clock)
