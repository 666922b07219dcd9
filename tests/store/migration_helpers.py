"""Old databases for the migration tests (SQLite and PostgreSQL alike): a schema-1 file,
the late migration merged after a higher one, and what every migration must keep."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.engine import Match
from bot.store import ConstraintFailed, open_store
from bot.store import migrations as migrations_module
from bot.store.codec import encode_action, encode_hands
from bot.store.migrations import Migration, migrate
from tests.store.store_helpers import NAMES


def schema_1_file(path: Path) -> Match:
    """A schema-1 file: a table playing a match three deals in, and a cancelled match."""
    match = Match(NAMES)
    rng = random.Random(11)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous=OFF")  # a test's file: no fsync for each row
        assert migrate(conn, target=1) == [1]
        conn.execute("INSERT INTO guild_settings VALUES (1, 90, 'easy')")
        conn.execute("INSERT INTO tables VALUES (7, 1, 10, 100, 'playing', 90, 'easy', 5, 6)")
        conn.executemany(
            "INSERT INTO table_seats VALUES (7, ?, ?, ?)",
            [(0, 100, None), (1, 101, None), (2, None, "easy"), (3, 103, None)],
        )
        conn.execute("INSERT INTO table_messages VALUES (7, 'deal', 555)")
        conn.execute("INSERT INTO matches VALUES (3, 7, 0, 42, 'cancelled', 1, 2)")
        conn.execute("INSERT INTO matches VALUES (4, 7, 0, 43, 'playing', 3, NULL)")
        for match_id in (3, 4):
            conn.executemany(
                "INSERT INTO match_seats VALUES (?, ?, ?, ?, ?)",
                [
                    (match_id, 0, NAMES[0], 100, None),
                    (match_id, 1, NAMES[1], 101, None),
                    (match_id, 2, NAMES[2], None, "easy"),
                    (match_id, 3, NAMES[3], 103, None),
                ],
            )
        seq = 0
        while len(match.deals) < 3 or not match.deals[-1].is_done:
            if match.to_act is None:
                deal = match.deal_random(rng)
                conn.execute(
                    "INSERT INTO deals VALUES (4, ?, ?, 9)",
                    (len(match.deals) - 1, encode_hands(deal.hands)),
                )
                continue
            seat, action = match.to_act, rng.choice(match.legal_actions())
            conn.execute(
                "INSERT INTO actions VALUES (4, ?, ?, ?, ?, ?, 0, 10)",
                (seq, len(match.deals) - 1, seat, *encode_action(action)),
            )
            match.apply(action)
            seq += 1
    return match


TABLE_IN_PLAY = (
    "INSERT INTO tables (table_id, guild_id, channel_id, host_id, status, turn_seconds, "
    "computer_level, created_at, updated_at) VALUES (7, 1, 10, 100, 'playing', 60, 'easy', 5, 6)"
)
"""Table 7 in play, in the columns every schema has."""


async def takes_any_step_but_keeps_its_rows(database: Path | str) -> None:
    """After migration 13: the last line kept at schema 12 is still there, a step past 14
    is kept, and a negative one is refused (the database given holds :data:`TABLE_IN_PLAY`
    with its last line at deal 3, step 14)."""
    async with await open_store(database) as store:
        assert await store.delivery.last_posted(7) == (3, 14)
        await store.delivery.set_posted(7, 3, 15)
        assert await store.delivery.last_posted(7) == (3, 15)
        with pytest.raises(ConstraintFailed) as refused:
            await store.delivery.set_posted(7, 4, -1)
        assert refused.value.kind == "check"
        assert await store.delivery.last_posted(7) == (3, 15)
        assert await store.integrity_problems() == []


LATE = migrations_module.MIGRATIONS[-2]
"""The migration below the latest, played as one merged after it (the two independent)."""


def without_the_late_migration() -> tuple[Migration, ...]:
    """The migrations as a bot had them before :data:`LATE` was merged."""
    return tuple(m for m in migrations_module.MIGRATIONS if m is not LATE)
