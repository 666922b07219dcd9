"""The score chart: each player's running total after each deal, the contracts named.

One line per player from 0 before the first deal to their total after the last one
finished, one marker per finished deal. Players differ by colour (Okabe and Ito's
palette, which colour-blind eyes tell apart) and by the marker's shape, so the lines are
told apart in grey too. The x axis has a slot for every deal of the match (the rules
say how many), each finished deal named by its contract; the legend lists the players
by their total, best first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot import i18n

from .draw import INK, WHITE, Colour, clean, fit, font, png
from .labels import drawn_in, label, signed
from .text import contract_name

SIZE = (800, 500)
PLOT = (86, 64, 600, 330)
"""left, top, right, bottom of the plotting area."""
LEGEND_LEFT = 622
COLOURS: tuple[Colour, ...] = ((0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167))
MARKERS = ("circle", "square", "triangle", "diamond")
BACKGROUND: Colour = (250, 249, 245)
GRID: Colour = (222, 222, 216)
AXIS: Colour = (120, 120, 120)
MARK = 7
SEAT_FALLBACK = ("North", "East", "South", "West")


@dataclass(frozen=True, slots=True)
class ChartData:
    names: tuple[str, ...]
    contracts: tuple[str, ...]
    """The contract of each finished deal, in order (ids)."""
    scores: tuple[tuple[int, ...], ...]
    """Each finished deal's scores after doubling, per seat."""
    deals: int
    """Deals in the match, finished or not."""
    language: str = i18n.DEFAULT
    """The language of the chart's words (its title, the contracts, the totals)."""

    def totals(self) -> list[list[int]]:
        """Per seat: the running total before the first deal (0) and after each one."""
        running = [[0] for _ in self.names]
        for scores in self.scores:
            for seat, score in enumerate(scores):
                running[seat].append(running[seat][-1] + score)
        return running


def y_range(data: ChartData) -> tuple[int, int, int]:
    """(lowest, highest, step) of the y axis: round numbers around every total and 0."""
    return totals_range(data.totals())


def totals_range(totals: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """:func:`y_range` of the running ``totals`` (:meth:`ChartData.totals`), for a
    caller that has them already."""
    values = [v for line in totals for v in line]
    low, high = min(values), max(values)
    span = max(high - low, 50)
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000) if span / s <= 6)
    low = (low // step) * step
    high = -((-high) // step) * step
    if high == low:
        high += step
    return low, high, step


def points(data: ChartData) -> list[list[tuple[int, int]]]:
    """Per seat, the pixel of each marker: before the first deal, then after each."""
    low, high, _ = y_range(data)
    left, top, right, bottom = PLOT
    slots = max(data.deals, len(data.scores), 1)
    return [
        [
            (
                round(left + (right - left) * index / slots),
                round(bottom - (bottom - top) * (value - low) / (high - low)),
            )
            for index, value in enumerate(line)
        ]
        for line in data.totals()
    ]


@lru_cache(maxsize=32)
@drawn_in
def chart_png(data: ChartData) -> bytes:
    image = Image.new("RGB", SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PLOT[0], 18), label("chart_title"), font=font(24, bold=True), fill=INK)
    _axes(image, draw, data)
    lines = points(data)
    for seat, line in enumerate(lines):
        if len(line) > 1:
            draw.line(line, fill=COLOURS[seat], width=4, joint="curve")
    for seat, line in enumerate(lines):
        for x, y in line[1:]:
            marker(draw, MARKERS[seat], (x, y), COLOURS[seat])
    _legend(draw, data)
    return png(image, (BACKGROUND, GRID, AXIS, INK, WHITE, *COLOURS))


def _axes(image: Image.Image, draw: ImageDraw.ImageDraw, data: ChartData) -> None:
    left, top, right, bottom = PLOT
    low, high, step = y_range(data)
    small = font(16)
    for value in range(low, high + 1, step):
        y = round(bottom - (bottom - top) * (value - low) / (high - low))
        draw.line(
            (left, y, right, y), fill=AXIS if value == 0 else GRID, width=2 if value == 0 else 1
        )
        draw.text((left - 8, y), signed(value), font=small, fill=INK, anchor="rm")
    slots = max(data.deals, len(data.scores), 1)
    for index in range(1, slots + 1):
        x = round(left + (right - left) * index / slots)
        draw.line((x, bottom, x, bottom + 6), fill=AXIS, width=1)
        if index <= len(data.contracts):
            _vertical(image, contract_name(data.contracts[index - 1]), (x, bottom + 10))
    draw.line((left, top, left, bottom), fill=AXIS, width=1)


AXIS_ROOM = SIZE[1] - PLOT[3] - 14
"""Pixels under the plot for a contract's name, read upwards."""


@lru_cache(maxsize=64)
def _vertical_text(text: str) -> Image.Image:
    # A long name ("Zevende en dertiende slag") is set smaller, and only then cut.
    face = next((font(s) for s in (16, 14, 12) if font(s).getlength(text) <= AXIS_ROOM), font(12))
    if face.getlength(text) > AXIS_ROOM:
        while text and face.getlength(text + "…") > AXIS_ROOM:
            text = text[:-1]
        text = text.rstrip() + "…"
    width = int(face.getlength(text)) + 4
    strip = Image.new("L", (width, 22), 0)
    ImageDraw.Draw(strip).text((2, 11), text, font=face, fill=255, anchor="lm")
    return strip.rotate(90, expand=True)


def _vertical(image: Image.Image, text: str, top_centre: tuple[int, int]) -> None:
    """``text`` read from bottom to top, its end just under ``top_centre``."""
    strip = _vertical_text(text)
    x = top_centre[0] - strip.width // 2
    ink = Image.new("RGB", strip.size, INK)
    image.paste(ink, (x, top_centre[1]), strip)


def marker(draw: ImageDraw.ImageDraw, shape: str, at: tuple[int, int], colour: Colour) -> None:
    x, y = at
    r = MARK
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=WHITE, width=2)
    elif shape == "square":
        draw.rectangle(
            (x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=colour, outline=WHITE, width=2
        )
    elif shape == "triangle":
        draw.polygon(
            [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)],
            fill=colour,
            outline=WHITE,
            width=2,
        )
    else:
        draw.polygon(
            [(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)],
            fill=colour,
            outline=WHITE,
            width=2,
        )


def _legend(draw: ImageDraw.ImageDraw, data: ChartData) -> None:
    """The players by total, best first: marker, name, total."""
    finals = [line[-1] for line in data.totals()]
    order = sorted(range(len(data.names)), key=lambda seat: (-finals[seat], seat))
    y = PLOT[1] + 6
    for seat in order:
        draw.line((LEGEND_LEFT, y + 12, LEGEND_LEFT + 30, y + 12), fill=COLOURS[seat], width=4)
        marker(draw, MARKERS[seat], (LEGEND_LEFT + 15, y + 12), COLOURS[seat])
        name = clean(data.names[seat], SEAT_FALLBACK[seat])
        draw.text(
            (LEGEND_LEFT + 40, y),
            fit(draw, name, 20, 138, bold=True),
            font=font(20, bold=True),
            fill=INK,
        )
        draw.text(
            (LEGEND_LEFT + 40, y + 26),
            label("total", total=signed(finals[seat])),
            font=font(18),
            fill=INK,
        )
        y += 62
