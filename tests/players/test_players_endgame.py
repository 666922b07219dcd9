"""The exact endgame solver: its values equal a plain enumeration of every line of play,
in trick contracts of every kind, and the hard player's card under it is legal."""

from __future__ import annotations

import random

import pytest

from bot.engine.actions import PASS, Choose, Play
from bot.engine.cards import deal_hands
from bot.engine.contracts import Contract
from bot.engine.fast import (
    BITS,
    FastPosition,
    dealt_position,
    hand_masks,
    is_over,
    legal_masks,
    play_card,
)
from bot.engine.match import Match
from bot.engine.rules import rules_for
from bot.engine.view import SeatView, seat_view
from bot.players.endgame import MODES, EndgameSolver, settlement_weights
from bot.players.hard import HardPlayer
from bot.players.policy import normal_card

#: Every trick contract of the 12-deal game (it has all the kinds: per trick, per card,
#: given tricks, the 7th and 13th, trumps), and the two hearts contracts with hearts
#: that may be led once broken.
TWELVE = rules_for("twelve")
BROKEN = rules_for("standard", {"heart_lead": "broken"})
TRICK_CONTRACTS = [c for c in TWELVE.contracts if not c.domino] + [
    BROKEN.by_id["hearts"],
    BROKEN.by_id["kingofhearts"],
]


def _cards(masks: tuple[int, int, int, int]) -> list[int]:
    return [s * 13 + r for s in range(4) for r in BITS[masks[s]]]


def _endgame(contract: Contract, rng: random.Random, tricks: int) -> FastPosition | None:
    """A random deal played at random until ``tricks`` tricks (and 0-3 cards of the next)
    are left; None if it ended early."""
    pos = dealt_position(contract, rng.randrange(4), hand_masks(deal_hands(rng)))
    cards_left = 4 * tricks - rng.randrange(4)
    while sum(mask.bit_count() for mask in pos.hands) > cards_left and not is_over(pos):
        play_card(pos, rng.choice(_cards(legal_masks(pos))))
    return None if is_over(pos) else pos


def _doubles(rng: random.Random) -> list[list[int]]:
    m = [[0] * 4 for _ in range(4)]
    for i in range(4):
        for j in range(i + 1, 4):
            if rng.random() < 0.4:
                m[i][j] = m[j][i] = rng.choice([1, 2])
    return m


def _gained(before: FastPosition, after: FastPosition) -> tuple[int, ...]:
    return tuple(after.base[j] - before.base[j] for j in range(4))


def _enumerate_maxn(pos: FastPosition, w: list[list[int]]) -> tuple[int, ...]:
    """Every line of play: each seat takes the card best for its own settled score; ties
    go to the lowest total for the others, then to the larger points tuple."""
    if is_over(pos):
        return (0, 0, 0, 0)
    seat = pos.to_act
    best: tuple[tuple[int, int, tuple[int, ...]], tuple[int, ...]] | None = None
    for card in _cards(legal_masks(pos)):
        child = pos.copy()
        play_card(child, card)
        rest = _enumerate_maxn(child, w)
        value = tuple(g + r for g, r in zip(_gained(pos, child), rest, strict=True))
        own = sum(w[seat][j] * value[j] for j in range(4))
        others = sum(w[s][j] * value[j] for s in range(4) if s != seat for j in range(4))
        key = (own, -others, value)
        if best is None or key > best[0]:
            best = (key, value)
    assert best is not None
    return best[1]


def _enumerate_paranoid(pos: FastPosition, w: list[int], me: int) -> int:
    """Every line of play: ``me`` maximises its settled score, the others minimise it."""
    if is_over(pos):
        return 0
    values = []
    for card in _cards(legal_masks(pos)):
        child = pos.copy()
        play_card(child, card)
        gained = _gained(pos, child)
        values.append(sum(w[j] * gained[j] for j in range(4)) + _enumerate_paranoid(child, w, me))
    return max(values) if pos.to_act == me else min(values)


