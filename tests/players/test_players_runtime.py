"""Reproducible from a seed, off the event loop through the pool, and the arena smoke run."""

from __future__ import annotations

import argparse
import pickle
import random

import pytest

from bot.engine.view import SeatView, seat_view
from bot.players import LEVELS
from bot.players.arena import main as arena_main
from bot.players.arena import report, run_arena
from bot.players.hard import HardPlayer
from bot.players.pool import PlayerPool, decide_sync
from tests.players.players_helpers import random_position


def _views() -> list[SeatView]:
    views = []
    for seed, moves in [(1, 0), (2, 2), (3, 9), (4, 30), (5, 47)]:
        match = random_position(seed, "queens", deals_before=seed % 3, moves=moves)
        assert match.to_act is not None
        views.append(seat_view(match, match.to_act))
    return views


def test_same_view_and_seed_give_the_same_action() -> None:
    for view in _views():
        for level in ("easy", "normal"):
            assert decide_sync(level, view, 11, 0.0) == decide_sync(level, view, 11, 0.0)
        hard = HardPlayer(wall_clock=False)
        first = hard.choose_action(view, random.Random(11), 0.05)
        assert hard.choose_action(view, random.Random(11), 0.05) == first


def test_views_pickle_to_equal_views() -> None:
    for view in _views():
        assert pickle.loads(pickle.dumps(view)) == view


async def test_pool_round_trip() -> None:
    view = _views()[3]
    async with PlayerPool(workers=1) as pool:
        for level in LEVELS:
            action = await pool.decide(level, view, seed=5, budget=0.05)
            assert action in view.legal


def test_arena_smoke() -> None:
    for candidate, baseline, deals in [("normal", "easy", 3), ("hard", "normal", 1)]:
        args = argparse.Namespace(
            candidate=candidate, baseline=baseline, deals=deals, seed=3, budget=0.01, workers=1
        )
        text = report(args, run_arena(args))
        assert f"{deals} deals" in text
        assert "edge per match" in text
        assert "decision time" in text


def test_arena_with_the_clock_off_replays_exactly() -> None:
    """What pairing two --hard variants on the same deals relies on: with the clock off,
    the same switches give the same scores. One deal shows it as two did: each of its
    dozens of decisions would change the edges if it came out otherwise."""

    def edges(hard: dict[str, object]) -> list[float]:
        args = argparse.Namespace(
            candidate="hard",
            baseline="normal",
            deals=1,
            seed=4,
            budget=0.01,
            workers=1,
            hard={"wall_clock": False, **hard},
        )
        return [edge for result in run_arena(args) for edge in result.edges]

    assert edges({}) == edges({})
    assert edges({"double_margin": 0.05}) == edges({"double_margin": 0.05})


def test_arena_baselines_think_for_their_own_budget() -> None:
    """Hard baselines with no budget play as the normal player: the same edges as hard
    against normal baselines, deal for deal, while the candidate keeps its budget. One
    deal is enough: a baseline that thought for itself would play another card in it."""

    def edges(baseline: str, baseline_budget: float | None) -> list[float]:
        args = argparse.Namespace(
            candidate="hard",
            baseline=baseline,
            deals=1,
            seed=4,
            budget=0.01,
            baseline_budget=baseline_budget,
            workers=1,
            hard={"wall_clock": False},
        )
        return [edge for result in run_arena(args) for edge in result.edges]

    against_normal = edges("normal", None)
    assert edges("hard", 0.0) == against_normal
    assert edges("hard", None) != against_normal


@pytest.mark.parametrize(
    ("switches", "says"),
    [
        ('{"bogus": 1}', "there is no switch 'bogus'"),
        ('{"double_margin": "x"}', "double_margin must be like 0.0, not 'x'"),
        ('{"wall_clock": 0}', "wall_clock must be like true, not 0"),
        ('{"card_slip": "a"}', "card_slip must be like 0.1"),
        ("[1]", "must be a JSON object"),
    ],
)
def test_arena_refuses_a_wrong_switch_before_playing(
    switches: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        arena_main(["--candidate", "hard", "--baseline", "normal", "--hard", switches])
    assert stop.value.code == 2
    assert says in capsys.readouterr().err


def test_arena_versus_pairs_two_switch_sets_on_the_same_deals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two sets of switches are paired on the same deal: the same switches differ in
    nothing, a hard player of one guess a decision differs (one deal shows both)."""
    common = ["--candidate", "hard", "--baseline", "normal", "--deals", "1", "--seed", "4"]
    off = '{"wall_clock": false}'
    arena_main([*common, "--budget", "0.01", "--hard", off, "--versus", off])
    same = capsys.readouterr().out
    assert "paired by deal: +0.0 a match" in same
    assert "0 of 1 deals differ" in same
    one_guess_a_decision = '{"wall_clock": false, "work_per_second": 0.0}'
    arena_main([*common, "--budget", "0.05", "--hard", off, "--versus", one_guess_a_decision])
    differ = capsys.readouterr().out
    assert "1 of 1 deals differ" in differ
    assert 'versus {"wall_clock": false, "work_per_second": 0.0}' in differ


def test_arena_refuses_wrong_versus_switches_before_playing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        arena_main(["--candidate", "hard", "--baseline", "normal", "--versus", '{"nope": 1}'])
    assert stop.value.code == 2
    assert "--versus must be a JSON object of the hard player's switches" in (
        capsys.readouterr().err
    )


def test_arena_versus_needs_a_hard_player(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        arena_main(["--candidate", "normal", "--baseline", "easy", "--versus", "{}"])
    assert stop.value.code == 2
    assert "--versus compares hard players" in capsys.readouterr().err
