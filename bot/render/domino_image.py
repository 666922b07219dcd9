"""The Domino layout: the four suit rows as they lie on the table, and the seats.

Each row has a slot for every rank, 2 to ace, left to right (ace to king once an ace
lies next to its 2: the deal's aces then go low); the cards played lie face up in their
slots and the empty ones are outlined (the 8, where a row starts, marked).
Under the rows each seat's plate says how many cards it still holds, or in which place
it went out; the seat on turn is lit in gold, as on the table picture.

The picture is drawn in parts (:mod:`~bot.render.layers`): the felt and the rows' suit
chips are the background, and the heading, each slot (a card, or empty) and each plate
are parts pasted on it, each drawn once and kept.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.engine import CARDS, Suit
from bot.engine.cards import ACE
from bot.engine.deal import LOW_ACE

from . import cards
from .draw import FELT, FELT_LINE, GOLD, INK, PALE, PLATE, SLOT, WHITE, clean, fit, font
from .frame import CHIP, HEADING, SEAT_FALLBACK, SIZE, chip, chips, heading_part, suit_chip
from .labels import cards_label, label, ordinal
from .layers import Box, Part, composed, composed_png
from .scene import TableScene
from .text import rank_text

ROWS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Top to bottom: black and red alternate."""
ROW_TOP = HEADING + 22
ROW_STEP = 100
SLOT_LEFT = 84
SLOT_STEP = 54
PLATE_TOP = ROW_TOP + 4 * ROW_STEP + 14
PLATE_WIDTH = 182
START_RANK = 8
PLATE_GAP = (SIZE[0] - 40 - 4 * PLATE_WIDTH) // 3


@lru_cache(maxsize=64)
def domino_png(scene: TableScene) -> bytes:
    """The Domino layout of a deal as PNG bytes (the caller sets the language:
    :func:`~bot.render.deal_image.deal_png`)."""
    return composed_png(background, parts(scene))


def domino_image(scene: TableScene) -> Image.Image:
    """The Domino layout, to draw on (a replay adds the hands)."""
    return composed(background, parts(scene))


@cache
def background() -> Image.Image:
    """The felt and each row's suit chip: what every Domino picture has under its parts."""
    image = Image.new("RGB", SIZE, FELT)
    draw = ImageDraw.Draw(image)
    for index, suit in enumerate(ROWS):
        suit_chip(draw, (42, row_centre(index)), suit)
    return image


def parts(scene: TableScene) -> list[Part]:
    """What ``scene`` shows on the background, part by part (none overlaps another)."""
    shown = [heading_part(scene)]
    rows = {Suit(suit): (low, high) for suit, low, high in scene.domino_rows}
    w = cards.SMALL[0]
    for index, suit in enumerate(ROWS):
        low, high = rows.get(suit, (0, -1))
        y = row_centre(index)
        for slot, rank in enumerate(slot_ranks(scene)):
            x = SLOT_LEFT + slot * SLOT_STEP + w // 2
            if low <= rank <= high:
                face = ACE if rank == LOW_ACE else rank
                shown.append(cards.part(CARDS[suit * 13 + face - 2], (x, y), cards.SMALL))
            else:
                shown.append(Part(empty_box((x, y)), empty_slot, (rank, (x, y))))
    for seat in range(4):
        x0 = 20 + seat * (PLATE_WIDTH + PLATE_GAP)
        box = (x0, PLATE_TOP, x0 + PLATE_WIDTH + 1, PLATE_TOP + 72 + 1)
        out = scene.domino_out.index(seat) if seat in scene.domino_out else None
        marks = tuple(chips(scene, seat))
        info = scene.seats[seat]
        args = (seat, info.name, info.cards_left, scene.to_act == seat, out, marks)
        shown.append(Part(box, plate, args))
    return shown


def row_centre(index: int) -> int:
    """The height of the middle of the ``index``-th row (0: the top one)."""
    return ROW_TOP + index * ROW_STEP + cards.SMALL[1] // 2


def empty_box(centre: tuple[int, int]) -> Box:
    x, y = centre
    w, h = cards.SMALL
    return (x - w // 2, y - h // 2, x + w // 2 + 1, y + h // 2 + 1)


def empty_slot(
    image: Image.Image, draw: ImageDraw.ImageDraw, rank: int, centre: tuple[int, int]
) -> None:
    """A slot no card lies in yet, its rank written in it (the 8's, where a row starts,
    marked)."""
    left, top, right, bottom = empty_box(centre)
    draw.rounded_rectangle(
        (left, top, right - 1, bottom - 1), 6, fill=SLOT, outline=FELT_LINE, width=2
    )
    mark = PALE if rank == START_RANK else FELT_LINE
    draw.text(centre, rank_text(rank), font=font(18, bold=True), fill=mark, anchor="mm")


def slot_ranks(scene: TableScene) -> range:
    """The ranks of a row's slots, left to right: 2 to ace, or (an ace lies next to its 2,
    so the deal's aces go low) the low ace to the king."""
    if any(low == LOW_ACE for _, low, _ in scene.domino_rows):
        return range(LOW_ACE, ACE)
    return range(2, ACE + 1)


def plate(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: int,
    name: str,
    cards_left: int,
    on_turn: bool,
    out: int | None,
    marks: tuple[str, ...],
) -> None:
    """A seat's plate under the rows: name, then its cards left or its place out (``out``:
    0 for the first out), the dealer and chooser chips (``marks``)."""
    x0 = 20 + seat * (PLATE_WIDTH + PLATE_GAP)
    box = (x0, PLATE_TOP, x0 + PLATE_WIDTH, PLATE_TOP + 72)
    fill, text = (GOLD, INK) if on_turn else (PLATE, WHITE)
    is_out = out is not None
    draw.rounded_rectangle(
        box,
        14,
        fill=fill,
        outline=GOLD if on_turn or is_out else FELT_LINE,
        width=3 if is_out else 2,
    )
    room = PLATE_WIDTH - 20 - len(marks) * (CHIP + 4)
    shown = fit(draw, clean(name, SEAT_FALLBACK[seat]), 22, room, bold=True)
    draw.text((x0 + 10, PLATE_TOP + 8), shown, font=font(22, bold=True), fill=text)
    if out is not None:
        draw.text(
            (x0 + 10, PLATE_TOP + 40),
            "✔ " + label("out", place=ordinal(out)),
            font=font(20, bold=True),
            fill=GOLD if not on_turn else INK,
        )
    else:
        draw.text((x0 + 10, PLATE_TOP + 40), cards_label(cards_left), font=font(20), fill=text)
    for index, mark in enumerate(marks):
        chip(draw, (box[2] - 8 - CHIP // 2 - index * (CHIP + 4), PLATE_TOP + 22), mark)
