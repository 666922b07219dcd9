"""The table picture shows what the deal message says: the trick's cards in front of the
seats that played them, the seat on turn lit, the last trick, in a small PNG."""

from __future__ import annotations

import dataclasses

from bot.engine import Phase
from bot.render import cards
from bot.render.draw import CARD, FELT_LIGHT, GOLD, RED, clean
from bot.render.frame import HEADING, SIZE
from bot.render.scene import scene_of
from bot.render.table_image import PLATE_SIZE, PLATES, TRICK_CARDS, table_png
from tests.render.render_helpers import decode, play, region, share

LIMIT = 150_000


def mid_trick(tricks: int, cards_in_trick: int):  # type: ignore[no-untyped-def]
    return play(
        7,
        contract="trump-hearts",
        until=lambda m: (
            m.deal is not None
            and m.phase is Phase.PLAYING
            and len(m.deal.tricks) == tricks
            and len(m.deal.trick) == cards_in_trick
        ),
    )


def test_each_card_of_the_trick_lies_in_front_of_the_seat_that_played_it():
    view = mid_trick(3, 2)
    image = decode(table_png(scene_of(view)))
    assert image.size == SIZE
    played = dict(view.trick)
    assert len(played) == 2
    for seat in range(4):
        pixels = region(image, TRICK_CARDS[seat], cards.BIG)
        if seat in played:
            card = played[seat]
            assert share(pixels, CARD) > 0.5, (seat, card)  # a card's face is there
            red = share(pixels, RED, 40)
            assert (red > 0.02) == (card.suit in cards.RED_SUITS), (card, red)
        else:
            assert share(pixels, CARD) < 0.05, seat  # the table's felt, no card
            assert share(pixels, FELT_LIGHT) > 0.5, seat


def test_the_seat_on_turn_is_lit_and_the_others_are_not():
    view = mid_trick(3, 2)
    image = decode(table_png(scene_of(view)))
    assert view.to_act is not None
    w, h = PLATE_SIZE
    for seat in range(4):
        lit = share(region(image, PLATES[seat], (w, h)), GOLD)
        assert (lit > 0.4) == (seat == view.to_act), (seat, lit)
    # When the deal's message is closed nobody is on turn any more.
    closed = decode(table_png(scene_of(view, over=True)))
    assert all(share(region(closed, PLATES[s], (w, h)), GOLD) < 0.1 for s in range(4))


def test_the_last_trick_is_shown_with_its_four_cards():
    view = mid_trick(3, 0)
    image = decode(table_png(scene_of(view)))
    w, h = cards.SMALL
    top = HEADING + 44 + h // 2
    faces = [
        share(region(image, (20 + w // 2 + i * (w + 6), top), cards.SMALL), CARD) for i in range(4)
    ]
    assert all(f > 0.4 for f in faces), faces
    before = decode(table_png(scene_of(mid_trick(0, 0))))
    assert share(region(before, (20 + w // 2, top), cards.SMALL), CARD) < 0.05


def test_the_png_is_small_and_an_unchanged_table_is_not_drawn_again():
    scene = scene_of(mid_trick(5, 3))
    first = table_png(scene)
    assert first.startswith(b"\x89PNG") and len(first) <= LIMIT
    hits = table_png.cache_info().hits
    assert table_png(dataclasses.replace(scene)) is first  # an equal scene: the cached bytes
    assert table_png.cache_info().hits == hits + 1
    assert table_png(dataclasses.replace(scene, to_act=None)) != first


def test_names_the_font_cannot_draw_lose_those_characters_or_fall_back_to_the_seat():
    assert clean("Ann 🎲", "North") == "Ann"
    assert clean("🎲🎲", "North") == "North"
    assert clean("Zoë ♠", "North") == "Zoë ♠"
    view = play(7, names=("🎲", "Bob", "Cas" * 20, "Dirk"), until=lambda m: m.deal is not None)
    assert decode(table_png(scene_of(view))).size == SIZE  # long and undrawable names fit


def test_a_contract_of_the_twelve_variant_draws_its_heading():
    scene = dataclasses.replace(scene_of(mid_trick(2, 1)), contract="seventhirteenth", deals=12)
    assert not scene.domino
    image = decode(table_png(scene))
    assert image.size == SIZE


def test_a_dutch_table_draws_dutch_ranks_and_computer_names():
    from bot import i18n
    from bot.engine import Card
    from bot.render.scene import seat_name

    queen = Card.parse("QH")
    with i18n.using("nl"):
        dutch = cards.face(queen).tobytes()
    assert dutch != cards.face(queen).tobytes()  # V (vrouw), not Q
    assert seat_name("South bot", 2, "nl") == "Zuid-bot"
    assert seat_name("South bot", 2, "en") == "South bot"
    assert seat_name("Ann", 0, "nl") == "Ann"
