"""A deal picture pasted from kept parts is the picture drawn fresh, pixel for pixel and
byte for byte, whatever moment of a match it shows, in either language; a click redraws
only the parts it changed."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot import i18n
from bot.engine import Match, Phase
from bot.render import domino_image, layers, table_image
from bot.render.deal_image import deal_png
from bot.render.draw import png
from bot.render.scene import TableScene, scene_of
from bot.tables.table import view_of
from tests.render.render_helpers import drawn_fresh, table_of

NAMES = ("Annemarie-Josephine van der Berg", "Bob", "😀", "Zuid-bot")
"""A name cut to fit, a short one, one the font cannot draw (its compass name shows)."""


def match_scenes(seed: int) -> list[TableScene]:
    """Every distinct scene of a random match, with doubles: each deal played at random."""
    rng = random.Random(seed)
    match = Match(list(NAMES))
    table = table_of(match, NAMES)
    seen: dict[TableScene, None] = {}
    while not match.is_over:
        if match.phase is Phase.NEEDS_DEAL:
            match.deal_random(rng)
            seen.setdefault(scene_of(view_of(table)))  # the contract being chosen
        match.apply(rng.choice(match.legal_actions()))
        seen.setdefault(scene_of(view_of(table)))
        seen.setdefault(scene_of(view_of(table), over=True))
    return list(seen)


SCENES = match_scenes(3)


@pytest.mark.parametrize(("language", "first"), [("en", 3), ("nl", 12)])
def test_a_picture_of_kept_parts_is_the_picture_drawn_fresh(language: str, first: int):
    """Every 18th scene of the match in each language, the two languages taking turns:
    together they draw every 9th scene (each part in each of its states), and each
    language's words in some seventy scenes, of every kind (asserted: the first scenes
    are chosen so)."""
    scenes = [dataclasses.replace(s, language=language) for s in SCENES[first::18]]
    assert any(s.domino for s in scenes) and any(not s.domino for s in scenes)
    assert any(s.doubled for s in scenes) and any(s.contract is None for s in scenes)
    for scene in scenes:
        kind = domino_image if scene.domino else table_image
        expected = drawn_fresh(scene)
        with i18n.using(language):
            assert kind.composed(kind.background, kind.parts(scene)).tobytes() == expected.tobytes()
        assert deal_png(scene) == png(expected), scene


def test_a_click_redraws_only_the_parts_it_changed():
    trick_scenes = [s for s in SCENES if not s.domino and s.contract is not None]
    before, after = trick_scenes[10], trick_scenes[11]
    deal_png(before)
    missed = layers.cut_misses()
    deal_png(after)
    changed = set(table_image.parts(after)) - set(table_image.parts(before))
    assert 0 < len(changed) < len(table_image.parts(after))
    assert layers.cut_misses() - missed <= len(changed)
