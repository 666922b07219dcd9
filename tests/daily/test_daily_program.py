"""A day's deals: the same server and date give the same deals and contracts, no player
can compute them without the bot's secret, and a day mixes the kinds of contract."""

from __future__ import annotations

from collections import Counter
from datetime import date
from itertools import pairwise

import pytest

from bot.daily.attempt import Attempt
from bot.daily.program import (
    MAX_DEALS,
    PERSON_SEAT,
    Kind,
    day_program,
    day_seed,
    kind_of,
)
from bot.engine import CARDS, STANDARD, TWELVE, Rules, rules_for

SECRET = "0f" * 32
DAY = date(2026, 12, 2)


def test_the_same_server_and_date_give_the_same_deals_and_contracts() -> None:
    first = day_program(day_seed(SECRET, 41, DAY), 4, STANDARD)
    again = day_program(day_seed(SECRET, 41, DAY), 4, STANDARD)
    assert first == again
    assert [d.contract for d in first.deals] == [d.contract for d in again.deals]
    assert [d.hands for d in first.deals] == [d.hands for d in again.deals]


def test_another_server_or_date_gives_other_deals() -> None:
    seeds = {
        day_seed(SECRET, 41, DAY),
        day_seed(SECRET, 42, DAY),
        day_seed(SECRET, 41, date(2026, 12, 3)),
    }
    assert len(seeds) == 3
    hands = {day_program(seed, 1, STANDARD).deals[0].hands for seed in seeds}
    assert len(hands) == 3


def test_without_the_secret_the_seed_cannot_be_computed() -> None:
    """The seed is an HMAC under the bot's own secret: the server and the date alone,
    which every player knows, give another seed under any other secret."""
    assert day_seed(SECRET, 41, DAY) != day_seed("10" * 32, 41, DAY)
    assert day_seed("", 41, DAY) != day_seed(SECRET, 41, DAY)
    assert 0 <= day_seed(SECRET, 41, DAY) < 2**63


def test_each_deal_is_the_52_cards_dealt_thirteen_each() -> None:
    program = day_program(day_seed(SECRET, 1, DAY), MAX_DEALS, STANDARD)
    for deal in program.deals:
        assert sorted(card for hand in deal.hands for card in hand) == sorted(CARDS)
        assert all(len(hand) == 13 for hand in deal.hands)
    assert len({deal.hands for deal in program.deals}) == MAX_DEALS


def test_a_day_of_four_deals_has_one_contract_of_each_kind() -> None:
    for guild in range(40):
        program = day_program(day_seed(SECRET, guild, DAY), 4, STANDARD)
        kinds = [kind_of(STANDARD.by_id[deal.contract]) for deal in program.deals]
        assert sorted(kinds, key=lambda k: k.value) == sorted(Kind, key=lambda k: k.value)


def test_the_kinds_are_read_from_what_a_contract_scores() -> None:
    kinds = {c.id: kind_of(c) for c in TWELVE.contracts}
    assert kinds["ducking"] is kinds["lasttrick"] is kinds["seventhirteenth"] is Kind.TRICKS
    assert kinds["hearts"] is kinds["queens"] is kinds["kingofhearts"] is Kind.CARDS
    assert kinds["kingjacks"] is Kind.CARDS
    assert kinds["domino"] is Kind.DOMINO
    assert {kinds[c] for c in TWELVE.trump_ids} == {Kind.TRUMPS}


@pytest.mark.parametrize("count", range(1, MAX_DEALS + 1))
def test_a_day_never_repeats_a_contract_and_spreads_the_kinds(count: int) -> None:
    for guild in range(10):
        program = day_program(day_seed(SECRET, guild, DAY), count, STANDARD)
        contracts = [deal.contract for deal in program.deals]
        assert len(set(contracts)) == count
        played = Counter(kind_of(STANDARD.by_id[c]) for c in contracts)
        available = Counter(kind_of(c) for c in STANDARD.contracts)
        # A kind is left out, or played fewer times than another, only when it has run
        # out of contracts.
        for kind in Kind:
            for other in Kind:
                assert played[kind] >= played[other] - 1 or played[kind] == available[kind]


def test_the_dealer_moves_on_each_deal_so_the_person_meets_every_role() -> None:
    program = day_program(day_seed(SECRET, 7, DAY), 4, STANDARD)
    dealers = [deal.dealer for deal in program.deals]
    assert sorted(dealers) == [0, 1, 2, 3]
    assert all((b - a) % 4 == 1 for a, b in pairwise(dealers))


@pytest.mark.parametrize(
    "rules",
    [
        STANDARD,
        TWELVE,
        rules_for(
            "twelve",
            {
                "heart_lead": "broken",
                "first_lead": "dealer",
                "must_trump": "overtrump",
                "domino_aces": "either",
                "domino_doubling": "ace_or_two",
            },
        ),
    ],
    ids=["standard", "twelve", "twelve-house-rules"],
)
def test_every_preset_contract_is_played_by_the_days_rules(rules: Rules) -> None:
    """The contract is set for the chooser as a match's first choice, which the engine
    accepts for any contract of the rules; the deals are played by those rules."""
    for guild in range(12):
        program = day_program(day_seed(SECRET, guild, DAY), MAX_DEALS, rules)
        attempt = Attempt(program, "Ann")
        assert attempt.match.rules is rules
        assert attempt.match.deal is not None
        assert attempt.match.deal.contract is not None
        assert attempt.match.deal.contract.id == program.deals[0].contract


def test_a_day_has_one_to_eleven_deals() -> None:
    for count in (0, MAX_DEALS + 1, -1):
        with pytest.raises(ValueError, match="1 to 11"):
            day_program(1, count, STANDARD)


def test_the_person_sits_south() -> None:
    program = day_program(day_seed(SECRET, 3, DAY), 2, STANDARD)
    assert Attempt(program, "Ann").players[PERSON_SEAT] == "Ann"
    assert PERSON_SEAT == 2
