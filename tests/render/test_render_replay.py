"""The replay picture shows every hand face up under the deal's own picture, changes with
every step, lays Domino's rows, and a deal animates into one GIF of every point."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from bot.engine.simulate import random_match
from bot.render import cards
from bot.render.domino_image import ROW_STEP, ROW_TOP, ROWS, SLOT_LEFT, SLOT_STEP
from bot.render.draw import CARD
from bot.render.frame import SIZE
from bot.render.replay import (
    CAPTION,
    CARD_STEP,
    NAME_WIDTH,
    REPLAY_SIZE,
    ROW,
    deal_animation,
    replay_png,
)
from bot.render.table_image import TRICK_CARDS
from bot.review import Address, Replay
from tests.render.render_helpers import decode

NAMES = ("Ann", "East bot", "Bob", "West bot")
LIMIT = 200_000


def replay_of(seed: int = 5) -> Replay:
    return Replay(random_match(random.Random(seed), list(NAMES), first_dealer=0))


def deal_of(replay: Replay, *, domino: bool) -> int:
    return next(d for d in range(replay.deals) if (replay.label(d).contract == "domino") == domino)


def is_card(image: Image.Image, centre: tuple[int, int]) -> bool:
    """The pixel a little inside a card's bottom-left corner is the card's face colour."""
    pixel = image.getpixel(centre)
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= 12 for a, b in zip(pixel, CARD, strict=True))


def hand_slot(seat: int, index: int) -> tuple[int, int]:
    """A point on the ``index``-th card of ``seat``'s row that the next card leaves free."""
    _w, h = cards.SMALL
    top = SIZE[1] + CAPTION + 6 + seat * ROW
    return (20 + NAME_WIDTH + index * CARD_STEP + 10, top + 4 + h - 8)


def cards_in_row(image: Image.Image, seat: int) -> int:
    return sum(is_card(image, hand_slot(seat, index)) for index in range(13))


def test_every_hand_is_drawn_face_up_with_as_many_cards_as_it_holds() -> None:
    replay = replay_of()
    deal = deal_of(replay, domino=False)
    for step in (0, 5, 18, 40):
        point = replay.point(Address(deal, step))
        data = replay_png(point, NAMES)
        image = decode(data)
        assert image.size == REPLAY_SIZE and len(data) < LIMIT
        assert [cards_in_row(image, seat) for seat in range(4)] == [
            len(hand) for hand in point.hands
        ]


def test_each_step_changes_the_picture_and_a_finished_trick_lies_whole_in_the_middle() -> None:
    replay = replay_of()
    deal = deal_of(replay, domino=False)
    points = replay.deal_points(deal)
    pictures = [replay_png(point, NAMES) for point in points]
    assert len(set(pictures)) == len(pictures)  # every step looks different
    completed = next(p for p in points if p.trick_winner is not None)
    image = decode(replay_png(completed, NAMES))
    assert len(completed.view.trick) == 0 and len(completed.trick) == 4
    for x, y in TRICK_CARDS:  # all four cards of the trick just taken
        assert is_card(image, (x, y + 40))
    before = decode(replay_png(points[0], NAMES))  # as dealt: no card on the table
    assert not any(is_card(before, (x, y + 40)) for x, y in TRICK_CARDS)


def test_a_domino_deal_shows_its_rows_growing() -> None:
    replay = replay_of()
    deal = deal_of(replay, domino=True)
    points = replay.deal_points(deal)
    middle = points[len(points) // 2]
    image = decode(replay_png(middle, NAMES))
    _w, h = cards.SMALL
    for suit, (low, high) in middle.view.domino_rows.items():
        y = ROW_TOP + ROWS.index(suit) * ROW_STEP + h - 8
        laid = [SLOT_LEFT + (rank - 2) * SLOT_STEP + 6 for rank in range(low, high + 1)]
        assert all(is_card(image, (x, y)) for x in laid)
    start = decode(replay_png(points[5], NAMES))  # doubling done, no card laid yet
    assert middle.view.domino_rows != {} and points[5].view.domino_rows == {}
    suit = next(iter(middle.view.domino_rows))
    low, _high = middle.view.domino_rows[suit]
    y = ROW_TOP + ROWS.index(suit) * ROW_STEP + h - 8
    assert not is_card(start, (SLOT_LEFT + (low - 2) * SLOT_STEP + 6, y))


def test_the_words_follow_the_language() -> None:
    replay = replay_of()
    point = replay.point(Address(deal_of(replay, domino=False), 9))
    assert replay_png(point, NAMES, "en") != replay_png(point, NAMES, "nl")


def test_a_deal_animates_as_one_gif_of_every_point_under_two_megabytes() -> None:
    replay = replay_of()
    for domino in (False, True):
        points = replay.deal_points(deal_of(replay, domino=domino))
        data = deal_animation(points, NAMES)
        gif = Image.open(io.BytesIO(data))
        assert gif.format == "GIF" and gif.size == REPLAY_SIZE
        assert gif.n_frames == len(points)
        assert len(data) < 2_000_000
        gif.seek(gif.n_frames - 1)  # the frames drawn over each other give the end
        last = gif.convert("RGB")
        still = decode(replay_png(points[-1], NAMES))
        off = ImageChops.difference(last, still).convert("L").point(lambda v: v > 40 and 255)
        assert off.histogram()[255] < 0.001 * REPLAY_SIZE[0] * REPLAY_SIZE[1]
