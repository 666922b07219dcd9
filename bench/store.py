"""Store benchmark: ``python bench/store.py`` prints three figures against their targets.

``--backend postgres`` measures the PostgreSQL backend instead of SQLite: on the server
``--server`` names (a URL of a database the bench may CREATE DATABASE from), or on a
throwaway server it starts from the installed binaries with PostgreSQL's default
durability. The issue's figure: ``--backend postgres --players 100000 --finished 1000000``.

1. Acknowledged actions per second with 500 matches appending concurrently from one
   process (target >= 2,000/s). Every action is its own committed transaction; the
   random legal games are generated before the clock starts, so this times the store.
2. A season leaderboard page at 10,000 players and 100,000 finished matches (target
   <= 50 ms), for every sort, first and middle pages, with the viewer's own rank. The
   fixture is bulk-loaded; the timed part is the real ``StandingsStore.leaderboard``.
3. Database bytes per finished match: complete matches played and finished through the
   real API, file size after a checkpoint, divided by the number of matches.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.engine import Action, Card, Match
from bot.store import Human, LeaderboardSort, SeatResult, Store, open_store
from bot.store.bulk import add_finished_matches

sys.path.insert(
    0, str(Path(__file__).resolve().parents[1])
)  # the repository, for tests.postgres_server
from tests.postgres_server import PostgresServer, find_bindir

BULK_BATCH = 100_000
"""Finished matches per bulk transaction, so a million never sit in memory at once."""


class Backend:
    """Where each part's database lives: a file in ``folder``, or a PostgreSQL database
    created on ``server`` (a URL of a database to connect to for CREATE DATABASE)."""

    def __init__(self, folder: Path, server: str | None, keep: bool = False) -> None:
        self.folder = folder
        self.server = server
        self.keep = keep
        self.made: list[str] = []

    def target(self, name: str) -> Path | str:
        if self.server is None:
            return self.folder / f"{name}.sqlite3"
        base, _, query = self.server.partition("?")
        return f"{base.rsplit('/', 1)[0]}/bench_{name}{'?' + query if query else ''}"

    async def create(self, name: str) -> Path | str:
        if self.server is not None:
            await self._admin(f"DROP DATABASE IF EXISTS bench_{name}")
            await self._admin(f"CREATE DATABASE bench_{name}")
            self.made.append(name)
        return self.target(name)

    async def exists(self, name: str) -> bool:
        """Whether a database kept by an earlier run (``--keep``) is there to reuse."""
        if self.server is None:
            return Path(self.target(name)).exists()
        conn = await asyncpg.connect(self.server)
        try:
            found = await conn.fetchval(
                "SELECT 1 FROM pg_database WHERE datname = $1", f"bench_{name}"
            )
        finally:
            await conn.close()
        return found is not None

    async def size(self, store: Store, name: str) -> int:
        """The database's bytes on disk (SQLite: the file after a checkpoint)."""
        if self.server is None:
            return Path(self.target(name)).stat().st_size
        (row,) = await store.db.write_one("SELECT pg_database_size(current_database()) AS size")
        return int(row["size"])

    async def settle(self, store: Store) -> None:
        """After a bulk load: what autovacuum would soon do on a real server (statistics,
        and the visibility map that lets a count read the index alone)."""
        if self.server is not None:
            await store.db.write_one("VACUUM ANALYZE")

    async def drop_all(self) -> None:
        if self.keep:
            return
        for name in self.made:
            await self._admin(f"DROP DATABASE IF EXISTS bench_{name} WITH (FORCE)")

    async def _admin(self, statement: str) -> None:
        assert self.server is not None
        conn = await asyncpg.connect(self.server)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()


@contextlib.asynccontextmanager
async def backend(
    name: str, server: str | None, folder: Path, keep: bool
) -> AsyncIterator[Backend]:
    if name == "sqlite":
        yield Backend(folder, None)
        return
    started = None
    if server is None:
        bindir = find_bindir()
        if bindir is None:
            raise SystemExit("no PostgreSQL server binaries: pass --server URL")
        started = PostgresServer(bindir, durable=True).start()
        server = started.url()
    made = Backend(folder, server, keep)
    try:
        yield made
    finally:
        await made.drop_all()
        if started is not None:
            started.stop()


