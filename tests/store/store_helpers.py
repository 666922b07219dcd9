"""Shared helpers for the store tests: seated tables and random legal matches, stored."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.engine import Match
from bot.store import Human, SeatOccupant, Store, TableRecord, TableStatus
from bot.store.claims import ClaimStore, Session

NAMES = ("Ann", "Bob", "Cas", "Dirk")
FOUR_HUMANS: tuple[SeatOccupant, ...] = (Human(1), Human(2), Human(3), Human(4))


def actions_taken(match: Match) -> int:
    """How many actions ``match`` has had: the number its next action is stored under."""
    return sum(
        (deal.contract is not None) + len(deal.doubling) + len(deal.plays) for deal in match.deals
    )


async def seated_table(
    store: Store,
    occupants: Sequence[SeatOccupant] = FOUR_HUMANS,
    *,
    guild_id: int = 1,
    channel_id: int = 10,
) -> TableRecord:
    table = await store.tables.create_table(guild_id, channel_id, host_id=1)
    return await store.tables.update_table(table.table_id, seats=dict(enumerate(occupants)))


async def play(
    store: Store,
    match_id: int,
    rng: random.Random,
    *,
    deals: int = 11,
    by_computer: Callable[[int], bool] = lambda seat: False,
    match: Match | None = None,
) -> Match:
    """Play random legal actions, storing each, until ``deals`` deals are dealt and done.

    Continues ``match`` if given (it must be the stored match's state).
    """
    match = match or Match(NAMES)
    seq = actions_taken(match)
    while not match.is_over:
        if match.to_act is None:
            if len(match.deals) == deals:
                break
            deal = match.deal_random(rng)
            await store.matches.append_deal(match_id, len(match.deals) - 1, deal.hands)
            continue
        seat = match.to_act
        action = rng.choice(match.legal_actions())
        await store.matches.append_action(
            match_id, seq, seat, action, by_computer=by_computer(seat)
        )
        match.apply(action)
        seq += 1
    return match


async def finished_match(
    store: Store,
    seed: int,
    occupants: Sequence[SeatOccupant] = FOUR_HUMANS,
    *,
    channel_id: int = 10,
    guild_id: int = 1,
) -> tuple[int, Match]:
    """A table, a complete random match on it, stored and finished."""
    table = await seated_table(store, occupants, guild_id=guild_id, channel_id=channel_id)
    info = await store.matches.create_match(table.table_id, NAMES)
    match = await play(store, info.match_id, random.Random(seed))
    await store.matches.finish_match(info.match_id)
    await store.tables.update_table(table.table_id, status=TableStatus.FINISHED)
    return info.match_id, match


NO_LIMIT = 2**32 - 2
"""SQLite's largest ``max_page_count``."""


async def fill_disk(store: Store) -> None:
    """Make the disk full for this connection, for real: the file may not grow any more,
    so the next write that needs a new page fails with SQLite's own SQLITE_FULL."""
    (row,) = await store.db.write_one("PRAGMA page_count")
    await store.db.write_one(f"PRAGMA max_page_count = {row['page_count']}")


async def free_disk(store: Store) -> None:
    """Room again: the file may grow as far as SQLite lets it."""
    (row,) = await store.db.write_one(f"PRAGMA max_page_count = {NO_LIMIT}")
    assert row["max_page_count"] > 1_000_000


class Liveness:
    """A test's say on which claim owners are alive (the backend's answer, faked)."""

    def __init__(self, *alive: int) -> None:
        self.living = set(alive)

    async def alive(self, session: Session, owner: int) -> bool:
        return owner in self.living


def other_process(store: Store, owner: int, liveness: Liveness) -> Store:
    """A second bot process on the same database: its own owner id, the test's liveness."""
    other = Store(store.db, owner=owner)
    other.claims = ClaimStore(store.db, owner, liveness)
    return other
