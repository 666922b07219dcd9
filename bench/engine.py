"""Engine speed: random playouts per contract, full random matches, and OpenSpiel's hearts.

Run by hand: ``python bench/engine.py [--seconds S]``. It prints

(a) random legal playouts of one deal from a freshly dealt position, per contract, per
    second, in one process, through the fast path (the compiled kernel where it was
    built);
(b) full random matches per second through the public API (``Match.apply``);
(c) policy playouts (four normal players, as the hard player's search plays them) from
    dealt positions of every contract, per second, in the installed kernel with the
    installed normal player (both compiled where they were built) and in the pure-Python
    kernel with the pure-Python normal player;
and, where ``open_spiel`` is installed (``pip install -e '.[bench]'``), OpenSpiel's C++
``hearts`` played out with random legal moves from a dealt state (no passing), driven
the usual way from Python, timed between Heartshunting's random playouts in the
installed kernel and in the pure-Python one, so the three share the machine's load.
The last lines are then ``playouts ratio vs OpenSpiel hearts: R`` (our Heartshunting
playouts / OpenSpiel's, target >= 3.0) and the same for the pure-Python kernel.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's bot

from bot.engine.actions import PASS
from bot.engine.cards import deal_hands
from bot.engine.contracts import CONTRACTS
from bot.engine.deal import Deal
from bot.engine.fast import (
    COMPILED,
    FastPosition,
    Policy,
    policy_playout,
    position_from_deal,
    python_policy_playout,
    python_random_playout,
    random_playout,
)
from bot.engine.simulate import random_match
from bot.players.policy import normal_card, python_normal_card

POSITIONS = 8  # dealt positions per contract, so one lucky deal does not decide the figure


def rate(work: Callable[[], None], seconds: float) -> float:
    """Calls of ``work`` per second over about ``seconds`` of wall time."""
    work()  # warm up caches
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        work()
        count += 1
    return count / elapsed


def dealt_position(contract_id: str, rng: random.Random) -> FastPosition:
    deal = Deal(rng.randrange(4), deal_hands(rng))
    deal.set_contract(CONTRACTS[contract_id])
    for _ in range(4):
        deal.apply(PASS)
    return position_from_deal(deal)


def playouts_per_second(
    contract_id: str, seconds: float, seed: int, playout: Callable[..., object] = random_playout
) -> float:
    rng = random.Random(seed)
    positions = [dealt_position(contract_id, rng) for _ in range(POSITIONS)]
    state = {"i": 0}

    def one() -> None:
        state["i"] += 1
        playout(positions[state["i"] % POSITIONS].copy(), rng)

    return rate(one, seconds)


def policy_playouts_per_second(
    seconds: float,
    seed: int,
    playout: Callable[..., object] = policy_playout,
    policy: Policy = normal_card,
) -> float:
    rng = random.Random(seed)
    positions = [dealt_position(cid, rng) for cid in CONTRACTS for _ in range(2)]
    state = {"i": 0}

    def one() -> None:
        state["i"] += 1
        playout(positions[state["i"] % len(positions)].copy(), policy)

    return rate(one, seconds)


def openspiel_hearts_per_second(seconds: float, seed: int) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)

    def dealt() -> object:
        state = game.new_initial_state()
        state.apply_action(0)  # pass direction: no pass, so play starts after the deal
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        return state

    positions = [dealt() for _ in range(POSITIONS)]
    counter = {"i": 0}

    def one() -> None:
        counter["i"] += 1
        state = positions[counter["i"] % POSITIONS].clone()  # type: ignore[attr-defined]
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])

    return rate(one, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    kernel = "compiled" if COMPILED else "pure-Python: the compiled kernel was not built"
    print(f"(a) random playouts of one deal from a dealt position ({kernel} kernel), per second")
    rates = {}
    for contract_id in CONTRACTS:
        rates[contract_id] = playouts_per_second(contract_id, args.seconds, args.seed)
        print(f"    {contract_id:15s} {rates[contract_id]:10,.0f}")
    print(f"    {'mean':15s} {sum(rates.values()) / len(rates):10,.0f}")

    match_rng = random.Random(args.seed)
    matches = rate(lambda: random_match(match_rng), max(args.seconds, 2.0))
    print(f"(b) full random matches through the public API: {matches:,.1f} per second")

    policy = policy_playouts_per_second(args.seconds, args.seed)
    python_policy = policy_playouts_per_second(
        args.seconds, args.seed, python_policy_playout, python_normal_card
    )
    print(
        f"(c) policy playouts (four normal players), per second: {policy:,.0f} in the "
        f"installed kernel, {python_policy:,.0f} in the pure-Python one"
    )

    hearts = playouts_per_second("hearts", args.seconds, args.seed)
    theirs = openspiel_hearts_per_second(args.seconds, args.seed)
    python_hearts = playouts_per_second("hearts", args.seconds, args.seed, python_random_playout)
    print(
        f"Heartshunting random playouts: {hearts:,.0f} per second in the installed kernel, "
        f"{python_hearts:,.0f} in the pure-Python one"
    )
    if theirs is None:
        print("OpenSpiel not installed (pip install -e '.[bench]'): no ratio")
        return
    print(f"OpenSpiel hearts random playouts from a dealt state: {theirs:,.0f} per second")
    print(f"playouts ratio vs OpenSpiel hearts: {hearts / theirs:.2f} (target >= 3.0)")
    print(f"pure-Python kernel's ratio vs OpenSpiel hearts: {python_hearts / theirs:.2f}")


if __name__ == "__main__":
    main()
