"""Web pages benchmark: ``python bench/web.py`` prints the pages' latency and the event
loop's longest stall while they are served.

1. **Pages under load.** A SQLite store of ``--players`` players (10,000) and
   ``--finished`` finished matches (100,000; bulk-loaded as ``bench/store.py`` loads its
   leaderboard, plus ``--played`` matches played through the real API, whose pages need
   their records). The pages are served by a process of their own pinned to one core
   (``taskset -c 0``), without a rate limit; ``--clients`` clients (100) ask at once, each
   one page after another, for ``--requests`` requests a kind. Printed per kind: pages a
   second, p50 and p99 of the time a page took, as the clients saw it, and the CPU time
   a page of the server process (what one core's throughput is made of, whatever else
   loads the machine) and of the clients (one process on the other cores: when theirs
   is near the server's, the clients, not the server, set the pace). The clients take
   gzip, as browsers do, and do not unzip it (that is not the server's work). Two
   server processes:

   - ``cached``: pages kept as the bot keeps them (:mod:`bot.web.cache`): a finished
     match's page (and each of its deals' JSON) drawn once (its first drawing, with
     all the clients asking for it at once, is printed first) and then kept; the
     server's and a player's page (each asked once first) kept until a match of the
     server finishes, and drawn again in the background once 2 s old (as under this
     load in the bot).
   - ``uncached``: a cache of 0 bytes, every page built from the store for its reader;
     a finished match's page (the score table, the chart and the viewer's start) and a
     deal's points (the JSON the viewer fetches) drawn each time, ``--uncached-requests``
     of each, from what the finished-match service keeps of the match in the store (its
     summary and each deal's points without a word, made from its replay on their first
     reading: here in the cached run before; :mod:`bot.web.pages.match`), put in the
     reader's words and rendered for him.

   Targets: p99 <= 50 ms cached, <= 150 ms uncached.
2. **The loop's stall.** The bot (``BonkenBot`` against the tests' fake Discord, as
   ``bench/stall.py`` runs it) serves the pages in its own event loop while ``--tables``
   (20) tables of hard computers play, and a client asks for the server's page, a
   player's and each finished match's page without pause; a ticker measures how late the
   loop wakes, in wall time and in CPU time of the loop's thread (its own work, which a
   busy machine does not lengthen; target: at most 100 ms), for ``--seconds`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository, for tests.* and bench.*
from ticker import LoopTicker  # noqa: E402

from bench.store import _load  # noqa: E402  (the leaderboard's bulk fixture)
from bot.engine import from_record  # noqa: E402
from bot.ratings import OpenSkillRater  # noqa: E402
from bot.store import Human, TableStatus, open_store  # noqa: E402
from bot.web.app import make_app  # noqa: E402
from bot.web.cache import PageCache  # noqa: E402
from bot.web.links import WebLinks  # noqa: E402
from bot.web.ratelimit import RateLimit  # noqa: E402
from bot.web.site import Services  # noqa: E402
from bot.web.tokens import load_signer  # noqa: E402
from tests.store.store_helpers import play  # noqa: E402

GUILD = 1
UNLIMITED = RateLimit(rate=1e9, burst=10**9)


async def fill(path: Path, players: int, finished: int, played: int) -> None:
    async with await open_store(path) as store:
        await _load(store, players, finished)
        names = ["Ann", "Bob", "Cas", "Dirk"]
        for n in range(played):
            table = await store.tables.create_table(GUILD, 100 + n, 1)
            users = random.Random(n).sample(range(1, players + 1), 4)
            await store.tables.update_table(
                table.table_id, seats={seat: Human(u) for seat, u in enumerate(users)}
            )
            info = await store.matches.create_match(table.table_id, names)
            await play(store, info.match_id, random.Random(n))
            await store.matches.finish_match(info.match_id, rater=OpenSkillRater())
            await store.tables.update_table(table.table_id, status=TableStatus.FINISHED)


async def paths(path: Path, players: int, played: int) -> dict[str, list[str]]:
    async with await open_store(path) as store:
        links = WebLinks("http://bench", await load_signer(store.facts))
        finished = await store.matches.finished_in_guild(GUILD, played)
        rng = random.Random(5)
        deals = [
            links.deal_path(GUILD, m.match_id, number) + "?lang=en"
            for m in finished
            for number in range(
                1, len(from_record(await store.matches.load_record(m.match_id)).deals) + 1
            )
        ]
        return {
            "server": [links.server_path(GUILD)],
            "player": [links.player_path(GUILD, rng.randrange(1, players)) for _ in range(200)],
            "match": [links.match_path(GUILD, m.match_id) for m in finished],
            "deal": deals,
        }


def serve(database: str, port: int, cache: int) -> None:
    """The pages alone (no rate limit; ``cache`` bytes of kept pages), until killed."""
    from aiohttp import web

    async def run() -> None:
        store = await open_store(Path(database))
        links = WebLinks("http://bench", await load_signer(store.facts))
        app = make_app(Services.of(store), links, limit=UNLIMITED, cache=PageCache(budget=cache))
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        gc.freeze()  # as ``python -m bot web`` does once it serves (bot.web.alone)
        await asyncio.Event().wait()

    asyncio.run(run())


async def hammer(
    base: str, targets: list[str], clients: int, requests: int
) -> tuple[float, list[float]]:
    """``clients`` at once, ``requests`` in all, the targets in turn: pages a second and
    each one's ms."""
    times: list[float] = []
    left = iter(range(requests))
    connector = aiohttp.TCPConnector(limit=clients)
    headers = {"Accept-Encoding": "gzip"}
    async with aiohttp.ClientSession(
        base, connector=connector, headers=headers, auto_decompress=False
    ) as session:

        async def client() -> None:
            for n in left:
                start = time.perf_counter()
                async with session.get(targets[n % len(targets)]) as response:
                    await response.read()
                    assert response.status == 200, response.status
                times.append((time.perf_counter() - start) * 1000)

        began = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        took = time.perf_counter() - began
    return requests / took, times


