"""Table views of real matches at chosen moments, for the renderer tests."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from PIL import Image

from bot import i18n
from bot.engine import CONTRACTS, Choose, Match, Phase
from bot.render import domino_image, layers, table_image
from bot.render.scene import TableScene
from bot.store import Computer, TableSettings
from bot.tables import TableView
from bot.tables.table import Seat, Table, view_of

NAMES = ("Ann", "Bob", "Cas", "Dirk")


def table_of(match: Match, names: tuple[str, ...] = NAMES) -> Table:
    table = Table(1, 2, 3, 4, TableSettings())
    table.seats = [Seat(Computer("easy"), name) for name in names]
    table.match = match
    return table


def play(
    seed: int = 7,
    *,
    contract: str | None = None,
    until: Callable[[Match], bool] = lambda m: False,
    names: tuple[str, ...] = NAMES,
) -> TableView:
    """A match dealt with ``seed``, the first legal action taken (``contract`` chosen
    when given and allowed) until ``until(match)`` holds or the match is over."""
    match = Match(list(names))
    rng = random.Random(seed)
    while not match.is_over:
        if match.phase is Phase.NEEDS_DEAL:
            match.deal_random(rng)
        if until(match):
            break
        legal = match.legal_actions()
        wanted = [a for a in legal if isinstance(a, Choose) and a.contract == contract]
        match.apply(wanted[0] if wanted else legal[0])
    return view_of(table_of(match, names))


def drawn_fresh(scene: TableScene) -> Image.Image:
    """The deal picture of ``scene`` with every part painted on one canvas, in the
    scene's language: nothing kept, nothing pasted."""
    kind = domino_image if scene.domino else table_image
    with i18n.using(scene.language):
        return layers.fresh(kind.background(), kind.parts(scene))


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    """An RGB image's pixels, row by row."""
    data = image.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def domino_id() -> str:
    return next(c.id for c in CONTRACTS.values() if c.domino)


def near(pixel: tuple[int, ...], colour: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def region(image, centre, size):  # type: ignore[no-untyped-def]
    """The pixels of a box of ``size`` around ``centre``."""
    x, y = centre
    w, h = size
    box = image.crop((x - w // 2 + 6, y - h // 2 + 6, x + w // 2 - 6, y + h // 2 - 6))
    return pixels(box)


def share(pixels, colour, tolerance: int = 24) -> float:  # type: ignore[no-untyped-def]
    return sum(near(p, colour, tolerance) for p in pixels) / len(pixels)
