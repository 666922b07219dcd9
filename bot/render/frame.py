"""What the two deal pictures share: the picture's size, the heading and the chips.

The table picture (:mod:`~bot.render.table_image`) and the Domino layout
(:mod:`~bot.render.domino_image`) are the same size, carry the same heading (the deal's
number and its contract, the trump in the suit's own shape) and mark the dealer and the
chooser with the same chips, so a deal message looks the same whatever is played.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine import Suit, any_contract

from . import cards
from .draw import INK, PLATE, WHITE, fit, font
from .labels import label
from .layers import Part
from .scene import TableScene
from .text import contract_name

SIZE = (800, 600)
"""Pixels; Discord shows an embed's picture about half as wide, so this is sharp on a
phone's dense screen and every word is at least 9 display pixels high."""
HEADING = 52
CHIP = 30
SEAT_FALLBACK = ("North", "East", "South", "West")
"""A seat's name when nothing of the player's name can be drawn."""


def heading_part(scene: TableScene) -> Part:
    """The heading as a part of the picture (:mod:`~bot.render.layers`): what it shows
    of the scene, and nothing else, is its key."""
    shown = TableScene(
        seats=(),
        deal_number=scene.deal_number,
        deals=scene.deals,
        contract=scene.contract,
        over=scene.over,
    )
    return Part((0, 0, SIZE[0], HEADING + 1), _heading, (shown,))


def _heading(image: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    heading(draw, scene)


def heading(draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    """The deal's number and its contract, with the trump suit on a white chip."""
    draw.rectangle((0, 0, SIZE[0], HEADING), fill=PLATE)
    title = label("deal", number=scene.deal_number, deals=scene.deals)
    if scene.over:
        title += " · " + label("deal_over")
    contract = None if scene.contract is None else any_contract(scene.contract)
    name = font(26, bold=True)
    right = SIZE[0] - 20
    words = "" if contract is None else contract_name(contract)
    taken = draw.textlength(words, font=name) + (CHIP + 24 if contract and contract.trump else 0)
    room = int(right - 20 - taken - 24)  # the title gives way to a long contract name
    draw.text(
        (20, HEADING // 2),
        fit(draw, title, 26, room, bold=True),
        font=name,
        fill=WHITE,
        anchor="lm",
    )
    if contract is None:
        return
    draw.text((right, HEADING // 2), words, font=name, fill=WHITE, anchor="rm")
    if contract.trump is not None:
        x = right - draw.textlength(words, font=name) - 12 - CHIP // 2 - 4
        suit_chip(draw, (x, HEADING // 2), contract.trump)


def suit_chip(draw: ImageDraw.ImageDraw, centre: tuple[float, float], suit: Suit) -> None:
    """The suit's symbol in its colour on a white disc."""
    x, y = centre
    r = CHIP // 2 + 4
    draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE)
    draw.text((x, y + 1), suit.symbol, font=font(26), fill=cards.suit_colour(suit), anchor="mm")


def chips(scene: TableScene, seat: int) -> list[str]:
    """The role chips of a seat's plate: the dealer's D, the chooser's star."""
    roles = ((label("dealer_chip"), scene.dealer), ("★", scene.chooser))
    return [mark for mark, who in roles if who == seat]


def chip(draw: ImageDraw.ImageDraw, centre: tuple[int, int], mark: str) -> None:
    x, y = centre
    draw.ellipse((x - CHIP // 2, y - CHIP // 2, x + CHIP // 2, y + CHIP // 2), fill=WHITE)
    draw.text((x, y + 1), mark, font=font(18, bold=True), fill=INK, anchor="mm")
