"""A match's rules are kept with it: its record names them and its deals are counted by them."""

from __future__ import annotations

import random

import pytest

from bot.engine import deal_hands, rules_for
from bot.store import Store
from tests.store.store_helpers import NAMES, seated_table

TWELVE_BROKEN = rules_for("twelve", {"heart_lead": "broken"})


async def test_a_match_keeps_its_rules_and_counts_its_deals_by_them(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES, rules=TWELVE_BROKEN)
    assert info.rules == {"variant": "twelve", "house_rules": {"heart_lead": "broken"}}
    rng = random.Random(4)
    for index in range(12):  # deal index 11: the twelfth deal, which standard never has
        await store.matches.append_deal(info.match_id, index, deal_hands(rng))
    with pytest.raises(ValueError, match="a match has deals 0-11, not 12"):
        await store.matches.append_deal(info.match_id, 12, deal_hands(rng))
    record = await store.matches.load_record(info.match_id)
    assert record["variant"] == "twelve" and len(record["deals"]) == 12
    assert record["house_rules"] == {"heart_lead": "broken"}


async def test_a_standard_match_is_stored_as_the_standard_game(store: Store) -> None:
    table = await seated_table(store)
    info = await store.matches.create_match(table.table_id, NAMES)
    assert info.rules == {"variant": "standard"}
    assert (await store.matches.load_record(info.match_id))["variant"] == "standard"
