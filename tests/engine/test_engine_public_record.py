"""``public_record``: what every player may know of a match while it is played."""

from __future__ import annotations

import random

import pytest

from bot.engine import Match, MatchPhase, RecordError, from_record, public_record, to_record

NAMES = ["Ann", "Bob", "Cas", "Dirk"]


def _play(match: Match, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if match.phase is MatchPhase.NEEDS_DEAL:
            match.deal_random(rng)
        match.apply(rng.choice(match.legal_actions()))


def _midway() -> Match:
    """A match in its third deal, cards on the table."""
    rng = random.Random(3)
    match = Match(NAMES)
    while len(match.deals) < 3 or match.phase is not MatchPhase.PLAYING:
        _play(match, rng, 1)
    _play(match, rng, 5)
    return match


@pytest.mark.parametrize("viewer", [None, 0, 1, 2, 3])
def test_the_deal_in_play_shows_no_hand_but_the_viewers(viewer):
    match = _midway()
    full = to_record(match, seed=123)
    public = public_record(match, viewer)
    assert "seed" not in public
    current = public["deals"][-1]
    for seat, hand in enumerate(current["hands"]):
        assert hand == (full["deals"][-1]["hands"][seat] if seat == viewer else None)
    # what the table has seen of the deal in play is public
    assert current["plays"] == full["deals"][-1]["plays"]
    assert current["contract"] == full["deals"][-1]["contract"]


def test_finished_deals_are_public_in_full():
    match = _midway()
    public, full = public_record(match, 0), to_record(match)
    assert public["deals"][:-1] == full["deals"][:-1]
    assert all(all(deal["hands"]) for deal in public["deals"][:-1])
    assert public["totals"] == full["totals"]


def test_between_deals_and_after_the_match_nothing_is_hidden():
    rng = random.Random(5)
    match = Match(NAMES)
    match.deal_random(rng)
    while not match.deal.is_done:
        _play(match, rng, 1)
    assert public_record(match) == to_record(match)
    while not match.is_over:
        _play(match, rng, 1)
    assert public_record(match) == to_record(match)
    assert from_record(public_record(match)).totals() == match.totals()


def test_a_public_record_of_a_deal_in_play_does_not_replay():
    with pytest.raises(RecordError):
        from_record(public_record(_midway(), 0))
