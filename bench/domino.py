"""How much better than the normal player the hard player lays its cards in Domino.

Run by hand: ``python bench/domino.py [--deals N] [--seed S] [--budget SECONDS]
[--workers W]``. The arena's Domino figure is a whole contract's: the choice of when to
call it, the doubling and the cards, all at once. This bench keeps the cards alone. Each
deal is dealt from the seed and played as Domino with no doubles, first by four normal
players, then with the hard player in each seat in turn (its clock on, as at a table)
against three normal players. Hard's edge in a deal is its score in its seat less the
normal player's there, averaged over the seats; the bench prints the mean edge a deal
with its 95% interval, in how many seat-deals hard's cards changed the outcome, and the
guessed deals its searches got through at the median (Domino's last holder scores -50,
so a card's value is a mean of 0s and -50s: its noise falls with the guesses).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's bot

from hard_time import _Decision, _RecordedSearch, _Timed  # bench/: its guesses

from bot.engine.actions import Action, Choose, Double
from bot.engine.cards import deal_hands
from bot.engine.match import Match
from bot.engine.view import seat_view
from bot.players import hard
from bot.players.arena import interval
from bot.players.base import Player
from bot.players.hard import HardPlayer
from bot.players.normal import NormalPlayer
from bot.players.table import decision_rng


def play(
    number: int, seed: int, seat: int | None, budget: float, searches: list[_Decision]
) -> list[int]:
    """Deal ``number``'s final scores with the hard player in ``seat`` (``None``: every
    seat normal), its searches noted in ``searches``."""
    match = Match(first_dealer=number % 4)
    match.start_deal(deal_hands(decision_rng("domino-bench", seed, number)))
    deal = match.deal
    assert deal is not None
    players: list[Player] = [NormalPlayer() for _ in range(4)]
    if seat is not None:
        players[seat] = _Timed(HardPlayer(), searches)
    step = 0
    while not deal.is_done:
        to_act = deal.to_act
        assert to_act is not None
        legal = match.legal_actions()
        if isinstance(legal[0], Choose):
            action: Action = Choose("domino")
        elif isinstance(legal[0], Double):
            action = Double(frozenset())  # no doubles: the cards alone
        elif len(legal) == 1:
            action = legal[0]
        else:
            rng = decision_rng("domino-bench", seed, number, seat, step)
            action = players[to_act].choose_action(seat_view(match, to_act), rng, budget)
            step += 1
        match.apply(action, to_act)
    return deal.final_scores()


def edges(args: tuple[int, int, float]) -> tuple[list[int], list[int]]:
    """One deal: the normal players' scores, and hard's score in each seat; with the
    guesses of hard's searches."""
    number, seed, budget = args
    hard._Search = _RecordedSearch  # type: ignore[misc]  # the stopper, recorded
    searches: list[_Decision] = []
    base = play(number, seed, None, budget, searches)
    scores = [play(number, seed, seat, budget, searches)[seat] for seat in range(4)]
    return [s - b for s, b in zip(scores, base, strict=True)], [d.guesses for d in searches]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=64)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.deals < 2 or args.budget <= 0 or args.workers < 1:
        parser.error("--deals must be at least 2, --budget above 0, --workers at least 1")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Domino, hard at {args.budget:g} s against normal, {args.deals} deals; load {load}")
    jobs = [(number, args.seed, args.budget) for number in range(args.deals)]
    per_deal, differ, guesses = [], 0, []
    with ProcessPoolExecutor(args.workers) as pool:
        for seats, rounds in pool.map(edges, jobs):
            per_deal.append(statistics.fmean(seats))
            differ += sum(1 for edge in seats if edge)
            guesses.extend(rounds)
    mean, half = interval(per_deal)
    print(
        f"hard's edge a deal: {mean:+.2f} points (95% CI {mean - half:+.2f} .. "
        f"{mean + half:+.2f}); outcome changed in {differ} of {4 * args.deals} seat-deals; "
        f"guesses a search p50 {statistics.median(guesses):.0f} over {len(guesses)} searches"
    )
    print(f"load after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
