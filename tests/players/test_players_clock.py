"""What ends the hard player's search: the wall clock with the clock on (no work cap,
the last round judged by the one before it), a fixed amount of work with the clock off
(exact replays, whatever the clock says). The clock here is a fake one the tests move,
so nothing depends on this machine's speed."""

from __future__ import annotations

import math
import random

import pytest

from bot.engine.actions import Play
from bot.engine.view import SeatView, seat_view
from bot.players import hard as hard_module
from bot.players.hard import CLOCK_SHARE, WORK_PER_SECOND, HardPlayer, _Search
from tests.players.players_helpers import random_position


class _FakeTime:
    """Stands in for the hard module's :mod:`time`: reads ``now``, which moves by
    ``step`` after every reading."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        now = self.now
        self.now += self.step
        return now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _FakeTime:
    fake = _FakeTime()
    monkeypatch.setattr(hard_module, "time", fake)
    return fake


def _early_card() -> SeatView:
    """A card decision early in a trick contract: playouts, not the exact endgame."""
    match = random_position(11, "ducking", deals_before=0, moves=8)
    assert match.to_act is not None
    view = seat_view(match, match.to_act)
    assert len(view.legal) > 1 and isinstance(view.legal[0], Play)
    assert len(view.hand) > hard_module.ENDGAME_TRICKS
    return view


def test_a_round_that_would_end_past_the_clocks_share_is_not_started(
    clock: _FakeTime,
) -> None:
    search = _Search(1.0, wall_clock=True, work_per_second=math.inf)
    ends = []
    for now in (0.1, 0.2, 0.3, 0.4):  # rounds of 0.1 s: another fits before 0.8
        clock.now = now
        ends.append(search.spend(500))
    assert ends == [True] * 4
    clock.now = 0.75  # a round of 0.35 s: the next one like it would end at 1.1 s
    assert not search.spend(500)
    assert search.left()  # within a round the clock's share itself counts
    clock.now = CLOCK_SHARE
    assert not search.left()


def test_steady_rounds_stop_at_the_clocks_share(clock: _FakeTime) -> None:
    search = _Search(2.0, wall_clock=True, work_per_second=math.inf)
    rounds = 0
    while True:
        clock.now += 0.125
        rounds += 1
        if not search.spend(1_000_000):
            break
    # 2 s at 80% is 1.6 s: after the round ending at 1.5 s another would end at 1.625 s,
    # past the share, so the search ends at 1.5 s, within it, not at the first round past.
    assert rounds * 0.125 == pytest.approx(1.5)


def test_the_clock_off_ends_by_work_alone(clock: _FakeTime) -> None:
    search = _Search(0.01, wall_clock=False, work_per_second=WORK_PER_SECOND)
    clock.now = 1e6  # far past any budget: only the work counts
    assert search.spend(1_999) and search.left()
    assert not search.spend(1)  # 0.01 s at 200,000 cards a second is 2,000 cards
    assert not search.left()


def test_the_clock_on_has_no_work_cap_unless_one_is_given() -> None:
    assert HardPlayer().work_per_second == math.inf
    assert HardPlayer(wall_clock=False).work_per_second == WORK_PER_SECOND
    assert HardPlayer(work_per_second=1234.0).work_per_second == 1234.0


def test_with_the_clock_on_the_clock_sets_how_many_guesses(clock: _FakeTime) -> None:
    """Without inference, each round reads the clock once: at a ten-thousandth of a
    second a reading, a budget of 0.25 s holds 2,000 rounds (its 80%), where the fixed
    work of the same budget would hold a fraction of that: no work cap ends it."""
    view = _early_card()
    clock.step = 0.0001
    searched = HardPlayer(inference="off").evaluate(view, random.Random(5), 0.25)
    assert searched.guesses == pytest.approx(0.25 * CLOCK_SHARE / clock.step, abs=2)
    clock.step = 0.0
    fixed = HardPlayer(wall_clock=False, inference="off").evaluate(view, random.Random(5), 0.25)
    assert fixed.guesses < searched.guesses / 2


def test_a_given_rate_still_caps_the_work_with_the_clock_on(clock: _FakeTime) -> None:
    """A clock that never moves: only the given cap can end the search, after the same
    guesses as the same cap with the clock off."""
    view = _early_card()
    capped = HardPlayer(work_per_second=50_000.0).evaluate(view, random.Random(2), 0.1)
    fixed = HardPlayer(wall_clock=False, work_per_second=50_000.0)
    assert capped == fixed.evaluate(view, random.Random(2), 0.1)


def test_fixed_work_replays_whatever_the_clock_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock off, a search is the same under a clock that races (a second a reading,
    as on a machine loaded beyond measure) as under the real one: time never enters."""
    view = _early_card()
    player = HardPlayer(wall_clock=False)
    real = player.evaluate(view, random.Random(3), 0.05)
    monkeypatch.setattr(hard_module, "time", _FakeTime(step=1.0))
    assert player.evaluate(view, random.Random(3), 0.05) == real
    assert real.guesses > 1
