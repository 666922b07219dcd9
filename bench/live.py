"""Live table benchmark: ``python bench/live.py`` prints how soon a move reaches every
socket watching its table, the memory a socket costs, and the event loop's longest stall.

The bot's side runs here, in one event loop, as in the bot: a SQLite store, the table
service (computers moving at full speed: no pace, the service's own quick decider), the
live table's hub and the web server with its socket. ``--tables`` tables (125) of four
computers are opened, and a client process of its own (so its work is not the loop's)
opens ``--per-table`` sockets (4) on each, 500 in all, as spectators (the frames a
spectator is sent are those a player is sent less his hand), and keeps the time each
state frame arrives. Then every table starts and plays for ``--seconds`` (30).

- **Shown within**: for each move (each turn a table reached) and each socket of its
  table, the time from the service publishing the move to that socket receiving a frame
  showing it or a later position (the monotonic clock is the machine's, shared by both
  processes). Target: p99 <= 100 ms.
- **Memory per socket**: the bot process's resident memory after the sockets opened
  (before play) less before, divided by the sockets.
- **Loop stall**: a ticker measures how late the loop wakes (target: at most 100 ms),
  and the loop thread's own CPU between two ticks.

Run it niced on a shared machine (``nice -n 10``) and report ``uptime`` beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ticker import LoopTicker  # noqa: E402

from bot.store import WebAccess, open_store  # noqa: E402
from bot.tables import TableService, TableView  # noqa: E402
from bot.tables import events as ev  # noqa: E402
from bot.web.app import make_app  # noqa: E402
from bot.web.links import WebLinks  # noqa: E402
from bot.web.live.hub import LiveHub, Watcher  # noqa: E402
from bot.web.live.routes import Live  # noqa: E402
from bot.web.live.tokens import watch_token  # noqa: E402
from bot.web.ratelimit import RateLimit  # noqa: E402
from bot.web.site import Services  # noqa: E402
from bot.web.tokens import load_signer  # noqa: E402

GUILD, HOST, FIRST_CHANNEL = 1, 99, 1000
TICK = 0.01
MOVE_KEY = 1 << 20
"""A move's key is its table times this plus its turn (a match has far fewer turns)."""
TURN = re.compile(r'"turn":(\d+)')


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# -- the client process: the sockets ----------------------------------------------------


async def clients(url: str, tokens: list[tuple[int, str]], out: Path) -> None:
    """Open a socket per token, say ``ready`` once each has its first state, keep
    (socket, table, turn, arrival) of every state frame until stdin closes."""
    seen: list[tuple[int, int, int, float]] = []
    ready = asyncio.Event()
    waiting = len(tokens)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def watch(index: int, table: int, token: str) -> None:
            nonlocal waiting
            socket = await session.ws_connect(url, max_msg_size=0)
            await socket.send_str(json.dumps({"type": "hello", "token": token}))
            first = True
            async for message in socket:
                if message.type is not aiohttp.WSMsgType.TEXT:
                    continue
                arrived = time.monotonic()
                if not message.data.startswith('{"type":"state"'):
                    continue
                turn = int(TURN.search(message.data).group(1))  # type: ignore[union-attr]
                seen.append((index, table, turn, arrived))
                if first:
                    first = False
                    waiting -= 1
                    if not waiting:
                        ready.set()

        tasks = [
            asyncio.create_task(watch(i, table, token)) for i, (table, token) in enumerate(tokens)
        ]
        await ready.wait()
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for task in tasks:
            task.cancel()
    out.write_text(json.dumps(seen))


# -- the bot process ---------------------------------------------------------------------


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with await open_store(Path(folder) / "live.sqlite") as store:
            await run(args, store, Path(folder))


