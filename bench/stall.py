"""Event-loop stall benchmark: ``python bench/stall.py [--tables 1] [--level hard]``.

Plays whole matches of four computers through the real bot (``BonkenBot``: the table
service, the store, the presenter with its pictures, the hand controller, the computers'
process pool) against the test harness's fake Discord, and measures how long the event
loop was kept from running: a ticker asks to wake every millisecond, and each wake-up's
lateness is a stall (whatever ran on the loop without yielding meanwhile). While the
loop stalls, no interaction is answered and no heartbeat is sent.

Prints the longest stall, the 99th and 50th percentiles of the lateness, and how many
stalls passed 50 ms. ``--culprits`` runs the loop in asyncio's debug mode and lists the
slowest callbacks it saw (debug mode slows everything; use it to find, not to measure).

The fake Discord's clocks (its rate-limit windows) and the presenter's edit pacing run
``--scale`` times real speed (0.01: a match takes seconds); the computers wait ``--pace``
seconds before each move and think ``--think`` seconds (hard; the bot's default is 1).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "discord"))
from discord_harness import CHANNEL_ID, Harness

import bot.ui.presenter as presenter

TICK = 0.001
"""Seconds the ticker asks to sleep each time."""
LONG_STALL = 0.050


class SlowCallbacks(logging.Handler):
    """asyncio's debug mode logs each callback slower than ``slow_callback_duration``."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[float, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("Executing") and " took " in message:
            seconds = float(message.rsplit(" took ", 1)[1].split()[0])
            self.seen.append((seconds, message.rsplit(" took ", 1)[0][:300]))


async def measure(args: argparse.Namespace) -> None:
    presenter.EDIT_INTERVAL = 1.0 * args.scale
    presenter.RESTART_QUIET = 5.0 * args.scale
    presenter.ARCHIVE_AFTER = 0.0
    loop = asyncio.get_running_loop()
    slow = SlowCallbacks()
    if args.culprits:
        loop.set_debug(True)
        loop.slow_callback_duration = 0.02
        logging.getLogger("asyncio").addHandler(slow)
    with tempfile.TemporaryDirectory() as folder:
        h = Harness(Path(folder), pace=args.pace, time_scale=args.scale)
        h.bot.settings = dataclasses.replace(h.bot.settings, think_seconds=args.think)
        await h.start()
        lateness: list[float] = []
        playing = True

        async def tick() -> None:
            while playing:
                asked = time.perf_counter()
                await asyncio.sleep(TICK)
                lateness.append(time.perf_counter() - asked - TICK)

        ticker = asyncio.create_task(tick())
        started = time.perf_counter()
        service = h.bot.service
        host = h.user("Host")
        channels = [CHANNEL_ID + n for n in range(args.tables)]
        for channel in channels:
            await service.open_table(1, channel, host.id, "Host", host_seated=False)
            for _ in range(4):
                await service.add_computer(channel, host.id, args.level)
            await service.start(channel, host.id)
        await h.idle()
        playing = False
        await ticker
        took = time.perf_counter() - started
        posts = sum(len(h.fake.channel_posts(channel)) for channel in channels)
        left = [c for c in channels if service.table_in_channel(c) is not None]
        await h.stop()
    assert not left, f"tables still playing: {left}"
    ms = sorted(x * 1000 for x in lateness)
    p99 = ms[int(len(ms) * 0.99)]
    long_stalls = sum(x >= LONG_STALL * 1000 for x in ms)
    print(
        f"{args.tables} table(s) of {args.level} computers (pace {args.pace} s, think "
        f"{args.think} s), pictures on: {posts} posts in {took:.1f} s, {len(ms)} ticks"
    )
    print(
        f"loop stall: max {ms[-1]:.1f} ms, p99 {p99:.1f} ms, p50 {statistics.median(ms):.2f} ms;"
        f" stalls of {LONG_STALL * 1000:.0f} ms or more: {long_stalls}"
    )
    if args.culprits:
        print("slowest callbacks (debug mode):")
        for seconds, what in sorted(slow.seen, reverse=True)[:10]:
            print(f"  {seconds * 1000:7.1f} ms  {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1, help="matches played at once")
    parser.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    parser.add_argument("--think", type=float, default=1.0, help="hard's thinking time, s")
    parser.add_argument("--pace", type=float, default=0.0, help="computers' pause, s")
    parser.add_argument("--scale", type=float, default=0.01, help="Discord's clocks' scale")
    parser.add_argument("--culprits", action="store_true", help="list the slowest callbacks")
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
