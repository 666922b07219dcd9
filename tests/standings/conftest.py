"""Fixtures for the standings tests: a fresh database and a rated table service."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

# The command tests drive the real bot through the stand-in Discord of tests/discord.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "discord"))
from standings_helpers import Tables, make_tables

from bot.store import Store, open_store


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
