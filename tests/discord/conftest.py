"""Fixtures for the Discord front end tests: a running bot behind a fake Discord."""

from __future__ import annotations

import pytest
from discord_harness import Harness

import bot.ui.presenter as presenter

FAST_EDIT_INTERVAL = 0.02
"""Tests run Discord's clocks 100× faster (``time_scale=0.01``); the table message's
edit pacing is scaled the same way, except in the test that checks the real 1 s."""


@pytest.fixture
async def harness(tmp_path, monkeypatch):
    monkeypatch.setattr(presenter, "EDIT_INTERVAL", FAST_EDIT_INTERVAL)
    h = await Harness(tmp_path).start()
    try:
        yield h
    finally:
        await h.stop()
