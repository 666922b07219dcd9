"""Building positions for player tests through the public Match API."""

from __future__ import annotations

import random

from bot.engine.actions import PASS, Choose, Play
from bot.engine.cards import CARDS, Card
from bot.engine.match import Match
from bot.engine.view import SeatView, seat_view


def hand_cards(hands: list[int], seat: int) -> list[Card]:
    """The cards of ``seat`` in sixteen hand masks."""
    return [CARDS[s * 13 + r] for s in range(4) for r in range(13) if hands[seat * 4 + s] >> r & 1]


def hands_with(fixed: dict[int, list[str]], fill: list[int]) -> list[list[Card]]:
    """Four hands: ``fixed`` seats get their cards, the ``fill`` seats the rest in order."""
    hands: list[list[Card]] = [[], [], [], []]
    for seat, codes in fixed.items():
        hands[seat] = [Card.parse(code) for code in codes]
    taken = {card for hand in hands for card in hand}
    rest = [card for card in CARDS if card not in taken]
    for seat in fill:
        hands[seat], rest = rest[: 13 - len(hands[seat])], rest[13 - len(hands[seat]) :]
    return hands


def position(contract: str, hands: list[list[Card]], plays: list[str]) -> SeatView:
    """First deal (dealer 0, chooser 2, first lead 1): ``contract``, no doubles, ``plays``;
    the view of the seat to act."""
    match = Match()
    match.start_deal(hands)
    match.apply(Choose(contract))
    for _ in range(4):
        match.apply(PASS)
    for code in plays:
        match.apply(Play(Card.parse(code)))
    assert match.to_act is not None
    return seat_view(match, match.to_act)


def random_position(seed: int, contract: str, deals_before: int, moves: int) -> Match:
    """A match after ``deals_before`` random deals (at most 9), then ``moves`` actions of
    the next deal, choosing ``contract`` if the chooser still may; someone is to act."""
    rng = random.Random(seed)
    match = Match(first_dealer=rng.randrange(4))
    for _ in range(deals_before):
        match.deal_random(rng)
        while match.to_act is not None:
            match.apply(rng.choice(match.legal_actions()))
    match.deal_random(rng)
    for _ in range(moves):
        legal = match.legal_actions()
        match.apply(Choose(contract) if Choose(contract) in legal else rng.choice(legal))
        if match.to_act is None:
            match.deal_random(rng)
            break
    return match
