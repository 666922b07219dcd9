"""The players read the rules of their match: other points, another contract, 12 deals."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine import CONTRACTS, STANDARD, TWELVE, Contract, Rules, rules_for
from bot.engine.actions import PASS, Choose, Play
from bot.engine.cards import CARDS, Card, Suit, deal_hands
from bot.engine.contracts import Kind
from bot.engine.fast import FastPosition, dealt_position, hand_masks, legal_masks
from bot.engine.match import Match
from bot.engine.view import SeatView, seat_view
from bot.players import player_for
from bot.players.arena import match_deals
from bot.players.hand import expected_base, expected_bases
from bot.players.policy import normal_card
from bot.players.table import decision_rng, play_deals
from tests.players.players_helpers import hands_with

SPADES = Contract(
    "spades",
    "Spadeshunting",
    Kind.NEGATIVE,
    "-10 per spade taken",
    card_points={c: -10 for c in CARDS if c.suit is Suit.SPADES},
)


def _doubled(contract: Contract) -> Contract:
    """Every number of the contract's scoring twice as large."""
    return dataclasses.replace(
        contract,
        per_trick=2 * contract.per_trick,
        card_points={card: 2 * v for card, v in contract.card_points.items()},
        trick_points={n: 2 * v for n, v in contract.trick_points.items()},
        last_holder=2 * contract.last_holder,
    )


DOUBLED = Rules(
    variant="test-doubled",
    deals=12,
    contracts=(*(_doubled(c) for c in CONTRACTS.values()), SPADES),
    chooser_offset=1,
    doubling_offsets=(2, 3, 0, 1),
    first_lead_offset=0,
)


@pytest.mark.parametrize("contract_id", list(CONTRACTS))
def test_the_hand_estimate_scales_with_the_points_the_rules_give(contract_id: str) -> None:
    hand = deal_hands(decision_rng("estimate", contract_id))[0]
    standard = expected_base(hand, CONTRACTS[contract_id])
    assert expected_base(hand, DOUBLED.by_id[contract_id]) == pytest.approx(2 * standard)


def test_a_hands_estimates_in_many_contracts_at_once_are_each_ones_alone() -> None:
    """The inference estimates every contract for a guessed hand at once, its counts made
    once: each estimate is the one made alone, whatever the contracts around it."""
    contracts = [*CONTRACTS.values(), *DOUBLED.contracts, *TWELVE.contracts]
    for n in range(20):
        hand = deal_hands(decision_rng("estimates", n))[n % 4]
        mixed = random.Random(n).sample(contracts, len(contracts))
        assert expected_bases(hand, mixed) == [expected_base(hand, c) for c in mixed]


def test_a_contract_the_rules_of_thumb_do_not_know_is_estimated_as_an_average_hand() -> None:
    hand: tuple[Card, ...] = deal_hands(decision_rng("estimate", "spades"))[0]
    assert expected_base(hand, SPADES) == SPADES.total / 4 == -32.5


@pytest.mark.parametrize(("level", "budget"), [("easy", 0.0), ("normal", 0.0), ("hard", 0.003)])
def test_every_level_plays_a_whole_match_of_other_rules(level: str, budget: float) -> None:
    hands = match_deals(seed=5, match=0, deals=DOUBLED.deals)
    players = [player_for(level) for _ in range(4)]
    played = play_deals(
        players, hands, first_dealer=1, budget=budget, seed_key=level, rules=DOUBLED
    )
    assert len(played.deals) == 12
    assert {d.contract for d in played.deals} >= set(DOUBLED.negative_ids)
    for deal in played.deals:
        assert sum(deal.scores) == DOUBLED.by_id[deal.contract].total


HOUSE = rules_for(
    "twelve", {"heart_lead": "broken", "first_lead": "left", "domino_doubling": "ace_or_two"}
)
DOMINO_ACES = rules_for("standard", {"domino_aces": "either"})
MUST_TRUMP = rules_for("standard", {"must_trump": "yes"})
OVERTRUMP = rules_for("twelve", {"must_trump": "overtrump", "domino_aces": "either"})


