"""Shared helpers for the engine tests: hand layouts, scripted play and state snapshots.

The layouts are chosen so that every trick of a scripted deal can be worked out by hand,
which is what lets the tests assert exact scores rather than just "it adds up".
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations, product
from typing import Any

import pytest

from bot.engine import (
    CARDS,
    PASS,
    STANDARD,
    Card,
    Choose,
    Deal,
    Double,
    Match,
    Play,
    Rules,
    Suit,
    deal_hands,
    rules_for,
)
from bot.engine.house_rules import HOUSE_RULES, HouseRule
from bot.engine.rules import VARIANTS


def pairwise(factors: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Rows of one value per factor in which every two values of two factors meet at least
    once, the rows of every first value first: a greedy covering array, a few rows where
    the full product has hundreds, still catching any two rules that interact."""
    pairs = list(combinations(range(len(factors)), 2))
    needed = {(i, a, j, b) for i, j in pairs for a in factors[i] for b in factors[j]}

    def covers(row: tuple[str, ...]) -> set[tuple[int, str, int, str]]:
        return {(i, row[i], j, row[j]) for i, j in pairs}

    rows = [(first, *(values[0] for values in factors[1:])) for first in factors[0]]
    needed -= set().union(*map(covers, rows))
    candidates = list(product(*factors))
    while needed:
        best = max(candidates, key=lambda row: len(covers(row) & needed))
        rows.append(best)
        needed -= covers(best)
    return rows


#: Every variant with its default house rules, then enough rule sets that every value of
#: every house rule meets every variant and every value of every other house rule.
ALL_RULES: tuple[Rules, ...] = tuple(
    rules_for(variant, dict(zip(HOUSE_RULES, values, strict=True)))
    for variant, *values in pairwise(
        [tuple(VARIANTS), *(rule.value_names for rule in HOUSE_RULES.values())]
    )
)


def _shaped(rule: HouseRule, rules: Rules) -> list[str]:
    """The contracts ``rule`` shapes in ``rules`` (a trick contract and Domino for a rule
    of the whole game)."""
    if rule.shapes is None:
        return ["queens", "domino"]
    return [contract.id for contract in rules.contracts if rule.shapes(contract)]


#: Each value of each house rule other than its default, alone in the standard game, with
#: each contract it shapes: the agreement tests' close look at every rule.
EACH_HOUSE_RULE = pytest.mark.parametrize(
    ("rules", "contract_id"),
    [
        (rules, contract_id)
        for rule in HOUSE_RULES.values()
        for value in rule.value_names[1:]
        for rules in [rules_for("standard", {rule.name: value})]
        for contract_id in _shaped(rule, rules)
    ],
    ids=lambda value: value if isinstance(value, str) else rules_id(value),
)


def rules_id(value: object) -> str | None:
    """A test id for a rule set: ``twelve`` or ``standard+heart_lead=broken``."""
    if not isinstance(value, Rules):
        return None
    return "+".join([value.variant, *(f"{name}={v}" for name, v in value.house_rules)])


# Layout L: each suit is split high/low between two seats across the table, so with no
# trumps a diamond or spade lead is always won by whichever of seats 1 and 3 holds the
# higher card, and seats 0 and 2 only ever discard.
LAYOUT_L = (
    "AC KC QC JC TC 9C 8C 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7S 6S 5S 4S 3S 2S",
    "7C 6C 5C 4C 3C 2C AH KH QH JH TH 9H 8H",
    "7D 6D 5D 4D 3D 2D AS KS QS JS TS 9S 8S",
)

# One deal on layout L with dealer 0 (so seat 1 leads), legal in every no-trump contract.
# Seat 1 wins tricks 1-7 with its diamonds, then leads a low spade and seat 3 wins the
# rest. Each string is one trick in play order.
SCRIPT_L = (
    "AD 7C 2D AC",  # 1: seat 1 leads; 1, 2, 3, 0 -> seat 1
    "KD 6C 3D KC",  # 2 -> seat 1 (takes KC and KD)
    "QD 5C 4D QC",  # 3 -> seat 1 (takes QC and QD)
    "JD 4C 5D JC",  # 4 -> seat 1 (takes JC and JD)
    "TD 3C 6D TC",  # 5 -> seat 1
    "9D 2C 7D 9C",  # 6 -> seat 1
    "8D AH 8S 8C",  # 7 -> seat 1 (seat 3 is out of diamonds; takes AH)
    "2S KH AS 7H",  # 8: 1, 2, 3, 0 -> seat 3 (takes KH and 7H)
    "KS 6H 3S QH",  # 9: 3, 0, 1, 2 -> seat 3 (takes KS, QH, 6H)
    "QS 5H 4S JH",  # 10 -> seat 3 (QS, JH, 5H)
    "JS 4H 5S TH",  # 11 -> seat 3 (JS, TH, 4H)
    "TS 3H 6S 9H",  # 12 -> seat 3
    "9S 2H 7S 8H",  # 13 -> seat 3
)
SCRIPT_L_WINNERS = [1] * 7 + [3] * 6

