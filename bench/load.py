"""Table service load benchmark: ``python bench/load.py [--tables 500]``.

Runs N tables at once through the real table service and the real SQLite store (in a
temporary folder), with computer players at zero pacing, and prints three figures:

1. Actions per second: every choice, double and card accepted by all tables together
   during the measured window (each one validated, stored in its own committed
   transaction, applied and announced). A table whose match ends is replaced by a new
   one in its channel, so N tables play throughout.
2. Latency of one human-style action (target p99 <= 50 ms at 500 tables): ``--probes``
   of the N tables seat one human, whose moves the benchmark makes itself with random
   legal actions as soon as it is their turn; the time of each ``TableService.act``
   call (lock, validate, store, apply, announce) is measured while the other tables run.
3. Memory per table (target <= 256 KB): tracemalloc's count of the bytes held after
   ``--memory-tables`` all-computer tables have each played ten deals and sit at the
   start of the last one (the most a match holds), divided by the number of tables. The
   process's resident-size growth during the load run, divided by N, is printed too.

``--computer-level hard`` (or easy, normal) lets the real players decide through the
real :class:`~bot.players.pool.PlayerPool` at the default budget instead of random legal
moves, and prints each computer decision's time (waiting for a worker and thinking): a
saturated pool hands out shorter budgets instead of queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

from bot.engine import Action, SeatView
from bot.players.pool import DEFAULT_BUDGET, PlayerPool
from bot.store import TableSettings, open_store
from bot.tables import Refusal, TableService
from bot.tables import events as ev
from bot.tables import service as service_module
from bot.tables.computers import Decider, random_decider

sys.path.insert(
    0, str(Path(__file__).resolve().parent.parent)
)  # the repository, for tests.postgres_server
from tests.postgres_server import PostgresServer, find_bindir

HUMAN = 10**9  # the probe humans' user ids start here
MEMORY_GUILD, MEMORY_CHANNELS = 10**6, 10**7  # apart from the load run's tables
# turn timers never fire during the run
SETTINGS = TableSettings(turn_seconds=3600, computer_level="easy")


def rss_kb() -> int:
    """The resident set size now, in KB (Linux: from /proc; else the peak)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() // 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Load:
    """The publish callback: counts actions, wakes the probe humans, refills channels."""

    def __init__(self, probes: set[int]) -> None:
        self.service: TableService | None = None
        self.actions = 0
        self.matches = 0
        self.probe_channels = probes
        self.turn_for: dict[int, asyncio.Event] = {c: asyncio.Event() for c in probes}
        self.reopen: asyncio.Queue[int] = asyncio.Queue()

    async def __call__(self, event: ev.Event, view: object) -> None:
        if isinstance(event, ev.ContractChosen | ev.Doubled | ev.CardPlayed):
            self.actions += 1
        elif isinstance(event, ev.TurnStarted):
            if event.channel_id in self.probe_channels and event.seat == 0:
                self.turn_for[event.channel_id].set()
        elif isinstance(event, ev.TableClosed):
            self.matches += 1
            self.reopen.put_nowait(event.channel_id)


async def open_and_start(service: TableService, guild: int, channel: int, probe: bool) -> None:
    user = HUMAN + channel
    await service.open_table(guild, channel, user, f"probe{channel}", SETTINGS, host_seated=probe)
    await service.start(channel, user)


async def probe(
    service: TableService,
    load: Load,
    channel: int,
    rng: random.Random,
    latencies: list[float],
    stop: asyncio.Event,
) -> None:
    """The human at seat 0 of this channel's table: acts whenever it is their turn."""
    user = HUMAN + channel
    ready = load.turn_for[channel]
    while not stop.is_set():
        ready.clear()
        view = service.table_in_channel(channel)
        if view is not None and view.to_act == 0 and view.seats[0].user_id == user:
            seat_view, turn = service.hand(view.table_id, user)
            action = rng.choice(seat_view.legal)
            began = time.perf_counter()
            try:
                await service.act(view.table_id, user, turn, action)
            except Refusal:
                continue
            latencies.append(time.perf_counter() - began)
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), timeout=0.05)


