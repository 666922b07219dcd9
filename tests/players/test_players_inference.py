"""Guesses are weighed by how likely they make the others' actions under the normal
player's rules: the true deal of four normal players is never ruled out (the fast
replay agrees with the public API), and choices, doubles and cards move the weight
the way the rules say."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from bot.engine.actions import Choose, Double
from bot.engine.cards import CARDS, Card
from bot.engine.deal import Phase
from bot.engine.fast import BITS, dealt_position, hand_masks, legal_masks, play_card
from bot.engine.match import Match
from bot.engine.rules import STANDARD, Rules, rules_for
from bot.engine.view import SeatView, seat_view
from bot.players.hand import expected_base
from bot.players.hard import HardPlayer
from bot.players.inference import FLOOR, Inference, Likelihoods, Model
from bot.players.normal import NormalPlayer
from bot.players.policy import normal_card
from bot.players.sampling import Sampler
from tests.players.players_helpers import hands_with, position

#: Only the cards count: a card the normal player would not have played rules a guess out.
CARDS_ONLY = Model(choice_temperature=1e9, double_temperature=1e9, card_slip=0.0)


def _normal_match(seed: int, rules=STANDARD) -> Match:  # type: ignore[no-untyped-def]
    """A match of four normal players, a few deals in, stopped somewhere in a deal."""
    rng = random.Random(seed)
    match = Match(first_dealer=seed % 4, rules=rules)
    normal = NormalPlayer()
    stop_deal, stop_move = rng.randrange(3), rng.randrange(8, 50)
    for number in range(stop_deal + 1):
        match.deal_random(rng)
        moves = 0
        while match.to_act is not None:
            if number == stop_deal and moves == stop_move:
                return match
            seat = match.to_act
            match.apply(normal.choose_action(seat_view(match, seat), rng, 0), seat)
            moves += 1
    return match


def _eight_cards_in(seeds: range) -> Iterator[tuple[int, SeatView]]:
    """Each seed's normal match whose deal has had eight cards played or more, seen by
    the seat to act, with its seed."""
    for seed in seeds:
        match = _normal_match(seed)
        if match.to_act is not None and match.deal and len(match.deal.plays) >= 8:
            yield seed, seat_view(match, match.to_act)


@pytest.mark.parametrize("variant", ["standard", "twelve"])
def test_the_true_deal_of_normal_players_fits_their_cards(variant: str) -> None:
    rules = rules_for(variant, {"heart_lead": "broken"} if variant == "twelve" else {})
    seen = 0
    for seed in range(40):
        match = _normal_match(seed, rules)
        deal = match.deal
        if deal is None or match.to_act is None or not deal.plays:
            continue
        true = hand_masks([deal.hand(s) for s in range(4)])
        for watcher in range(4):
            inference = Inference(seat_view(match, watcher), CARDS_ONLY)
            weight, work = inference.weight(true)
            assert weight > 1e-6, (seed, watcher, deal.contract)
            assert work >= len(deal.plays)
            seen += 1
    assert seen > 60


def test_guesses_that_contradict_the_cards_are_ruled_out() -> None:
    ruled_out = 0
    for seed, view in _eight_cards_in(range(10)):
        inference = Inference(view, CARDS_ONLY)
        sampler = Sampler(view)
        rng = random.Random(seed)
        weights = [inference.weight(sampler.sample(rng))[0] for _ in range(50)]
        ruled_out += sum(1 for w in weights if w == FLOOR)
    assert ruled_out > 0


def test_a_chooser_of_hearts_is_guessed_without_the_high_hearts() -> None:
    hands = hands_with(
        {1: ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]},
        [0, 2, 3],
    )
    view = position("hearts", hands, [])  # seat 2 chose hearts; seat 1 is to lead
    assert view.seat == 1 and view.chooser == 2
    inference = Inference(view)
    high = [Card.parse(c) for c in ["AH", "KH", "QH", "JH", "TH"]]
    rest = [c for s in (0, 2, 3) for c in hands[s] if c not in high]
    with_high = [rest[:13], [], high + rest[13:21], rest[21:]]
    without = [high + rest[:8], [], rest[8:21], rest[21:]]
    for guess in (with_high, without):
        guess[1] = hands[1]
        assert sorted(len(h) for h in guess) == [13, 13, 13, 13]
    w_high, _ = inference.weight(hand_masks(with_high))
    w_without, _ = inference.weight(hand_masks(without))
    assert w_without > 3 * w_high


def test_a_doubler_is_guessed_stronger() -> None:
    hands = hands_with({}, [0, 1, 2, 3])
    match = Match()
    match.start_deal(hands)
    match.apply(Choose("queens"))  # the dealer is 0, seat 2 chooses, 3 doubles first
    doubler = match.to_act
    assert doubler is not None
    match.apply(Double(frozenset({0, 1})))  # he doubles both seats but the chooser
    view = seat_view(match, 0)
    inference = Inference(view)
    sampler = Sampler(view)
    rng = random.Random(5)
    contract = match.rules.by_id["queens"]
    plain = weighted = total = 0.0
    for _ in range(400):
        guess = sampler.sample(rng)
        weight, _ = inference.weight(guess)
        cards = [CARDS[s * 13 + r] for s in range(4) for r in BITS[guess[doubler * 4 + s]]]
        value = expected_base(cards, contract)
        plain += value / 400
        weighted += weight * value
        total += weight
    assert weighted / total > plain + 1  # fewer queens expected in the doubler's hand


@pytest.mark.parametrize("mode", ["weight", "reject", "off"])
def test_every_inference_mode_plays_legally_and_reproducibly(mode: str) -> None:
    player = HardPlayer(wall_clock=False, inference=mode)
    for seed in range(6):
        match = _normal_match(seed)
        if match.to_act is None:
            continue
        view = seat_view(match, match.to_act)
        action = player.choose_action(view, random.Random(seed), 0.02)
        assert action in view.legal
        assert player.choose_action(view, random.Random(seed), 0.02) == action


def test_unknown_inference_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="inference"):
        HardPlayer(inference="psychic")


def test_remembered_likelihoods_give_the_same_search_for_less_weighing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decision searched in several batches (the match review) weighs each distinct
    guess whole at most once with :class:`Likelihoods`, and every batch comes out
    exactly as without."""
    match = Match()
    match.deal_random(random.Random(5))
    normal, rng = NormalPlayer(), random.Random(0)
    while True:  # late in the deal: few hidden cards, so guesses come again
        assert match.to_act is not None
        view = seat_view(match, match.to_act)
        if len(view.hand) <= 5 and len(view.legal) > 1:
            break
        match.apply(normal.choose_action(view, rng, 0.0))
    weighed = []
    plain = Inference._weigh
    monkeypatch.setattr(
        Inference,
        "_weigh",
        lambda self, hands, below: weighed.append(1) or plain(self, hands, below),
    )

    def batches(hard: HardPlayer) -> tuple[list[object], int]:
        weighed.clear()
        found = [hard.evaluate(view, random.Random(f"batch {b}"), 0.25) for b in range(4)]
        return found, len(weighed)

    fresh, fresh_weighed = batches(HardPlayer(wall_clock=False))
    memo = Likelihoods()
    kept, kept_weighed = batches(HardPlayer(wall_clock=False, likelihoods=memo))
    assert kept == fresh
    assert 0 < len(memo.weights) <= kept_weighed < fresh_weighed
    assert kept_weighed <= len(memo.weights) + 2 * len(memo.bounds)