@dataclass(frozen=True, slots=True)
class Dealt:
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Acted:
    seat: int
    action: Action


Step = Dealt | Acted


def scripted_match(rng: random.Random) -> list[Step]:
    """A random legal complete match as the store sees it: deals and (seat, action)s."""
    match = Match(("A", "B", "C", "D"))
    steps: list[Step] = []
    while not match.is_over:
        if match.to_act is None:
            steps.append(Dealt(match.deal_random(rng).hands))
            continue
        step = Acted(match.to_act, rng.choice(match.legal_actions()))
        match.apply(step.action)
        steps.append(step)
    return steps


async def start_matches(store: Store, count: int, first_user: int) -> list[int]:
    """``count`` tables of four humans, each with a match in play."""
    ids = []
    for n in range(count):
        table = await store.tables.create_table(1, 10_000 + first_user + n, first_user + 4 * n)
        seats = {seat: Human(first_user + 4 * n + seat) for seat in range(4)}
        await store.tables.update_table(table.table_id, seats=seats)
        info = await store.matches.create_match(table.table_id, ["A", "B", "C", "D"])
        ids.append(info.match_id)
    return ids


async def play(store: Store, match_id: int, steps: list[Step], finish: bool) -> int:
    """Store every step as the table service would; return the actions acknowledged."""
    deals = actions = 0
    for step in steps:
        if isinstance(step, Dealt):
            await store.matches.append_deal(match_id, deals, step.hands)
            deals += 1
        else:
            await store.matches.append_action(match_id, actions, step.seat, step.action)
            actions += 1
    if finish:
        await store.matches.finish_match(match_id)
    return actions


async def throughput(where: Backend, matches: int, deals: int) -> float:
    rng = random.Random(1)
    scripts = []
    for _ in range(matches):
        steps = scripted_match(rng)
        dealt = [i for i, step in enumerate(steps) if isinstance(step, Dealt)]
        scripts.append(steps[: dealt[deals]] if deals < len(dealt) else steps)
    async with await open_store(await where.create("throughput")) as store:
        ids = await start_matches(store, matches, 1)
        start = time.perf_counter()
        counts = await asyncio.gather(
            *(play(store, mid, steps, False) for mid, steps in zip(ids, scripts, strict=True))
        )
        elapsed = time.perf_counter() - start
    return sum(counts) / elapsed


async def bytes_per_match(where: Backend, matches: int) -> tuple[float, float]:
    rng = random.Random(2)
    scripts = [scripted_match(rng) for _ in range(matches)]
    target = await where.create("bytes")
    async with await open_store(target) as store:
        # PostgreSQL's empty database already has megabytes of catalogue: not the matches'.
        empty = 0 if where.server is None else await where.size(store, "bytes")
        ids = await start_matches(store, matches, 1)
        counts = await asyncio.gather(
            *(play(store, mid, steps, True) for mid, steps in zip(ids, scripts, strict=True))
        )
        if where.server is not None:
            await store.db.write_one("CHECKPOINT")
            size = await where.size(store, "bytes")
    if where.server is None:
        size = await where.size(store, "bytes")
    return (size - empty) / matches, sum(counts) / matches


async def leaderboard(
    where: Backend, players: int, finished: int, reuse: bool
) -> dict[str, list[float]]:
    reused = reuse and await where.exists("leaderboard")
    target = where.target("leaderboard") if reused else await where.create("leaderboard")
    async with await open_store(target) as store:
        if not reused:
            await _load(store, players, finished)
            await where.settle(store)
        season = await store.seasons.season_named(1, "Bench")
        assert season is not None
        timings: dict[str, list[float]] = {}
        for sort in LeaderboardSort:
            if sort is LeaderboardSort.RATING:
                continue  # no ratings in the fixture: measured below once they exist
            timings[sort.value] = await _time_pages(store, season.season_id, sort, players)
        await store.db.write_one(
            "UPDATE season_players SET rating_mu = 25 + (user_id % 97) / 10.0, rating_sigma = 3"
        )
        await where.settle(store)
        timings["rating"] = await _time_pages(
            store, season.season_id, LeaderboardSort.RATING, players
        )
    return timings


