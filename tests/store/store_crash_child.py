"""The crash test's child: plays matches at full speed and reports each acknowledged write.

``python -m tests.store.store_crash_child DATABASE SEED`` (from the repository root).
Several tables play concurrently on one store, resuming whatever the database holds (as
the bot does after a restart). A line is written to stdout only after the store call
returned, so every line is a promise the parent can check after killing this process
at a random moment:

    ready             the store is open
    M match           a match was created
    D match deal      a deal was stored
    A match seq       an action was stored
    F match           a match was finished (results and standings stored)
    C match           a match was cancelled
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import Sequence

from bot.engine import Match, from_record
from bot.store import (
    Computer,
    Human,
    RatedPlayer,
    Rating,
    SeatOccupant,
    Store,
    TableStatus,
    open_store,
)
from tests.store.store_helpers import actions_taken

NAMES = ("Ann", "Bob", "Cas", "Dirk")
CHANNELS = (1, 2, 3, 4, 5)


def say(line: str) -> None:
    os.write(1, f"{line}\n".encode())


def rater(players: Sequence[RatedPlayer]) -> dict[int, Rating]:
    return {p.user_id: Rating(mu=25.0 - p.rank, sigma=8.0) for p in players}


async def table_loop(store: Store, channel: int, rng: random.Random) -> None:
    while True:
        table = await store.tables.table_in_channel(channel)
        if table is None:
            table = await store.tables.create_table(1, channel, host_id=channel)
        if None in table.seats:  # also a lobby left half set up by the last kill
            seats: dict[int, SeatOccupant | None] = {
                seat: Computer("easy") if seat == channel % 4 else Human(100 * channel + seat)
                for seat in range(4)
            }
            table = await store.tables.update_table(
                table.table_id, seats=seats, status=TableStatus.PLAYING
            )
        if table.match_id is None:
            info = await store.matches.create_match(
                table.table_id, NAMES, first_dealer=rng.randrange(4), seed=rng.randrange(2**32)
            )
            match_id, match = info.match_id, Match(NAMES, first_dealer=info.first_dealer)
            say(f"M {match_id}")
        else:
            match_id = table.match_id
            match = from_record(await store.matches.load_record(match_id))
        while not match.is_over:
            if match.to_act is None:
                if match.deals and rng.random() < 0.03:
                    await store.matches.cancel_match(match_id)
                    say(f"C {match_id}")
                    break
                deal = match.deal_random(rng)
                await store.matches.append_deal(match_id, len(match.deals) - 1, deal.hands)
                say(f"D {match_id} {len(match.deals) - 1}")
                continue
            seat, seq = match.to_act, actions_taken(match)
            action = rng.choice(match.legal_actions())
            await store.matches.append_action(
                match_id, seq, seat, action, by_computer=rng.random() < 0.1
            )
            say(f"A {match_id} {seq}")
            match.apply(action)
        else:
            await store.matches.finish_match(match_id, rater=rater)
            say(f"F {match_id}")
        status = TableStatus.FINISHED if match.is_over else TableStatus.CANCELLED
        await store.tables.update_table(table.table_id, status=status)


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    store = await open_store(path)
    say("ready")
    await asyncio.gather(*(table_loop(store, channel, rng) for channel in CHANNELS))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
