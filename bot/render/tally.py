"""The words of a tally's scoresheet: the running table, each deal's line, what is asked
next, who changed what, and the refusals. Pure functions of a
:class:`~bot.tally.TallyView` in the current language (:mod:`bot.i18n`); a front end
chooses how to name a person (``person``: a user id to its mention or name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine import Card, Reason
from bot.engine.tally import Answer, Asked, Question, Step, TalliedDeal, questions
from bot.i18n import N_, _
from bot.tally import Change, Made, TallyReason, TallyRefusal, TallyView

from .chart import ChartData
from .reasons import SENTENCES
from .rules import rules_line
from .text import card_text, contract_name, names_text, signed, standings_text

Person = Callable[[int], str]
"""How a front end names a member by their user id (a mention, a display name)."""

COUNTED = {
    "tricks": N_("tricks"),
    "hearts": N_("hearts"),
    "kings": N_("kings"),
    "queens": N_("queens"),
    "jacks": N_("jacks"),
}
"""What a count question counts, as a sentence names it ("the hearts add up to 12")."""
HOW_MANY = {
    "tricks": N_("How many tricks did each player take?"),
    "hearts": N_("How many hearts did each player take?"),
    "kings": N_("How many kings did each player take?"),
    "queens": N_("How many queens did each player take?"),
    "jacks": N_("How many jacks did each player take?"),
}
"""Each count question, a sentence each (a noun does not paste into every language)."""
TALLY_SENTENCES: dict[TallyReason, str] = {
    TallyReason.NO_TALLY: N_("this scoresheet no longer exists"),
    TallyReason.CLOSED: N_("this scoresheet is closed: its match is over or was cancelled"),
    TallyReason.NOT_AT_THE_TALLY: N_(
        "only the players at this table (and who opened the sheet) can enter its scores"
    ),
    TallyReason.STALE: N_("the sheet has changed since; use the buttons of the newest sheet"),
    TallyReason.NOT_SAVED: N_("sorry, that could not be saved; please try again"),
    TallyReason.MEMBER_TWICE: N_("a member can sit in only one seat"),
}
ENTERED_SENTENCES: dict[Reason, str] = {
    Reason.TRUMP_ALREADY_PICKED: N_("{name} has already chosen a trump option"),
    Reason.MUST_PICK_TRUMP: N_(
        "{name} has not chosen a trump option yet, and must with this last choice"
    ),
    Reason.DOUBLE_SELF: N_("{name} cannot double himself"),
    Reason.CHOOSER_ONLY_REDOUBLES: N_(
        "{chooser}, the chooser, may only redouble players who doubled him, and {name} did not"
    ),
    Reason.MATCH_OVER: N_("every deal is in"),
    Reason.WRONG_PHASE: N_("that is not what the sheet asks now"),
}
"""A rule's refusal as the sheet says it: a tally's entries are made for the players
("Ann has already chosen"), where a played match speaks to the player ("you have")."""
NAMES_LENGTH = 6
"""Characters of a player's name in a column of the running table."""
CONTRACT_WIDTH = 15
"""Characters of a contract's name in the running table ("Diamonds trumps")."""


def counted(key: str) -> str:
    """What a count question counts ("hearts"); an unknown group is its own key."""
    noun = COUNTED.get(key)
    return key if noun is None else _(noun)


def question_text(question: Question) -> str:
    """The question as the sheet asks it."""
    if question.asked in (Asked.TRICKS, Asked.CARDS):
        sentence = HOW_MANY.get(question.key)
        if sentence is None:
            return _("How many {what} did each player take?", what=question.key)
        return _(sentence)
    if question.asked is Asked.CARD:
        return _("Who took the {card}?", card=card_text(Card.parse(question.key)))
    if question.asked is Asked.TRICK:
        return _("Who took trick {number}?", number=question.number)
    return _("Who was left holding cards?")


def answer_text(question: Question, answer: Answer, names: Sequence[str]) -> str:
    """One answer as the sheet shows it: ``hearts: Ann 4, Bob 3, ...`` or ``K♥: Cas``."""
    if isinstance(answer, int):
        if question.asked is Asked.CARD:
            thing = card_text(Card.parse(question.key))
        elif question.asked is Asked.TRICK:
            thing = _("trick {number}", number=question.number)
        else:
            thing = _("left holding cards")
        return f"{thing}: {names[answer]}"
    counts = ", ".join(f"{name} {count}" for name, count in zip(names, answer, strict=True))
    return f"{counted(question.key)}: {counts}"


