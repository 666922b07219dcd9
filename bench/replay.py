"""Animated deal benchmark: ``python bench/replay.py [--matches 2] [--seed 1]``.

Plays ``--matches`` random matches through the engine and, on one core (the process is
pinned to one CPU where the OS allows), makes every deal of each into the animated GIF
the replay's **Animate deal** posts: the deal's points replayed, each drawn, and the
frames encoded. The trick contracts and Domino are reported apart. Prints the time per
animation and its size, p50 and the largest (target: at most about 2 MB), and the time to
draw one replay picture (the still a step of the replay shows).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bot.engine.simulate import random_match
from bot.render.replay import deal_animation, replay_png
from bot.review import Replay

NAMES = ("Annemarie", "Bob", "Cas", "Dirk-Jan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng = random.Random(args.seed)
    figures: dict[str, list[tuple[float, int, int]]] = {"tricks": [], "domino": []}
    stills: list[float] = []
    for _ in range(args.matches):
        match = random_match(rng, list(NAMES), first_dealer=rng.randrange(4))
        for deal in range(len(match.deals)):
            replay = Replay(match)  # a fresh one: the deal's points are replayed too
            start = time.perf_counter()
            points = replay.deal_points(deal)
            data = deal_animation(points, NAMES)
            took = time.perf_counter() - start
            kind = "domino" if replay.label(deal).contract == "domino" else "tricks"
            figures[kind].append((took, len(data), len(points)))
            start = time.perf_counter()
            replay_png(points[len(points) // 2], NAMES)
            stills.append(time.perf_counter() - start)
    for kind, found in figures.items():
        times = sorted(t for t, _, _ in found)
        sizes = sorted(s for _, s, _ in found)
        frames = sorted(f for _, _, f in found)
        print(
            f"{kind:<7} {len(found):>3} deals ({frames[0]}-{frames[-1]} frames)  time p50 "
            f"{statistics.median(times):.2f} s  max {times[-1]:.2f} s   GIF p50 "
            f"{statistics.median(sizes) / 1e6:.2f} MB  max {sizes[-1] / 1e6:.2f} MB"
        )
    stills.sort()
    print(
        f"one replay picture: p50 {statistics.median(stills) * 1000:.0f} ms  "
        f"max {stills[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
