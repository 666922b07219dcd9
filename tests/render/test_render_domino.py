"""The Domino picture: the four suit rows as they lie, whoever went out marked."""

from __future__ import annotations

import dataclasses

from bot.engine import CARDS, PASS, Card, Choose, Match, Play, Suit, rules_for
from bot.engine.deal import LOW_ACE
from bot.render import cards, domino_image, text
from bot.render.deal_image import deal_png
from bot.render.draw import CARD, GOLD
from bot.render.frame import SIZE
from bot.render.scene import scene_of
from bot.tables.table import view_of
from tests.render.render_helpers import (
    decode,
    domino_id,
    near,
    pixels,
    play,
    region,
    share,
    table_of,
)


def slot_centre(suit: Suit, rank: int, first: int = 2) -> tuple[int, int]:
    """The centre of ``rank``'s slot in ``suit``'s row, whose leftmost slot is ``first``."""
    w, h = cards.SMALL
    row = domino_image.ROWS.index(suit)
    x = domino_image.SLOT_LEFT + (rank - first) * domino_image.SLOT_STEP + w // 2
    return x, domino_image.ROW_TOP + row * domino_image.ROW_STEP + h // 2


def domino_at(out: int):  # type: ignore[no-untyped-def]
    return play(
        7,
        contract=domino_id(),
        until=lambda m: (
            m.deal is not None
            and m.deal.contract is not None
            and m.deal.contract.domino
            and len(m.deal.out) == out
            and len(m.deal.plays) > 12
        ),
    )


def test_every_card_on_the_table_lies_in_its_rows_slot_and_no_other():
    view = domino_at(0)
    assert view.domino_rows
    image = decode(deal_png(scene_of(view)))
    assert image.size == SIZE
    rows = {Suit(s): (low, high) for s, low, high in view.domino_rows}
    for suit in Suit:
        low, high = rows.get(suit, (0, -1))
        for rank in range(2, 15):
            face = share(region(image, slot_centre(suit, rank), cards.SMALL), CARD)
            assert (face > 0.4) == (low <= rank <= high), (suit, rank, face)


def test_whoever_went_out_is_marked_on_their_plate():
    view = domino_at(1)
    (first,) = view.domino_out
    image = decode(deal_png(scene_of(view)))
    gap = (SIZE[0] - 40 - 4 * domino_image.PLATE_WIDTH) // 3
    for seat in range(4):
        x0 = 20 + seat * (domino_image.PLATE_WIDTH + gap)
        # The "out" line is written in gold on the plate (the seat on turn is all gold).
        line = image.crop(
            (x0 + 8, domino_image.PLATE_TOP + 38, x0 + 150, domino_image.PLATE_TOP + 66)
        )
        golden = sum(near(p, GOLD, 40) for p in pixels(line))
        if seat == view.to_act:
            continue
        assert (golden > 40) == (seat == first), (seat, golden)


def test_a_low_ace_lies_left_of_its_2_and_every_row_then_runs_from_ace_to_king():
    """``domino_aces: either``: seat 1 laid the A♦ next to its 2♦, so the deal's aces go
    low: the slots run A, 2 ... K in every row and the ace is drawn in the first."""
    match = Match(rules=rules_for("standard", {"domino_aces": "either"}))
    match.start_deal([[card for card in CARDS if card.suit is suit] for suit in Suit])
    match.apply(Choose("domino"))
    for _ in range(4):
        match.apply(PASS)
    queues = {
        0: "8C 9C TC JC QC KC 7C",
        1: "8D 7D 6D 5D 4D 3D 2D AD",
        2: "8H 9H TH JH QH KH 7H",
        3: "8S 7S 6S 5S 4S 3S 2S",
    }
    laying = {seat: [Card.parse(code) for code in text.split()] for seat, text in queues.items()}
    while laying[match.to_act]:
        match.apply(Play(laying[match.to_act].pop(0)))
    view = view_of(table_of(match))
    assert (int(Suit.DIAMONDS), LOW_ACE, 8) in view.domino_rows
    assert "♦ A–8" in text.domino_rows_text(view.domino_rows)
    image = decode(deal_png(scene_of(view)))
    rows = {Suit(s): (low, high) for s, low, high in view.domino_rows}
    for suit in Suit:
        low, high = rows[suit]
        for rank in range(LOW_ACE, 14):
            face = share(region(image, slot_centre(suit, rank, LOW_ACE), cards.SMALL), CARD)
            assert (face > 0.4) == (low <= rank <= high), (suit, rank, face)


def test_an_empty_slot_is_labelled_as_cards_are_in_the_picture_s_language():
    """The empty jack slot reads J in English and B (boer) in Dutch, as the card faces
    and the channel's words do; a number slot reads the same in both."""
    view = domino_at(0)
    rows = {Suit(s): (low, high) for s, low, high in view.domino_rows}
    suit = next(s for s in Suit if not rows.get(s, (0, -1))[0] <= 11 <= rows.get(s, (0, -1))[1])
    english = decode(deal_png(dataclasses.replace(scene_of(view), language="en")))
    dutch = decode(deal_png(dataclasses.replace(scene_of(view), language="nl")))
    jack = slot_centre(suit, 11)
    assert region(english, jack, cards.SMALL) != region(dutch, jack, cards.SMALL)
    number = next(r for r in range(2, 11) if not rows.get(suit, (0, -1))[0] <= r)
    two = slot_centre(suit, number)
    assert region(english, two, cards.SMALL) == region(dutch, two, cards.SMALL)