def result_text(deal: TalliedDeal, names: Sequence[str]) -> str:
    """A complete deal's result, every answer."""
    assert deal.entry.result is not None
    answers = deal.entry.result.as_dict()
    return "; ".join(
        answer_text(question, answers[question.key], names) for question in questions(deal.contract)
    )


def doubles_text(deal: TalliedDeal, names: Sequence[str]) -> str:
    """Who doubled whom and who redoubled: ``Dirk doubled Ann, who redoubled``."""
    order = deal.doubling_order
    parts = []
    for first in order:
        for second in order[order.index(first) + 1 :]:
            level = deal.multipliers[first][second]
            if level == 0:
                continue
            # Who named first in the doubling order doubled; the other could only answer.
            who, whom = names[first], names[second]
            if level == 2:
                parts.append(_("{who} doubled {whom}, who redoubled", who=who, whom=whom))
            else:
                parts.append(_("{who} doubled {whom}", who=who, whom=whom))
    return "; ".join(parts) if parts else _("no doubles")


def pair_text(names: Sequence[str], deal: TalliedDeal, namer: int, named: int) -> str:
    """An option of the doubling menu: ``namer`` named ``named`` on his turn."""
    order = deal.doubling_order
    who, whom = names[namer], names[named]
    if namer == deal.chooser:
        return _("{who} redoubles {whom}", who=who, whom=whom)
    if order.index(named) > order.index(namer):
        return _("{who} doubles {whom}", who=who, whom=whom)
    return _("{who} doubles or redoubles {whom}", who=who, whom=whom)


def pairs_in_order(deal: TalliedDeal) -> list[tuple[int, int]]:
    """Every ``(namer, named)`` a deal's doubling may hold, in doubling order."""
    return [(a, b) for a in deal.doubling_order for b in deal.doubling_order if a != b]


def deal_title(view: TallyView, number: int) -> str:
    """``Deal 4 of 11 · Dirk deals, Ann chooses``."""
    return _(
        "Deal {number} of {deals} · {dealer} deals, {chooser} chooses",
        number=number,
        deals=view.rules.deals,
        dealer=view.names[view.dealer_of(number)],
        chooser=view.names[view.chooser_of(number)],
    )


def deal_lines(view: TallyView, deal: TalliedDeal, person: Person) -> list[str]:
    """Everything entered of one deal, with who entered it, and its scores once in."""
    names = view.names
    by = view.entered_by[deal.number - 1]
    lines = [
        _(
            "{chooser} chose {contract} (entered by {who})",
            chooser=names[deal.chooser],
            contract=contract_name(deal.contract),
            who=person(by.contract),
        )
    ]
    if deal.entry.doubles is not None and by.doubling is not None:
        lines.append(
            _(
                "Doubles: {doubles} (entered by {who})",
                doubles=doubles_text(deal, names),
                who=person(by.doubling),
            )
        )
    if deal.is_complete and by.result is not None:
        lines.append(
            _(
                "Result: {result} (entered by {who})",
                result=result_text(deal, names),
                who=person(by.result),
            )
        )
        scores = ", ".join(f"{n} {signed(s)}" for n, s in zip(names, deal.final, strict=True))
        lines.append(_("Scores: {scores}", scores=scores))
        settled = [final - base for base, final in zip(deal.base, deal.final, strict=True)]
        if any(settled):
            moved = ", ".join(f"{n} {signed(s)}" for n, s in zip(names, settled, strict=True))
            lines.append(_("Doubling settled: {moved}", moved=moved))
    return lines


def asked_text(view: TallyView) -> str:
    """What the sheet asks now, for the deal being entered."""
    if view.step is Step.CONTRACT:
        return _(
            "{chooser}, which contract do you choose?",
            chooser=view.names[view.chooser_of(view.number)],
        )
    if view.step is Step.DOUBLING:
        return _("Who doubled whom? Pick every double and redouble, or press No doubles.")
    if view.step is Step.RESULT:
        return _("Enter the result when the deal has been played.")
    return _("All {deals} deals are in.", deals=view.rules.deals)


