"""Fixtures for the Discord front end tests: a running bot behind a fake Discord.

The pictures are drawn as a one-pixel stand-in, except in tests marked ``real_pictures``
(those that look at them): drawing the table takes some 10 ms, most of what these tests
spent on the CPU, and every other test only sees that a picture is attached. What is
drawn is the render tests' business (tests/render)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

import bot.ui.pictures as pictures
from tests.discord.discord_harness import FAST_PACING, Harness

ACK_LIMIT = 1.5
"""Seconds: every interaction must be answered well within Discord's 3. Half of them,
not less: the suite runs four workers on two cores beside Chromium and PostgreSQL, where
a worker at times waits a second for a core (a scoresheet's select was answered in
1.02 s in CI so), while the fault this catches, slow work (thinking, drawing) before the
answer, takes seconds."""


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
    config.addinivalue_line(
        "markers", "pacing(**timings): the harness fixture's presenter timings beside the fast ones"
    )


@pytest.fixture(autouse=True)
def stand_in_pictures(request, monkeypatch):
    """Every picture is :data:`STAND_IN` unless the test is marked ``real_pictures``."""
    if request.node.get_closest_marker("real_pictures") is None:
        monkeypatch.setattr(pictures, "deal_png", lambda scene: STAND_IN)
        monkeypatch.setattr(pictures, "chart_png", lambda data: STAND_IN)


@pytest.fixture
async def harness(tmp_path, request):
    """A started bot, its edits paced as fast as Discord's clocks run here (a test marked
    ``pacing`` changes some timings); afterwards, every interaction of the test must have
    been answered within :data:`ACK_LIMIT` and Discord must have refused nothing for
    being late or answered twice."""
    marker = request.node.get_closest_marker("pacing")
    pacing = FAST_PACING if marker is None else replace(FAST_PACING, **marker.kwargs)
    h = await Harness(tmp_path, pacing=pacing).start()
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
