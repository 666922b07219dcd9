"""Picture rendering benchmark: ``python bench/render.py [--matches 3] [--seed 1]``.

Plays ``--matches`` random matches through the engine and takes the table's public view
after every action (as the deal message would show it), then draws, on one core (the
process is pinned to one CPU where the OS allows), every distinct scene: the table
pictures of the trick deals, the Domino pictures, and the score chart after every deal.
The deal pictures are timed twice: drawn fresh (every part painted on one canvas, nothing
kept: what a picture costs on its own) and as the bot draws them, each scene after the
one before with the parts kept (:mod:`bot.render.layers`; the cache of whole pictures
bypassed). Prints p50, p95 and the largest time per picture kind, and the PNG sizes
(targets: a table picture p95 <= 25 ms, every PNG <= 150 KB). The first picture of a
process also loads the font and draws the card faces; that cold start is printed on its
own.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from bot import i18n
from bot.engine import Match, Phase
from bot.render import chart, domino_image, layers, table_image
from bot.render.chart import ChartData
from bot.render.draw import png
from bot.render.scene import TableScene, scene_of
from bot.store import Computer, TableSettings
from bot.tables.table import Seat, Table, view_of

NAMES = ("Annemarie", "Bob", "Cas", "Dirk-Jan")


def scenes(matches: int, seed: int) -> tuple[list[TableScene], list[ChartData]]:
    """Every distinct scene of ``matches`` random matches, and each match's chart after
    every deal."""
    seen: dict[TableScene, None] = {}
    charts = []
    rng = random.Random(seed)
    for _ in range(matches):
        match = Match(list(NAMES))
        table = Table(1, 1, 1, 1, TableSettings())
        table.seats = [Seat(Computer("easy"), name) for name in NAMES]
        table.match = match
        while not match.is_over:
            if match.phase is Phase.NEEDS_DEAL:
                match.deal_random(rng)
            match.apply(rng.choice(match.legal_actions()))
            seen.setdefault(scene_of(view_of(table)))
            done = [d for d in match.deals if d.is_done and d.contract is not None]
            if match.phase in (Phase.NEEDS_DEAL, Phase.OVER) and done:
                charts.append(
                    ChartData(
                        NAMES,
                        tuple(d.contract.id for d in done if d.contract is not None),
                        tuple(tuple(d.final_scores()) for d in done),
                        match.rules.deals,
                    )
                )
    return list(seen), charts


def drawn_fresh(scene: TableScene) -> bytes:
    """The deal picture with every part painted on one canvas: nothing kept."""
    kind = domino_image if scene.domino else table_image
    with i18n.using(scene.language):
        return png(layers.fresh(kind.background(), kind.parts(scene)))


def measure(draw: Callable[[], bytes]) -> tuple[float, int]:
    start = time.perf_counter()
    data = draw()
    return (time.perf_counter() - start) * 1000, len(data)


def report(kind: str, figures: list[tuple[float, int]]) -> None:
    times = sorted(t for t, _ in figures)
    sizes = sorted(s for _, s in figures)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(
        f"{kind:<18} {len(times):>5} pictures  time p50 {statistics.median(times):5.1f} ms  "
        f"p95 {p95:5.1f} ms  max {times[-1]:5.1f} ms   PNG p50 "
        f"{statistics.median(sizes) / 1000:5.1f} KB  max {sizes[-1] / 1000:5.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    all_scenes, charts = scenes(args.matches, args.seed)
    draw_table = table_image.table_png.__wrapped__
    draw_domino = domino_image.domino_png.__wrapped__
    draw_chart = chart.chart_png.__wrapped__
    cold, _ = measure(lambda: drawn_fresh(all_scenes[0]))
    print(f"cold start (font, card faces): {cold:.0f} ms")
    tables = [measure(lambda s=s: drawn_fresh(s)) for s in all_scenes if not s.domino]
    dominoes = [measure(lambda s=s: drawn_fresh(s)) for s in all_scenes if s.domino]
    kept = [measure(lambda s=s: draw_table(s)) for s in all_scenes if not s.domino]
    kept_dominoes = [measure(lambda s=s: draw_domino(s)) for s in all_scenes if s.domino]
    charted = [measure(lambda c=c: draw_chart(c)) for c in charts]
    report("table", tables)
    report("domino", dominoes)
    report("table, parts kept", kept)
    report("domino, parts kept", kept_dominoes)
    report("chart", charted)


if __name__ == "__main__":
    main()