def _enumerate_normal(pos: FastPosition, w: list[int], me: int) -> int:
    """Every line of ``me``'s cards, the others playing the normal player's card."""
    if is_over(pos):
        return 0
    cards = _cards(legal_masks(pos))
    if pos.to_act != me:
        cards = [normal_card(pos, pos.to_act, legal_masks(pos))] if len(cards) > 1 else cards
    values = []
    for card in cards:
        child = pos.copy()
        play_card(child, card)
        gained = _gained(pos, child)
        values.append(sum(w[j] * gained[j] for j in range(4)) + _enumerate_normal(child, w, me))
    return max(values)


@pytest.mark.parametrize("contract", TRICK_CONTRACTS, ids=lambda c: f"{c.id}-{c.heart_lead}")
@pytest.mark.parametrize("tricks", [2, 3])
def test_solver_equals_enumeration(contract: Contract, tricks: int) -> None:
    rng = random.Random(f"{contract.id}/{contract.heart_lead}/{tricks}")
    checked = 0
    while checked < 6:
        pos = _endgame(contract, rng, tricks)
        if pos is None:
            continue
        multipliers = _doubles(rng)
        weights = settlement_weights(multipliers)
        me = rng.randrange(4)
        maxn = EndgameSolver(contract, multipliers, me, "maxn")
        assert maxn.deltas(pos) == _enumerate_maxn(pos, weights)
        expected = sum(weights[me][j] * v for j, v in enumerate(_enumerate_maxn(pos, weights)))
        assert maxn.value(pos) == expected
        model = EndgameSolver(contract, multipliers, me, "normal")
        assert model.value(pos) == _enumerate_normal(pos, weights[me], me)
        paranoid = EndgameSolver(contract, multipliers, me, "paranoid")
        assert paranoid.value(pos) == _enumerate_paranoid(pos, weights[me], me)
        # The transposition table is shared across positions of one decision: a second
        # position solved by the same solver must still be exact.
        other = pos.copy()
        play_card(other, _cards(legal_masks(other))[0])
        assert paranoid.value(other) == _enumerate_paranoid(other, weights[me], me)
        checked += 1


def test_settlement_weights_give_the_settled_score() -> None:
    from bot.engine.deal import settle_seat

    rng = random.Random(3)
    for _ in range(50):
        m = _doubles(rng)
        base = [rng.randrange(-100, 100) for _ in range(4)]
        w = settlement_weights(m)
        for s in range(4):
            assert sum(w[s][j] * base[j] for j in range(4)) == settle_seat(base, m, s)


def test_solver_refuses_domino_and_unknown_modes() -> None:
    with pytest.raises(ValueError, match="Domino"):
        EndgameSolver(TWELVE.by_id["domino"], [[0] * 4] * 4, 0)
    with pytest.raises(ValueError, match="mode"):
        EndgameSolver(TWELVE.by_id["ducking"], [[0] * 4] * 4, 0, "alphazero")


def _endgame_view(rules_name: str, contract: str, seed: int) -> SeatView:
    """A view of a random deal of ``contract`` with 2-4 tricks left and a choice of
    cards, as the seat to act sees it."""
    rng = random.Random(seed)
    while True:
        match = Match(rules=rules_for(rules_name))
        match.deal_random(rng)
        match.apply(Choose(contract))
        for _ in range(4):
            match.apply(PASS)
        stop = rng.randrange(9, 12) * 4 + rng.randrange(4)
        while len(match.deal.plays) < stop and not match.deal.is_done:
            match.apply(Play(rng.choice(match.deal.legal_cards())))
        if not match.deal.is_done and len(match.legal_actions()) > 1:
            assert match.to_act is not None
            return seat_view(match, match.to_act)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "rules_name, contract",
    [
        ("standard", "ducking"),
        ("standard", "queens"),
        ("standard", "lasttrick"),
        ("twelve", "seventhirteenth"),
        ("standard", "trump-spades"),
        ("standard", "trump-notrump"),
    ],
)
@pytest.mark.parametrize("seed", range(2))
def test_hard_endgame_card_is_legal(mode: str, rules_name: str, contract: str, seed: int) -> None:
    view = _endgame_view(rules_name, contract, seed)
    assert len(view.legal) > 1 and len(view.hand) <= 4  # a choice, in the endgame
    player = HardPlayer(wall_clock=False, endgame_mode=mode)
    action = player.choose_action(view, random.Random(seed), 0.05)
    assert isinstance(action, Play) and action in view.legal
