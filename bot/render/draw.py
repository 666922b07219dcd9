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


def png(image: Image.Image) -> bytes:
    """The picture as PNG bytes. Pictures are flat colours, so a palette of 256 loses
    nothing visible and makes the file a third the size; compression level 6 is zlib's
    default trade of time for size."""
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, "PNG", compress_level=6)
    return out.getvalue()
