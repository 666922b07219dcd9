"""Tallies of played matches: what a real table would enter for each deal the engine played.

The result of a played deal is counted from its tricks here, by the test's own reading of
the rules (which cards are hearts, who holds the K♥ at the end), not by the engine's
scoring, so a tally that scores alike shows the two agree.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.engine import Choose, Deal, Match, Phase, Rules, rules_for
from bot.engine.tally import Asked, Doubles, Entry, Result, Tally, questions

COUNTED = {
    "hearts": lambda card: card.suit.letter == "H",
    "kings": lambda card: card.rank == 13,
    "queens": lambda card: card.rank == 12,
    "jacks": lambda card: card.rank == 11,
}
"""The card groups a table counts, as a player would say which cards they are."""


def counted_result(deal: Deal) -> Result:
    """The result a table would enter for a deal the engine played."""
    assert deal.contract is not None and deal.is_done
    answers: dict[str, list[int] | int] = {}
    for question in questions(deal.contract):
        if question.asked is Asked.TRICKS:
            answers[question.key] = [
                sum(1 for trick in deal.tricks if trick.winner == seat) for seat in range(4)
            ]
        elif question.asked is Asked.CARDS:
            wanted = COUNTED[question.key]
            answers[question.key] = [
                sum(
                    1
                    for trick in deal.tricks
                    if trick.winner == seat
                    for c in trick.cards
                    if wanted(c)
                )
                for seat in range(4)
            ]
        elif question.asked is Asked.CARD:
            answers[question.key] = next(
                trick.winner
                for trick in deal.tricks
                if any(card.code == question.key for card in trick.cards)
            )
        elif question.asked is Asked.TRICK:
            assert question.number is not None
            answers[question.key] = deal.tricks[question.number - 1].winner
        else:
            answers[question.key] = next(seat for seat in range(4) if seat not in deal.out)
    return Result.of(answers)


def entries_of(match: Match) -> Iterator[Entry]:
    """Each deal of a played match as a table enters it: contract, doubling, result."""
    for deal in match.deals:
        assert deal.contract is not None
        yield Choose(deal.contract.id)
        yield Doubles(tuple(deal.doubling), confirmed=True)
        yield counted_result(deal)


def tally_of(match: Match) -> Tally:
    """The tally a table would have kept of ``match``."""
    tally = Tally(match.players, first_dealer=match.first_dealer, rules=match.rules)
    for entry in entries_of(match):
        tally.apply(entry)
    return tally


def doubling_match(seed: int, rules: Rules | None = None, first_dealer: int = 0) -> Match:
    """A complete match of random legal moves in which players double and redouble often:
    each doubling turn names the most players it may, half of the time."""
    rng = random.Random(seed)
    match = Match(
        ("Ann", "Bob", "Cas", "Dirk"), first_dealer=first_dealer, rules=rules or rules_for()
    )
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        actions = match.legal_actions()
        deal = match.deal
        assert deal is not None
        if deal.phase is Phase.DOUBLING and rng.random() < 0.5:
            action = max(actions, key=lambda a: len(getattr(a, "targets", ())))
        else:
            action = rng.choice(actions)
        match.apply(action)
    return match
