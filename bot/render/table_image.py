"""The table picture of a deal message: the four seats, the trick, the last trick.

North sits at the top, South at the bottom, West left and East right, as the compass
names in the footer say. Each seat's plate has the player's name, the deal's tricks and
score so far, and chips for the dealer (D) and the chooser (★); the seat on turn is lit
in gold. The cards of the trick in progress lie in front of whoever played them. The last
trick taken is top left (the card that took it underlined), the doubles top right, the
deal and the contract (with its trump in the suit's own shape) in the heading.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import cards
from .draw import FELT, FELT_LIGHT, FELT_LINE, GOLD, INK, PALE, PLATE, WHITE, clean, fit, font, png
from .frame import CHIP, HEADING, SEAT_FALLBACK, SIZE, chip, chips, heading
from .labels import label, signed, tricks_label
from .scene import TableScene

PLATE_SIZE = (236, 64)
PLATES = ((400, 96), (666, 330), (400, 560), (134, 330))
"""The centre of each seat's name plate (North, East, South, West)."""
TRICK_CARDS = ((400, 228), (500, 330), (400, 432), (300, 330))
"""The centre of the card each seat plays to the trick: in front of its plate."""


@lru_cache(maxsize=128)
def table_png(scene: TableScene) -> bytes:
    """The picture of a deal of tricks as PNG bytes (see the module; the caller sets the
    language: :func:`~bot.render.deal_image.deal_png`)."""
    return png(table_image(scene))


def table_image(scene: TableScene) -> Image.Image:
    """The picture of a deal of tricks, to encode or to draw on (a replay adds the
    hands)."""
    image = Image.new("RGB", SIZE, FELT)
    draw = ImageDraw.Draw(image)
    draw.ellipse((170, 150, 630, 510), fill=FELT_LIGHT, outline=FELT_LINE, width=3)
    heading(draw, scene)
    for seat in range(4):
        plate(draw, scene, seat)
    for seat, card in scene.trick:
        cards.paste(image, card, TRICK_CARDS[seat])
    if scene.contract is None:
        draw.text((400, 330), label("choosing"), font=font(24), fill=PALE, anchor="mm")
    last_trick(image, draw, scene)
    doubles(draw, scene)
    return image


def plate(draw: ImageDraw.ImageDraw, scene: TableScene, seat: int) -> None:
    """A seat's name plate: name, tricks and score so far, dealer and chooser chips."""
    cx, cy = PLATES[seat]
    w, h = PLATE_SIZE
    box = (cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2)
    on_turn = scene.to_act == seat
    fill, text = (GOLD, INK) if on_turn else (PLATE, WHITE)
    draw.rounded_rectangle(box, 14, fill=fill, outline=GOLD if on_turn else FELT_LINE, width=2)
    marks = chips(scene, seat)
    room = w - 24 - len(marks) * (CHIP + 4)
    info = scene.seats[seat]
    name = fit(draw, clean(info.name, SEAT_FALLBACK[seat]), 24, room, bold=True)
    draw.text((box[0] + 12, box[1] + 6), name, font=font(24, bold=True), fill=text)
    line = tricks_label(info.tricks)
    if scene.contract is not None:
        line += f" · {signed(info.score)}"
    draw.text((box[0] + 12, box[1] + 35), line, font=font(20), fill=text)
    for index, mark in enumerate(marks):
        chip(draw, (box[2] - 10 - CHIP // 2 - index * (CHIP + 4), box[1] + 20), mark)


def last_trick(image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    """The last trick taken, top left: its cards in play order, the taker's underlined."""
    if scene.last_trick is None:
        return
    winner, plays = scene.last_trick
    who = clean(scene.seats[winner].name, SEAT_FALLBACK[winner])
    title = fit(draw, f"{label('last_trick')} · {who}", 20, 236)
    draw.text((20, HEADING + 12), title, font=font(20), fill=PALE)
    w, h = cards.SMALL
    for index, (seat, card) in enumerate(plays):
        x = 20 + w // 2 + index * (w + 6)
        y = HEADING + 44 + h // 2
        cards.paste(image, card, (x, y), cards.SMALL)
        if seat == winner:
            draw.rectangle((x - w // 2, y + h // 2 + 4, x + w // 2, y + h // 2 + 8), fill=GOLD)


def doubles(draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    """Who doubled whom, top right (a redouble with two crosses)."""
    y = HEADING + 14
    for i, j, level in scene.doubled[:5]:
        a = clean(scene.seats[i].name, SEAT_FALLBACK[i])
        b = clean(scene.seats[j].name, SEAT_FALLBACK[j])
        words = label("redoubled" if level == 2 else "doubled", a=a, b=b)
        text = fit(draw, words, 20, 236)
        draw.text((SIZE[0] - 20, y), text, font=font(20), fill=PALE, anchor="ra")
        y += 27
