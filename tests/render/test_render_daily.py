"""The daily deals' words: places, the public line, who doubled the person, the results
as one reader may see them (in English and Dutch)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date

import pytest

from bot import i18n
from bot.daily import AttemptView, DailyService, Standing
from bot.engine import Double, Phase
from bot.render.daily import attempt_lines, finished_line, ordinal, results_lines, seat_names
from bot.render.text import names_text
from bot.store import open_store
from tests.daily.daily_helpers import GUILD, Clock, first_legal, play_out
from tests.sqlite_template import fresh_sqlite

TODAY = date(2026, 12, 2)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(tmp_path, clock: Clock) -> AsyncIterator[DailyService]:
    async with await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3")) as store:
        yield DailyService(store.daily, store.tables, clock=clock)


@pytest.mark.parametrize(
    ("n", "english"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (101, "101st"),
        (111, "111th"),
    ],
)
def test_a_place_in_english_and_dutch(n: int, english: str) -> None:
    assert ordinal(n) == english
    with i18n.using("nl"):
        assert ordinal(n) == f"{n}e"


def test_the_public_line_names_the_player_and_the_result_only() -> None:
    standing = Standing(percent=64.2, rank=3, field=9)
    assert finished_line("Ann", TODAY, TODAY, standing) == (
        "Ann played today's deals: 64% (3rd of 9 so far)"
    )
    with i18n.using("nl"):
        assert finished_line("Ann", TODAY, date(2026, 12, 3), standing) == (
            "Ann speelde de potjes van gisteren: 64% (3e van 9 tot nu toe)"
        )


async def _doubled_turn(service: DailyService, clock: Clock) -> AttemptView:
    """The first doubling turn of the person's in which a computer doubled them, over as
    many people as it takes (each passing and playing the first legal card)."""
    for user in range(1, 40):
        view = await service.play(GUILD, user, f"P{user}")
        while not view.finished:
            me = view.seat.seat
            if view.seat.phase is Phase.DOUBLING and any(view.seat.multipliers[me]):
                return view
            view = await play_out(service, view, first_legal, moves=1)
        clock.advance(days=1)  # a new day: other deals
    raise AssertionError("no computer ever doubled the person")


async def test_a_doubling_turn_says_who_doubled_the_person(
    service: DailyService, clock: Clock
) -> None:
    view = await _doubled_turn(service, clock)
    me = view.seat.seat
    # Who doubled South, from the public pairs: before South's turn, only others doubled.
    doublers = sorted({i if j == me else j for i, j, _level in view.public.doubled if me in (i, j)})
    assert doublers
    names = seat_names(view)
    lines = attempt_lines(view, view.day)
    assert f"{names_text(names, doublers)} doubled you." in lines
    assert any(isinstance(action, Double) and action.targets for action in view.seat.legal)


async def test_results_hide_the_deals_until_played(service: DailyService) -> None:
    await play_out(service, await service.play(GUILD, 1, "Ann"))
    hidden = results_lines(await service.results(GUILD, None, 2), TODAY)
    assert hidden == [
        "Results of today's deals so far (they close at 2026-12-04 00:00 UTC):",
        "1. Ann 50%",
        "Each deal's comparison shows once you have played these deals.",
    ]
    await play_out(service, await service.play(GUILD, 2, "Bob"))
    with i18n.using("nl"):
        shown = results_lines(await service.results(GUILD, None, 2), TODAY)
    assert (
        shown[0] == "Uitslag van de potjes van vandaag tot nu toe (sluit om 2026-12-04 00:00 UTC):"
    )
    assert shown[1:3] == ["1. Ann 50%", "1. Bob 50%"]
    assert all(line.startswith(f"Potje {n}, ") for n, line in enumerate(shown[3:], start=1))
