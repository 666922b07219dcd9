"""Matches: append-only deals and actions, records rebuilt from them, cancel and finish."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.engine import PASS, Card, Choose, Match, Play, from_record, to_record
from bot.store import (
    AlreadyStored,
    Computer,
    Conflict,
    ConstraintFailed,
    Human,
    MatchStatus,
    NotFound,
    Store,
)
from tests.store.store_helpers import NAMES, actions_taken, play, seated_table


async def _new_match(
    store: Store, channel_id: int = 10, *, first_dealer: int = 0, seed: int | None = None
) -> int:
    table = await seated_table(store, channel_id=channel_id)
    info = await store.matches.create_match(
        table.table_id, NAMES, first_dealer=first_dealer, seed=seed
    )
    return info.match_id


async def _play_actions(
    store: Store, match_id: int, match: Match, rng: random.Random, n: int
) -> None:
    for _ in range(n):
        if match.is_over:
            return
        if match.to_act is None:
            deal = match.deal_random(rng)
            await store.matches.append_deal(match_id, len(match.deals) - 1, deal.hands)
            continue
        seat, action = match.to_act, rng.choice(match.legal_actions())
        await store.matches.append_action(match_id, actions_taken(match), seat, action)
        match.apply(action)


async def test_a_complete_match_record_rebuilds_and_replays_exactly(store: Store) -> None:
    match_id = await _new_match(store, first_dealer=2, seed=1234)
    played = await play(store, match_id, random.Random(1), match=Match(NAMES, first_dealer=2))
    record = await store.matches.load_record(match_id)
    assert record["format"] == "bonken-record/1"
    assert record["players"] == list(NAMES)
    assert record["first_dealer"] == 2
    assert record["seed"] == 1234
    assert record["started"].endswith("+00:00")
    rebuilt = from_record(record)
    assert rebuilt.is_over
    assert to_record(rebuilt) == to_record(played)


async def test_records_replay_through_the_engine_at_any_point(store: Store) -> None:
    rng = random.Random(2)
    for cut in (0, 1, 3, 4, 5, 6, 30, 57, 58, 59, 200, 700):
        match_id = await _new_match(store, channel_id=100 + cut, first_dealer=cut % 4)
        match = Match(NAMES, first_dealer=cut % 4)
        await _play_actions(store, match_id, match, rng, cut)
        rebuilt = from_record(await store.matches.load_record(match_id))
        assert to_record(rebuilt) == to_record(match), f"after {cut} steps"
        info = await store.matches.get_match(match_id)
        assert (info.deals, info.actions) == (len(match.deals), actions_taken(match))


async def test_match_info_tells_who_sits_where_and_how_far_it_is(store: Store) -> None:
    table = await seated_table(store, (Human(5), Computer("easy"), Human(6), Human(7)))
    info = await store.matches.create_match(table.table_id, NAMES, seed=9)
    assert info.status is MatchStatus.PLAYING
    assert [s.occupant for s in info.seats] == [Human(5), Computer("easy"), Human(6), Human(7)]
    assert [s.name for s in info.seats] == list(NAMES)
    assert (info.deals, info.actions, info.last_action_at) == (0, 0, None)
    assert (await store.tables.get_table(table.table_id)).match_id == info.match_id
    await play(store, info.match_id, random.Random(3), deals=1)
    later = await store.matches.get_match(info.match_id)
    assert later.deals == 1 and later.actions > 5
    assert later.last_action_at is not None and later.last_action_at >= info.started_at


async def test_a_repeated_action_number_is_refused_and_the_first_one_kept(store: Store) -> None:
    match_id = await _new_match(store)
    match = Match(NAMES)
    deal = match.deal_random(random.Random(4))
    await store.matches.append_deal(match_id, 0, deal.hands)
    contracts = [a for a in match.legal_actions() if isinstance(a, Choose)]
    await store.matches.append_action(match_id, 0, deal.chooser, contracts[0])
    with pytest.raises(AlreadyStored, match="action 0 of match 1 is already stored"):
        await store.matches.append_action(match_id, 0, deal.chooser, contracts[1])
    record = await store.matches.load_record(match_id)
    assert record["deals"][0]["contract"] == contracts[0].contract


async def test_a_repeated_deal_is_refused(store: Store) -> None:
    match_id = await _new_match(store)
    deal = Match(NAMES).deal_random(random.Random(5))
    await store.matches.append_deal(match_id, 0, deal.hands)
    with pytest.raises(AlreadyStored):
        await store.matches.append_deal(match_id, 0, deal.hands)


async def test_actions_and_deals_are_stored_without_gaps(store: Store) -> None:
    match_id = await _new_match(store)
    deal = Match(NAMES).deal_random(random.Random(6))
    with pytest.raises(Conflict, match="no deal has been stored yet"):
        await store.matches.append_action(match_id, 0, 2, Choose("queens"))
    with pytest.raises(Conflict, match="deal out of order"):
        await store.matches.append_deal(match_id, 1, deal.hands)
    await store.matches.append_deal(match_id, 0, deal.hands)
    with pytest.raises(Conflict, match="action out of order"):
        await store.matches.append_action(match_id, 1, 2, Choose("queens"))


async def test_nothing_is_appended_to_a_match_not_in_play(store: Store) -> None:
    match_id = await _new_match(store)
    deal = Match(NAMES).deal_random(random.Random(7))
    await store.matches.append_deal(match_id, 0, deal.hands)
    await store.matches.cancel_match(match_id)
    with pytest.raises(Conflict, match="not in play"):
        await store.matches.append_action(match_id, 0, 2, Choose("queens"))
    with pytest.raises(Conflict, match="not in play"):
        await store.matches.append_deal(match_id, 1, deal.hands)
    with pytest.raises(Conflict, match="cancelled, not in play"):
        await store.matches.cancel_match(match_id)
    with pytest.raises(Conflict, match="cancelled, not in play"):
        await store.matches.finish_match(match_id)
    assert (await store.matches.get_match(match_id)).status is MatchStatus.CANCELLED


async def test_an_unfinished_match_cannot_be_finished(store: Store) -> None:
    match_id = await _new_match(store)
    await play(store, match_id, random.Random(8), deals=10)
    with pytest.raises(Conflict, match="is not over: 10 deals so far"):
        await store.matches.finish_match(match_id)
    assert (await store.matches.get_match(match_id)).status is MatchStatus.PLAYING


async def test_a_record_that_breaks_a_rule_is_not_finished(store: Store) -> None:
    match_id = await _new_match(store)
    deal = Match(NAMES).deal_random(random.Random(9))
    await store.matches.append_deal(match_id, 0, deal.hands)
    await store.matches.append_action(match_id, 0, 2, Choose("queens"))
    for seq in range(1, 5):
        await store.matches.append_action(match_id, seq, 0, PASS)
    not_held = next(c for c in map(Card.parse, ("2C", "3C")) if c not in deal.hands[1])
    await store.matches.append_action(match_id, 5, 1, Play(not_held))
    with pytest.raises(Conflict, match="does not replay: deal 1"):
        await store.matches.finish_match(match_id)


async def test_a_match_needs_four_seated_players_each_in_one_seat(store: Store) -> None:
    table = await store.tables.create_table(1, 10, 100)
    await store.tables.update_table(table.table_id, seats={0: Human(1), 1: Human(2)})
    with pytest.raises(Conflict, match="empty seats"):
        await store.matches.create_match(table.table_id, NAMES)
    await store.tables.update_table(table.table_id, seats={2: Human(1), 3: Computer("easy")})
    with pytest.raises(Conflict, match="two seats"):
        await store.matches.create_match(table.table_id, NAMES)
    with pytest.raises(ValueError, match="four player names"):
        await store.matches.create_match(table.table_id, NAMES[:3])
    with pytest.raises(NotFound):
        await store.matches.create_match(99, NAMES)


async def test_a_table_plays_one_match_at_a_time(store: Store) -> None:
    table = await seated_table(store)
    first = await store.matches.create_match(table.table_id, NAMES)
    with pytest.raises(Conflict, match="already has a match in play"):
        await store.matches.create_match(table.table_id, NAMES)
    await store.matches.cancel_match(first.match_id)
    second = await store.matches.create_match(table.table_id, NAMES)
    assert (await store.tables.get_table(table.table_id)).match_id == second.match_id


async def test_many_matches_append_concurrently_on_one_connection(store: Store) -> None:
    ids = [await _new_match(store, channel_id=200 + n) for n in range(20)]
    played = await asyncio.gather(
        *(play(store, match_id, random.Random(match_id), deals=2) for match_id in ids)
    )
    for match_id, match in zip(ids, played, strict=True):
        rebuilt = from_record(await store.matches.load_record(match_id))
        assert to_record(rebuilt) == to_record(match)
    assert await store.integrity_problems() == []


async def test_the_log_refuses_changes_even_from_raw_sql(store: Store) -> None:
    match_id = await _new_match(store)
    await play(store, match_id, random.Random(10), deals=1)
    for sql in ("UPDATE actions SET value = 'AS'", "DELETE FROM actions", "DELETE FROM deals"):
        with pytest.raises(ConstraintFailed, match="append-only"):
            await store.db.write_one(sql)


async def test_an_unknown_match_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.matches.get_match(5)
    with pytest.raises(NotFound):
        await store.matches.load_record(5)
    with pytest.raises(NotFound):
        await store.matches.cancel_match(5)
