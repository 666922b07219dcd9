"""The hard player's decision time by kind of decision, with the clock on, as at a table.

Run by hand: ``python bench/hard_time.py [--deals N] [--seed S] [--budget SECONDS]``.
Deals dealt from the seed are played by the hard player in one seat (in deal ``k`` the
dealer is seat ``k % 4`` and hard is its chooser: every seat in turn, contracts
included) and the normal player in the others; each of the hard player's decisions is
timed (wall and CPU seconds) and sorted by kind: a contract, a doubling turn, a card
early in a trick contract (10 or more in hand), in its middle, in the exact endgame, in
Domino. Per kind it prints the decisions, the wall time p50 / p95 / max, the CPU's share
of the wall time (below 1 on a busy machine), the longest round of the search (one
guessed deal: the time the clock's share must leave free), how many searches the work
cap rather than the clock ended, and the guessed deals a search got through at the
median (what the time buys: the more, the less the values' noise). The target, at a
budget of 1 s: p50 >= 0.6 s, p95 <= 1.0 s, max <= 1.5 s; the arena prints the same
times over its decisions, this splits them to show which kind misses.

It records the search's rounds by standing in for the hard module's search stopper
(``_Search``), which it subclasses without changing when a search stops.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's bot

from bot.engine.actions import Action, Choose, Double
from bot.engine.cards import deal_hands
from bot.engine.rules import STANDARD
from bot.engine.view import SeatView
from bot.players import hard
from bot.players.arena import percentile
from bot.players.base import Player
from bot.players.hard import HardPlayer
from bot.players.normal import NormalPlayer
from bot.players.table import decision_rng, play_deals

P50_TARGET, P95_TARGET, MAX_TARGET = 0.6, 1.0, 1.5


class _RecordedSearch(hard._Search):
    """The hard player's search stopper, unchanged, noting its rounds and what ended it."""

    last: _RecordedSearch | None = None

    def __init__(self, budget: float, wall_clock: bool, work_per_second: float) -> None:
        super().__init__(budget, wall_clock, work_per_second)
        self.ended_by_work = False
        self.longest_round = 0.0
        self.rounds = 0
        self.round_began = time.perf_counter()
        _RecordedSearch.last = self

    def spend(self, cards: float) -> bool:
        now = time.perf_counter()
        self.longest_round = max(self.longest_round, now - self.round_began)
        self.round_began = now
        self.rounds += 1
        more = super().spend(cards)
        self.ended_by_work = not more and self.work_left <= 0
        return more


@dataclass
class _Decision:
    kind: str
    wall: float
    cpu: float
    longest_round: float
    ended_by_work: bool
    guesses: int


def kind_of(view: SeatView) -> str:
    """The decision's kind, as this bench sorts them."""
    first = view.legal[0]
    if isinstance(first, Choose):
        return "contract"
    if isinstance(first, Double):
        return "doubling turn"
    assert view.contract is not None
    if view.contract.domino:
        return "card, Domino"
    if len(view.hand) <= hard.ENDGAME_TRICKS:
        return "card, exact endgame"
    return "card, 10+ in hand" if len(view.hand) >= 10 else "card, 5-9 in hand"


@dataclass
class _Timed:
    """The hard player, each decision it is asked timed and sorted by kind."""

    player: HardPlayer
    decisions: list[_Decision]

    def choose_action(self, view: SeatView, rng: random.Random, budget: float) -> Action:
        _RecordedSearch.last = None
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.player.choose_action(view, rng, budget)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        search = _RecordedSearch.last
        longest = search.longest_round if search else 0.0
        by_work = search.ended_by_work if search else False
        rounds = search.rounds if search else 0
        self.decisions.append(_Decision(kind_of(view), wall, cpu, longest, by_work, rounds))
        return action


def run(deals: int, seed: int, budget: float) -> list[_Decision]:
    hard._Search = _RecordedSearch  # type: ignore[misc]  # the stopper, recorded
    decisions: list[_Decision] = []
    rng = decision_rng("hard-time", seed)
    for k in range(deals):
        players: list[Player] = [NormalPlayer() for _ in range(4)]
        players[STANDARD.chooser(k % 4)] = _Timed(HardPlayer(), decisions)
        play_deals(
            players, [deal_hands(rng)], first_dealer=k % 4, budget=budget, seed_key=f"{seed}/{k}"
        )
    return decisions


def report(decisions: list[_Decision], budget: float) -> str:
    by_kind: dict[str, list[_Decision]] = defaultdict(list)
    for decision in decisions:
        by_kind[decision.kind].append(decision)
    lines = [
        f"{'kind':20} {'n':>4} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'CPU/wall':>8}"
        f" {'longest round ms':>16} {'ended by work':>13} {'guesses p50':>11}"
    ]
    for kind, group in [*sorted(by_kind.items()), ("all", decisions)]:
        walls = [d.wall for d in group]
        lines.append(
            f"{kind:20} {len(group):4} {1000 * percentile(walls, 0.5):7.0f}"
            f" {1000 * percentile(walls, 0.95):7.0f} {1000 * max(walls):7.0f}"
            f" {sum(d.cpu for d in group) / sum(walls):8.2f}"
            f" {1000 * max(d.longest_round for d in group):16.1f}"
            f" {sum(d.ended_by_work for d in group):13}"
            f" {statistics.median(d.guesses for d in group):11.0f}"
        )
    if budget != 1.0:
        return "\n".join(lines)
    walls = [d.wall for d in decisions]
    met = (
        percentile(walls, 0.5) >= P50_TARGET
        and percentile(walls, 0.95) <= P95_TARGET
        and max(walls) <= MAX_TARGET
    )
    lines.append(
        f"target (p50 >= {P50_TARGET:g} s, p95 <= {P95_TARGET:g} s, max <= "
        f"{MAX_TARGET:g} s): {'met' if met else 'missed'}; mean CPU/wall "
        f"{statistics.fmean(d.cpu / d.wall for d in decisions):.2f}"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=float, default=1.0)
    args = parser.parse_args()
    if args.deals < 1 or args.budget <= 0:
        parser.error("--deals must be at least 1 and --budget above 0")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"hard at {args.budget:g} s, {args.deals} deals, seed {args.seed}; load {load}")
    print(report(run(args.deals, args.seed, args.budget), args.budget))
    print(f"load after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
