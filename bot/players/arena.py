"""Duplicate arena: how many points a level gains over another, with a confidence interval.

``python -m bot.players.arena --candidate hard --baseline normal --deals N --seed S
[--budget SECONDS] [--baseline-budget SECONDS] [--workers W] [--variant twelve]
[--house-rules '{"heart_lead": "broken"}'] [--hard '{"inference": "off"}']
[--versus '{"inference": "reject"}']``

``--hard`` sets the hard player's switches for an ablation (see :func:`hard_player`).
``--versus`` plays the same deals again with other switches and reports the difference
deal by deal (:func:`paired_report`): with ``"wall_clock": false`` in both, a deal
differs only where the two players' decisions do, so the pairing removes the deals' luck.

Design. The deals are grouped into matches (of the rules' number of deals, 11 in the
standard game; the last one may be cut short), dealt from the seed, and the players choose
the contracts as in a real match, so contract choice and doubling are measured too. Every
match is played five times on the same cards: once with four baselines, and once with the
candidate in each seat against three baselines. The candidate's edge in a deal is its
score in its seat minus what the baseline scored in that seat on the same cards, averaged
over the four seats; the edge per match is the per-deal mean times the deals of a match.
The interval is a 95% t-interval over deals; deals of one match are not independent
(contracts chosen early shape the later ones), but the dependence is negative (the
contracts of a match are fixed), so treating them as independent overstates the spread
rather than understating it.

Per contract, the candidate's score in a contract is paired with the baseline seat's
score in the same contract of the same match (each contract is played once per match;
a trump option that one run skipped is left out).

Decision times are the candidate's, over the decisions it was asked (one legal action
is applied without asking), measured in the process that played (one core each with
``--workers 1``, the default).
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.engine.actions import Action
from bot.engine.cards import deal_hands
from bot.engine.rules import STANDARD, Rules, RulesError, rules_for
from bot.engine.view import SeatView

from .base import Player
from .hard import HardPlayer
from .inference import Model
from .levels import LEVELS, player_for
from .pool import DEFAULT_BUDGET
from .table import Hands, Played, decision_rng, play_deals


@dataclass
class MatchResult:
    """The paired figures of one match: per-deal edges, per-contract pairs, times."""

    edges: list[float] = field(default_factory=list)
    by_contract: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    times: list[float] = field(default_factory=list)


def match_deals(seed: int, match: int, deals: int) -> list[Hands]:
    """The hands of the first ``deals`` deals of match number ``match``."""
    rng = decision_rng("arena", seed, match)
    return [deal_hands(rng) for _ in range(deals)]


def hard_player(options: Mapping[str, object]) -> HardPlayer:
    """A hard player with switches from ``--hard``: ``inference`` (weight, reject, off),
    ``simulate_choice`` (true, false), ``endgame_tricks`` (0 turns the endgame off),
    ``double_margin`` and ``trump_premium`` (its betting), ``noise`` (how much a card
    must beat the normal player's by), ``reject_tries`` (rejection's draws for one kept
    guess), ``wall_clock`` (false: the
    work cap alone ends a search, so a run replays exactly) and the inference model's
    fields (``choice_temperature``, ``double_temperature``, ``card_slip``)."""
    defaults = {
        **{name: f.default for name, f in Model.__dataclass_fields__.items()},
        **{name: p.default for name, p in inspect.signature(HardPlayer).parameters.items()},
    }
    for name, value in options.items():
        if name not in defaults or name == "model":
            raise TypeError(f"there is no switch {name!r}")
        if not _same_kind(value, defaults[name]):
            like = json.dumps(0.0 if defaults[name] is None else defaults[name])
            raise TypeError(f"{name} must be like {like}, not {value!r}")
    fields = set(Model.__dataclass_fields__)
    model = Model(**{k: v for k, v in options.items() if k in fields})  # type: ignore[arg-type]
    rest = {k: v for k, v in options.items() if k not in fields}
    return HardPlayer(model=model, **rest)  # type: ignore[arg-type]


def _same_kind(value: object, default: object) -> bool:
    """A switch's value is of its default's kind: a bool, a number or a string (a number
    where the default is None: ``work_per_second``)."""
    if default is None:
        default = 0.0
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, int | float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))


def play_match(
    candidate: str,
    baseline: str,
    seed: int,
    match: int,
    deals: int,
    budget: float,
    rules: Rules = STANDARD,
    hard: Mapping[str, object] | None = None,
    baseline_budget: float | None = None,
) -> MatchResult:
    """One match, five times: four baselines, then the candidate in each seat. The
    baselines think for ``baseline_budget`` when it is given (hard at 1 s against hard
    at 0.25 s), else for ``budget`` as the candidate does."""
    hands = match_deals(seed, match, deals)
    first_dealer = match % 4

    def player(level: str) -> Player:
        return hard_player(hard) if hard and level == "hard" else player_for(level)

    def run(seats: Sequence[str], tag: str, candidate_seat: int | None = None) -> Played:
        players = [player(level) for level in seats]
        if baseline_budget is not None:
            players = [
                p if seat == candidate_seat else _Budgeted(p, baseline_budget)
                for seat, p in enumerate(players)
            ]
        key = f"{seed}/{match}/{tag}"
        return play_deals(
            players, hands, first_dealer=first_dealer, budget=budget, seed_key=key, rules=rules
        )

    base = run([baseline] * 4, "base")
    result = MatchResult()
    per_deal = [0.0] * deals
    for seat in range(4):
        levels = [baseline] * 4
        levels[seat] = candidate
        cand = run(levels, f"cand{seat}", seat)
        result.times.extend(cand.times[seat])
        for k in range(deals):
            per_deal[k] += (cand.deals[k].scores[seat] - base.deals[k].scores[seat]) / 4
        base_by_contract = {d.contract: d.scores[seat] for d in base.deals}
        for d in cand.deals:
            if d.contract in base_by_contract:
                diff = d.scores[seat] - base_by_contract[d.contract]
                result.by_contract[d.contract].append(diff)
    result.edges = per_deal
    return result


@dataclass
class _Budgeted:
    """A player that thinks for its own budget, whatever the table gives."""

    player: Player
    budget: float

    def choose_action(self, view: SeatView, rng: random.Random, budget: float) -> Action:
        return self.player.choose_action(view, rng, self.budget)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (t for small samples)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, _t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))


def _t95(df: int) -> float:
    table = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
    if df in table:
        return table[df]
    return 2.23 if df < 15 else 2.13 if df < 20 else 2.09 if df < 30 else 2.04 if df < 60 else 1.98


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def report(args: argparse.Namespace, results: list[MatchResult], rules: Rules = STANDARD) -> str:
    edges = [e for r in results for e in r.edges]
    times = [t for r in results for t in r.times]
    mean, half = interval(edges)
    n = rules.deals
    lines = [
        f"arena: {args.candidate} vs three {args.baseline}, {len(edges)} deals "
        f"({len(results)} matches), seed {args.seed}, budget {args.budget:g} s"
        + (
            f" (baselines {args.baseline_budget:g} s)"
            if getattr(args, "baseline_budget", None) is not None
            else ""
        )
        + ", "
        f"rules {json.dumps(rules.header())}"
        + (f", hard {json.dumps(args.hard)}" if getattr(args, "hard", None) else ""),
        f"edge per deal:  {mean:+.2f}  (95% CI {mean - half:+.2f} .. {mean + half:+.2f})",
        f"edge per match: {n * mean:+.1f}  (95% CI {n * (mean - half):+.1f} .. "
        f"{n * (mean + half):+.1f})",
        "per contract (candidate minus baseline in the same seat and contract):",
    ]
    by_contract: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for cid, diffs in r.by_contract.items():
            by_contract[cid].extend(diffs)
    for cid in sorted(by_contract):
        m, h = interval(by_contract[cid])
        lines.append(f"  {cid:15s} n={len(by_contract[cid]):4d}  {m:+7.2f} ± {h:.2f}")
    if times:
        lines.append(
            f"{args.candidate} decision time over {len(times)} decisions: "
            f"p50 {1000 * percentile(times, 0.5):.2f} ms, "
            f"p95 {1000 * percentile(times, 0.95):.2f} ms, max {1000 * max(times):.2f} ms"
        )
    return "\n".join(lines)


def paired_report(
    args: argparse.Namespace, first: list[MatchResult], second: list[MatchResult], rules: Rules
) -> str:
    """The ``--versus`` run's edge, and the ``--hard`` run's minus it, paired by deal."""
    ones = [e for r in first for e in r.edges]
    others = [e for r in second for e in r.edges]
    n = rules.deals
    mean, half = interval(others)
    diff, spread = interval([a - b for a, b in zip(ones, others, strict=True)])
    differing = sum(1 for a, b in zip(ones, others, strict=True) if a != b)
    return "\n".join(
        [
            f"versus {json.dumps(args.versus)}: edge per match {n * mean:+.1f}  "
            f"(95% CI {n * (mean - half):+.1f} .. {n * (mean + half):+.1f})",
            f"--hard minus --versus, paired by deal: {n * diff:+.1f} a match  "
            f"(95% CI {n * (diff - spread):+.1f} .. {n * (diff + spread):+.1f}); "
            f"{differing} of {len(ones)} deals differ",
        ]
    )


def run_arena(args: argparse.Namespace, rules: Rules = STANDARD) -> list[MatchResult]:
    sizes = [rules.deals] * (args.deals // rules.deals)
    if args.deals % rules.deals:
        sizes.append(args.deals % rules.deals)
    hard = getattr(args, "hard", None)
    jobs = [
        (
            args.candidate,
            args.baseline,
            args.seed,
            m,
            size,
            args.budget,
            rules,
            hard,
            getattr(args, "baseline_budget", None),
        )
        for m, size in enumerate(sizes)
    ]
    if args.workers <= 1:
        results: Iterator[MatchResult] = (play_match(*job) for job in jobs)
        return [_progress(i, len(jobs), r) for i, r in enumerate(results)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = pool.map(play_match, *zip(*jobs, strict=True))
        return [_progress(i, len(jobs), r) for i, r in enumerate(results)]


def _progress(index: int, count: int, result: MatchResult) -> MatchResult:
    """Report each finished match on stderr, for long runs in the background."""
    print(f"match {index + 1}/{count}: edge {sum(result.edges):+.0f}", file=sys.stderr, flush=True)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.players.arena", description=__doc__)
    parser.add_argument("--candidate", choices=LEVELS, required=True)
    parser.add_argument("--baseline", choices=LEVELS, required=True)
    parser.add_argument("--deals", type=int, help="default: one match of the variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument(
        "--baseline-budget",
        type=float,
        help="the baselines' seconds a decision (default: --budget)",
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--variant", default=STANDARD.variant, help="standard or twelve")
    parser.add_argument(
        "--house-rules", default="{}", help='a JSON object, e.g. \'{"heart_lead": "broken"}\''
    )
    parser.add_argument(
        "--hard", default="{}", help='the hard player\'s switches, e.g. \'{"inference": "off"}\''
    )
    parser.add_argument(
        "--versus", help="other switches to play the same deals with, paired deal by deal"
    )
    args = parser.parse_args(argv)
    try:
        rules = rules_for(args.variant, json.loads(args.house_rules))
    except json.JSONDecodeError:
        parser.error(f"--house-rules must be a JSON object, not {args.house_rules!r}")
    except RulesError as error:
        parser.error(str(error))
    args.hard = _switches(parser, "--hard", args.hard)
    if args.versus is not None:
        args.versus = _switches(parser, "--versus", args.versus)
        if "hard" not in (args.candidate, args.baseline):
            parser.error("--versus compares hard players: hard must be candidate or baseline")
    if args.deals is None:
        args.deals = rules.deals
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.baseline_budget is not None and args.baseline_budget < 0:
        parser.error("--baseline-budget must be at least 0")
    results = run_arena(args, rules)
    print(report(args, results, rules), flush=True)
    if args.versus is not None:
        other = run_arena(argparse.Namespace(**{**vars(args), "hard": args.versus}), rules)
        print(paired_report(args, results, other, rules), flush=True)


def _switches(parser: argparse.ArgumentParser, flag: str, text: str) -> dict[str, object]:
    """The hard player's switches from ``flag``'s JSON, or the parser's one-line refusal."""
    try:
        switches: dict[str, object] = json.loads(text)
        hard_player(switches)
    except (json.JSONDecodeError, TypeError, ValueError, AttributeError) as error:
        parser.error(f"{flag} must be a JSON object of the hard player's switches: {error}")
    return switches


if __name__ == "__main__":
    main()
