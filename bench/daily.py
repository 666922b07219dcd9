"""Daily deals load benchmark: ``python bench/daily.py [--people 200]``.

Runs the real bot (its parts, cogs and buttons, a SQLite store in a temporary folder)
against the fake Discord of the tests (``tests/discord/discord_harness.py``), with
``--people`` members who all run ``/bonken daily`` at once and then click their moves as
soon as the bot has answered (``--think``: after that many seconds on average, drawn at
random), until every attempt is finished.

The fake Discord and the people run in a process of their own, as they are other
machines in reality, so the bot's process does the bot's work alone and its CPU is the
bot's: the people's interactions reach it as gateway events (handed to discord.py's
parser), and discord.py's requests (built by discord.py: their JSON text, with the
picture if there is one) go to the fake Discord over a socket instead of to Discord over
the network, and are read there, as Discord reads them. The bot is started and its
commands synced against the harness's own fake Discord in its process first. Printed:

1. Acknowledgement: each interaction's time from its arrival to its first answer (a
   click's answer itself if it was ready within the controller's second, else the defer
   made then), p50 / p99 / max, and how many took 3 s or more (Discord's limit; target 0).
2. The time until the person's message shows the answer (the move stored, the
   computers' answers, the picture drawn, and Discord given the message: the click's
   callback with it, or the edit after an acknowledgement), measured by the people, who
   click again as soon as they see it; and how many answers never showed (a person
   waits :data:`UNSHOWN_AFTER` for one, then clicks on the message as it is; target 0).
   Printed with it first: the clicks a second, and the CPU time of the bot's
   process (every thread) per click, and its split: the process's threads (the event
   loop's; the store's; the picture thread's) and the drawing processes
   (``--drawing-processes``, 1 as the bot runs by default; 0: the bot's picture thread
   draws, as before they existed), the people's process beside; and how many transactions stored the
   clicks' moves (clicks waiting together share one). With nobody thinking, each person
   waits for the clicks of the others ahead of his, so the time until an answer shows is
   about ``--people`` divided by the clicks a second, and the clicks a second are the
   cores' free time divided by a click's CPU (or, if less, the event loop's thread's
   one core divided by its CPU a click). With drawing processes, how many pictures they
   had kept by their scene (drawn for an earlier click, the person's or another's) and
   did not draw again: the people click at random, so this is how often 200 people
   really meet the same position.
3. The computers' decision time at the daily level (each call of the player, on the
   event loop), p50 / p95 / max, and how many decisions were made.
4. REST calls to the channel while people played (posts, edits: the bot's own calls,
   not the interactions' callbacks and webhooks; target 0), and the public lines.
5. Memory per attempt in play: tracemalloc's count of the bytes held once ``--people``
   attempts are in the daily service's memory, each halfway through its deals (made
   after the load run, with the service alone, so tracing slows no acknowledgement),
   divided by their number; and the resident size's growth during the load run, divided
   likewise.

``--level hard`` has the hard player decide instead (deterministic with its clock off:
``--work`` seconds' worth of fixed work), to see what a stronger daily computer would
cost. Run it niced on a shared machine; the load of the machine is printed first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import gc
import itertools
import json
import multiprocessing
import os
import pickle
import random
import re
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord
from multidict import CIMultiDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/

import bot.daily.computers as computers
from bot.daily import DailyService
from bot.engine import Action, SeatView
from bot.players.hard import HardPlayer
from bot.players.pool import decide_sync
from bot.store import open_store
from tests.discord import discord_harness
from tests.discord.discord_harness import (
    ACK_DEADLINE,
    CHANNEL_ID,
    EPHEMERAL,
    FAST_PACING,
    GUILD_ID,
    Call,
    FakeDiscord,
    Harness,
    Interaction,
    User,
    custom_ids,
    request_ended,
    snowflake,
)

CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")
ORIGINAL = re.compile(r"/webhooks/\d+/([^/]+)/messages/@original")
UNSHOWN_AFTER = 10.0
"""Seconds a person waits to see a click's answer before clicking again: an answer
that never shows (a callback Discord refused as late) is counted, not waited for."""


def rss_kb() -> int:
    """The resident set size now, in KB (Linux: from /proc; else the peak)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() // 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each thread of this process so far, by thread name (Linux)."""
    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    seconds: dict[str, float] = {}
    for tid in os.listdir("/proc/self/task"):
        name = names.get(int(tid), f"thread {tid}")
        seconds[name] = seconds.get(name, 0.0) + _cpu(f"/proc/self/task/{tid}/stat")
    return seconds


