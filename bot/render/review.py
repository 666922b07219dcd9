"""A review in words: its summary, a decision, the better option and why.

The review (:mod:`bot.review`) keeps actions as the engine's codes and reasons as
catalogue-ready English with card codes in them; these functions write them in the
current language (``V♠`` for a Dutch reader), for the command line and for Discord
alike. The names given are the seats' names as the caller shows them.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.numbers import format_decimal

from bot import i18n
from bot.engine import Card, Choose, Play, Suit, any_contract, parse_action
from bot.i18n import N_, _, ngettext
from bot.review import DecisionReview, Explanation, Grade, PlayerReview
from bot.review.result import DealReview

from .text import card_text, contract_name, names_text

GRADE_NAMES = {
    Grade.INACCURACY: N_("inaccuracy"),
    Grade.MISTAKE: N_("mistake"),
    Grade.BLUNDER: N_("blunder"),
}
GRADE_MARKS = {Grade.INACCURACY: "?!", Grade.MISTAKE: "?", Grade.BLUNDER: "??"}
"""The chess players' marks, beside a decision's grade."""


def grade_name(grade: Grade) -> str:
    return _(GRADE_NAMES[grade])


def points_text(value: float, *, signed: bool = False) -> str:
    """Points as a review shows them, in the reader's language (``25,4`` in Dutch): one
    decimal, and none when it rounds to a whole number (``53``, not ``53.0``)."""
    rounded = round(value, 1)
    pattern = "#,##0.#" if not signed else "+#,##0.#;-#,##0.#"
    return format_decimal(0 if rounded == 0 else rounded, pattern, locale=i18n.current())


def action_text(code: str, names: Sequence[str]) -> str:
    """An action code as a player says it: a card (``K♠``), a contract, a doubling
    turn (``double Bob``, ``pass``)."""
    action = parse_action(code)
    if isinstance(action, Play):
        return card_text(action.card)
    if isinstance(action, Choose):
        return contract_name(action.contract)
    if not action.targets:
        return _("pass")
    return _("double {players}", players=names_text(names, sorted(action.targets)))


def reason_text(reason: Explanation) -> str:
    """A decision's one-line reason in the current language, its cards and suits in
    the reader's words."""
    values = {key: _value_text(value) for key, value in reason.values}
    return _(reason.message, **values)


def _value_text(value: str) -> str:
    if len(value) == 1 and value in "CDHS":
        return Suit.parse(value).symbol
    if len(value) == 2:
        return card_text(Card.parse(value))
    return value


def where_text(decision: DecisionReview, deal: DealReview) -> str:
    """Where a decision was made: ``deal 4 (Queens), trick 3``."""
    contract = contract_name(deal.contract)
    number = decision.deal + 1
    if decision.kind == "choose":
        return _("deal {deal}, the contract", deal=number)
    if decision.kind == "double":
        return _("deal {deal} ({contract}), doubling", deal=number, contract=contract)
    found = any_contract(deal.contract)
    if found is not None and found.domino:
        return _(
            "deal {deal} ({contract}), card {card}",
            deal=number,
            contract=contract,
            card=decision.index + 1,
        )
    return _(
        "deal {deal} ({contract}), trick {trick}",
        deal=number,
        contract=contract,
        trick=decision.index // 4 + 1,
    )


def decision_line(decision: DecisionReview, deal: DealReview, names: Sequence[str]) -> str:
    """One decision in a line: where, what was chosen, the better option, the loss and
    its grade, and the reason where one can be said (or that the choice was the best)."""
    if decision.chosen == decision.best:
        return _(
            "{where}: {chosen}, the best option",
            where=where_text(decision, deal),
            chosen=action_text(decision.chosen, names),
        )
    words = _(
        "{where}: {chosen} instead of {best}, {points} points lost",
        where=where_text(decision, deal),
        chosen=action_text(decision.chosen, names),
        best=action_text(decision.best, names),
        points=points_text(decision.loss),
    )
    if decision.grade is not None:
        words += f" ({grade_name(decision.grade)} {GRADE_MARKS[decision.grade]})"
    if decision.reason is not None:
        words += f": {reason_text(decision.reason)}"
    return words


def counts_text(review: PlayerReview) -> str:
    """``2 inaccuracies, 1 mistake, 0 blunders``."""
    return ", ".join(
        [
            ngettext("{n} inaccuracy", "{n} inaccuracies", review.count(Grade.INACCURACY)),
            ngettext("{n} mistake", "{n} mistakes", review.count(Grade.MISTAKE)),
            ngettext("{n} blunder", "{n} blunders", review.count(Grade.BLUNDER)),
        ]
    )


def summary_lines(review: PlayerReview) -> list[str]:
    """The review's figures: points lost to mistakes and the classes, the luck of the
    hands dealt, and apart from them the hindsight line."""
    return [
        _(
            "{lost} points lost to mistakes in {decisions} decisions with a choice: {counts}.",
            lost=points_text(review.lost),
            decisions=len(review.decisions),
            counts=counts_text(review),
        ),
        _(
            "Luck of the hands dealt: {luck} points against an average hand.",
            luck=points_text(review.luck, signed=True),
        ),
        _(
            "With all cards known (hindsight, the last tricks only): {lost} points lost.",
            lost=points_text(review.hindsight_lost),
        ),
    ]


def deal_of(review: PlayerReview, decision: DecisionReview) -> DealReview:
    return review.deals[decision.deal]
