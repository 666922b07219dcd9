"""Charts drawn in the page as SVG: a match's running scores and a player's rating.

The score chart shows what the Discord picture shows (:mod:`bot.render.chart`: its
data, its y axis, its colours and marker shapes, so a player finds the same lines), as
SVG the browser scales to any width. Every word in it is escaped; it carries no style
attribute and no script, so the pages' Content-Security-Policy allows it inline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from bot.render.chart import COLOURS, MARKERS, ChartData, totals_range
from bot.render.labels import signed
from bot.render.text import contract_name

WIDTH, HEIGHT = 660, 330
LEFT, TOP, RIGHT, BOTTOM = 52, 16, 600, 240
"""The plotting area inside the drawing."""
MARK = 5


def _colour(seat: int) -> str:
    red, green, blue = COLOURS[seat % len(COLOURS)]
    return f"#{red:02x}{green:02x}{blue:02x}"


def _marker(marker_id: str, shape: str, colour: str) -> str:
    """A ``<marker>`` drawing ``shape`` in ``colour`` centred on each point of a line
    that names it: one definition a line, rather than a shape a point (a match's chart
    has some 130 points, and its page is drawn for each reader). Its units are the
    drawing's, so it scales with the chart as the line does."""
    r, c = MARK, MARK + 3  # the marker's own box is 2c wide, its centre at (c, c)
    if shape == "circle":
        mark = f'<circle cx="{c}" cy="{c}" r="{r}" fill="{colour}"/>'
    elif shape == "square":
        mark = f'<rect x="{c - r}" y="{c - r}" width="{2 * r}" height="{2 * r}" fill="{colour}"/>'
    else:
        if shape == "triangle":
            corners = [(c, c - r - 1), (c + r + 1, c + r), (c - r - 1, c + r)]
        else:
            corners = [(c, c - r - 2), (c + r + 2, c), (c, c + r + 2), (c - r - 2, c)]
        mark = f'<polygon points="{" ".join(f"{x},{y}" for x, y in corners)}" fill="{colour}"/>'
    return (
        f'<marker id="{marker_id}" viewBox="0 0 {2 * c} {2 * c}" markerWidth="{2 * c}" '
        f'markerHeight="{2 * c}" refX="{c}" refY="{c}" markerUnits="userSpaceOnUse">'
        f"{mark}</marker>"
    )


def _line(xs: Sequence[str], ys: Sequence[str], colour: str, marker_id: str, *, first: bool) -> str:
    """A line through the points (``xs`` and ``ys`` written already), a marker on each
    point but the first unless ``first``."""
    points = " ".join(f"{x},{y}" for x, y in zip(xs, ys, strict=True))
    url = f"url(#{marker_id})"
    start = f' marker-start="{url}"' if first else ""
    return (
        f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="3"'
        f'{start} marker-mid="{url}" marker-end="{url}"/>'
    )


def _svg(title: str, body: list[str], height: int = HEIGHT) -> Markup:
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def _y_axis(
    low: float, high: float, step: float, label: Callable[[float], str]
) -> tuple[list[str], Callable[[float], float]]:
    """The horizontal grid lines and their numbers; returns them and the y of a value."""

    def y_of(value: float) -> float:
        return BOTTOM - (BOTTOM - TOP) * (value - low) / (high - low)

    body = []
    value = low
    while value <= high + 1e-9:
        y = y_of(value)
        grid = "axis" if value == 0 else "grid"
        body.append(f'<line class="{grid}" x1="{LEFT}" y1="{y:.1f}" x2="{RIGHT}" y2="{y:.1f}"/>')
        body.append(
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(label(value))}</text>"
        )
        value += step
    return body, y_of


def score_chart(data: ChartData, title: str) -> Markup:
    """Each player's running total after each deal, the deals named by their contract."""
    totals = data.totals()
    low, high, step = totals_range(totals)
    body, y_of = _y_axis(low, high, step, lambda value: signed(int(value)))
    slots = max(data.deals, len(data.scores), 1)
    xs = [f"{LEFT + (RIGHT - LEFT) * index / slots:.1f}" for index in range(slots + 1)]
    names = {contract: escape(contract_name(contract)) for contract in set(data.contracts)}
    body.extend(
        f'<text class="deal" x="{x}" y="{BOTTOM + 8}" '
        f'transform="rotate(45 {x} {BOTTOM + 8})">{names[contract]}</text>'
        for x, contract in zip(xs[1:], data.contracts, strict=False)
    )
    for seat, line in enumerate(totals):
        colour, marker_id = _colour(seat), f"score-mark-{seat}"
        body.append(_marker(marker_id, MARKERS[seat], colour))
        ys = [f"{y_of(value):.1f}" for value in line]
        body.append(_line(xs[: len(ys)], ys, colour, marker_id, first=False))
    return _svg(title, body)


def rating_chart(ratings: Sequence[float], title: str) -> Markup:
    """A rating (μ − 3σ) after each rated match, oldest first."""
    values = list(ratings)
    low, high = min([*values, 0.0]), max([*values, 0.0])
    step = next(s for s in (1, 2, 5, 10, 20, 50) if (high - low) / s <= 6)
    low, high = (low // step) * step, -((-high) // step) * step
    if high == low:
        high += step
    body, y_of = _y_axis(low, high, step, lambda value: f"{value:g}")
    slots = max(len(values) - 1, 1)
    xs = [f"{LEFT + (RIGHT - LEFT) * i / slots:.1f}" for i in range(len(values))]
    ys = [f"{y_of(v):.1f}" for v in values]
    colour = _colour(0)
    if len(values) <= 60:
        body.append(_marker("rating-mark", "circle", colour))
        body.append(_line(xs, ys, colour, "rating-mark", first=True))
    else:  # too many to mark: the line alone
        points = " ".join(f"{x},{y}" for x, y in zip(xs, ys, strict=True))
        body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="3"/>')
    return _svg(title, body, height=BOTTOM + 12)  # no names under this one
