"""The work cap follows the kernel's measured speed with the clock on, and stays fixed
(exact replays) with the clock off."""

from __future__ import annotations

import random

import pytest

from bot.engine.actions import Play
from bot.engine.view import SeatView
from bot.players import hard as hard_module
from bot.players import speed
from bot.players.hard import WORK_PER_SECOND, WORK_SHARE, Evaluation, HardPlayer
from bot.players.speed import calibration_views, measured_work_per_second


def _refuse_to_measure() -> float:
    raise AssertionError("the speed was measured where fixed work was promised")


def test_calibration_decisions_are_card_choices_of_trick_contracts() -> None:
    views = calibration_views()
    assert len(views) == len(speed.CALIBRATION_DECISIONS)
    for view, (contract, moment) in zip(views, speed.CALIBRATION_DECISIONS, strict=True):
        assert view.contract is not None and view.contract.id == contract
        assert len(view.plays) >= moment
        assert len(view.legal) > 1 and all(isinstance(a, Play) for a in view.legal)


def test_the_clock_on_caps_work_at_a_share_of_the_measured_speed() -> None:
    rate = measured_work_per_second()
    assert rate > 0
    assert HardPlayer().work_per_second == pytest.approx(WORK_SHARE * rate)
    assert HardPlayer(work_per_second=1234.0).work_per_second == 1234.0


def test_fixed_work_never_measures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard_module, "measured_work_per_second", _refuse_to_measure)
    player = HardPlayer(wall_clock=False)
    assert player.work_per_second == WORK_PER_SECOND
    view = calibration_views()[1]
    first = player.choose_action(view, random.Random(3), 0.05)
    assert player.choose_action(view, random.Random(3), 0.05) == first


def test_no_budget_plays_at_once_without_measuring(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool decides a saturated share inline on the event loop with no budget: that
    must not stop to measure the speed there."""
    monkeypatch.setattr(hard_module, "measured_work_per_second", _refuse_to_measure)
    view = calibration_views()[0]
    assert HardPlayer().choose_action(view, random.Random(3), 0.0) in view.legal


def test_a_slower_search_measures_slower(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate is measured, not assumed: a search that costs twice the CPU for the same
    work (as a kernel twice as slow would) is measured markedly slower. CPU time, so
    another process's load hardly enters; the margin is wide all the same, and each side
    is the best of three (a loaded machine's shared caches still slow one measurement
    now and then, never speed it up)."""

    def measure() -> float:
        return max(measured_work_per_second.__wrapped__() for _ in range(3))

    before = measure()
    real = HardPlayer.evaluate

    def twice(self: HardPlayer, view: SeatView, rng: random.Random, budget: float) -> Evaluation:
        real(self, view, random.Random(0), budget)
        return real(self, view, rng, budget)

    monkeypatch.setattr(HardPlayer, "evaluate", twice)
    assert measure() < 0.7 * before