def test_remembered_likelihoods_are_those_of_the_latest_decision() -> None:
    match = Match()
    match.deal_random(random.Random(6))
    normal, rng = NormalPlayer(), random.Random(0)
    while match.deal is None or match.deal.phase is not Phase.PLAYING:
        match.apply(normal.choose_action(seat_view(match, match.to_act), rng, 0.0))
    memo = Likelihoods()
    view = seat_view(match, 0)
    memo.of(view)[(1,) * 16] = (0.5, 3.0)
    assert memo.of(seat_view(match, 0)) == {(1,) * 16: (0.5, 3.0)}  # the same decision
    match.apply(normal.choose_action(seat_view(match, match.to_act), rng, 0.0))
    assert memo.of(seat_view(match, 0)) == {}  # a card later: another decision


def _domino_match(seed: int, rules: Rules) -> Match:
    """A match of four normal players stopped somewhere in a Domino deal."""
    rng = random.Random(seed)
    match = Match(first_dealer=seed % 4, rules=rules)
    normal = NormalPlayer()
    match.deal_random(rng)
    match.apply(Choose("domino"), match.to_act)
    for _ in range(rng.randrange(8, 40)):
        seat = match.to_act
        if seat is None:
            break
        match.apply(normal.choose_action(seat_view(match, seat), rng, 0), seat)
    return match


def views_in_deals(rules: Rules, domino: bool, seeds: range) -> Iterator[tuple[int, SeatView]]:
    """Every seat's view of each seed's match of normal players stopped in a deal, where
    that deal is Domino (``domino``) or a trick contract, with its seed."""
    for seed in seeds:
        match = _domino_match(seed, rules) if domino else _normal_match(seed, rules)
        deal = match.deal
        if deal is None or deal.contract is None or deal.contract.domino != domino:
            continue
        for watcher in range(4):
            yield seed, seat_view(match, watcher)


