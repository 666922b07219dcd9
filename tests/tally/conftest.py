"""Fixtures for the tally tests: a fresh store on each backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store, open_store


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    """A fresh store on each backend (``database``: see tests/conftest.py)."""
    async with await open_store(database) as opened:
        yield opened
