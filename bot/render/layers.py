"""A picture drawn in parts: each part drawn once, cut out and kept, then pasted.

A deal picture is a fixed background (the felt, the table's oval, Domino's suit chips)
with parts on it that do not overlap: the heading, the four name plates, each card. Most
parts repeat from one picture to the next (a click changes a card or two and one plate)
and across people (the computers' plates, the cards, the heading of the day's deal), so
drawing every part on a fresh canvas wasted most of the work. A :class:`Part` names the
function that paints it and that function's arguments, so equal parts are the same
drawing: :func:`composed` pastes each part cut from the background it was painted on
and kept (the last :data:`KEPT` used), and :func:`fresh` paints them all on one canvas,
as the picture would be drawn without keeping anything. They agree pixel for pixel as
long as each part paints inside its box, which the render tests check on whole matches.

The PNG path (:func:`composed_png`) pastes the parts already mapped to the fixed palette
(:func:`~bot.render.draw.png`): mapping is pixel by pixel, so mapping the parts gives the
same indexes as mapping the whole picture, and the only work left per picture is the
pasting and the PNG encoding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot import i18n

from .draw import encoded, indexed

Box = tuple[int, int, int, int]
"""(left, top, right, bottom), the right and bottom edges outside, as ``Image.crop``'s."""
Painter = Callable[..., None]
"""``paint(image, draw, *args)``: draws a part on a whole picture, in the current language."""
KEPT = 1024
"""Parts kept mapped to the palette, for the PNGs: a few KB each (a plate 15 KB, a card
11 KB), some 10 MB at most."""
KEPT_RGB = 256
"""Parts kept in full colour, for the pictures drawn on (a replay's): three times that."""


@dataclass(frozen=True)
class Part:
    """A part of a picture: ``paint(image, draw, *args)`` draws it within ``box``."""

    box: Box
    paint: Painter
    args: tuple[Any, ...] = ()


def fresh(background: Image.Image, parts: Sequence[Part]) -> Image.Image:
    """``parts`` painted on one copy of ``background``, nothing cached."""
    image = background.copy()
    draw = ImageDraw.Draw(image)
    for part in parts:
        part.paint(image, draw, *part.args)
    return image


def composed(background: Callable[[], Image.Image], parts: Sequence[Part]) -> Image.Image:
    """The same picture as :func:`fresh`, each part pasted from the cache (RGB: to draw
    more on it)."""
    image = background().copy()
    language = i18n.current()
    for part in parts:
        image.paste(_cut(background, part, language), part.box[:2])
    return image


def composed_png(background: Callable[[], Image.Image], parts: Sequence[Part]) -> bytes:
    """``png(fresh(background(), parts))``, from the parts kept mapped to the palette."""
    image = _indexed_background(background).copy()
    language = i18n.current()
    for part in parts:
        image.paste(_mapped_cut(background, part, language), part.box[:2])
    return encoded(image)


@lru_cache(maxsize=8)
def _indexed_background(background: Callable[[], Image.Image]) -> Image.Image:
    return indexed(background())


@lru_cache(maxsize=KEPT_RGB)
def _cut(background: Callable[[], Image.Image], part: Part, language: str) -> Image.Image:
    """``part`` painted on ``background`` in ``language`` and cut out. The language is
    the key's: a part's words are drawn in it."""
    with i18n.using(language):
        return fresh(background(), [part]).crop(part.box)


@lru_cache(maxsize=KEPT)
def _mapped_cut(background: Callable[[], Image.Image], part: Part, language: str) -> Image.Image:
    """:func:`_cut`, mapped to the palette (the full-colour cut is not kept for it)."""
    return indexed(_cut.__wrapped__(background, part, language))


def cut_misses() -> int:
    """How many parts were drawn for PNGs so far, not found kept (the tests see what a
    click redraws)."""
    return _mapped_cut.cache_info().misses
