"""Charts drawn in the page as SVG: a match's running scores and a player's rating.

The score chart shows what the Discord picture shows (:mod:`bot.render.chart`: its
data, its y axis, its colours and marker shapes, so a player finds the same lines), as
SVG the browser scales to any width. Every word in it is escaped; it carries no style
attribute and no script, so the pages' Content-Security-Policy allows it inline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from bot.render.chart import COLOURS, MARKERS, ChartData, y_range
from bot.render.labels import signed
from bot.render.text import contract_name

WIDTH, HEIGHT = 660, 330
LEFT, TOP, RIGHT, BOTTOM = 52, 16, 600, 240
"""The plotting area inside the drawing."""
MARK = 5


def _colour(seat: int) -> str:
    red, green, blue = COLOURS[seat % len(COLOURS)]
    return f"#{red:02x}{green:02x}{blue:02x}"


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    r = MARK
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"/>'
    if shape == "square":
        return (
            f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" '
            f'fill="{colour}"/>'
        )
    if shape == "triangle":
        corners = [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)]
    else:
        corners = [(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)]
    return f'<polygon points="{_points(corners)}" fill="{colour}"/>'


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


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
    low, high, step = y_range(data)
    body, y_of = _y_axis(low, high, step, lambda value: signed(int(value)))
    slots = max(data.deals, len(data.scores), 1)

    def x_of(index: int) -> float:
        return LEFT + (RIGHT - LEFT) * index / slots

    for index in range(1, slots + 1):
        if index <= len(data.contracts):
            x = x_of(index)
            name = escape(contract_name(data.contracts[index - 1]))
            body.append(
                f'<text class="deal" x="{x:.1f}" y="{BOTTOM + 8}" '
                f'transform="rotate(45 {x:.1f} {BOTTOM + 8})">{name}</text>'
            )
    for seat, line in enumerate(data.totals()):
        at = [(x_of(i), y_of(v)) for i, v in enumerate(line)]
        colour = _colour(seat)
        body.append(
            f'<polyline points="{_points(at)}" fill="none" stroke="{colour}" stroke-width="3"/>'
        )
        body.extend(_marker(MARKERS[seat], x, y, colour) for x, y in at[1:])
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
    at = [(LEFT + (RIGHT - LEFT) * i / slots, y_of(v)) for i, v in enumerate(values)]
    colour = _colour(0)
    body.append(
        f'<polyline points="{_points(at)}" fill="none" stroke="{colour}" stroke-width="3"/>'
    )
    if len(at) <= 60:
        body.extend(_marker("circle", x, y, colour) for x, y in at)
    return _svg(title, body, height=BOTTOM + 12)  # no names under this one
