"""The standings as a picture: the preview a server's page shows where its link is pasted.

A chat app that unfurls a link shows one picture beside the page's title; for a
server's page that is the top of the season's leaderboard (the same rows, in the same
sort, as the page and ``/bonken leaderboard``). It is drawn on the felt of the table
pictures, so a pasted link looks like the bot's own posts, at the 1.91:1 shape link
previews use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import _

from .draw import FELT, GOLD, PALE, PLATE, WHITE, clean, fit, font, png
from .labels import drawn_in, signed

SIZE = (1200, 630)
ROWS = 8
"""Rows of the leaderboard a picture has room for."""
MARGIN = 60
ROW_HEIGHT = 46
TOP = 190
COLUMNS = (MARGIN, MARGIN + 70, 820, 1140)
"""Where the rank, the name, the points and the rating stand (the last two right-aligned)."""


@dataclass(frozen=True, slots=True)
class StandingsRow:
    rank: int
    name: str
    points: int
    rating: str


@dataclass(frozen=True, slots=True)
class StandingsPicture:
    """What the picture shows: words already in ``language``, the rows in their sort."""

    title: str
    subtitle: str
    rows: tuple[StandingsRow, ...]
    language: str


@lru_cache(maxsize=32)
@drawn_in
def standings_png(picture: StandingsPicture) -> bytes:
    image = Image.new("RGB", SIZE, FELT)
    draw = ImageDraw.Draw(image)
    width = SIZE[0] - 2 * MARGIN
    draw.text(
        (MARGIN, 56),
        fit(draw, picture.title, 52, width, bold=True),
        font=font(52, bold=True),
        fill=WHITE,
    )
    draw.text((MARGIN, 128), fit(draw, picture.subtitle, 28, width), font=font(28), fill=PALE)
    heading = font(24, bold=True)
    y = TOP
    draw.text((COLUMNS[1], y), _("Player"), font=heading, fill=PALE)
    draw.text((COLUMNS[2], y), _("Points"), font=heading, fill=PALE, anchor="ra")
    draw.text((COLUMNS[3], y), _("Rating"), font=heading, fill=PALE, anchor="ra")
    y += 40
    body, bold = font(28), font(28, bold=True)
    for index, row in enumerate(picture.rows[:ROWS]):
        if index % 2 == 0:
            draw.rectangle(
                (MARGIN - 16, y - 6, SIZE[0] - MARGIN + 16, y + ROW_HEIGHT - 6), fill=PLATE
            )
        first = row.rank == 1
        draw.text((COLUMNS[0], y), str(row.rank), font=bold, fill=GOLD if first else WHITE)
        name = fit(draw, clean(row.name, "?"), 28, COLUMNS[2] - COLUMNS[1] - 200, bold=first)
        draw.text((COLUMNS[1], y), name, font=bold if first else body, fill=WHITE)
        draw.text(
            (COLUMNS[2], y),
            signed(row.points),
            font=body,
            fill=WHITE,
            anchor="ra",
        )
        draw.text((COLUMNS[3], y), row.rating, font=body, fill=WHITE, anchor="ra")
        y += ROW_HEIGHT
    return png(image, (FELT, PLATE, PALE, WHITE, GOLD))
