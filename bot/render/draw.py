"""What every picture shares: the bundled font, the palette, text that fits, PNG bytes.

The font (DejaVu Sans, shipped in ``fonts/`` with its licence) has the four suit symbols,
so a picture looks the same on every machine and in the Docker image. A name may hold a
character the font lacks (an emoji, a CJK name); such characters are left out rather
than drawn as boxes, and a name with nothing left is drawn as its seat's compass name.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"

Colour = tuple[int, int, int]
FELT: Colour = (22, 84, 52)
FELT_LIGHT: Colour = (31, 107, 67)
FELT_LINE: Colour = (48, 132, 86)
INK: Colour = (28, 28, 32)
RED: Colour = (200, 30, 45)
WHITE: Colour = (255, 255, 255)
PALE: Colour = (214, 232, 220)
PLATE: Colour = (15, 55, 35)
GOLD: Colour = (246, 196, 64)
CARD: Colour = (252, 251, 247)
CARD_EDGE: Colour = (150, 150, 150)
SLOT: Colour = (40, 116, 74)


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@cache
def _missing_mask(size: int) -> bytes:
    """How the font draws a character it lacks (its .notdef box)."""
    return bytes(font(size).getmask("\ue000"))


@cache
def drawable(char: str) -> bool:
    """True if the bundled font has a glyph for ``char`` (whitespace always is)."""
    if char.isspace():
        return True
    return bytes(font(24).getmask(char)) != _missing_mask(24)


def clean(name: str, fallback: str) -> str:
    """``name`` without the characters the font cannot draw; ``fallback`` if none is left."""
    kept = "".join(c for c in name if drawable(c)).strip()
    return kept or fallback


def fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int, *, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` pixels at ``size``."""
    face = font(size, bold=bold)
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


TABLE_COLOURS: tuple[Colour, ...] = (FELT, FELT_LIGHT, FELT_LINE, INK, RED, WHITE, PALE, PLATE)
TABLE_COLOURS += (GOLD, CARD, CARD_EDGE, SLOT)
"""Every colour the table and Domino pictures are drawn in."""
BLEND_STEPS = 24


@cache
def palette(colours: tuple[Colour, ...], entries: int = 256) -> Image.Image:
    """A palette of ``entries`` for pictures drawn in ``colours`` (an animation keeps one
    entry free, for "unchanged"): the colours and the blends of
    every two of them (what smooth edges and small text are made of), so a picture's
    pixels find a close entry. Fixed per set of colours: the same scene always gives the
    same bytes, and mapping to a fixed palette is three times faster than choosing one."""
    blends = [
        tuple(round(a[k] + (b[k] - a[k]) * step / BLEND_STEPS) for k in range(3))
        for i, a in enumerate(colours)
        for b in colours[i + 1 :]
        for step in range(BLEND_STEPS + 1)
    ]
    swatch = Image.new("RGB", (len(blends), 1))
    swatch.putdata(blends)  # type: ignore[arg-type]
    return swatch.quantize(entries, method=Image.Quantize.FASTOCTREE)


def png(image: Image.Image, colours: tuple[Colour, ...] = TABLE_COLOURS) -> bytes:
    """The picture as PNG bytes, in :func:`palette`'s 256 colours: flat colours lose
    nothing visible and the file is a third the size of a full-colour one."""
    return encoded(indexed(image, colours))


def indexed(image: Image.Image, colours: tuple[Colour, ...] = TABLE_COLOURS) -> Image.Image:
    """``image`` mapped to :func:`palette`'s colours, each pixel to its nearest entry (no
    dithering: a pixel's entry depends on that pixel alone)."""
    return image.quantize(palette=palette(colours), dither=Image.Dither.NONE)


def encoded(image: Image.Image) -> bytes:
    """An image already mapped to a palette (:func:`indexed`), as PNG bytes."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=3)
    return out.getvalue()
