"""Fixtures for the Discord front end tests: a running bot behind a fake Discord.

The pictures are drawn as a one-pixel stand-in, except in tests marked ``real_pictures``
(those that look at them): drawing the table takes some 10 ms, most of what these tests
spent on the CPU, and every other test only sees that a picture is attached. What is
drawn is the render tests' business (tests/render)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import bot.ui.pictures as pictures
import bot.ui.presenter as presenter
from tests.discord.discord_harness import Harness

FAST_EDIT_INTERVAL = 0.02
"""Tests run Discord's clocks 100× faster (``time_scale=0.01``); the table message's
edit pacing is scaled the same way, except in the test that checks the real 1 s."""


FAST_RESTART_QUIET = 0.05
"""A restored channel's quiet time, one rate-limit window at the tests' time scale."""

ACK_LIMIT = 1.0
"""Seconds: every interaction must be answered well within Discord's 3."""


def _one_pixel() -> bytes:
    image = io.BytesIO()
    Image.new("RGB", (1, 1)).save(image, format="PNG")
    return image.getvalue()


STAND_IN = _one_pixel()
"""The PNG sent for every picture in a test that does not look at pictures."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "real_pictures: the bot draws its real pictures (the test looks at them)"
    )


@pytest.fixture(autouse=True)
def stand_in_pictures(request, monkeypatch):
    """Every picture is :data:`STAND_IN` unless the test is marked ``real_pictures``."""
    if request.node.get_closest_marker("real_pictures") is None:
        monkeypatch.setattr(pictures, "table_png", lambda scene: STAND_IN)
        monkeypatch.setattr(pictures, "chart_png", lambda data: STAND_IN)


@pytest.fixture(autouse=True)
def fast_restart(monkeypatch):
    """Restarts in these tests wait one scaled window (5 s × 0.01), not Discord's 5 s."""
    monkeypatch.setattr(presenter, "RESTART_QUIET", FAST_RESTART_QUIET)


@pytest.fixture
async def harness(tmp_path, monkeypatch):
    """A started bot; afterwards, every interaction of the test must have been answered
    within :data:`ACK_LIMIT` and Discord must have refused nothing for being late or
    answered twice."""
    monkeypatch.setattr(presenter, "EDIT_INTERVAL", FAST_EDIT_INTERVAL)
    h = await Harness(tmp_path).start()
    try:
        yield h
    finally:
        await h.stop()
    for interaction in h.fake.interactions.values():
        assert interaction.latency is not None, f"never answered: {interaction.data}"
        assert interaction.latency < ACK_LIMIT, (interaction.latency, interaction.data)
    assert h.fake.rate_limited() == []
    assert h.fake.refused() == [], "Discord refused a malformed message (400)"
    assert [c for c in h.fake.calls if c.path.endswith("/callback") and c.status != 200] == []