def _replayed_slips(view: SeatView, dealt: list[int]) -> int:
    """The others' slips from the normal player's cards, found the long way: the whole
    guessed deal (``dealt``, sixteen masks as dealt) replayed card by card."""
    assert view.contract is not None
    pos = dealt_position(view.contract, view.first_leader or 0, dealt)
    slips = 0
    for seat, card in view.plays:
        assert pos.to_act == seat
        legal = legal_masks(pos)
        choices = sum(mask.bit_count() for mask in legal)
        slips += seat != view.seat and choices > 1 and normal_card(pos, seat, legal) != card.index
        play_card(pos, card.index)
    return slips


@pytest.mark.parametrize(
    "variant, house_rules, domino",
    [
        ("standard", {}, False),
        ("twelve", {"heart_lead": "broken"}, False),
        ("twelve", {"must_trump": "overtrump"}, False),
        ("standard", {}, True),
        ("standard", {"domino_aces": "either"}, True),
    ],
)
def test_each_seats_cards_weigh_as_the_replayed_deal(
    variant: str, house_rules: dict[str, str], domino: bool
) -> None:
    """The others' cards are weighed seat by seat, each in its own guessed hand, and the
    slips found are those of replaying the whole guessed deal card by card (in Domino
    too, where who plays next depends on the guessed hands)."""
    rules = rules_for(variant, house_rules)
    compared = slipped = 0
    for seed, view in views_in_deals(rules, domino, range(30)):
        if not any(seat != view.seat for seat, _ in view.plays):
            continue
        inference = Inference(view, Model(card_slip=0.3))
        sampler, rng = Sampler(view), random.Random(seed)
        for _ in range(20):
            dealt = [h | p for h, p in zip(sampler.sample(rng), inference.played, strict=True)]
            slips = _replayed_slips(view, dealt)
            assert inference._cards(dealt, 0.0) == (math.prod([0.3] * slips), True)
            compared += 1
            slipped += slips > 0
    assert compared > 400
    assert slipped > compared / 4  # the guesses do contradict the cards, often


@pytest.mark.parametrize("memo", [None, Likelihoods()])
def test_a_guess_given_up_is_certainly_under_the_bar(memo: Likelihoods | None) -> None:
    """``likely`` answers the whole likelihood, or None only when that is under the bar
    asked (a guess weighed again, from the memory, too)."""
    given_up = 0
    for seed, view in _eight_cards_in(range(12)):
        inference, sampler = Inference(view, memo=memo), Sampler(view)
        rng = random.Random(seed)
        for _ in range(40):
            guess, bar = sampler.sample(rng), rng.random() ** 4
            for _ in range(2):
                found = inference.likely(guess, bar)
                whole = Inference(view).weight(guess)[0]
                if found is None:
                    assert whole < bar
                    given_up += 1
                else:
                    assert found == whole
    assert given_up > 20


def test_weighing_a_guess_only_as_far_as_needed_changes_no_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rejection stops weighing a guess once it can be neither kept nor the likeliest:
    the same guesses are kept as when every guess is weighed whole, to the last bit."""
    views = []
    for seed in range(12):
        match = _normal_match(seed)
        if match.to_act is not None and len(seat_view(match, match.to_act).legal) > 1:
            views.append(seat_view(match, match.to_act))
    assert len(views) >= 6
    weighed = []

    def search() -> list[object]:
        hard = HardPlayer(wall_clock=False)
        return [hard.evaluate(view, random.Random(n), 0.1) for n, view in enumerate(views)]

    lazy = search()
    plain = Inference.likely
    monkeypatch.setattr(
        Inference,
        "likely",
        lambda self, hands, below: weighed.append(below) or plain(self, hands, 0.0),
    )
    assert search() == lazy
    assert any(below > 0 for below in weighed)  # the lazy search could stop early


def test_the_doubling_turns_are_weighed_only_while_the_guess_could_pass() -> None:
    """A guess's doubling turns are weighed one after another until the factor so far,
    times the cards', is under the bar: what is left then is an upper bound under the
    bar (every factor at most 1); a factor that stays over it is the whole factor."""
    stopped = whole = 0
    for seed, view in _eight_cards_in(range(40)):
        inference, sampler = Inference(view), Sampler(view)
        if len(inference.turns) < 2:
            continue
        rng = random.Random(seed)
        for _ in range(30):
            dealt = [h | p for h, p in zip(sampler.sample(rng), inference.played, strict=True)]
            cards, bar = rng.random(), rng.random() ** 3
            every = inference._doubles(dealt)
            found = inference._doubles(dealt, cards, bar)
            if found == every:
                whole += 1
            else:
                stopped += 1
                assert every < found and max(found * cards, FLOOR) < bar
    assert stopped > 10 and whole > 10