async def refill(service: TableService, load: Load, guild: int, stop: asyncio.Event) -> None:
    """A channel whose match ended gets a new table at once, so N tables keep playing."""
    pending: set[asyncio.Task[None]] = set()
    try:
        while not stop.is_set():
            channel = await load.reopen.get()
            probe = channel in load.probe_channels
            task = asyncio.create_task(open_and_start(service, guild, channel, probe))
            pending.add(task)
            task.add_done_callback(pending.discard)
    finally:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


@dataclass(frozen=True)
class Share:
    """One process's part of the load: its tables' channels, those with a probe human,
    and its guild (processes on one database play different guilds, as shards do)."""

    database: str
    channels: range
    probes: frozenset[int]
    guild: int
    seconds: float
    warmup: float
    computer_level: str | None = None
    """Computers decide at this level through the player pool; None: random moves."""


async def load_run(share: Share, barrier: Barrier | None = None) -> dict[str, Any]:
    """Play ``share``'s tables; measure for ``share.seconds`` once every process is ready
    (``barrier``), so the processes' windows overlap."""
    store = await open_store(share.database)
    gc.collect()
    rss_before = rss_kb()
    load = Load(set(share.probes))
    decide, pool = random_decider, None
    decisions: list[tuple[float, float]] = []
    if share.computer_level is not None:
        pool = PlayerPool()
        decide = timed_decider(pool, share.computer_level, decisions)
    service = TableService(store, load, decide=decide, pace=0, rng=random.Random(share.guild))
    load.service = service
    stop = asyncio.Event()
    latencies: list[float] = []
    rng = random.Random(2 + share.guild)
    # Open every table first, then start them all at once.
    await asyncio.gather(
        *(
            service.open_table(
                share.guild, c, HUMAN + c, f"probe{c}", SETTINGS, host_seated=c in share.probes
            )
            for c in share.channels
        )
    )
    await asyncio.gather(*(service.start(c, HUMAN + c) for c in share.channels))
    workers = [asyncio.create_task(refill(service, load, share.guild, stop))]
    workers += [
        asyncio.create_task(probe(service, load, channel, rng, latencies, stop))
        for channel in sorted(share.probes)
    ]
    await asyncio.sleep(share.warmup)
    if barrier is not None:
        await asyncio.to_thread(barrier.wait)
    latencies.clear()
    decisions.clear()  # as the human latencies: after the warm-up only
    actions_before, began = load.actions, time.perf_counter()
    running = [len(service.registry.all())]
    while (elapsed := time.perf_counter() - began) < share.seconds:
        await asyncio.sleep(min(0.5, share.seconds - elapsed))
        running.append(len(service.registry.all()))
    actions = load.actions - actions_before
    rss_after = rss_kb()
    stop.set()
    await service.close()
    for worker in workers:
        worker.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
    await store.close()
    if pool is not None:
        pool.close()
    return {
        "decisions": [took for start, took in decisions if start >= began],
        "actions": actions,
        "elapsed": elapsed,
        "latencies": latencies,
        "matches_finished": load.matches,
        "tables_min": min(running),
        "tables_max": max(running),
        "rss_kb": rss_after - rss_before,
    }


def share_worker(share: Share, barrier: Barrier, results: Queue[dict[str, Any]]) -> None:
    """One bot-like process of a multi-process run (spawned, so nothing is shared)."""
    results.put(asyncio.run(load_run(share, barrier)))


