"""A match's rules are kept with it: its record names them and its deals are counted by them."""

from __future__ import annotations

import dataclasses
import random

import pytest
from store_helpers import NAMES, seated_table

from bot.engine import STANDARD, deal_hands
from bot.engine import rules as engine_rules
from bot.store import Store

SHORT = dataclasses.replace(STANDARD, variant="test-short", deals=3)


async def test_a_match_keeps_its_rules_and_counts_its_deals_by_them(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(engine_rules.VARIANTS, SHORT.variant, SHORT)
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES, rules=SHORT)
    assert info.rules == {"variant": "test-short"}
    rng = random.Random(4)
    for index in range(3):
        await store.matches.append_deal(info.match_id, index, deal_hands(rng))
    with pytest.raises(ValueError, match="a match has deals 0-2, not 3"):
        await store.matches.append_deal(info.match_id, 3, deal_hands(rng))
    record = await store.matches.load_record(info.match_id)
    assert record["variant"] == "test-short" and len(record["deals"]) == 3


async def test_a_standard_match_is_stored_as_the_standard_game(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    assert info.rules == {"variant": "standard"}
    assert (await store.matches.load_record(info.match_id))["variant"] == "standard"
