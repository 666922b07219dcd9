"""How fast this process searches: the hard player's work cap, measured, not assumed.

The hard player counts its search in "work", roughly the cards it simulates (see
:mod:`.hard`), and stops after ``budget`` seconds' worth of it. How much work a second
holds depends on the fast kernel and the machine: a constant set when the kernel was
slower left the search idle for half its budget. So each process measures it once, the
first time a search with the clock on needs it, by running the hard player's own search
for a fixed amount of work on a few decisions of a fixed deal and timing it.

The timing is in CPU seconds of this process (:func:`time.process_time`), not on the
wall clock, and the best of a few rounds is kept: a machine loaded by other work slows
this process's wall clock but hardly its CPU seconds, so a measurement taken while the
machine is busy does not shrink the cap for the rest of the process's life; on a busy
machine it is the search's own clock (:data:`~.hard.CLOCK_SHARE` of the budget) that
ends it in time. A faster kernel raises the measured rate at the next start, with no
constant to change.

Searches that promise exact replays (the clock off: the arena's paired runs, the review's
``BONKEN_REVIEW_WORK``, tests) never use this rate; they keep the fixed
:data:`~.hard.WORK_PER_SECOND`.
"""

from __future__ import annotations

import functools
import random
import time

from bot.engine.actions import Choose, Play
from bot.engine.cards import deal_hands
from bot.engine.match import Match
from bot.engine.view import SeatView, seat_view

#: The work of one timed search; the decisions below take about a tenth of a second in
#: all, twice, at the rate an idle core managed when this was written.
CALIBRATION_WORK = 12_000

#: Timed rounds over the decisions; the fastest counts (the others were disturbed).
CALIBRATION_ROUNDS = 2

#: The deals the calibration decisions come from (their seed), and the decisions: a
#: contract played to its last trick, and how many cards are played before it (the first
#: choice among several from there): early (long playouts), middle, and in the exact
#: endgame; in a negative and in a trump contract.
CALIBRATION_SEED = 2026
CALIBRATION_DECISIONS = (("ducking", 2), ("ducking", 22), ("ducking", 38), ("trump-spades", 9))


@functools.cache
def measured_work_per_second() -> float:
    """The hard player's work per CPU second in this process (measured once, cached)."""
    from .hard import HardPlayer  # the search measured is the hard player's own

    views = calibration_views()
    player = HardPlayer(wall_clock=False, work_per_second=1.0)  # a budget of 1 = 1 work
    fastest = float("inf")
    for _ in range(CALIBRATION_ROUNDS):
        start = time.process_time()
        for view in views:
            player.evaluate(view, random.Random(CALIBRATION_SEED), CALIBRATION_WORK)
        fastest = min(fastest, time.process_time() - start)
    return CALIBRATION_WORK * len(views) / max(fastest, 1e-6)


def calibration_views() -> list[SeatView]:
    """The card decisions of :data:`CALIBRATION_DECISIONS`, each in a deal of its
    contract dealt from :data:`CALIBRATION_SEED` and played by four normal players."""
    from .normal import NormalPlayer

    normal = NormalPlayer()
    views: list[SeatView] = []
    for contract, moment in CALIBRATION_DECISIONS:
        rng = random.Random(CALIBRATION_SEED)
        match = Match(first_dealer=0)
        match.start_deal(deal_hands(rng))
        match.apply(Choose(contract))
        while True:
            seat = match.to_act
            assert seat is not None, "the deal ended before the calibration's decision"
            view = seat_view(match, seat)
            card = isinstance(view.legal[0], Play)
            if card and len(view.plays) >= moment and len(view.legal) > 1:
                views.append(view)
                break
            match.apply(normal.choose_action(view, rng, 0.0))
    return views
