"""Fixtures for the standings tests: a fresh database and a rated table service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store, open_store
from tests.standings.standings_helpers import Tables, make_tables


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    """A fresh store on each backend (``database``: see tests/conftest.py)."""
    async with await open_store(database) as opened:
        yield opened


@pytest.fixture
async def tables(store: Store) -> AsyncIterator[Tables]:
    made = make_tables(store)
    yield made
    await made.service.close()
