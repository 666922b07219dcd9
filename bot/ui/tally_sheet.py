"""What a scoresheet shows in Discord: pure functions of a :class:`~bot.tally.TallyView`.

The sheet is one message, edited in place: the rules, the running table, the last deal
with its scores and doubling settlement, the deal being entered with who entered what,
the changes made, and the controls for what the sheet asks now (the contract, the
doubles, the result; undo, correct, the chart, cancel). A correction is entered in a
private message with the same controls, its draft carried by their custom_ids. The
words are :mod:`bot.render.tally`'s; nothing here sends or draws.
"""

from __future__ import annotations

import discord

from bot.engine import Contract
from bot.engine.tally import Question, Step, TalliedDeal, questions
from bot.i18n import _
from bot.render import tally as words
from bot.render.text import contract_name
from bot.tally import TallyView

from .embeds import GREEN, GREY
from .tally_components import Option, TallyButton, TallySelect
from .tally_ids import PAIRS, Draft, Ref

SHEET = "sheet"
"""The role of the scoresheet message among a tally's remembered messages."""
SUMMARY = "summary"
"""The role of the message in the channel a threaded sheet was opened on."""
INPUT_LABEL = 45
"""Discord's longest text input label (and modal title)."""
SHOWN_CHANGES = 5
"""The most recent changes the sheet lists."""


def person_of(view: TallyView) -> words.Person:
    """A member as the sheet names them: their seat's name, or a mention (who opened the
    sheet without sitting at it)."""
    names = {seat.user_id: seat.name for seat in view.seats if seat.user_id is not None}
    return lambda user_id: names.get(user_id) or f"<@{user_id}>"


def _escaped(text: str) -> str:
    """Names are chosen by users: no Markdown of theirs in the sheet (an embed pings
    nobody, so mentions may stay)."""
    return discord.utils.escape_markdown(text)


def _table_block(view: TallyView) -> str:
    return "```\n" + words.running_table(view).replace("`", "'") + "\n```"


def deal_block(view: TallyView, deal: TalliedDeal) -> str:
    title = words.deal_title(view, deal.number)
    lines = words.deal_lines(view, deal, person_of(view))
    return f"**{_escaped(title)}**\n" + "\n".join(_escaped(line) for line in lines)


def sheet_embed(view: TallyView) -> discord.Embed:
    """The scoresheet as it is now."""
    parts = [_escaped(words.sheet_rules(view)), _table_block(view)]
    if view.is_open:
        if view.deals:
            parts.append(deal_block(view, view.deals[-1]))
        if view.current is not None:
            parts.append(deal_block(view, view.current))
        elif view.step is not Step.OVER:
            parts.append(f"**{_escaped(words.deal_title(view, view.number))}**")
        parts.append("▶ " + _escaped(words.asked_text(view)))
    else:
        if view.step is Step.OVER and view.deals:  # the last deal's details stay shown
            parts.append(deal_block(view, view.deals[-1]))
        parts.append(closed_text(view))
    person = person_of(view)
    changes = [words.change_text(view, c, person) for c in view.changes[-SHOWN_CHANGES:]]
    if changes:
        parts.append("\n".join("✎ " + _escaped(line) for line in changes))
    return discord.Embed(
        title=_escaped(words.sheet_title(view))[:256],
        description="\n\n".join(parts)[:4096],
        colour=GREEN if view.is_open else GREY,
    )


def closed_text(view: TallyView) -> str:
    """A closed sheet's last words: the final standings, or that it was cancelled."""
    if view.step is Step.OVER:
        title = _("Final standings")
        return f"**{title}**\n" + _escaped(words.final_text(view))
    return _("This scoresheet was cancelled; it counts for nobody.")


def sheet_controls(view: TallyView) -> discord.ui.View | None:
    """The controls of an open sheet (None once it is closed)."""
    if not view.is_open:
        return None
    ref = Ref(view.tally_id, view.version)
    controls = discord.ui.View(timeout=None)
    buttons: list[TallyButton] = []
    if view.step is Step.CONTRACT:
        options = [(c, contract_name(view.rules.by_id[c])) for c in view.contracts]
        controls.add_item(TallySelect(ref, "con", options, row=0))
    elif view.current is not None:
        buttons.extend(_deal_controls(controls, view, ref, view.current, view.current.contract))
    if view.deals:
        numbers = [(str(d.number), _deal_option(d)) for d in reversed(view.deals)]
        controls.add_item(TallySelect(ref, "fix", numbers, row=1))
    if view.version:
        buttons.append(TallyButton(ref, "undo"))
    if view.deals:
        buttons.append(TallyButton(ref, "chart"))
    buttons.append(TallyButton(ref, "cancel"))
    for button in buttons:
        button.item.row = 2
        controls.add_item(button)
    return controls