async def _load(store: Store, players: int, finished: int) -> None:
    """The fixture: ``finished`` random matches of four of ``players`` humans, bulk-loaded."""
    rng = random.Random(3)
    table = await store.tables.create_table(1, 1, 1)
    season = await store.seasons.start_season(1, "Bench")
    batch: list[list[SeatResult]] = []
    for n in range(finished):
        users = rng.sample(range(1, players + 1), 4)
        points = [rng.randrange(-40, 41) * 5 for _ in range(3)]
        points.append(-sum(points))
        ranks = [1 + sum(other > mine for other in points) for mine in points]
        batch.append(
            [
                SeatResult(
                    seat=seat,
                    name=f"P{user}",
                    occupant=Human(user),
                    points=points[seat],
                    rank=ranks[seat],
                    deal_points=(),
                    takeovers=0,
                )
                for seat, user in enumerate(users)
            ]
        )
        if len(batch) == BULK_BATCH or n == finished - 1:
            await add_finished_matches(store.db, table.table_id, season.season_id, batch)
            batch = []


async def _time_pages(
    store: Store, season_id: int, sort: LeaderboardSort, players: int
) -> list[float]:
    times = []
    for offset in (0, players // 2, players - 10) * 5:
        start = time.perf_counter()
        page = await store.standings.leaderboard(
            season_id, sort, offset=offset, limit=10, viewer=players // 3
        )
        times.append((time.perf_counter() - start) * 1000)
        assert page.players == players and page.viewer is not None
    return times


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500, help="concurrent matches")
    parser.add_argument("--deals", type=int, default=3, help="deals each plays (11 = all)")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--complete", type=int, default=100, help="matches for bytes/match")
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--server",
        help="postgres: a URL the bench connects to to create its databases "
        "(default: a throwaway server from the installed binaries)",
    )
    parser.add_argument(
        "--only", choices=("throughput", "leaderboard", "bytes"), help="run one part only"
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="postgres with --server: keep the bench databases for a later --reuse",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="postgres with --server: time the leaderboard kept by an earlier --keep run "
        "(same --players) instead of loading it again",
    )
    args = parser.parse_args()
    if (args.keep or args.reuse) and args.server is None:
        parser.error("--keep and --reuse need --backend postgres --server URL")
    with tempfile.TemporaryDirectory() as tmp:
        async with backend(args.backend, args.server, Path(tmp), args.keep) as where:
            await _run(args, where)


async def _run(args: argparse.Namespace, where: Backend) -> None:
    print(f"backend: {args.backend}")
    if args.only in (None, "throughput"):
        rate = await throughput(where, args.matches, args.deals)
        print(
            f"actions/s, {args.matches} matches appending concurrently: {rate:,.0f} "
            f"(target >= 2,000) {'OK' if rate >= 2000 else 'MISSED'}"
        )
    if args.only in (None, "leaderboard"):
        start = time.perf_counter()
        timings = await leaderboard(where, args.players, args.finished, args.reuse)
        worst = max(max(t) for t in timings.values())
        print(f"fixture loaded and pages timed in {time.perf_counter() - start:.0f} s")
        for sort, times in timings.items():
            print(
                f"leaderboard by {sort}, {args.players:,} players / {args.finished:,} matches: "
                f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms"
            )
        verdict = "OK" if worst <= 50 else "MISSED"
        print(f"leaderboard worst case {worst:.1f} ms (target <= 50) {verdict}")
    if args.only in (None, "bytes"):
        size, actions = await bytes_per_match(where, args.complete)
        print(
            f"database bytes per finished match: {size:,.0f} "
            f"({args.complete} complete matches, {actions:.0f} actions each on average)"
        )


if __name__ == "__main__":
    asyncio.run(main())
