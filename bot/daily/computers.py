"""The daily deals' computers: deterministic, so everyone meets the same opponents.

Duplicate scoring compares people who held the same cards, which is only fair if the
computers at their tables answer the same position with the same move. So a daily
computer decides by fixed work, never by the clock, and from a seed fixed by the day,
the deal and how many actions the deal has seen: the same position gives the same action
on any machine, under any load, before and after a restart.

The level is :data:`DAILY_LEVEL`, the normal player: deterministic by construction (rules
of thumb, no search, no clock, no randomness), and cheap enough to answer on the event
loop for hundreds of people at once. The hard player with a small fixed amount of work
(``wall_clock=False``) is deterministic too and stronger, but costs hundreds of times
more per decision; the benchmark (``bench/daily.py``, docs/benchmarks.md) measured both.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from functools import lru_cache

from bot.engine import Action, SeatView
from bot.players.pool import decide_sync

from .attempt import Attempt, Move

log = logging.getLogger(__name__)

DAILY_LEVEL = "normal"

DailyDecider = Callable[[SeatView, int], Awaitable[Action]]
"""A daily computer: its seat's view and the decision's seed in, one of ``view.legal`` out."""


async def daily_decider(view: SeatView, seed: int) -> Action:
    """The :data:`DAILY_LEVEL` player, on the event loop (it decides in microseconds)."""
    return decide_sync(DAILY_LEVEL, view, seed, 0.0)


@lru_cache(maxsize=4096)
def decision_seed(day_seed: int, deal_index: int, number: int) -> int:
    """The seed of the computer's decision after ``number`` actions of deal ``deal_index``
    (kept: everyone playing a day asks for the same few hundred, each costing a hash and
    a generator's seeding)."""
    return random.Random(f"{day_seed}:move:{deal_index}:{number}").getrandbits(63)


async def play_computers(attempt: Attempt, decide: DailyDecider) -> list[Move]:
    """Let the computers act until the person is to act or the day's deals are over."""
    moves: list[Move] = []
    while not attempt.finished and not attempt.person_to_act:
        seat = attempt.to_act
        assert seat is not None
        view = attempt.view_for(seat)
        seed = decision_seed(attempt.program.seed, attempt.deal_index, attempt.decision_number)
        action = await decide(view, seed)
        if action not in view.legal:
            # A player's bug must not stop the attempt; the fallback is deterministic too.
            log.error("daily computer chose illegal %s; playing the first legal", action.code)
            action = view.legal[0]
        moves.append(attempt.apply(action))
    return moves