# The same layout with hearts as trump: seat 2 ruffs the first trick, seat 0 then runs
# its clubs, and seat 2 draws the rest with its high hearts.
SCRIPT_L_TRUMP_HEARTS = (
    "AD 8H 2D 8C",  # 1: 1, 2, 3, 0 -> seat 2 ruffs; seat 0 may but need not trump
    "7C 8S AC 2S",  # 2: 2, 3, 0, 1 -> seat 0
    "KC 3S 6C 9S",  # 3: 0, 1, 2, 3 -> seat 0
    "2H 4S 9H TS",  # 4: seat 0 leads a trump -> seat 2
    "5C JS QC 5S",  # 5: 2, 3, 0, 1 -> seat 0
    "JC 6S 4C QS",  # 6: 0, 1, 2, 3 -> seat 0
    "TC 7S 3C KS",  # 7 -> seat 0
    "9C KD 2C AS",  # 8 -> seat 0
    "3H QD TH 3D",  # 9: seat 0 holds only hearts -> seat 2
    "JH 4D 4H JD",  # 10: 2, 3, 0, 1 -> seat 2
    "QH 5D 5H TD",  # 11 -> seat 2
    "KH 6D 6H 9D",  # 12 -> seat 2
    "AH 7D 7H 8D",  # 13 -> seat 2
)
SCRIPT_L_TRUMP_HEARTS_WINNERS = [2, 0, 0, 2, 0, 0, 0, 0, 2, 2, 2, 2, 2]


# Seat 2 holds all four 8s, so seats 1, 3 and 0 pass at first; seat 2 goes out first and
# is then skipped (without a pass) while the others finish. Dealer 0, so seat 1 leads.
SKIP_HANDS = (
    "2C 3C 4C 5C 6C 7C 9C TC JC QC KC AC 2H",
    "2D 3D 4D 5D 6D 7D 9D TD JD QD KD AD 4H",
    "8C 8D 8H 8S 5H 6H 7H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 9S TS JS QS KS AS 3H",
)
SKIP_PLAYS = (
    "8D",  # seat 1 passed; seat 2 opens diamonds; seats 3 and 0 pass
    "9D 8S 9S",  # seat 0 passes again
    "TD 8C TS 9C",
    "JD 8H JS TC",
    "QD 9H QS JC",
    "KD TH KS QC",
    "AD JH AS KC",
    "7D QH 7S AC",
    "6D KH 6S 7C",
    "5D AH 5S 6C",
    "4D 7H 4S 5C",
    "3D 6H 3S 4C",
    "2D 5H 2S 3C",  # seat 2 plays his last card and is out
    "4H",  # seat 1's last card: out
    "3H",  # seat 2 is skipped; seat 3's last card: three out
)


def cards(text: str) -> list[Card]:
    """Cards from a space-separated string of record codes."""
    return [Card.parse(code) for code in text.split()]


def hands_from(layout: Sequence[str]) -> list[list[Card]]:
    return [cards(hand) for hand in layout]


def full_suits(suits: Sequence[Suit] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)):
    """Seat s holds the whole of ``suits[s]``."""
    return [[card for card in CARDS if card.suit is suit] for suit in suits]


def start(
    hands: Sequence[Sequence[Card]],
    contract: str,
    doubling: Iterable[Iterable[int]] = ((), (), (), ()),
    *,
    first_dealer: int = 0,
) -> Match:
    """A match whose first deal has these hands, ``contract`` and these doubling turns."""
    match = Match(first_dealer=first_dealer)
    match.start_deal(hands)
    match.apply(Choose(contract))
    for targets in doubling:
        match.apply(Double.of(*targets))
    return match


def play(match: Match, *tricks: str) -> None:
    """Play the cards in these strings, in order; the engine decides who plays each."""
    for trick in tricks:
        for code in trick.split():
            match.apply(Play(Card.parse(code)))


def finish_deal(match: Match, rng: random.Random) -> None:
    """Play random legal actions until the current deal is over."""
    deal = match.deal
    assert deal is not None
    while not deal.is_done:
        match.apply(rng.choice(match.legal_actions()))


def play_deal(match: Match, contract: str, rng: random.Random) -> None:
    """Deal at random, choose ``contract``, pass all doubling turns and play at random."""
    match.deal_random(rng)
    match.apply(Choose(contract))
    for _ in range(4):
        match.apply(PASS)
    finish_deal(match, rng)


def random_partial(seed: int, first_dealer: int = 0, steps: int | None = None) -> Match:
    """A match after ``steps`` random legal actions (dealing counts as a step), or complete."""
    rng = random.Random(seed)
    match = Match(("Ann", "Bob", "Cas", "Dirk"), first_dealer=first_dealer)
    taken = 0
    while not match.is_over and (steps is None or taken < steps):
        if match.to_act is None:
            match.deal_random(rng)
        else:
            match.apply(rng.choice(match.legal_actions()))
        taken += 1
    return match


def snapshot(match: Match) -> Any:
    """Everything observable about a match, to compare before and after a refused action."""
    return (
        match.phase,
        match.to_act,
        match.legal_actions(),
        dict(match.chosen_by),
        match.totals(),
        [
            (
                deal.phase,
                deal.to_act,
                deal.contract,
                [deal.hand(seat) for seat in range(4)],
                list(deal.plays),
                list(deal.trick),
                list(deal.tricks),
                list(deal.doubling),
                [list(row) for row in deal.multipliers],
                list(deal.base),
                [set(v) for v in deal.voids],
                list(deal.out),
                list(deal.domino_passes),
                deal.domino_rows(),
            )
            for deal in match.deals
        ],
    )


def dealt_for_play(contract_id: str, seed: int, rules: Rules = STANDARD) -> Deal:
    """A freshly dealt deal in ``contract_id`` with the doubling passed: cards come next."""
    rng = random.Random(seed)
    deal = Deal(rng.randrange(4), deal_hands(rng), rules)
    deal.set_contract(rules.by_id[contract_id])
    for _ in range(4):
        deal.apply(PASS)
    return deal


def mask_codes(masks: Sequence[int]) -> list[str]:
    """The card codes in four rank masks (one per suit), sorted."""
    return sorted(
        CARDS[suit * 13 + rank].code
        for suit in range(4)
        for rank in range(13)
        if masks[suit] >> rank & 1
    )
