"""The score chart: one line per player, one marker per finished deal, every deal of the
match given a place on the axis (as many as the rules have)."""

from __future__ import annotations

import itertools

from bot.render import chart
from bot.render.chart import COLOURS, PLOT, SIZE, ChartData, chart_png, points
from tests.render.render_helpers import decode, near

SCORES = ((100, -100, 30, -30), (100, -100, 20, -20), (100, -100, 10, -10), (100, -100, 40, -40))
"""Four deals whose running totals never come close (markers apart, lines not crossing)."""
DATA = ChartData(
    names=("Ann", "Bob", "Cas", "Dirk"),
    contracts=("trump-hearts", "queens", "domino", "ducking"),
    scores=SCORES,
    deals=11,
)


def test_one_marker_per_finished_deal_and_one_line_per_player():
    image = decode(chart_png(DATA))
    assert image.size == SIZE
    lines = points(DATA)
    assert len(lines) == 4
    for seat, line in enumerate(lines):
        assert len(line) == 1 + len(SCORES)  # the start at 0, then one point per deal
        for x, y in line[1:]:
            assert near(image.getpixel((x, y)), COLOURS[seat], 30), (seat, x, y)
        # Between two markers runs the player's line.
        for (x0, y0), (x1, y1) in itertools.pairwise(line[1:]):
            mid = ((x0 + x1) // 2, (y0 + y1) // 2)
            assert any(
                near(image.getpixel((mid[0], mid[1] + dy)), COLOURS[seat], 40) for dy in (-1, 0, 1)
            ), (seat, mid)


def test_the_running_totals_are_the_sums_of_the_deals():
    totals = DATA.totals()
    assert [line[-1] for line in totals] == [sum(s[seat] for s in SCORES) for seat in range(4)]
    low, high, _ = chart.y_range(DATA)
    assert low <= min(min(t) for t in totals) and max(max(t) for t in totals) <= high


def test_the_axis_has_a_place_for_every_deal_of_the_rules():
    """A variant of 12 deals spreads the same four deals over twelve places."""
    eleven = points(DATA)[0]
    twelve = points(ChartData(DATA.names, DATA.contracts, DATA.scores, deals=12))[0]
    left, _top, right, _bottom = PLOT
    assert eleven[1][0] - left == round((right - left) / 11)
    assert twelve[1][0] - left == round((right - left) / 12)
    assert len(chart_png(ChartData(DATA.names, (), (), deals=12))) > 0  # nothing played yet


def test_a_twelve_match_names_its_eighth_contract_on_the_axis(monkeypatch):
    named: list[str] = []
    monkeypatch.setattr(chart, "_vertical", lambda image, text, at: named.append(text))
    data = ChartData(DATA.names, ("seventhirteenth", "queens"), SCORES[:2], deals=12)
    decode(chart_png(data))
    assert named == ["7th and 13th trick", "Queens"]