def children_cpu(besides: int) -> float:
    """CPU seconds so far of this process's running children but ``besides`` (the people's
    process): the drawing processes."""
    mine = str(os.getpid())
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != besides:
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == mine:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _cpu(stat_path: str) -> float:
    try:
        with open(stat_path) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def timed_decider(level: str, work: float, times: list[float]) -> Any:
    """The daily computers' ``decide_sync``, timed; ``hard``: the hard player with its
    clock off and ``work`` seconds' worth of fixed work."""
    hard = HardPlayer(wall_clock=False) if level == "hard" else None

    def decide(_level: str, view: SeatView, seed: int, budget: float = 0.0) -> Action:
        began = time.perf_counter()
        if hard is not None:
            action = hard.choose_action(view, random.Random(seed), work)
        else:
            action = decide_sync(level, view, seed, budget)
        times.append(time.perf_counter() - began)
        return action

    return decide


def next_move(message: dict[str, Any]) -> str | None:
    """Pass in a doubling turn, else a random enabled card (people differ)."""
    moves = [i for i in custom_ids(message, enabled_only=True) if i.startswith("bonken:daily:")]
    passes = [i for i in moves if i.endswith(":D:-")]
    if passes:
        return passes[0]
    return random.choice(moves) if moves else None


class WireResponse:
    """Discord's answer to one request, as discord.py reads an aiohttp response."""

    def __init__(self, status: int, text: str, headers: dict[str, str]) -> None:
        self.status = status
        self.reason = "OK" if status < 400 else "Error"
        self.headers = CIMultiDict(headers)
        self._text = text

    async def text(self, encoding: str | None = None) -> str:
        return self._text


class WireSession:
    """The session discord.py sends every request through, to the people's process's
    fake Discord. The bot's side of a request is what it would be against Discord,
    short of the socket: discord.py builds it, the body is read as Discord reads it
    (JSON, or multipart with the picture) and written to the other process."""

    def __init__(self, people: People, trace: aiohttp.TraceConfig | None) -> None:
        self.people = people
        self.trace = trace
        self.closed = False

    def request(self, method: str, url: str, **kwargs: Any) -> _WireRequest:
        return _WireRequest(self, method, url, kwargs)

    async def close(self) -> None:
        self.closed = True


class _WireRequest:
    def __init__(self, session: WireSession, method: str, url: str, kwargs: dict[str, Any]):
        self.session, self.method, self.url, self.kwargs = session, method, url, kwargs

    async def __aenter__(self) -> WireResponse:
        body, files = discord_harness.raw_body(self.kwargs.get("data"))
        path = urlsplit(self.url).path.removeprefix("/api/v10")
        authorization = (self.kwargs.get("headers") or {}).get("Authorization")
        response = await self.session.people.ask(self.method, path, body, files, authorization)
        await request_ended(self.session, self.session.trace, self.method, self.url, response)
        return response

    async def __aexit__(self, *exc: object) -> None:
        return None


