"""The match review's noise, its stability and its time: what its grade lines rest on.

Run by hand: ``python bench/review.py [--matches N] [--seed S] [--work W] [--workers K]
[--skip-time] [--records FILE] [--save FILE] [--load FILE]``. Matches are dealt from the
seed, cycling through the standard game, ``twelve`` with ``heart_lead: broken`` and
``first_lead: dealer``, and the standard game with ``domino_doubling: ace_or_two``. In
each, seat 0 is the hard player on the review's own work a batch (its seed differs from
the review's), seats 1-3 the normal player. It prints the CPU of the reviews' deals (a
player's match on average beside its target, and the costliest of them), then:

(a) noise: seat 0's decisions are the search's own choices, so whatever the review
    (another seed) says they lost is its noise; the share of them it does not flag (under
    the inaccuracy line and not a certain loss) must be at least 95%, and the percentiles
    of their loss as a share of the stake show where the line could go;
(b) stability: seats 1-3 (the normal player, who makes real mistakes) are reviewed
    twice, with two seeds; of the decisions either review flags, the share given the same
    grade by both must be at least 90%;
(c) time: one player's review of the first match through :func:`~bot.review.run_review`
    with ``--workers`` low-priority worker processes (its wall time, and the CPU time of
    its deals), with the machine's load average; ``--skip-time`` leaves it out, for a
    run that measures the grades alone.

``--records`` keeps the matches played in a file and reads them from it when it holds the
same ones (a seed's matches take minutes to play). ``--save`` keeps every reviewed
decision's loss, stake and certainty; ``--load`` prints (a) and (b) again from such a file
with the grade lines as the code has them now, without searching.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's bot

from bot.engine.match import Match
from bot.engine.record import to_record
from bot.engine.rules import rules_for
from bot.engine.view import seat_view
from bot.players.hard import HardPlayer
from bot.players.normal import NormalPlayer
from bot.players.table import decision_rng
from bot.review import LINES, Grade, ReviewSettings, grade, review_deal, review_executor, run_review
from bot.review.result import DealReview

RULES = [
    ("standard", {}),
    ("twelve", {"heart_lead": "broken", "first_lead": "dealer"}),
    ("standard", {"domino_doubling": "ace_or_two"}),
]
NOISE_TARGET = 0.95
AGREEMENT_TARGET = 0.90
#: CPU seconds for one player's review of an 11-deal match, whatever its decisions.
CPU_TARGET = 30


def play_match(index: int, seed: int, work: int) -> dict[str, Any]:
    """Match ``index``: seat 0 hard on ``work`` (its own seed), seats 1-3 normal."""
    variant, house_rules = RULES[index % len(RULES)]
    rng = random.Random(f"bench-review/{seed}/{index}")
    rules = rules_for(variant, house_rules)
    match = Match(
        ("Hard", "Normal 1", "Normal 2", "Normal 3"), first_dealer=rng.randrange(4), rules=rules
    )
    hard, normal = HardPlayer(wall_clock=False), NormalPlayer()
    step = 0
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        seat = match.to_act
        view = seat_view(match, seat)
        if seat == 0 and len(view.legal) > 1:
            budget = work / hard.work_per_second
            action = hard.choose_action(view, decision_rng("bench-play", seed, index, step), budget)
        else:
            action = normal.choose_action(view, rng, 0.0)
        match.apply(action)
        step += 1
    return to_record(match)


def timed_deal(
    record: dict[str, Any], seat: int, deal: int, settings: ReviewSettings
) -> tuple[DealReview, float]:
    start = time.process_time()
    review = review_deal(record, seat, deal, settings)
    return review, time.process_time() - start


def rows(reviews: list[tuple[int, int, int, DealReview]]) -> list[dict[str, Any]]:
    """One row per decision: (match, seat, seed) and its loss and stake."""
    out = []
    for match, seat, seed, deal in reviews:
        for d in deal.decisions:
            out.append(
                {
                    "match": match,
                    "seat": seat,
                    "seed": seed,
                    "deal": d.deal,
                    "step": d.address.step,
                    "kind": d.kind,
                    "loss": d.loss,
                    "stake": d.stake,
                    "certain": d.certain,
                    "guesses": d.guesses,
                }
            )
    return out


def _key(row: dict[str, Any]) -> tuple[int, int, int, int]:
    return row["match"], row["seat"], row["deal"], row["step"]


def graded(row: dict[str, Any]) -> Grade | None:
    """A row's grade by the lines as the code has them now (a file saved before the
    review kept certainty counts none as certain)."""
    return grade(row["loss"], row["stake"], row.get("certain", False))


def figures(data: list[dict[str, Any]], seeds: tuple[int, int]) -> str:
    own = [r for r in data if r["seat"] == 0 and r["seed"] == seeds[0]]
    shares = sorted(r["loss"] / r["stake"] for r in own)
    under = sum(1 for r in own if graded(r) is None)
    certain = sum(1 for r in own if r.get("certain", False))
    lines = [
        "grade lines (share of the stake): " + ", ".join(f"{g.value} {share}" for g, share in LINES)
    ]
    if shares:
        pct = {
            p: shares[min(len(shares) - 1, int(p / 100 * len(shares)))] for p in (50, 90, 95, 99)
        }
        by_kind = {}
        for kind in ("choose", "double", "play"):
            k = [r for r in own if r["kind"] == kind]
            if k:
                by_kind[kind] = f"{sum(1 for r in k if graded(r) is None)}/{len(k)}"
        lines.append(
            f"(a) noise: {under} of {len(shares)} of the search's own decisions not flagged: "
            f"{under / len(shares):.1%} (target {NOISE_TARGET:.0%}); by kind {by_kind}; "
            f"{certain} certain losses among them"
        )
        lines.append(
            "    their loss as a share of the stake: "
            + ", ".join(f"p{p} {v:.3f}" for p, v in pct.items())
            + f", max {shares[-1]:.3f}"
        )
    first = {_key(r): r for r in data if r["seat"] > 0 and r["seed"] == seeds[0]}
    second = {_key(r): r for r in data if r["seat"] > 0 and r["seed"] == seeds[1]}
    flagged = same = 0
    counts = {g: 0 for g in Grade}
    certain = sum(1 for r in first.values() if r.get("certain", False))
    for key, a in first.items():
        b = second[key]
        ga, gb = graded(a), graded(b)
        if ga is None and gb is None:
            continue
        flagged += 1
        same += ga is gb
        if ga is not None:
            counts[ga] += 1
    if flagged:
        lines.append(
            f"(b) stability: {same} of {flagged} decisions flagged by either review graded "
            f"the same: {same / flagged:.1%} (target {AGREEMENT_TARGET:.0%}); of {len(first)} "
            "normal decisions, the first review flags "
            + ", ".join(f"{counts[g]} {g.value}" for g in Grade)
            + f" ({certain} of its decisions certain losses)"
        )
    return "\n".join(lines)


async def time_one(record: dict[str, Any], settings: ReviewSettings, workers: int) -> str:
    load = os.getloadavg()
    executor = review_executor(workers)
    try:
        start = time.perf_counter()
        review = await run_review(record, 1, executor=executor, settings=settings, parallel=workers)
        wall = time.perf_counter() - start
    finally:
        executor.shutdown()
    return (
        f"(c) time: one player's review of an {len(review.deals)}-deal match "
        f"({len(review.decisions)} decisions), {workers} worker(s): {wall:.1f} s wall "
        f"(load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f})"
    )


def played_matches(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The matches of the seed, played, or read from ``--records`` when it holds them."""
    key = {"seed": args.seed, "work": args.work, "matches": args.matches}
    if args.records and os.path.exists(args.records):
        with open(args.records) as file:
            kept = json.load(file)
        if kept["key"] == key:
            print(f"read {args.matches} matches from {args.records}")
            return list(kept["records"])
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        records = list(
            pool.map(
                play_match,
                range(args.matches),
                [args.seed] * args.matches,
                [args.work] * args.matches,
            )
        )
    played = time.perf_counter() - start
    print(f"played {args.matches} matches in {played:.0f} s (work {args.work} a decision)")
    if args.records:
        with open(args.records, "w") as file:
            json.dump({"key": key, "records": records}, file)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=int, default=ReviewSettings().work)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-time", action="store_true", help="leave out (c)")
    parser.add_argument("--records", help="a file keeping the matches played")
    parser.add_argument("--save")
    parser.add_argument("--load")
    args = parser.parse_args()
    seeds = (args.seed + 100, args.seed + 200)
    if args.load:
        with open(args.load) as file:
            print(figures(json.load(file), seeds))
        return
    records = played_matches(args)
    if not args.skip_time:
        settings = ReviewSettings(seeds[0], args.work)
        print(asyncio.run(time_one(records[0], settings, args.workers)))
    jobs = []
    for m, record in enumerate(records):
        reviews = [(0, seeds[0])] + [(seat, seed) for seat in (1, 2, 3) for seed in seeds]
        for seat, seed in reviews:
            for deal in range(len(record["deals"])):
                jobs.append((m, seat, seed, deal, record))
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [
            pool.submit(timed_deal, record, seat, deal, ReviewSettings(seed, args.work))
            for m, seat, seed, deal, record in jobs
        ]
        results = [f.result() for f in futures]
    cpu = sum(t for _, t in results)
    decisions = sum(len(r.decisions) for r, _ in results)
    per_player: dict[tuple[int, int, int], float] = {}
    for (m, seat, seed, _, _), (_, seconds) in zip(jobs, results, strict=True):
        per_player[m, seat, seed] = per_player.get((m, seat, seed), 0.0) + seconds
    print(
        f"reviewed {len(jobs)} deals ({decisions} decisions) in "
        f"{time.perf_counter() - start:.0f} s wall, "
        f"{cpu:.0f} s CPU: {cpu / decisions:.2f} s CPU a decision, "
        f"{cpu / (args.matches * 7):.0f} s CPU a player's match (target {CPU_TARGET} s), "
        f"the costliest {max(per_player.values()):.0f} s; load average {os.getloadavg()[0]:.2f}"
    )
    data = rows(
        [(m, seat, seed, r) for (m, seat, seed, _, _), (r, _) in zip(jobs, results, strict=True)]
    )
    if args.save:
        with open(args.save, "w") as file:
            json.dump(data, file)
    print(figures(data, seeds))


if __name__ == "__main__":
    main()
