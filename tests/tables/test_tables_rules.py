"""Other rules through the table service: a table opened with a variant and house rules
plays its match by them, the store keeps them, and a restart replays by them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import STANDARD, from_record, rules_for
from bot.store import GuildSettings, TableSettings
from bot.tables import events as ev
from tests.tables.tables_helpers import ANN, CHANNEL, GUILD, HOST, Restartable, name

OTHER = rules_for("twelve", {"heart_lead": "broken", "first_lead": "dealer"})
"""Not the standard game in every respect a table could get wrong: 12 deals, another
points table, an eighth contract, other seats and two house rules."""


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_table_plays_other_rules_and_a_restart_replays_them(
    tmp_path: Path, seed: int
) -> None:
    assert OTHER != STANDARD
    node = Restartable(tmp_path / "db.sqlite3")
    h = await node.start()
    h.rng.seed(seed)
    try:
        opened = await h.service.open_table(
            GUILD, CHANNEL, HOST, name(HOST), TableSettings(rules=OTHER)
        )
        assert opened.rules is OTHER
        await h.service.join(CHANNEL, ANN, name(ANN))
        view = await h.service.start(CHANNEL, HOST)
        await h.play_random(view.table_id, actions=30 + seed)
        before = h.service.record(view.table_id, full=True)
        assert before is not None and before["variant"] == OTHER.variant
        h = await node.restart()
        h.rng.seed(seed)
        assert h.service.record(view.table_id, full=True) == before
        assert h.service.view(view.table_id).rules is OTHER
        await h.play_random(view.table_id)
        ended = h.events.last(ev.MatchEnded)
        record = ended.record
        assert record["variant"] == OTHER.variant and len(record["deals"]) == OTHER.deals
        match = from_record(record)
        assert match.rules is OTHER and match.is_over
        assert list(ended.totals) == match.totals()
        # The scores are OTHER's: every deal's base points add up to its contract's total.
        for deal in match.deals:
            assert deal.contract is not None and deal.contract is OTHER.contract(deal.contract.id)
            assert sum(deal.base) == deal.contract.total
    finally:
        await node.stop()


async def test_a_lobby_keeps_its_rules_across_a_restart_and_its_match_plays_by_them(
    tmp_path: Path,
) -> None:
    node = Restartable(tmp_path / "db.sqlite3")
    h = await node.start()
    try:
        opened = await h.service.open_table(
            GUILD, CHANNEL, HOST, name(HOST), TableSettings(rules=OTHER)
        )
        h = await node.restart()
        assert h.service.view(opened.table_id).rules is OTHER
        view = await h.service.start(CHANNEL, HOST)
        await h.play_random(view.table_id, actions=5)
        record = h.service.record(view.table_id, full=True)
        assert record is not None and record["house_rules"] == dict(OTHER.house_rules)
    finally:
        await node.stop()


async def test_a_table_opened_without_settings_takes_the_servers_default_rules(
    tmp_path: Path,
) -> None:
    node = Restartable(tmp_path / "db.sqlite3")
    h = await node.start()
    try:
        await h.store.tables.set_guild_settings(
            GUILD, GuildSettings(table_defaults=TableSettings(rules=OTHER))
        )
        opened = await h.service.open_table(GUILD, CHANNEL, HOST, name(HOST))
        assert opened.rules is OTHER
    finally:
        await node.stop()