class Wire:
    """Pickled messages, each after its length, over a stream socket between the two
    processes (asyncio's buffered transport: a send never blocks the loop)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader, self._writer = reader, writer

    def send(self, message: tuple[Any, ...]) -> None:
        data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        self._writer.write(len(data).to_bytes(4, "big") + data)

    async def receive(self) -> tuple[Any, ...]:
        size = int.from_bytes(await self._reader.readexactly(4), "big")
        message: tuple[Any, ...] = pickle.loads(await self._reader.readexactly(size))
        return message

    async def close(self) -> None:
        await self._writer.drain()
        self._writer.close()


class People:
    """The people's process as the bot's process sees it: Discord's gateway (their
    interactions come in) and its HTTP side (the bot's requests go out)."""

    def __init__(self, wire: Wire) -> None:
        self._wire = wire
        self._asked: dict[int, asyncio.Future[WireResponse]] = {}
        self._numbers = itertools.count()
        self.ended: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def ask(
        self, method: str, path: str, body: Any, files: Any, authorization: str | None
    ) -> WireResponse:
        number = next(self._numbers)
        self._asked[number] = answer = asyncio.get_running_loop().create_future()
        self._wire.send(("request", number, method, path, body, files, authorization))
        return await answer

    async def serve(self, h: Harness) -> None:
        """Feed the people's interactions to the bot (telling them when its handlers are
        done) and hand Discord's answers back, until the people are done."""
        while not self.ended.done():
            message = await self._wire.receive()
            if message[0] == "interaction":
                self._start(h, message[1])
            elif message[0] == "answer":
                _kind, number, status, text, headers = message
                self._asked.pop(number).set_result(WireResponse(status, text, headers))
            else:
                self.ended.set_result(message[1])

    def _start(self, h: Harness, payload: dict[str, Any]) -> None:
        """The interaction handed to discord.py as the gateway hands it (its handlers
        start as tasks; the people see their answers at the fake Discord)."""
        h.bot._connection.parse_interaction_create(payload)


# -- the people's process ---------------------------------------------------------------


def people_process(sock: socket.socket, args: argparse.Namespace, commands: Any, bot: User) -> None:
    """The fake Discord and the people, in a process of their own: on another machine in
    reality, so none of their work is counted as the bot's."""
    discord_harness._ids = timed_ids()  # not the bot's ids
    asyncio.run(_play(sock, args, commands, bot))


def timed_ids() -> Iterator[int]:
    """Snowflakes as Discord makes them, its clock's milliseconds in their high bits, so
    that the bot reads each interaction's age from its id as it does Discord's (the
    harness's own ids are a plain count, which the bot takes for a clock it cannot
    trust); unique and increasing, as a count in their low bits."""
    for number in itertools.count():
        millis = int(time.time() * 1000) - discord.utils.DISCORD_EPOCH
        yield millis << 22 | number % (1 << 22)


class Bot:
    """The bot's process as the people's process sees it."""

    def __init__(self, wire: Wire, fake: FakeDiscord) -> None:
        self._wire = wire
        self._fake = fake
        self._shown: dict[int, asyncio.Future[None]] = {}
        self.started = asyncio.get_running_loop().create_future()
        self.unshown = 0
        """Answers a person waited :data:`UNSHOWN_AFTER` for in vain (clicking again)."""

    async def serve(self) -> None:
        while True:
            message = await self._wire.receive()
            if message[0] == "request":
                _kind, number, method, path, text, files, authorization = message
                body = None if text is None else json.loads(text)  # Discord reads it
                at = time.monotonic()
                call = Call(at, method, path, body, files, authorization=authorization)
                response = self._fake.answer(call)
                headers = dict(response.headers)
                self._wire.send(("answer", number, response.status, response._text, headers))
                if response.status < 300:
                    self._note_shown(call)
            else:
                self.started.set_result(None)

    def _note_shown(self, call: Call) -> None:
        """The person whose interaction ``call`` answers sees the answer now, if it shows
        one: a callback with a message (a new one, or the clicked one updated), or the
        edit of an acknowledged interaction's message."""
        interaction = None
        if match := CALLBACK.fullmatch(call.path):
            if call.body["type"] in (4, 7):
                interaction = self._fake.interactions.get(int(match[1]))
        elif call.method == "PATCH" and (match := ORIGINAL.fullmatch(call.path)):
            interaction = self._fake._by_token.get(match[1])
        if interaction is not None and interaction.id in self._shown:
            self._shown.pop(interaction.id).set_result(None)

    async def answered(self, payload: dict[str, Any], shown: list[float]) -> Interaction:
        """Send an interaction to the bot and wait until the person sees its answer;
        ``shown`` gets the time that took. An answer not shown within
        :data:`UNSHOWN_AFTER` is counted in :attr:`unshown`, and the person goes on (a
        click again on the message as it is)."""
        began = time.perf_counter()
        interaction_id = int(payload["id"])
        self._shown[interaction_id] = seen = asyncio.get_running_loop().create_future()
        self._wire.send(("interaction", payload))
        try:
            await asyncio.wait_for(seen, UNSHOWN_AFTER)
        except TimeoutError:
            self._shown.pop(interaction_id, None)
            self.unshown += 1
        else:
            shown.append(time.perf_counter() - began)
        return self._fake.interactions[interaction_id]


async def person(bot: Bot, fake: FakeDiscord, user: User, think: float, shown: list[float]) -> int:
    """``user`` plays today's deals by clicking, ``think`` seconds (on average) after
    seeing each answer; the clicks made."""
    bonken = next(c["id"] for c in fake.commands if c["name"] == "bonken")  # as synced
    command = {"id": bonken, "name": "bonken", "type": 1, "options": [{"name": "daily", "type": 1}]}
    started = await bot.answered(fake.interaction_payload(2, user, command), shown)
    assert started.original_id is not None, started.text
    message_id = started.original_id
    clicks = 0
    while (move := next_move(message := fake.messages[message_id])) is not None:
        if think:
            await asyncio.sleep(random.expovariate(1 / think))
        data = {"custom_id": move, "component_type": 2}
        payload = fake.interaction_payload(3, user, data, message=copy.deepcopy(message))
        await bot.answered(payload, shown)
        clicks += 1
    return clicks


async def _play(
    sock: socket.socket, args: argparse.Namespace, commands: Any, bot_user: User
) -> None:
    random.seed(args.seed)
    fake = FakeDiscord(time_scale=1.0)
    fake.commands, fake.bot_user = commands, bot_user
    wire = Wire(*await asyncio.open_connection(sock=sock))
    bot = Bot(wire, fake)
    serving = asyncio.create_task(bot.serve())
    await bot.started
    began = time.perf_counter()
    shown: list[float] = []
    people = [User(snowflake(), f"Player {n}") for n in range(args.people)]
    clicks = sum(await asyncio.gather(*(person(bot, fake, u, args.think, shown) for u in people)))
    seconds = time.perf_counter() - began

    def public_lines() -> list[dict[str, Any]]:
        return [
            m
            for m in fake.messages.values()
            if not m["flags"] & EPHEMERAL and "played today's deals" in (m["content"] or "")
        ]

    with contextlib.suppress(TimeoutError):  # the last finishing lines may be on their way
        await fake.wait_for(lambda: len(public_lines()) >= len(people), timeout=10.0)
    public = public_lines()
    interactions = [i for i in fake.interactions.values() if i.type in (2, 3)]
    latencies = [i.latency for i in interactions if i.latency is not None]
    summary = {
        "clicks": clicks,
        "seconds": seconds,
        "shown": shown,
        "latencies": latencies,
        "interactions": len(interactions),
        "unanswered": len(interactions) - len(latencies),
        "own": len(fake.own_calls()),
        "public": len(public),
        "unshown": bot.unshown,
    }
    wire.send(("end", summary))
    serving.cancel()
    await wire.close()


async def memory_per_attempt(people: int, folder: Path) -> float:
    """Bytes held per attempt with ``people`` attempts in memory, each halfway."""
    async with await open_store(folder / "memory.sqlite3") as store:
        service = DailyService(store.daily, store.tables)
        await service.program(1, service.today())  # the day itself is not an attempt's
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for user in range(people):
            view = await service.play(1, user, f"Player {user}")
            deals = view.deals
            while view.deal_number <= deals // 2 and not view.finished:
                action = random.choice(view.seat.legal)
                view = await service.act(view.attempt_id, user, view.step, action)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        return held / people


def known_guild(h: Harness) -> None:
    """The people's server in the bot's cache, as Discord's ``GUILD_CREATE`` puts it
    there when the bot connects (it asks for the guilds intent); else discord.py makes
    a stand-in for it at every interaction, work the real bot does not do."""
    h.bot._connection._add_guild_from_data(
        {
            "id": str(GUILD_ID),
            "name": "Daily bench",
            "preferred_locale": "en-US",
            "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "bonken", "position": 0}],
            "roles": [],
            "members": [],
        }
    )


async def run(args: argparse.Namespace) -> None:
    times: list[float] = []
    computers.decide_sync = timed_decider(args.level, args.work, times)  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as folder:
        h = await Harness(
            Path(folder),
            pacing=FAST_PACING,
            time_scale=1.0,
            drawing_processes=args.drawing_processes,
        ).start()  # started, its commands synced, against the harness's own fake Discord
        known_guild(h)
        http = h.bot.http
        local = http._HTTPClient__session  # type: ignore[attr-defined]
        ours, theirs = socket.socketpair()
        spawn = multiprocessing.get_context("spawn")
        playing = spawn.Process(
            target=people_process, args=(theirs, args, h.fake.commands, h.fake.bot_user)
        )
        playing.start()
        theirs.close()
        try:
            people = People(Wire(*await asyncio.open_connection(sock=ours)))
            http._HTTPClient__session = WireSession(people, http.http_trace)  # type: ignore[attr-defined]
            serving = asyncio.create_task(people.serve(h))
            await asyncio.sleep(2 if args.drawing_processes else 0)  # the processes start
            rss_before = rss_kb()
            cpu_before = time.process_time()
            threads_before, children_before = thread_cpu(), children_cpu(playing.pid or 0)
            people_before = _cpu(f"/proc/{playing.pid}/stat")
            transactions_before = h.parts.store.daily.append_transactions
            people._wire.send(("start",))
            ended = await people.ended
            rss_growth = rss_kb() - rss_before
            cpu = time.process_time() - cpu_before
            threads_after, drawing = thread_cpu(), children_cpu(playing.pid or 0) - children_before
            people_cpu = _cpu(f"/proc/{playing.pid}/stat") - people_before
            pictures = h.parts.daily.drawing
            transactions = h.parts.store.daily.append_transactions - transactions_before
            await serving
        finally:
            http._HTTPClient__session = local  # type: ignore[attr-defined]
            playing.join(10)
            await h.stop()
        decisions = list(times)  # the load run's (the memory count's are not timed work)
        held = await memory_per_attempt(args.people, Path(folder))
    clicks, seconds, shown = ended["clicks"], ended["seconds"], ended["shown"]
    latencies, interactions = ended["latencies"], ended["interactions"]
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(
        f"{args.people} people, thinking {args.think} s on average, {clicks} clicks in "
        f"{seconds:.1f} s ({clicks / seconds:.0f}/s); CPU {cpu / clicks * 1000:.1f} ms a click "
        f"(the bot's process, all its threads; the fake Discord and the people's process "
        f"{people_cpu / clicks * 1000:.1f} ms)"
    )
    split = {
        name: seconds - threads_before.get(name, 0.0)
        for name, seconds in threads_after.items()
        if seconds - threads_before.get(name, 0.0) >= 0.01 * cpu
    }
    print(
        "CPU a click by thread: "
        + ", ".join(f"{name} {seconds / clicks * 1000:.2f} ms" for name, seconds in split.items())
        + f"; drawing processes ({args.drawing_processes}) {drawing / clicks * 1000:.2f} ms"
    )
    if pictures.drawn:
        print(
            f"pictures: {pictures.drawn}, {pictures.kept} of them kept by their scene, "
            f"not drawn again ({pictures.kept / pictures.drawn:.0%})"
        )
    print(
        f"store: the clicks' moves written in {transactions} transactions "
        f"({clicks / max(transactions, 1):.1f} clicks each)"
    )
    print(
        f"acknowledged: p50 {percentile(latencies, 0.5) * 1000:.0f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms; "
        f"{sum(1 for x in latencies if x >= ACK_DEADLINE)} of {interactions} at 3 s or more, "
        f"{ended['unanswered']} unanswered (target 0)"
    )
    print(
        f"answer shown (the message edited, picture drawn): p50 "
        f"{percentile(shown, 0.5) * 1000:.0f} ms, p95 {percentile(shown, 0.95) * 1000:.0f} ms, "
        f"max {max(shown) * 1000:.0f} ms; {ended['unshown']} never shown (target 0)"
    )
    print(
        f"computers ({args.level}): {len(decisions)} decisions, "
        f"p50 {statistics.median(decisions) * 1e3:.2f} ms, "
        f"p95 {percentile(decisions, 0.95) * 1e3:.2f} ms, max {max(decisions) * 1e3:.2f} ms"
    )
    print(
        f"channel REST calls while playing: {ended['own']} (target 0); "
        f"public lines: {ended['public']}"
    )
    print(
        f"memory per attempt in play: {held / 1024:.1f} KB traced ({args.people} halfway "
        f"through their deals), resident growth during the run {rss_growth / args.people:.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--level", choices=("normal", "hard"), default=computers.DAILY_LEVEL)
    parser.add_argument("--work", type=float, default=0.05, help="hard: seconds of fixed work")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--drawing-processes",
        type=int,
        default=1,
        help="the bot's BONKEN_DRAWING_PROCESSES (0: its picture thread draws)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds between an answer and the next click"
    )
    args = parser.parse_args()
    random.seed(args.seed)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
