"""Fixtures for the Discord front end tests: a running bot behind a fake Discord."""

from __future__ import annotations

from dataclasses import replace

import pytest
from discord_harness import FAST_PACING, Harness

ACK_LIMIT = 1.0
"""Seconds: every interaction must be answered well within Discord's 3."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "pacing(**timings): the harness fixture's presenter timings beside the fast ones"
    )


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