def started(database: Path, port: int, cache: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, __file__, "--serve", str(database), "--port", str(port)]
    command += ["--cache", str(cache)]
    pinned = ["taskset", "-c", "0", *command] if _has_taskset() else command
    server = subprocess.Popen(pinned, cwd=ROOT)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            import urllib.request

            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the page server did not start")


def clients_apart() -> None:
    """Keep the clients' own pauses out of the times they measure: their process runs on
    the cores the server is not pinned to, and what filling the store left in it is
    frozen, so its garbage collector does not walk it again while pages are timed (its
    full collections took 30 to 110 ms each, and one stalled every request in flight: a
    cached page's p99 went from some 20 ms to over 50 ms in runs where it struck)."""
    gc.collect()
    gc.freeze()
    if _has_taskset() and len(cores := os.sched_getaffinity(0)) > 1:
        os.sched_setaffinity(0, cores - {0})


def _has_taskset() -> bool:
    return subprocess.run(["which", "taskset"], capture_output=True).returncode == 0


def cpu_seconds(process: subprocess.Popen[bytes]) -> float:
    """The process's CPU time so far (user and system, from ``/proc``)."""
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    server: subprocess.Popen[bytes],
    kind: str,
    targets: list[str],
    args: argparse.Namespace,
    requests: int,
    target: float,
) -> None:
    """``kind``'s pages under ``args.clients`` clients: printed against ``target`` ms."""
    base = f"http://127.0.0.1:{args.port}"
    cpu, own = cpu_seconds(server), time.process_time()
    rate, times = await hammer(base, targets, args.clients, requests)
    used = (cpu_seconds(server) - cpu) / requests * 1000
    clients = (time.process_time() - own) / requests * 1000
    ordered = sorted(times)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    verdict = "ok" if p99 <= target else "OVER"
    print(
        f"{kind:<18} {rate:6.0f} pages/s   p50 {statistics.median(ordered):6.1f} ms   "
        f"p99 {p99:6.1f} ms  (target {target:.0f} ms: {verdict})   "
        f"CPU a page: server {used:5.2f} ms, clients {clients:4.2f} ms   "
        f"load {os.getloadavg()[0]:.1f}"
    )


