"""The table picture of a deal message: the four seats, the trick, the last trick.

North sits at the top, South at the bottom, West left and East right, as the compass
names in the footer say. Each seat's plate has the player's name, the deal's tricks and
score so far, and chips for the dealer (D) and the chooser (★); the seat on turn is lit
in gold. The cards of the trick in progress lie in front of whoever played them. The last
trick taken is top left (the card that took it underlined), the doubles top right, the
deal and the contract (with its trump in the suit's own shape) in the heading.

The picture is drawn in parts (:mod:`~bot.render.layers`): the felt and the oval are the
background, and the heading, each plate, each card, the last trick's title and the
doubles are parts pasted on it, each drawn once and kept.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from . import cards
from .draw import FELT, FELT_LIGHT, FELT_LINE, GOLD, INK, PALE, PLATE, WHITE, clean, fit, font
from .frame import CHIP, HEADING, SEAT_FALLBACK, SIZE, chip, chips, heading_part
from .labels import label, signed, tricks_label
from .layers import Box, Part, composed, composed_png
from .scene import SeatScene, TableScene

PLATE_SIZE = (236, 64)
PLATES = ((400, 96), (666, 330), (400, 560), (134, 330))
"""The centre of each seat's name plate (North, East, South, West)."""
TRICK_CARDS = ((400, 228), (500, 330), (400, 432), (300, 330))
"""The centre of the card each seat plays to the trick: in front of its plate."""
CHOOSING_BOX = (256, 310, 545, 350)
"""Where "contract being chosen" is written, between the West and East plates."""
CORNER_TEXT = 236
"""Pixels of the last trick's title and of each line of the doubles, top left and right."""
TITLE_BOX = (16, HEADING + 8, 24 + CORNER_TEXT, HEADING + 42)
"""The last trick's title (who took it), written from (20, HEADING + 12)."""
DOUBLES_SHOWN = 5
DOUBLES_BOX = (SIZE[0] - 24 - CORNER_TEXT, HEADING + 10, SIZE[0] - 16, HEADING + 18 + 27 * 5)
"""Who doubled whom, at most five lines written right-aligned from (780, HEADING + 14)."""


@lru_cache(maxsize=128)
def table_png(scene: TableScene) -> bytes:
    """The picture of a deal of tricks as PNG bytes (see the module; the caller sets the
    language: :func:`~bot.render.deal_image.deal_png`)."""
    return composed_png(background, parts(scene))


def table_image(scene: TableScene) -> Image.Image:
    """The picture of a deal of tricks, to draw on (a replay adds the hands)."""
    return composed(background, parts(scene))


@cache
def background() -> Image.Image:
    """The felt and the table's oval: what every table picture has under its parts."""
    image = Image.new("RGB", SIZE, FELT)
    ImageDraw.Draw(image).ellipse((170, 150, 630, 510), fill=FELT_LIGHT, outline=FELT_LINE, width=3)
    return image


def parts(scene: TableScene) -> list[Part]:
    """What ``scene`` shows on the background, part by part (none overlaps another)."""
    shown = [heading_part(scene)]
    for seat in range(4):
        box = plate_box(PLATES[seat])
        marks = tuple(chips(scene, seat))
        on_turn = scene.to_act == seat
        scored = scene.contract is not None
        shown.append(Part(box, plate, (seat, scene.seats[seat], on_turn, marks, scored)))
    shown.extend(cards.part(card, TRICK_CARDS[seat]) for seat, card in scene.trick)
    if scene.contract is None:
        shown.append(Part(CHOOSING_BOX, choosing))
    if scene.last_trick is not None:
        winner, plays = scene.last_trick
        who = clean(scene.seats[winner].name, SEAT_FALLBACK[winner])
        shown.append(Part(TITLE_BOX, last_trick_title, (who,)))
        w, h = cards.SMALL
        for index, (seat, card) in enumerate(plays):
            centre = (20 + w // 2 + index * (w + 6), HEADING + 44 + h // 2)
            shown.append(cards.part(card, centre, cards.SMALL, underlined=seat == winner))
    if scene.doubled:
        shown.append(Part(DOUBLES_BOX, doubles, (doubled_names(scene),)))
    return shown


def plate_box(centre: tuple[int, int]) -> Box:
    cx, cy = centre
    w, h = PLATE_SIZE
    return (cx - w // 2, cy - h // 2, cx + w // 2 + 1, cy + h // 2 + 1)


def plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: int,
    info: SeatScene,
    on_turn: bool,
    marks: tuple[str, ...],
    scored: bool,
) -> None:
    """A seat's name plate: name, tricks and score so far (``scored``: once the contract
    is known), the dealer and chooser chips (``marks``)."""
    left, top, right, bottom = plate_box(PLATES[seat])
    box = (left, top, right - 1, bottom - 1)
    fill, text = (GOLD, INK) if on_turn else (PLATE, WHITE)
    draw.rounded_rectangle(box, 14, fill=fill, outline=GOLD if on_turn else FELT_LINE, width=2)
    room = PLATE_SIZE[0] - 24 - len(marks) * (CHIP + 4)
    name = fit(draw, clean(info.name, SEAT_FALLBACK[seat]), 24, room, bold=True)
    draw.text((box[0] + 12, box[1] + 6), name, font=font(24, bold=True), fill=text)
    line = tricks_label(info.tricks)
    if scored:
        line += f" · {signed(info.score)}"
    draw.text((box[0] + 12, box[1] + 35), line, font=font(20), fill=text)
    for index, mark in enumerate(marks):
        chip(draw, (box[2] - 10 - CHIP // 2 - index * (CHIP + 4), box[1] + 20), mark)


def choosing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """Before the contract is chosen: says so in the middle of the table."""
    draw.text((400, 330), label("choosing"), font=font(24), fill=PALE, anchor="mm")


def last_trick_title(image: Image.Image, draw: ImageDraw.ImageDraw, who: str) -> None:
    """The last trick's title, top left, over its cards (the taker's underlined)."""
    title = fit(draw, f"{label('last_trick')} · {who}", 20, CORNER_TEXT)
    draw.text((20, HEADING + 12), title, font=font(20), fill=PALE)


def doubled_names(scene: TableScene) -> tuple[tuple[str, str, int], ...]:
    """Who doubled whom, by name, and how often (2: a redouble), the first five."""
    return tuple(
        (
            clean(scene.seats[i].name, SEAT_FALLBACK[i]),
            clean(scene.seats[j].name, SEAT_FALLBACK[j]),
            level,
        )
        for i, j, level in scene.doubled[:DOUBLES_SHOWN]
    )


def doubles(
    image: Image.Image, draw: ImageDraw.ImageDraw, names: tuple[tuple[str, str, int], ...]
) -> None:
    """Who doubled whom, top right (a redouble with two crosses)."""
    y = HEADING + 14
    for a, b, level in names:
        words = label("redoubled" if level == 2 else "doubled", a=a, b=b)
        text = fit(draw, words, 20, CORNER_TEXT)
        draw.text((SIZE[0] - 20, y), text, font=font(20), fill=PALE, anchor="ra")
        y += 27
