"""Crash benchmark for bot processes sharing PostgreSQL: ``python bench/crash.py``.

Starts a throwaway PostgreSQL server (durable: every commit flushed) and ``--processes``
bot-like worker processes, each driving the tables of its own guild (as a shard does)
with computers at zero pacing through the real table service and store. Under that load:

1. an *intruder*, a second process for worker 0's guild, starts while worker 0 lives: it
   must restore (and so drive) none of its tables, since their claims are alive;
2. worker 0 is killed with SIGKILL mid-match and started again at once (a new process
   with a new owner id, as Docker's restart would): it must resume every table it owned;
3. every process is stopped with SIGTERM and the action log is checked:

- zero acknowledged actions lost: every action a worker's store acknowledged (the
  ``append_action`` call returned, so the bot would have announced it) is stored;
- no table was ever driven by two processes: along each match's actions, the process
  that stored them (``actions.driver``) changes only from a dead owner to its successor,
  never back and forth, and only to a process serving that table's guild.

It prints the figures and exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncpg

sys.path.insert(
    0, str(Path(__file__).resolve().parent.parent)
)  # the repository, for tests.postgres_server
from bot.engine import Action
from bot.store import StoreError, TableSettings, open_store
from bot.tables import Refusal, TableService
from bot.tables import events as ev
from tests.postgres_server import PostgresServer, find_bindir

SETTINGS = TableSettings(turn_seconds=3600, computer_level="easy")


# -- a worker: one bot-like process ------------------------------------------------------


async def work(url: str, guild: int, tables: int, log_folder: Path, intruder: bool) -> None:
    """Drive ``guild``'s tables until SIGTERM: restore what is open, open what is not,
    and refill a channel whose match ended. Each acknowledged action is logged."""
    store = await open_store(url)
    owner = store.claims.owner
    acks = os.open(log_folder / f"acks-{owner}", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    (log_folder / f"owner-{owner}").write_text(f"{guild}\n")
    append = store.matches.append_action

    async def logged(match_id: int, seq: int, seat: int, action: Action, **kw: bool) -> None:
        await append(match_id, seq, seat, action, **kw)
        os.write(acks, f"{match_id} {seq}\n".encode())  # after the commit: acknowledged

    store.matches.append_action = logged  # type: ignore[method-assign]
    stop = asyncio.Event()
    reopen: asyncio.Queue[int] = asyncio.Queue()

    async def publish(event: ev.Event, view: object) -> None:
        if isinstance(event, ev.TableClosed) and not intruder:
            reopen.put_nowait(event.channel_id)

    service = TableService(
        store, publish, pace=0, rng=random.Random(owner), owns_guild=lambda g: g == guild
    )
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    restored = await service.restore()
    (log_folder / f"restored-{owner}").write_text(f"{restored}\n")

    async def open_and_start(channel: int) -> None:
        try:
            await service.open_table(guild, channel, channel, "host", SETTINGS, host_seated=False)
            await service.start(channel, channel)
        except (Refusal, StoreError) as error:
            print(f"channel {channel}: {error}", file=sys.stderr)

    async def refill() -> None:
        while True:
            await open_and_start(await reopen.get())

    if not intruder:  # every channel of the guild gets a table, all at once
        channels = {guild * 100_000 + c for c in range(tables)}
        open_now = {view.channel_id for view in service.tables()}
        await asyncio.gather(*(open_and_start(c) for c in sorted(channels - open_now)))
    (log_folder / f"ready-{owner}").write_text(f"{len(service.tables())}\n")
    filler = asyncio.create_task(refill())
    await stop.wait()
    filler.cancel()
    await service.close()
    await store.claims.release_all()
    await store.close()
    os.close(acks)


# -- the controller ----------------------------------------------------------------------


def start_worker(
    url: str, guild: int, tables: int, folder: Path, *, intruder: bool = False
) -> subprocess.Popen[bytes]:
    argv = [sys.executable, __file__, "--worker", str(guild), "--url", url]
    argv += ["--tables", str(tables), "--folder", str(folder)]
    return subprocess.Popen([*argv, *(["--intruder"] if intruder else [])])


async def check(url: str, folder: Path, killed: int) -> dict[str, int]:
    guild_of = owners(folder)
    acknowledged: set[tuple[int, int]] = set()
    for path in folder.glob("acks-*"):
        for line in path.read_text().splitlines():
            match_id, seq = line.split()
            acknowledged.add((int(match_id), int(seq)))
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT a.match_id, a.seq, a.driver, t.guild_id FROM actions a "
            "JOIN matches m ON m.match_id = a.match_id JOIN tables t ON t.table_id = m.table_id "
            "ORDER BY a.match_id, a.seq"
        )
        playing = {
            row["match_id"]
            for row in await conn.fetch("SELECT match_id FROM matches WHERE status = 'playing'")
        }
    finally:
        await conn.close()
    stored = {(row["match_id"], row["seq"]) for row in rows}
    runs: dict[int, list[int]] = collections.defaultdict(list)
    wrong_guild = 0
    for row in rows:
        drivers = runs[row["match_id"]]
        if not drivers or drivers[-1] != row["driver"]:
            drivers.append(row["driver"])
        wrong_guild += guild_of.get(row["driver"]) != row["guild_id"]
    interleaved = sum(len(drivers) != len(set(drivers)) for drivers in runs.values())
    return {
        "actions stored": len(stored),
        "actions acknowledged": len(acknowledged),
        "acknowledged but lost": len(acknowledged - stored),
        "matches": len(runs),
        "matches handed over (one driver to the next)": sum(len(d) > 1 for d in runs.values()),
        "matches driven back and forth": interleaved,
        "actions by a process of another guild": wrong_guild,
        "matches of the killed process left behind": sum(
            runs[match][-1] == killed for match in playing if match in runs
        ),
    }


def controller(args: argparse.Namespace) -> int:
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL server binaries (initdb, pg_ctl)")
    server = PostgresServer(bindir, durable=True).start()
    try:
        url = server.url()
        asyncio.run(_migrate(url))
        with tempfile.TemporaryDirectory() as name:
            return _scenario(url, Path(name), args)
    finally:
        server.stop()


async def _migrate(url: str) -> None:
    store = await open_store(url)
    await store.close()


def _scenario(url: str, folder: Path, args: argparse.Namespace) -> int:
    workers = {}
    for guild in range(1, args.processes + 1):
        workers[guild] = start_worker(url, guild, args.tables, folder)
    first = started(folder, args.processes)
    for owner in first:
        wait_for_file(folder / f"ready-{owner}")
    time.sleep(args.seconds)
    intruder = start_worker(url, 1, args.tables, folder, intruder=True)
    intruder_owner = new_owner(folder, first)
    time.sleep(args.seconds / 2)
    intruder.send_signal(signal.SIGTERM)
    intruder.wait()
    killed = next(owner for owner in first if owners(folder)[owner] == 1)
    os.kill(workers[1].pid, signal.SIGKILL)
    workers[1].wait()
    open_at_kill = asyncio.run(open_tables(url, guild=1))
    workers[1] = start_worker(url, 1, args.tables, folder)
    successor = new_owner(folder, first | {intruder_owner})
    wait_for_file(folder / f"restored-{successor}")
    time.sleep(args.seconds)
    for worker in workers.values():
        worker.send_signal(signal.SIGTERM)
    for worker in workers.values():
        worker.wait()
    figures = asyncio.run(check(url, folder, killed))
    restored = per_owner(folder, "restored")
    print(
        f"{args.processes} processes, {args.tables} tables each, computers at zero pacing, "
        f"phases of {args.seconds:g} s"
    )
    print(f"the intruder (a second process for guild 1) restored: {restored[intruder_owner]}")
    print(
        f"the restarted worker of guild 1 restored {restored[successor]} of the "
        f"{open_at_kill} tables open when it was killed"
    )
    for label, value in figures.items():
        print(f"{label}: {value:,}")
    failed = (
        figures["acknowledged but lost"]
        or figures["matches driven back and forth"]
        or figures["actions by a process of another guild"]
        or figures["matches of the killed process left behind"]
        or restored[intruder_owner] != 0
        or restored[successor] != open_at_kill
    )
    print("checks:", "FAILED" if failed else "passed")
    return 1 if failed else 0


async def open_tables(url: str, guild: int) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(
            await conn.fetchval(
                "SELECT count(*) FROM tables WHERE guild_id = $1 "
                "AND status IN ('lobby', 'playing')",
                guild,
            )
        )
    finally:
        await conn.close()


def wait_for_file(path: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"{path.name} never came")
        time.sleep(0.05)


def per_owner(folder: Path, what: str) -> dict[int, int]:
    """The number each worker wrote in its ``what-OWNER`` file, by owner id."""
    return {int(p.name.split("-")[1]): int(p.read_text()) for p in folder.glob(f"{what}-*")}


def owners(folder: Path) -> dict[int, int]:
    """Every worker that started: its owner id and its guild."""
    return per_owner(folder, "owner")


def started(folder: Path, count: int, timeout: float = 60) -> set[int]:
    """The owner ids of the workers, once ``count`` of them have started."""
    deadline = time.monotonic() + timeout
    while len(found := set(owners(folder))) < count:
        if time.monotonic() > deadline:
            raise SystemExit("a worker did not start")
        time.sleep(0.05)
    return found


def new_owner(folder: Path, known: set[int]) -> int:
    """The owner id of the one worker started since ``known``."""
    return (started(folder, len(known) + 1) - known).pop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--tables", type=int, default=100, help="tables per process")
    parser.add_argument("--seconds", type=float, default=10.0, help="each phase's length")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--intruder", action="store_true", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.worker is not None:
        asyncio.run(work(parsed.url, parsed.worker, parsed.tables, parsed.folder, parsed.intruder))
        sys.exit(0)
    sys.exit(controller(parsed))
