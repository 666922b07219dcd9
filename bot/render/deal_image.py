"""The picture of a deal message: the Domino layout in a Domino deal, else the table."""

from __future__ import annotations

from .domino_image import domino_png
from .labels import drawn_in
from .scene import TableScene
from .table_image import table_png


@drawn_in
def deal_png(scene: TableScene) -> bytes:
    """The deal's picture as PNG bytes, in the scene's language."""
    return domino_png(scene) if scene.domino else table_png(scene)
