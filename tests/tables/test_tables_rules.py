"""Other rules through the table service: a table opened with a :class:`Rules` value
plays its match by them, the store keeps them, and a restart replays by them.

The variant here (nine deals, another points table, an eighth contract, other seats) is
registered for the test only, as the next variant will be registered in the engine.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from tables_helpers import ANN, CHANNEL, GUILD, HOST, name
from test_tables_recovery import Restartable

from bot.engine import CARDS, CONTRACTS, STANDARD, Contract, Rules, Suit, from_record
from bot.engine import rules as engine_rules
from bot.engine.contracts import HeartLead, Kind
from bot.tables import events as ev

SPADES = Contract(
    "spades",
    "Spadeshunting",
    Kind.NEGATIVE,
    "-10 per spade taken; no heart lead",
    card_points={c: -10 for c in CARDS if c.suit is Suit.SPADES},
    heart_lead=HeartLead.NEVER,
)


def _doubled(contract: Contract) -> Contract:
    """Every contract's points twice over: another points table."""
    if contract.id == "domino":
        return dataclasses.replace(contract, last_holder=2 * contract.last_holder)
    return dataclasses.replace(
        contract,
        per_trick=2 * contract.per_trick,
        card_points={card: 2 * points for card, points in contract.card_points.items()},
        trick_points={n: 2 * v for n, v in contract.trick_points.items()},
    )


NINE = Rules(
    variant="test-nine",
    deals=9,
    contracts=(*(_doubled(c) for c in CONTRACTS.values()), SPADES),
    chooser_offset=1,
    doubling_offsets=(2, 3, 0, 1),
    first_lead_offset=0,
)


@pytest.fixture(autouse=True)
def nine_is_a_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(engine_rules.VARIANTS, NINE.variant, NINE)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_table_plays_other_rules_and_a_restart_replays_them(
    tmp_path: Path, seed: int
) -> None:
    assert NINE != STANDARD
    node = Restartable(tmp_path / "db.sqlite3")
    h = await node.start()
    h.rng.seed(seed)
    try:
        opened = await h.service.open_table(GUILD, CHANNEL, HOST, name(HOST), rules=NINE)
        assert opened.rules is NINE
        await h.service.join(CHANNEL, ANN, name(ANN))
        view = await h.service.start(CHANNEL, HOST)
        await h.play_random(view.table_id, actions=30 + seed)
        before = h.service.record(view.table_id, full=True)
        assert before is not None and before["variant"] == NINE.variant
        h = await node.restart()
        h.rng.seed(seed)
        assert h.service.record(view.table_id, full=True) == before
        assert h.service.view(view.table_id).rules is NINE
        await h.play_random(view.table_id)
        ended = h.events.last(ev.MatchEnded)
        record = ended.record
        assert record["variant"] == NINE.variant and len(record["deals"]) == NINE.deals
        match = from_record(record)
        assert match.rules is NINE and match.is_over
        assert list(ended.totals) == match.totals()
        # The scores are NINE's: every deal's base points add up to its contract's total.
        for deal in match.deals:
            assert deal.contract is not None and deal.contract is NINE.contract(deal.contract.id)
            assert sum(deal.base) == deal.contract.total
    finally:
        await node.stop()