async def run(args: argparse.Namespace, store, folder: Path) -> None:  # type: ignore[no-untyped-def]
    # What the run notes is kept in forms the garbage collector never walks (a dict of
    # ints to floats, a flat array of floats): a list of tuples growing by the hundred
    # thousand made the bot's full collections, and so its loop's stalls, the bench's own.
    published_at: dict[int, float] = {}  # table * MOVE_KEY + turn: when it was published
    live: Live | None = None

    async def publish(event: ev.Event, view: TableView | None) -> None:
        now = time.monotonic()
        assert live is not None
        live.publish(event)
        if view is None:  # (the view the service hands with its event: read no other)
            return
        published_at.setdefault(event.table_id * MOVE_KEY + view.turn, now)

    service = TableService(store, publish, pace=0.0)
    signer = await load_signer(store.facts)

    async def access(guild: int) -> WebAccess:
        return WebAccess.LINK

    live = Live(service, signer, access, store.live_seats)
    handed_at = array("d")  # table, turn, when a frame went to a socket; one after another
    send = LiveHub._send

    async def timed_send(hub: LiveHub, watcher: Watcher, frame: str, data: bytes) -> None:
        turn = int(TURN.search(frame).group(1))  # type: ignore[union-attr]
        handed_at.extend((watcher.ticket.table_id, turn, time.monotonic()))
        await send(hub, watcher, frame, data)

    LiveHub._send = timed_send  # type: ignore[method-assign]
    app = make_app(
        Services.of(store), WebLinks("http://x", signer), limit=RateLimit(1e9, 10**9), live=live
    )
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]

    channels = [FIRST_CHANNEL + n for n in range(args.tables)]
    tables = []
    for channel in channels:
        view = await service.open_table(GUILD, channel, HOST, "Host", host_seated=False)
        for _ in range(4):
            await service.add_computer(channel, HOST)
        tables.append(view.table_id)
    tokens = [
        (table, watch_token(signer, GUILD, table))
        for table in tables
        for _ in range(args.per_table)
    ]
    spec, out = folder / "tokens.json", folder / "seen.json"
    spec.write_text(json.dumps(tokens))
    before = rss_bytes()
    client = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--client",
            f"ws://127.0.0.1:{port}/live/socket",
            str(spec),
            str(out),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert client.stdout is not None and client.stdin is not None
    line = await asyncio.get_running_loop().run_in_executor(None, client.stdout.readline)
    assert line.strip() == "ready", line
    per_socket = (rss_bytes() - before) / len(tokens)

    ticker = LoopTicker(TICK)
    ticker.start()
    started = time.monotonic()
    for channel in channels:
        await service.start(channel, HOST)
    await asyncio.sleep(args.seconds)
    await ticker.stop()
    stopped = time.monotonic()
    await service.close()
    await asyncio.sleep(0.5)  # the last pushes reach the client
    client.stdin.close()
    await asyncio.get_running_loop().run_in_executor(None, client.wait)
    await runner.cleanup()

    published = {divmod(key, MOVE_KEY): at for key, at in published_at.items()}
    handed = [
        (int(handed_at[i]), int(handed_at[i + 1]), handed_at[i + 2])
        for i in range(0, len(handed_at), 3)
    ]
    seen = json.loads(out.read_text())
    arrivals: dict[int, list[tuple[int, float]]] = {}
    table_of: dict[int, int] = {}
    for index, table, turn, arrived in seen:
        arrivals.setdefault(index, []).append((turn, arrived))
        table_of[index] = table
    delays: list[float] = []
    missed = 0
    for index, frames in arrivals.items():
        table = table_of[index]
        frames.sort()
        moves = sorted(
            (turn, at)
            for (t, turn), at in published.items()
            if t == table and started <= at <= stopped
        )
        position = 0
        for turn, at in moves:
            while position < len(frames) and frames[position][0] < turn:
                position += 1
            if position == len(frames):
                missed += 1
                continue
            delays.append(frames[position][1] - at)
    delays.sort()
    bot_side = bot_delays(published, handed, started, stopped)
    ms = sorted(x * 1000 for x in ticker.lateness)
    moves_made = sum(1 for at in published.values() if started <= at <= stopped)
    print(
        f"{args.tables} tables of computers at full speed, {len(tokens)} sockets "
        f"({args.per_table} a table), {stopped - started:.0f} s: {moves_made} moves "
        f"({moves_made / (stopped - started):.0f}/s), {len(seen)} state frames received"
    )
    print(
        f"move shown on its sockets: p50 {delays[len(delays) // 2] * 1000:.1f} ms, "
        f"p99 {delays[int(len(delays) * 0.99)] * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms "
        f"({len(delays)} move-socket pairs; {missed} not shown before the end)"
    )
    print(
        f"  of which the bot's side (publish to the frame handed to the socket): "
        f"p50 {bot_side[len(bot_side) // 2] * 1000:.1f} ms, "
        f"p99 {bot_side[int(len(bot_side) * 0.99)] * 1000:.1f} ms"
    )
    print(f"memory per open socket (bot's resident memory): {per_socket / 1024:.1f} KiB")
    print(
        f"loop stall: max {ms[-1]:.1f} ms, p99 {ms[int(len(ms) * 0.99)]:.1f} ms, "
        f"p50 {statistics.median(ms):.2f} ms; loop's own work between two ticks (CPU of "
        f"its thread): max {max(ticker.busy) * 1000:.1f} ms"
    )
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


def bot_delays(
    published: dict[tuple[int, int], float],
    handed: list[tuple[int, int, float]],
    started: float,
    stopped: float,
) -> list[float]:
    """For each move, the time until the first frame showing it (or later) was handed to
    a socket of its table: the bot's part of the delay, without the client's."""
    first: dict[int, list[tuple[int, float]]] = {}
    for table, turn, at in handed:
        first.setdefault(table, []).append((turn, at))
    delays = []
    for (table, turn), at in published.items():
        if not started <= at <= stopped:
            continue
        later = [when for shown, when in first.get(table, []) if shown >= turn and when >= at]
        if later:
            delays.append(min(later) - at)
    return sorted(delays)


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--client":
        tokens = [tuple(pair) for pair in json.loads(Path(sys.argv[3]).read_text())]
        asyncio.run(clients(sys.argv[2], tokens, Path(sys.argv[4])))  # type: ignore[arg-type]
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=125)
    parser.add_argument("--per-table", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