def correction_asks(doubled: bool) -> str:
    """What a correction asks next, once its contract is in: its doubles, or its result."""
    if doubled:
        return _("What was the result?")
    return _("Who doubled whom? Pick every double and redouble, or press No doubles.")


def running_table(view: TallyView) -> str:
    """The scoresheet as a table of fixed-width text: a row per complete deal (its number,
    contract, ``x`` where doubled, and each player's score after doubling), then the
    totals. For a monospaced block."""
    width = max(NAMES_LENGTH, *(len(signed(t)) for t in view.totals))

    def row(first: str, scores: Sequence[int]) -> str:
        cells = "".join(f" {score:+{width}d}" if score else f" {0:>{width}}" for score in scores)
        return first + cells

    header = f"{'':<{CONTRACT_WIDTH + 5}}" + "".join(
        f" {name[:width]:>{width}}" for name in view.names
    )
    rows = [header.rstrip()]
    for deal in view.deals:
        doubled = "x" if any(any(line) for line in deal.multipliers) else " "
        name = contract_name(deal.contract)[:CONTRACT_WIDTH]
        rows.append(row(f"{deal.number:>2} {name:<{CONTRACT_WIDTH}} {doubled}", deal.final))
    total = _("Total")[: CONTRACT_WIDTH + 2]
    rows.append(row(f"{'':>2} {total:<{CONTRACT_WIDTH + 2}}", view.totals))
    return "\n".join(rows)


def change_text(view: TallyView, change: Change, person: Person) -> str:
    """An undo, a correction or the cancelling, with who made it."""
    who = person(change.user_id)
    if change.made is Made.UNDO:
        if change.partial:
            return _(
                "{who} took back what was entered of deal {number}", who=who, number=change.deal
            )
        return _("{who} took back deal {number}", who=who, number=change.deal)
    if change.made is Made.CORRECT:
        return _("{who} corrected deal {number}", who=who, number=change.deal)
    return _("{who} cancelled the scoresheet", who=who)


def final_text(view: TallyView) -> str:
    """The final standings, best first."""
    return standings_text(view.names, view.totals, view.ranking)


def sheet_title(view: TallyView) -> str:
    return _("Scoresheet: {players}", players=names_text(view.names, range(4)))


def sheet_rules(view: TallyView) -> str:
    """The rules the table plays, and that the cards are real."""
    return _("Real cards · {rules}", rules=rules_line(view.rules))


def chart_data(view: TallyView, language: str) -> ChartData:
    """The score chart of the complete deals (as a played match's)."""
    return ChartData(
        names=view.names,
        contracts=tuple(deal.contract.id for deal in view.deals),
        scores=tuple(tuple(deal.final) for deal in view.deals),
        deals=view.rules.deals,
        language=language,
    )


def refusal_text(refusal: TallyRefusal, view: TallyView | None = None) -> str:
    """The refusal in the current language, naming what is wrong (the deal, the player,
    the count, the contract) from the engine's refusal and the tally's names."""
    reason = refusal.reason
    if isinstance(reason, TallyReason):
        return _(TALLY_SENTENCES[reason])
    error = refusal.error
    if error is None:
        return _(SENTENCES[reason], name="?", what="?", value="?", expected="?", contract="?")
    names = view.names if view is not None else ("?",) * 4
    named = error.value if reason is Reason.CHOOSER_ONLY_REDOUBLES else error.seat
    sentence = _(
        ENTERED_SENTENCES.get(reason, SENTENCES[reason]),
        name=names[named] if named is not None and 0 <= named < 4 else "?",
        chooser=names[error.seat] if error.seat is not None and 0 <= error.seat < 4 else "?",
        what=counted(error.question) if error.question is not None else "?",
        value=error.value if error.value is not None else "?",
        expected=error.expected if error.expected is not None else "?",
        contract=contract_name(error.contract) if error.contract is not None else "?",
        card="?",
    )
    if error.deal is not None and view is not None and error.deal != view.number:
        return _("deal {number}: {refusal}", number=error.deal, refusal=sentence)
    return sentence
