"""The work that grows with a picture or a match never runs on the event loop: drawing
and encoding the pictures, replaying a record (for the score chart, for ``/bonken
record``) and encoding the record's JSON run in worker threads, so the loop goes on
answering interactions and heartbeats meanwhile (``bench/stall.py`` measures the loop's
longest stall over a whole match)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import bot.ui.pictures as pictures
import bot.ui.records as records
import cogs.info as info
from bot.engine import from_record
from tests.discord.discord_harness import CHANNEL_ID


def watched(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[int]]:
    """Each heavy function, wrapped to note the thread it ran in."""
    ran: dict[str, list[int]] = {}

    def wrap(module: Any, name: str, real: Callable[..., Any]) -> None:
        def noted(*args: Any, **kwargs: Any) -> Any:
            ran.setdefault(f"{module.__name__}.{name}", []).append(threading.get_ident())
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, noted)

    wrap(pictures, "deal_png", pictures.deal_png)
    wrap(pictures, "chart_png", pictures.chart_png)
    wrap(pictures, "from_record", from_record)
    wrap(records, "encoded", records.encoded)
    wrap(info, "from_record", from_record)
    return ran


async def test_a_whole_match_draws_replays_and_encodes_off_the_loop(harness, monkeypatch):
    h = harness
    ran = watched(monkeypatch)
    loop_thread = threading.get_ident()
    host = h.user("Host")
    service = h.parts.service
    await service.open_table(1, CHANNEL_ID, host.id, "Host", host_seated=False)
    for _ in range(4):
        await service.add_computer(CHANNEL_ID, host.id)
    await service.start(CHANNEL_ID, host.id)
    await h.idle()
    assert service.table_in_channel(CHANNEL_ID) is None  # the match was played out
    asked = await h.slash(host, "record")  # the finished match's record, replayed
    assert asked.ephemeral and any(call.files for call in asked.answers)
    assert set(ran) == {
        "bot.ui.pictures.deal_png",
        "bot.ui.pictures.chart_png",
        "bot.ui.pictures.from_record",
        "bot.ui.records.encoded",
        "cogs.info.from_record",
    }
    on_the_loop = {name for name, threads in ran.items() if loop_thread in threads}
    assert on_the_loop == set()