async def pages(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "web.sqlite3"
        began = time.perf_counter()
        await fill(database, args.players, args.finished, args.played)
        print(
            f"store: {args.players:,} players, {args.finished + args.played:,} finished matches "
            f"({time.perf_counter() - began:.0f} s to fill)"
        )
        targets = await paths(database, args.players, args.played)
        clients_apart()
        server = started(database, args.port, 64 * 1024 * 1024)
        try:
            base = f"http://127.0.0.1:{args.port}"
            first, *others = targets["match"]
            _rate, times = await hammer(base, [first], args.clients, args.clients)
            print(
                f"a match not drawn yet, {args.clients} clients asking for it at once (one "
                f"drawing, which they all wait for): p50 {statistics.median(times):.0f} ms, "
                f"slowest {max(times):.0f} ms"
            )
            await hammer(base, others, args.clients, len(others))  # each drawn once
            await measure(server, "match (cached)", targets["match"], args, args.requests, 50)
            await hammer(base, targets["deal"], args.clients, len(targets["deal"]))  # drawn once
            await measure(server, "deal (cached)", targets["deal"], args, args.requests, 50)
            for kind in ("server", "player"):
                await hammer(base, targets[kind], args.clients, len(targets[kind]))  # drawn once
                await measure(server, f"{kind} (cached)", targets[kind], args, args.requests, 50)
        finally:
            server.kill()
            server.wait()
        server = started(database, args.port, 0)
        try:
            for kind in ("server", "player"):
                await measure(server, f"{kind} (uncached)", targets[kind], args, args.requests, 150)
            await measure(
                server, "match (uncached)", targets["match"], args, args.uncached_requests, 150
            )
            await measure(
                server, "deal (uncached)", targets["deal"], args, args.uncached_requests, 150
            )
        finally:
            server.kill()
            server.wait()


async def stall(args: argparse.Namespace) -> None:
    from bot.ui.pacing import Pacing
    from tests.discord.discord_harness import CHANNEL_ID, FakeDiscord, Harness

    discord_pace = Pacing()
    pacing = Pacing(
        edit_interval=discord_pace.edit_interval * 0.01,
        restart_quiet=discord_pace.restart_quiet * 0.01,
        archive_after=0.0,
    )
    with tempfile.TemporaryDirectory() as folder:
        # No record of the requests (the tests' way): the real bot has none, and a record
        # of thousands of edits would lengthen the collector's passes measured here.
        fake = FakeDiscord(time_scale=0.01, keep_calls=False)
        h = Harness(Path(folder), pace=0.0, time_scale=0.01, pacing=pacing, fake=fake)
        h.bot.settings = dataclasses.replace(
            h.bot.settings, think_seconds=args.think, web_port=args.port
        )
        await h.start()
        store = h.parts.store
        links = WebLinks(f"http://127.0.0.1:{args.port}", await load_signer(store.facts))
        ticker = LoopTicker(0.001)
        served = 0
        playing = True

        async def reader() -> None:
            nonlocal served
            async with aiohttp.ClientSession(f"http://127.0.0.1:{args.port}") as session:
                while playing:
                    finished = await store.matches.finished_in_guild(GUILD, 20)
                    wanted = [links.server_path(GUILD), links.player_path(GUILD, 1)]
                    wanted += [links.match_path(GUILD, m.match_id) for m in finished]
                    for path in wanted:
                        async with session.get(path) as response:
                            await response.read()
                            served += response.status == 200

        ticker.start()
        readers = [asyncio.create_task(reader()) for _ in range(4)]
        host = h.user("Host")
        for n in range(args.tables):
            channel = CHANNEL_ID + n
            await h.parts.service.open_table(GUILD, channel, host.id, "Host", host_seated=False)
            for _ in range(4):
                await h.parts.service.add_computer(channel, host.id, "hard")
            await h.parts.service.start(channel, host.id)
        await asyncio.sleep(args.seconds)
        playing = False
        await ticker.stop()
        await asyncio.gather(*readers, return_exceptions=True)
        finished = len(await store.matches.finished_in_guild(GUILD, 100))
        await h.stop()
    ms = sorted(x * 1000 for x in ticker.lateness)
    own = max(ticker.busy)
    print(
        f"{args.tables} tables of hard computers (think {args.think} s) for {args.seconds} s, "
        f"{finished} finished, {served} pages served in the bot's loop: longest stall "
        f"{ms[-1]:.1f} ms, p99 {ms[int(len(ms) * 0.99)]:.1f} ms; the loop's own work between "
        f"two ticks (CPU of its thread, as bench/stall.py counts it): max "
        f"{own * 1000:.1f} ms (target 100 ms: {'ok' if own <= 0.1 else 'OVER'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--played", type=int, default=20, help="matches with records")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--requests", type=int, default=2000, help="requests a kind")
    parser.add_argument(
        "--uncached-requests", type=int, default=200, help="match pages drawn each time"
    )
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--think", type=float, default=1.0, help="hard's thinking time, s")
    parser.add_argument("--seconds", type=float, default=60.0, help="the stall's measure")
    parser.add_argument("--only", choices=["pages", "stall"], help="one part alone")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port, args.cache)
        return
    print(f"load before: {os.getloadavg()[0]:.1f} (cores: {os.cpu_count()})")
    if args.only in (None, "pages"):
        every = os.sched_getaffinity(0)
        if len(every) > 1 and _has_taskset():
            os.sched_setaffinity(0, every - {0})  # the server has core 0 (``started``)
        asyncio.run(pages(args))
        os.sched_setaffinity(0, every)
    if args.only in (None, "stall"):
        asyncio.run(stall(args))
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
