"""``seat_view``: what one seat may know -- its own hand and everything public, nothing else."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine import PASS, Card, Match, MatchPhase, Suit, public_view, seat_view
from tests.engine.engine_helpers import (
    LAYOUT_L,
    SCRIPT_L,
    SKIP_HANDS,
    hands_from,
    play,
    random_partial,
    start,
)


def _cards_in(value) -> set[Card]:
    """Every Card anywhere inside ``value`` (tuples, dicts, frozensets, dataclasses)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, dict):
        return _cards_in(list(value.keys())) | _cards_in(list(value.values()))
    if isinstance(value, list | tuple | set | frozenset):
        found: set[Card] = set()
        for item in value:
            found |= _cards_in(item)
        return found
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _cards_in([getattr(value, f.name) for f in dataclasses.fields(value)])
    return set()


def _assert_private(match: Match, seat: int) -> None:
    view = seat_view(match, seat)
    deal = match.deal
    own = set(deal.hand(seat))
    assert set(view.hand) == own and len(view.hand) == len(own)
    played = {card for _, card in deal.plays}
    # The contract and the rules are rule data (which cards score), not anyone's cards.
    fields = [
        getattr(view, f.name)
        for f in dataclasses.fields(view)
        if f.name not in ("contract", "rules")
    ]
    seen = _cards_in(fields)
    others = {card for s in range(4) if s != seat for card in deal.hand(s)}
    assert not seen & others, f"seat {seat} sees {sorted(c.code for c in seen & others)}"
    assert seen <= own | played


def test_seat_view_contains_only_that_seats_hand_never_another():
    for seed in range(12):
        rng = random.Random(seed)
        match = random_partial(seed, first_dealer=seed % 4, steps=rng.randrange(1, 650))
        if match.deal is None:
            continue
        for seat in range(4):
            _assert_private(match, seat)


def test_seat_view_in_every_phase_of_a_deal():
    match = Match()
    assert seat_view(match, 0).hand == () and seat_view(match, 0).phase is MatchPhase.NEEDS_DEAL
    match.start_deal(hands_from(LAYOUT_L))
    for seat in range(4):
        _assert_private(match, seat)
    match = start(hands_from(LAYOUT_L), "queens", doubling=([1],))
    for seat in range(4):
        _assert_private(match, seat)
    for _ in range(3):
        match.apply(PASS)
    play(match, *SCRIPT_L[:3], "JD 4C")
    for seat in range(4):
        _assert_private(match, seat)


def test_only_the_seat_to_act_sees_legal_actions():
    match = start(hands_from(LAYOUT_L), "ducking")
    play(match, "AD")
    views = [seat_view(match, seat) for seat in range(4)]
    assert [view.my_turn for view in views] == [False, False, True, False]
    assert views[2].legal == tuple(match.legal_actions())
    assert all(views[s].legal == () for s in (0, 1, 3))
    assert views[0].trick == ((1, Card.parse("AD")),)


def test_voids_shown_appear_after_a_failure_to_follow_suit():
    match = start(hands_from(LAYOUT_L), "ducking")
    assert seat_view(match, 0).voids == (frozenset(),) * 4
    play(match, "AD")
    assert seat_view(match, 0).voids == (frozenset(),) * 4
    play(match, "7C")  # seat 2 cannot follow diamonds
    assert seat_view(match, 0).voids[2] == {Suit.DIAMONDS}
    play(match, "2D", "AC")  # seat 3 follows; seat 0 cannot
    voids = seat_view(match, 1).voids
    assert voids == (
        frozenset({Suit.DIAMONDS}),
        frozenset(),
        frozenset({Suit.DIAMONDS}),
        frozenset(),
    )
    # Seat 3 runs out of diamonds only in trick 7: no void is shown before he fails.
    play(match, *SCRIPT_L[1:6])
    assert seat_view(match, 0).voids[3] == frozenset()
    play(match, "8D AH 8S")
    assert seat_view(match, 0).voids[3] == {Suit.DIAMONDS}
    # Seat 1 never failed to follow, so nothing is shown for him even now.
    assert seat_view(match, 0).voids[1] == frozenset()


def test_seat_view_is_a_frozen_snapshot():
    match = start(hands_from(LAYOUT_L), "ducking")
    view = seat_view(match, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    play(match, "AD")
    assert Card.parse("AD") in view.hand and view.plays == ()
    assert seat_view(match, 1).plays == ((1, Card.parse("AD")),)


def test_seat_view_shows_the_public_deal_state():
    match = start(hands_from(LAYOUT_L), "ducking", doubling=([1], [1, 3], [3, 2], [1]))
    play(match, *SCRIPT_L[:2])
    view = seat_view(match, 3)
    assert (view.dealer, view.chooser, view.first_leader) == (0, 2, 1)
    assert view.doubling_order == (3, 0, 1, 2)
    assert view.multipliers[1] == (1, 0, 2, 2)
    assert view.cards_left == (11, 11, 11, 11)
    assert view.base == (0, -10, 0, 0)
    assert view.deal_number == 1 and view.contract.id == "ducking"
    assert view.chosen_by == {"ducking": 2}
    assert view.choices_per_seat == (3, 2, 3, 3)


def test_seat_view_shows_domino_table_passes_and_who_is_out():
    match = start(hands_from(SKIP_HANDS), "domino")
    play(match, "8D", "9D 8S 9S")
    view = seat_view(match, 1)
    assert view.domino_rows == {Suit.DIAMONDS: (8, 9), Suit.SPADES: (8, 9)}
    assert view.domino_passes == ((1, 0), (3, 1), (0, 1), (0, 4))
    assert view.domino_out == ()
    _assert_private(match, 1)


def test_the_public_view_holds_no_card_anyone_still_holds() -> None:
    for seed in range(40):
        steps = random.Random(seed).randrange(1, 650)
        match = random_partial(seed, first_dealer=seed % 4, steps=steps)
        if match.deal is None:
            continue
        view = public_view(match)
        fields = [
            getattr(view, f.name)
            for f in dataclasses.fields(view)
            if f.name not in ("contract", "rules")
        ]
        held = {card for seat in range(4) for card in match.deal.hand(seat)}
        assert not _cards_in(fields) & held
