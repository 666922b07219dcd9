"""Fixtures for the table service tests: a fresh database and services that close."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.store import Store, open_store
from tests.tables.tables_helpers import Harness, make_harness


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    """A fresh store on each backend (``database``: see tests/conftest.py)."""
    async with await open_store(database) as opened:
        yield opened


@pytest.fixture
async def harness(store: Store) -> AsyncIterator[Callable[..., Harness]]:
    """``harness(**service_options)``: a service on the test's store, closed afterwards."""
    made: list[Harness] = []

    def make(**options: object) -> Harness:
        made.append(make_harness(store, **options))
        return made[-1]

    yield make
    for one in made:
        await one.service.close()


@pytest.fixture
def h(harness: Callable[..., Harness]) -> Harness:
    """The usual service: no pacing, timers too long to fire during a test."""
    return harness()
