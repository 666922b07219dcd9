"""Fixtures for the finished-match service's tests: a fresh SQLite store each."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.archive import FinishedMatchService
from bot.store import Store, open_store
from tests.sqlite_template import fresh_sqlite

THREAD = "thread"
"""The role under which these tests store the thread a table played in."""


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A fresh store (the service only reads the store's matches: SQLite's answers are
    the ones PostgreSQL gives, as tests/store checks on both)."""
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as opened:
        yield opened


@pytest.fixture
def archive(store: Store) -> FinishedMatchService:
    return FinishedMatchService(store.matches, thread_role=THREAD)
