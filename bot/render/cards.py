"""Card faces as small images, drawn once per card and size and pasted where needed.

A face shows its rank in the top-left corner with the suit under it and one large suit
symbol in the middle. Hearts and diamonds are red, clubs and spades black, and each suit
keeps its own shape, so the suits are told apart without telling red from black.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.engine import Card, Suit

from .draw import CARD, CARD_EDGE, GOLD, INK, RED, Colour, font
from .layers import Part
from .text import rank_text

RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})

BIG = (84, 120)
"""A card of the trick in progress."""
SMALL = (50, 72)
"""A card of the last trick and of Domino's rows."""


def suit_colour(suit: Suit) -> Colour:
    return RED if suit in RED_SUITS else INK


def face(card: Card, size: tuple[int, int] = BIG) -> Image.Image:
    """The card's face, ``size`` pixels, with a transparent outside of its round corners;
    its rank as the current language writes it (``V`` for a queen in Dutch)."""
    return _drawn_face(card, size, rank_text(card.rank))


@cache
def _drawn_face(card: Card, size: tuple[int, int], rank: str) -> Image.Image:
    big = _face(card, (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), rank)
    return big.resize(size, Image.Resampling.LANCZOS)


SUPERSAMPLE = 3
"""Faces are drawn this many times larger and scaled down: smooth corners and edges."""


def _face(card: Card, size: tuple[int, int], rank: str) -> Image.Image:
    width, height = size
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(4, width // 9)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius, fill=CARD, outline=CARD_EDGE, width=SUPERSAMPLE
    )
    colour = suit_colour(card.suit)
    corner = int(height * 0.27)
    left = max(3 * SUPERSAMPLE, width // 14)
    rank_font = font(corner, bold=True)
    if draw.textlength(rank, font=rank_font) > width * 0.62:  # "10" on a small card
        rank_font = font(int(corner * 0.82), bold=True)
    draw.text((left, SUPERSAMPLE), rank, font=rank_font, fill=colour)
    draw.text(
        (left + SUPERSAMPLE, corner + SUPERSAMPLE),
        card.suit.symbol,
        font=font(int(corner * 0.8)),
        fill=colour,
    )
    pip = font(int(height * 0.5))
    draw.text((width * 0.6, height * 0.66), card.suit.symbol, font=pip, fill=colour, anchor="mm")
    return image


def paste(image: Image.Image, card: Card, centre: tuple[float, float], size=BIG) -> None:
    """Draw ``card`` on ``image`` centred at ``centre``."""
    picture = face(card, size)
    x = round(centre[0] - size[0] / 2)
    y = round(centre[1] - size[1] / 2)
    image.paste(picture, (x, y), picture)


def part(
    card: Card, centre: tuple[int, int], size: tuple[int, int] = BIG, *, underlined: bool = False
) -> Part:
    """``card`` at ``centre`` as a part of a picture (:mod:`~bot.render.layers`), with
    room under it for the gold line that marks the card that took a trick."""
    w, h = size
    x, y = round(centre[0] - w / 2), round(centre[1] - h / 2)
    return Part(
        (x, y, x + w + 1, y + h + UNDERLINE[1] + 1), _paint, (card, centre, size, underlined)
    )


UNDERLINE = (4, 8)
"""The gold line under a card that took a trick: from and to, in pixels under the card."""


def _paint(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    card: Card,
    centre: tuple[int, int],
    size: tuple[int, int],
    underlined: bool,
) -> None:
    paste(image, card, centre, size)
    if underlined:
        x, y = centre
        w, h = size
        top, bottom = (y + h // 2 + gap for gap in UNDERLINE)
        draw.rectangle((x - w // 2, top, x + w // 2, bottom), fill=GOLD)