def run_processes(shares: list[Share]) -> list[dict[str, Any]]:
    """Each share in its own process, measured over the same window."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(shares))
    results: Queue[dict[str, Any]] = context.Queue()
    processes = [
        context.Process(target=share_worker, args=(share, barrier, results)) for share in shares
    ]
    for process in processes:
        process.start()
    figures = [results.get() for _ in processes]
    for process in processes:
        process.join()
    return figures


def combined(parts: list[dict[str, Any]], tables: int) -> dict[str, float]:
    """The processes' figures as one bot's: actions added up, latencies pooled."""
    latencies = sorted(latency for part in parts for latency in part["latencies"])
    decisions = sorted(took for part in parts for took in part["decisions"])
    return {
        "decisions": len(decisions),
        "decision_p50_ms": 1000 * statistics.median(decisions) if decisions else float("nan"),
        "decision_p95_ms": (
            1000 * decisions[int(0.95 * (len(decisions) - 1))] if decisions else float("nan")
        ),
        "decision_max_ms": 1000 * decisions[-1] if decisions else float("nan"),
        "actions_per_s": sum(part["actions"] / part["elapsed"] for part in parts),
        "human_actions": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "max_ms": 1000 * latencies[-1] if latencies else float("nan"),
        "matches_finished": sum(part["matches_finished"] for part in parts),
        "tables_min": sum(part["tables_min"] for part in parts),
        "tables_max": sum(part["tables_max"] for part in parts),
        "rss_kb_per_table": sum(part["rss_kb"] for part in parts) / tables,
    }


def shares(database: str, args: argparse.Namespace, processes: int) -> list[Share]:
    """The tables split over ``processes``, each with its guild and its probe humans."""
    per = -(-args.tables // processes)
    probes_per = -(-args.probes // processes)
    made = []
    for index in range(processes):
        channels = range(1 + index * per, 1 + min(args.tables, (index + 1) * per))
        made.append(
            Share(
                database,
                channels,
                frozenset(channels[:probes_per]),
                index + 1,
                args.seconds,
                args.warmup,
                args.computer_level,
            )
        )
    return made


async def memory_run(tables: int, database: str) -> float:
    """Bytes held per table once each has played ten deals and waits in the last one."""
    parked = 0
    all_parked = asyncio.Event()
    forever = asyncio.Event()

    async def decide(level: str, view: SeatView, seed: int) -> Action:
        nonlocal parked
        if view.deal_number == 11:
            parked += 1
            if parked == tables:
                all_parked.set()
            await forever.wait()
        return await random_decider(level, view, seed)

    async def publish(event: ev.Event, view: object) -> None:
        pass

    store = await open_store(database)
    service = TableService(store, publish, decide=decide, pace=0, rng=random.Random(3))
    gc.collect()
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    for channel in range(MEMORY_CHANNELS, MEMORY_CHANNELS + tables):
        await service.open_table(MEMORY_GUILD, channel, 1, "host", SETTINGS, host_seated=False)
        await service.start(channel, 1)
    await all_parked.wait()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - baseline
    tracemalloc.stop()
    await service.close()
    await store.close()
    return held / tables


def measure(database: str, processes: int, args: argparse.Namespace) -> dict[str, float]:
    """The load run on ``database`` from ``processes`` processes, then the memory run."""
    if args.computer_writes is not None:
        service_module.COMPUTER_WRITES = args.computer_writes
    split = shares(database, args, processes)
    parts = [asyncio.run(load_run(split[0]))] if processes == 1 else run_processes(split)
    figures = combined(parts, args.tables)
    figures["memory_per_table"] = asyncio.run(memory_run(args.memory_tables, database))
    return figures


ROWS = (
    ("acknowledged actions per second, all tables", lambda f: f"{f['actions_per_s']:,.0f}"),
    ("human action latency p50", lambda f: f"{f['p50_ms']:.1f} ms"),
    ("human action latency p99 (target <= 50 ms)", lambda f: f"{f['p99_ms']:.1f} ms"),
    ("human action latency max", lambda f: f"{f['max_ms']:.1f} ms"),
    ("human actions measured", lambda f: f"{f['human_actions']:,.0f}"),
    ("matches finished in the window", lambda f: f"{f['matches_finished']:,.0f}"),
    ("tables playing during the window", lambda f: f"{f['tables_min']:.0f}-{f['tables_max']:.0f}"),
    ("resident size growth per table", lambda f: f"{f['rss_kb_per_table']:.0f} KB"),
    (
        "memory per table, tracemalloc (target <= 256 KB)",
        lambda f: f"{f['memory_per_table'] / 1024:.0f} KB",
    ),
)


DECISION_ROWS = (
    ("computer decisions through the pool", lambda f: f"{f['decisions']:,.0f}"),
    (
        "decision wait and think p50 / p95 / max",
        lambda f: (
            f"{f['decision_p50_ms']:.1f} / {f['decision_p95_ms']:.1f} / "
            f"{f['decision_max_ms']:.0f} ms"
        ),
    ),
)


def report(columns: dict[str, dict[str, float]], computer_level: str | None) -> None:
    """The figures side by side, a column a backend."""
    rows = ROWS if computer_level is None else ROWS + DECISION_ROWS
    width = max(len(label) for label, _ in rows)
    cells = {name: [show(figures) for _, show in rows] for name, figures in columns.items()}
    sizes = {name: max(len(name), *(len(cell) for cell in cells[name])) for name in columns}
    print("  ".join([" " * width, *(name.rjust(sizes[name]) for name in columns)]))
    for row, (label, _) in enumerate(rows):
        line = [label.ljust(width), *(cells[name][row].rjust(sizes[name]) for name in columns)]
        print("  ".join(line))
    for name, figures in columns.items():
        met = figures["p99_ms"] <= 50 and figures["memory_per_table"] <= 256 * 1024
        print(f"{name}: targets (p99 <= 50 ms, <= 256 KB a table) {'met' if met else 'MISSED'}")


def main(args: argparse.Namespace) -> None:
    what = (
        f"{args.tables} tables ({args.probes} with one human seat), computers at zero pacing; "
        f"{args.warmup:g} s warm-up, {args.seconds:g} s measured"
    )
    columns: dict[str, dict[str, float]] = {}
    if args.backend == "postgres":
        with postgres_database(args.database) as url:
            print(f"{what}; PostgreSQL, {args.processes} processes", flush=True)
            columns[f"postgres, {args.processes} processes"] = measure(url, args.processes, args)
    if args.backend == "sqlite" or args.compare:
        with tempfile.TemporaryDirectory() as folder:
            print(f"{what}; SQLite in {folder}, 1 process", flush=True)
            columns["sqlite, 1 process"] = measure(str(Path(folder) / "load.sqlite3"), 1, args)
    if args.computer_level is not None:
        print(
            f"{args.computer_level} computers decide through the player pool "
            f"(budget {DEFAULT_BUDGET:g} s), one pool a process"
        )
    report(columns, args.computer_level)


@contextlib.contextmanager
def postgres_database(url: str | None) -> Iterator[str]:
    """``url`` (an empty database), or a new one in a throwaway server, with the server's
    usual durability (every commit flushed to disk), stopped afterwards."""
    if url is not None:
        yield url
        return
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL server binaries (initdb, pg_ctl); pass --database URL")
    server = PostgresServer(bindir, durable=True).start()
    try:
        yield server.url()
    finally:
        server.stop()


def timed_decider(pool: PlayerPool, level: str, times: list[tuple[float, float]]) -> Decider:
    """Every computer decides at ``level`` through ``pool``; each decision's start and
    time taken are kept."""

    async def decide(_level: str, view: SeatView, seed: int) -> Action:
        began = time.perf_counter()
        action = await pool.decide(level, view, seed, DEFAULT_BUDGET)
        times.append((began, time.perf_counter() - began))
        return action

    return decide


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--database", help="postgres: an empty database's URL (default: a throwaway server)"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="postgres: bot processes sharing the database"
    )
    parser.add_argument(
        "--compare",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="postgres: also run SQLite in one process, printed beside it",
    )
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--probes", type=int, default=20, help="tables with one human seat")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--memory-tables", type=int, default=50)
    parser.add_argument(
        "--computer-writes",
        type=int,
        default=None,
        help="override the service's bound on computer moves stored at once (to compare)",
    )
    parser.add_argument(
        "--computer-level",
        choices=("easy", "normal", "hard"),
        help="computers decide as this level through the player pool (default: random moves)",
    )
    parsed = parser.parse_args()
    if parsed.backend == "sqlite" and parsed.processes != 1:
        parser.error("SQLite serves one bot process; --processes is for --backend postgres")
    main(parsed)
