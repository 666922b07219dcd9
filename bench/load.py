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
import random
import resource
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.engine import Action, SeatView
from bot.players.pool import DEFAULT_BUDGET, PlayerPool
from bot.store import TableSettings, open_store
from bot.tables import Refusal, TableService
from bot.tables import events as ev
from bot.tables import service as service_module
from bot.tables.computers import Decider, random_decider

HUMAN = 10**9  # the probe humans' user ids start here
SETTINGS = TableSettings(3600, "easy")  # turn timers never fire during the run


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


async def open_and_start(service: TableService, channel: int, probe: bool) -> None:
    user = HUMAN + channel
    await service.open_table(1, channel, user, f"probe{channel}", SETTINGS, host_seated=probe)
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


async def refill(service: TableService, load: Load, stop: asyncio.Event) -> None:
    """A channel whose match ended gets a new table at once, so N tables keep playing."""
    pending: set[asyncio.Task[None]] = set()
    try:
        while not stop.is_set():
            channel = await load.reopen.get()
            probe = channel in load.probe_channels
            task = asyncio.create_task(open_and_start(service, channel, probe))
            pending.add(task)
            task.add_done_callback(pending.discard)
    finally:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


async def load_run(
    tables: int,
    probes: int,
    seconds: float,
    warmup: float,
    folder: Path,
    decide: Decider = random_decider,
) -> dict[str, float]:
    store = await open_store(folder / "load.sqlite3")
    gc.collect()
    rss_before = rss_kb()
    probe_channels = set(range(1, probes + 1))
    load = Load(probe_channels)
    service = TableService(store, load, decide=decide, pace=0, rng=random.Random(1))
    load.service = service
    stop = asyncio.Event()
    latencies: list[float] = []
    rng = random.Random(2)
    # Open every table first, then start them all at once.
    channels = range(1, tables + 1)
    await asyncio.gather(
        *(
            service.open_table(
                1, c, HUMAN + c, f"probe{c}", SETTINGS, host_seated=c in probe_channels
            )
            for c in channels
        )
    )
    await asyncio.gather(*(service.start(c, HUMAN + c) for c in channels))
    workers = [asyncio.create_task(refill(service, load, stop))]
    workers += [
        asyncio.create_task(probe(service, load, channel, rng, latencies, stop))
        for channel in sorted(probe_channels)
    ]
    await asyncio.sleep(warmup)
    latencies.clear()
    actions_before, began = load.actions, time.perf_counter()
    running = [len(service.tables())]
    while (elapsed := time.perf_counter() - began) < seconds:
        await asyncio.sleep(min(0.5, seconds - elapsed))
        running.append(len(service.tables()))
    actions = load.actions - actions_before
    rss_after = rss_kb()
    stop.set()
    await service.close()
    for worker in workers:
        worker.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
    await store.close()
    latencies.sort()
    return {
        "actions_per_s": actions / elapsed,
        "human_actions": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "max_ms": 1000 * latencies[-1] if latencies else float("nan"),
        "matches_finished": load.matches,
        "tables_min": min(running),
        "tables_max": max(running),
        "rss_kb_per_table": (rss_after - rss_before) / tables,
    }


async def memory_run(tables: int, folder: Path) -> float:
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

    store = await open_store(folder / "memory.sqlite3")
    service = TableService(store, publish, decide=decide, pace=0, rng=random.Random(3))
    gc.collect()
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    for channel in range(1, tables + 1):
        await service.open_table(1, channel, 1, "host", SETTINGS, host_seated=False)
        await service.start(channel, 1)
    await all_parked.wait()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - baseline
    tracemalloc.stop()
    await service.close()
    await store.close()
    return held / tables


async def main(args: argparse.Namespace) -> None:
    if args.computer_writes is not None:
        service_module.COMPUTER_WRITES = args.computer_writes
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(
            f"{args.tables} tables ({args.probes} with one human seat), computers at zero "
            f"pacing, real SQLite store in {folder}; {args.warmup:g} s warm-up, "
            f"{args.seconds:g} s measured",
            flush=True,
        )
        decide, pool = random_decider, None
        decisions: list[tuple[float, float]] = []
        began = time.perf_counter()
        if args.computer_level:
            pool = PlayerPool()
            decide = timed_decider(pool, args.computer_level, decisions)
        figures = await load_run(
            args.tables, args.probes, args.seconds, args.warmup, folder, decide
        )
        if pool is not None:
            pool.close()
            measured = began + args.warmup  # as the human latencies: after the warm-up
            took = sorted(t for start, t in decisions if start >= measured)
            print(
                f"{args.computer_level} computer decisions through the pool ({pool.workers} "
                f"workers, budget {DEFAULT_BUDGET:g} s): {len(took)}, wait and think "
                f"p50 {1000 * statistics.median(took):.1f} ms, "
                f"p95 {1000 * took[int(0.95 * (len(took) - 1))]:.1f} ms, "
                f"max {1000 * took[-1]:.1f} ms"
            )
        print(f"actions per second (all tables): {figures['actions_per_s']:,.0f}")
        print(
            f"matches finished: {figures['matches_finished']}; tables playing during the "
            f"window: {figures['tables_min']}-{figures['tables_max']}"
        )
        ok = figures["p99_ms"] <= 50
        print(
            f"human action latency over {figures['human_actions']} actions: "
            f"p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms "
            f"(max {figures['max_ms']:.1f} ms); target p99 <= 50 ms: "
            f"{'met' if ok else 'MISSED'}"
        )
        print(f"resident size growth per table: {figures['rss_kb_per_table']:.0f} KB")
        per_table = await memory_run(args.memory_tables, folder)
        ok = per_table <= 256 * 1024
        print(
            f"memory per table ({args.memory_tables} tables parked in their last deal, "
            f"tracemalloc): {per_table / 1024:.0f} KB; target <= 256 KB: "
            f"{'met' if ok else 'MISSED'}"
        )


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
    asyncio.run(main(parser.parse_args()))