@pytest.mark.parametrize(
    "rules",
    [
        TWELVE,
        HOUSE,
        rules_for("standard", {"first_lead": "dealer"}),
        DOMINO_ACES,
        MUST_TRUMP,
        OVERTRUMP,
    ],
    ids=lambda rules: "+".join([rules.variant, *(f"{n}={v}" for n, v in rules.house_rules)]),
)
@pytest.mark.parametrize(("level", "budget"), [("easy", 0.0), ("normal", 0.0), ("hard", 0.003)])
def test_every_level_plays_every_variant_and_house_rule_legally(
    rules: Rules, level: str, budget: float
) -> None:
    """Every move goes through Match.apply, which refuses an illegal one."""
    hands = match_deals(seed=6, match=0, deals=rules.deals)
    players = [player_for(level) for _ in range(4)]
    played = play_deals(players, hands, first_dealer=2, budget=budget, seed_key=level, rules=rules)
    assert len(played.deals) == rules.deals
    assert {d.contract for d in played.deals} >= set(rules.negative_ids)
    assert sum(sum(d.scores) for d in played.deals) == 0


def test_the_normal_estimate_reads_seventhirteenth_as_the_two_tricks_it_scores() -> None:
    seventhirteenth = TWELVE.by_id["seventhirteenth"]
    lasttrick = TWELVE.by_id["lasttrick"]
    for seed in range(20):
        hand = deal_hands(decision_rng("estimate", seed))[0]
        # The same points on two tricks instead of one: the same risk per trick.
        assert expected_base(hand, seventhirteenth) == pytest.approx(expected_base(hand, lasttrick))
        assert -100 < expected_base(hand, seventhirteenth) < 0


def _domino_position(rules: Rules) -> FastPosition:
    """Domino, seat 0 to lay: clubs lie from 4 to 8 and it holds the 3, 2 and ace below;
    diamonds hold only the 8 and it holds the 9, 10 and jack above. Every other card is
    with the others."""
    mine = [Card.parse(code) for code in ["3C", "2C", "AC", "9D", "TD", "JD"]]
    laid = [Card.parse(code) for code in ["4C", "5C", "6C", "7C", "8C", "8D"]]
    rest = [card for card in CARDS if card not in mine and card not in laid]
    hands = hand_masks([mine, rest[:13], rest[13:26], rest[26:]])
    pos = dealt_position(rules.by_id["domino"], 0, hands)
    pos.domino_low, pos.domino_high = [2, 6, -1, -1], [6, 6, -1, -1]
    pos.to_act = 0
    return pos


def test_the_normal_player_counts_an_ace_behind_its_2_where_aces_may_go_low() -> None:
    """With aces high only the jack-high diamonds have more cards behind them; where the
    first ace may go next to its 2, the 3♣ has the 2♣ and the A♣ behind it."""
    for rules, card in ((STANDARD, "9D"), (DOMINO_ACES, "3C")):
        pos = _domino_position(rules)
        assert CARDS[normal_card(pos, 0, legal_masks(pos))].code == card


def _trump_clubs_view(rules: Rules, hands: list[list[Card]], plays: list[str]) -> SeatView:
    """Clubs trumps (dealer 0, chooser 2, first lead 1), no doubles, ``plays``."""
    match = Match(rules=rules)
    match.start_deal(hands)
    match.apply(Choose("trump-clubs"))
    for _ in range(4):
        match.apply(PASS)
    for code in plays:
        match.apply(Play(Card.parse(code)))
    assert match.to_act is not None
    return seat_view(match, match.to_act)


def test_under_must_trump_a_discard_shows_the_normal_player_who_cannot_ruff() -> None:
    """Clubs trumps. Seat 2, with neither hearts nor clubs, discards on seat 1's A♥:
    under ``must_trump`` that shows it holds no club either, so the normal player cashes
    its K♥, now a master nobody has shown he can ruff. Under the standard rule seat 2
    may still hold clubs and ruff it: it shortens its spades to ruff instead."""
    hands = hands_with(
        {
            1: ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "8C", "9C", "TC", "JC", "QC", "3S"],
            2: ["2S", "5S", "9S", "KS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
        },
        fill=[0, 3],
    )
    for must_trump, lead, voids in (
        ("yes", "KH", {Suit.HEARTS, Suit.CLUBS}),
        ("no", "3S", {Suit.HEARTS}),
    ):
        view = _trump_clubs_view(
            rules_for("standard", {"must_trump": must_trump}), hands, ["AH", "2D", "3H", "2H"]
        )
        assert view.seat == 1 and view.voids[2] == voids
        assert player_for("normal").choose_action(view, random.Random(0), 0.0) == Play(
            Card.parse(lead)
        )