def _deal_option(deal: TalliedDeal) -> str:
    return _("Deal {number}: {contract}", number=deal.number, contract=contract_name(deal.contract))


def _deal_controls(
    controls: discord.ui.View,
    view: TallyView,
    ref: Ref,
    deal: TalliedDeal,
    contract: Contract,
) -> list[TallyButton]:
    """The menu of the deal's next step (added to ``controls``) and its buttons (returned):
    the doubles, or the result."""
    doubling = ref.draft.doubled if ref.draft.correcting else deal.entry.doubles is not None
    if not doubling:
        controls.add_item(TallySelect(ref, "dbl", pair_options(view, deal), row=0))
        return [TallyButton(ref, "pass")]
    asked = questions(contract)
    if asked[0].counts:
        what = words.counted(asked[0].key)
        return [TallyButton(ref, "res", label=_("Enter the {what}", what=what))]
    controls.add_item(
        TallySelect(ref, "one", one_options(view, asked), placeholder=words.question_text(asked[0]))
    )
    return []


def pair_options(view: TallyView, deal: TalliedDeal) -> list[Option]:
    """Every double and redouble the deal's doubling order lets be named, in that order."""
    return [
        (str(PAIRS.index(pair)), words.pair_text(view.names, deal, *pair))
        for pair in words.pairs_in_order(deal)
    ]


def one_options(view: TallyView, asked: tuple[Question, ...]) -> list[Option]:
    """Who took the one thing (or, for two such questions, each pair of answers): the
    value is each answer's seat, joined by dots."""
    answers: list[tuple[int, ...]] = [()]
    for _question in asked:
        answers = [(*given, seat) for given in answers for seat in range(4)]
    return [
        (
            ".".join(map(str, given)),
            " · ".join(
                words.answer_text(q, seat, view.names) for q, seat in zip(asked, given, strict=True)
            ),
        )
        for given in answers
    ]


def correction_controls(
    view: TallyView, draft: Draft, contracts: list[str]
) -> tuple[str, discord.ui.View]:
    """The private message a correction is entered in: what it asks now, and its controls.
    ``contracts``: what the deal's chooser may choose (for its first step)."""
    deal = view.deals[draft.deal - 1]
    ref = Ref(view.tally_id, view.version, draft)
    controls = discord.ui.View(timeout=None)
    title = _("Correcting deal {number}", number=draft.deal)
    if not draft.contract:
        options = [(c, contract_name(view.rules.by_id[c])) for c in contracts]
        controls.add_item(TallySelect(ref, "con", options, row=0))
        chooser = view.names[deal.chooser]
        return f"**{title}**: " + _escaped(
            _("{chooser}, which contract do you choose?", chooser=chooser)
        ), controls
    contract = view.rules.by_id[draft.contract]
    for button in _deal_controls(controls, view, ref, deal, contract):
        button.item.row = 1
        controls.add_item(button)
    asked = words.correction_asks(draft.doubled)
    chosen = _("{contract} chosen", contract=contract_name(contract))
    return f"**{title}** · {chosen}: {asked}", controls


def counts_modal(view: TallyView, ref: Ref, question: Question, number: int) -> discord.ui.Modal:
    """The form of one count question: a count per player (their custom_ids ``c0``-``c3``)."""
    title = _("Deal {number}: {question}", number=number, question=words.counted(question.key))
    modal = discord.ui.Modal(title=title[:INPUT_LABEL], custom_id=ref.custom_id("mod"), timeout=600)
    for seat, name in enumerate(view.names):
        modal.add_item(
            discord.ui.TextInput(
                label=name[:INPUT_LABEL],
                custom_id=f"c{seat}",
                placeholder=f"0-{question.total}",
                max_length=2,
            )
        )
    return modal
