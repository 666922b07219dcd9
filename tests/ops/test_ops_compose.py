"""``docker-compose.yml``: its bot processes split the shards, every shard run once."""

from __future__ import annotations

import re

from bot.shards import Shards
from tests.ops.fake_discord import ROOT

COMMAND = re.compile(r'"--shards", "([^"]+)", "--shard-count", "(\d+)"')


def test_the_compose_file_s_bots_run_every_shard_exactly_once() -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    processes = [Shards.parse(ids, int(count)) for ids, count in COMMAND.findall(text)]
    assert len(processes) >= 2
    (count,) = {process.count for process in processes}
    assert count is not None
    shards = sorted(shard for process in processes for shard in process.ids)
    assert shards == list(range(count))
    # and they share one PostgreSQL database, which the bots wait to be healthy for
    assert text.count("BONKEN_DATABASE: postgresql://") == 1  # in the shared anchor
    assert "condition: service_healthy" in text and "pg_isready" in text
