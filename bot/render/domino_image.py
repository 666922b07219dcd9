"""The Domino layout: the four suit rows as they lie on the table, and the seats.

Each row has a slot for every rank, 2 to ace, left to right (ace to king once an ace
lies next to its 2: the deal's aces then go low); the cards played lie face up in their
slots and the empty ones are outlined (the 8, where a row starts, marked).
Under the rows each seat's plate says how many cards it still holds, or in which place
it went out; the seat on turn is lit in gold, as on the table picture.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine import CARDS, Suit
from bot.engine.cards import ACE
from bot.engine.deal import LOW_ACE

from . import cards
from .draw import FELT, FELT_LINE, GOLD, INK, PALE, PLATE, SLOT, WHITE, clean, fit, font, png
from .frame import CHIP, HEADING, SEAT_FALLBACK, SIZE, chip, chips, heading, suit_chip
from .labels import cards_label, label, ordinal
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


@lru_cache(maxsize=64)
def domino_png(scene: TableScene) -> bytes:
    """The Domino layout of a deal as PNG bytes (the caller sets the language:
    :func:`~bot.render.deal_image.deal_png`)."""
    return png(domino_image(scene))


def domino_image(scene: TableScene) -> Image.Image:
    """The Domino layout, to encode or to draw on (a replay adds the hands)."""
    image = Image.new("RGB", SIZE, FELT)
    draw = ImageDraw.Draw(image)
    heading(draw, scene)
    rows = {Suit(suit): (low, high) for suit, low, high in scene.domino_rows}
    w, h = cards.SMALL
    for index, suit in enumerate(ROWS):
        y = ROW_TOP + index * ROW_STEP + h // 2
        suit_chip(draw, (42, y), suit)
        low, high = rows.get(suit, (0, -1))
        for slot, rank in enumerate(slot_ranks(scene)):
            x = SLOT_LEFT + slot * SLOT_STEP + w // 2
            face = ACE if rank == LOW_ACE else rank
            if low <= rank <= high:
                cards.paste(image, CARDS[suit * 13 + face - 2], (x, y), cards.SMALL)
                continue
            box = (x - w // 2, y - h // 2, x + w // 2, y + h // 2)
            draw.rounded_rectangle(box, 6, fill=SLOT, outline=FELT_LINE, width=2)
            mark = PALE if rank == START_RANK else FELT_LINE
            draw.text((x, y), rank_text(rank), font=font(18, bold=True), fill=mark, anchor="mm")
    for seat in range(4):
        plate(draw, scene, seat)
    return image


def slot_ranks(scene: TableScene) -> range:
    """The ranks of a row's slots, left to right: 2 to ace, or (an ace lies next to its 2,
    so the deal's aces go low) the low ace to the king."""
    if any(low == LOW_ACE for _, low, _ in scene.domino_rows):
        return range(LOW_ACE, ACE)
    return range(2, ACE + 1)


def plate(draw: ImageDraw.ImageDraw, scene: TableScene, seat: int) -> None:
    """A seat's plate under the rows: name, then its cards left or its place out."""
    gap = (SIZE[0] - 40 - 4 * PLATE_WIDTH) // 3
    x0 = 20 + seat * (PLATE_WIDTH + gap)
    box = (x0, PLATE_TOP, x0 + PLATE_WIDTH, PLATE_TOP + 72)
    on_turn = scene.to_act == seat
    out = seat in scene.domino_out
    fill, text = (GOLD, INK) if on_turn else (PLATE, WHITE)
    draw.rounded_rectangle(
        box, 14, fill=fill, outline=GOLD if on_turn or out else FELT_LINE, width=3 if out else 2
    )
    marks = chips(scene, seat)
    room = PLATE_WIDTH - 20 - len(marks) * (CHIP + 4)
    name = fit(draw, clean(scene.seats[seat].name, SEAT_FALLBACK[seat]), 22, room, bold=True)
    draw.text((x0 + 10, PLATE_TOP + 8), name, font=font(22, bold=True), fill=text)
    if out:
        place = ordinal(scene.domino_out.index(seat))
        draw.text(
            (x0 + 10, PLATE_TOP + 40),
            "✔ " + label("out", place=place),
            font=font(20, bold=True),
            fill=GOLD if not on_turn else INK,
        )
    else:
        left = cards_label(scene.seats[seat].cards_left)
        draw.text((x0 + 10, PLATE_TOP + 40), left, font=font(20), fill=text)
    for index, mark in enumerate(marks):
        chip(draw, (box[2] - 8 - CHIP // 2 - index * (CHIP + 4), PLATE_TOP + 22), mark)
