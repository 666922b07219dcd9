"""Event-loop stall benchmark: ``python bench/stall.py [--tables 1] [--level hard]``.

Plays whole matches of four computers through the real bot (``BonkenBot``: the table
service, the store, the presenter with its pictures, the hand controller, the computers'
process pool) against the test harness's fake Discord, and measures how long the event
loop was kept from running: a ticker asks to wake every millisecond, and each wake-up's
lateness is a stall. While the loop stalls, no interaction is answered and no heartbeat
is sent. A stall is the loop's own work (callbacks that do not yield), or the process
waiting for a core (a busy machine) or for the GIL (the picture thread, the pool's
threads); so each stall is also counted in CPU time of the loop's thread, which is the
loop's own work alone.

Prints the longest stall in wall time and in the loop thread's CPU time, the 99th and
50th percentiles of the wall lateness, and how many stalls passed 50 ms. ``--culprits``
times every callback the loop runs in CPU time of its thread and lists the slowest
(the timing itself costs a little; use it to find, not to measure).

The fake Discord's clocks (its rate-limit windows) and the presenter's edit pacing run
``--scale`` times real speed (0.01: a match takes seconds); the computers wait ``--pace``
seconds before each move and think ``--think`` seconds (hard; the bot's default is 1).
The fake Discord keeps no record of the requests (the tests' way): the real bot has
none, and a record of thousands of edits would lengthen the collector's passes here.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests.*
from ticker import LoopTicker

from bot.ui.pacing import Pacing
from tests.discord.discord_harness import CHANNEL_ID, FakeDiscord, Harness

TICK = 0.001
"""Seconds the ticker asks to sleep each time."""
LONG_STALL = 0.050


class SlowCallbacks:
    """Every callback the loop runs (``asyncio.Handle._run``), timed in CPU time of the
    loop's thread: the slowest, with what they were."""

    def __init__(self, keep: int = 10) -> None:
        self.keep = keep
        self.seen: list[tuple[float, str]] = []
        self._run = asyncio.Handle._run

    def __enter__(self) -> SlowCallbacks:
        run, seen, keep = self._run, self.seen, self.keep

        def timed(handle: asyncio.Handle) -> None:
            began = time.thread_time()
            run(handle)
            took = time.thread_time() - began
            if len(seen) < keep or took > seen[-1][0]:
                seen.append((took, _what(handle)))
                seen.sort(reverse=True)
                del seen[keep:]

        asyncio.Handle._run = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.Handle._run = self._run  # type: ignore[method-assign]


def _what(handle: asyncio.Handle) -> str:
    """A callback as a reader wants it: a task's coroutine and where it waits now (the
    end of the stretch it ran), else the callback itself."""
    task = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        frame = getattr(coro, "cr_frame", None)
        while frame is not None and getattr(coro, "cr_await", None) is not None:
            inner = coro.cr_await
            if getattr(inner, "cr_frame", None) is None:
                break
            coro, frame = inner, inner.cr_frame
        where = "finished" if frame is None else f"{frame.f_code.co_filename}:{frame.f_lineno}"
        return f"{task.get_coro().__qualname__} (now at {where})"
    return repr(handle)[:200]


async def measure(args: argparse.Namespace) -> None:
    discord_pace = Pacing()
    pacing = Pacing(
        edit_interval=discord_pace.edit_interval * args.scale,
        restart_quiet=discord_pace.restart_quiet * args.scale,
        archive_after=0.0,
    )
    slow = SlowCallbacks()
    with tempfile.TemporaryDirectory() as folder, slow if args.culprits else nullcontext():
        fake = FakeDiscord(time_scale=args.scale, keep_calls=False)
        h = Harness(Path(folder), pace=args.pace, time_scale=args.scale, pacing=pacing, fake=fake)
        h.bot.settings = dataclasses.replace(h.bot.settings, think_seconds=args.think)
        await h.start()
        ticker = LoopTicker(TICK)
        ticker.start()
        started = time.perf_counter()
        service = h.parts.service
        host = h.user("Host")
        channels = [CHANNEL_ID + n for n in range(args.tables)]
        for channel in channels:
            await service.open_table(1, channel, host.id, "Host", host_seated=False)
            for _ in range(4):
                await service.add_computer(channel, host.id, args.level)
            await service.start(channel, host.id)
        while any(service.table_in_channel(c) is not None for c in channels):
            await asyncio.sleep(0.5)  # whole matches: longer than the harness's idle() waits
        await h.idle()
        await ticker.stop()
        took = time.perf_counter() - started
        posts = sum(len(h.fake.channel_posts(channel)) for channel in channels)
        left = [c for c in channels if service.table_in_channel(c) is not None]
        await h.stop()
    assert not left, f"tables still playing: {left}"
    ms = sorted(x * 1000 for x in ticker.lateness)
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
    own = max(ticker.busy) * 1000
    print(f"loop's own work between two ticks (CPU of its thread): max {own:.1f} ms")
    if args.culprits:
        print("slowest callbacks (CPU of the loop's thread):")
        for seconds, what in slow.seen:
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
