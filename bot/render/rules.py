"""The rules as players read them: ``/bonken rules`` and ``/bonken rules <contract>``,
and the one line the lobby and the deal messages say the table's rules in.

Every number and every seat comes from the table's :class:`~bot.engine.Rules`, so the
``twelve`` variant and each house rule read as what the table plays; nothing here
restates a rule the engine decides, it only says it in words, in the current language.
A house rule's words are its declaration's (:mod:`bot.engine.house_rules`).
"""

from __future__ import annotations

from functools import cache

from bot.engine import HOUSE_RULES, STANDARD, Contract, Rules
from bot.engine.cards import JACK, KING
from bot.engine.house_rules import Value
from bot.i18n import N_, _

from .text import contract_description, contract_name

OVERVIEW = N_("""\
**Bonken** · {title} · 4 players, 52 cards, {deals} deals, everyone for themselves; \
highest total wins.
• {chooser} **chooses the contract** after seeing their hand. \
The {negatives} negative contracts are each played once; of the five trump options \
(♣ ♦ ♥ ♠ or No Trump) four are played, and **every player picks exactly one**.
• **Doubling**: before the first card each player has one turn (starting {first_doubler}, \
the chooser last) to double any of the others; doubling someone who doubled you \
is a redouble. The chooser may only redouble. Each pair settles the difference of their \
deal scores once (double) or twice (redouble); doubling never changes the deal's total.
• **Play**: {leader} leads the first trick. Follow suit if you can; otherwise play \
anything. Highest trump, else highest card of the led suit, takes the trick and leads \
next. A deal ends early once nothing left can score.
**Contracts**
{contracts}{house_rules}
Use `/bonken rules contract:<name>` for one contract.""")

TITLES = {"standard": N_("the standard game"), "twelve": N_("the 12-deal game")}
"""How the overview names each variant (the record's ``variant`` name otherwise)."""
LINE_TITLES = {"standard": N_("Standard game"), "twelve": N_("12-deal game")}
"""The variant at the head of the rules line."""

DETAILS = {
    "ducking": N_(
        "Take as few tricks as you can: {per_trick} per trick. All 13 tricks are played."
    ),
    "hearts": N_("{each} per heart you take. Ends once all 13 hearts are taken."),
    "kingjacks": N_(
        "{king} per king and {jack} per jack you take. Ends once all kings and jacks are taken."
    ),
    "queens": N_("{each} per queen you take. Ends once all four queens are taken."),
    "kingofhearts": N_("{each} to whoever takes the K♥. Ends when the K♥ is taken."),
    "lasttrick": N_("{trick_13} to whoever takes the 13th trick."),
    "seventhirteenth": N_(
        "{trick_7} to whoever takes the 7th trick and {trick_13} to whoever takes the 13th. "
        "Any card may be led. All 13 tricks are played."
    ),
    "domino": N_(
        "No tricks: cards are laid out in four suit rows. Play an 8, or a card one "
        "rank next to a card of its suit on the table. If you cannot play you pass "
        "(automatically). {first_lead} starts. The last player still holding cards gets "
        "{last_holder}."
    ),
}
"""Each negative contract's text; the numbers are filled in from the rules' contract,
and the sentence of each house rule that shapes the contract follows it."""
TRUMP_DETAIL = N_(
    "{per_trick:+d} per trick you take. {trump} Each player picks one trump option per match."
)
SUIT_TRUMPS = {
    "CLUBS": N_("Clubs are trump."),
    "DIAMONDS": N_("Diamonds are trump."),
    "HEARTS": N_("Hearts are trump."),
    "SPADES": N_("Spades are trump."),
}
"""The trump suit's sentence, by the suit's name (one sentence each: a suit's name is
not a word to paste into another language's sentence)."""
STARTER = (
    N_("The dealer"),
    N_("Left of the dealer"),
    N_("Across from the dealer"),
    N_("Right of the dealer"),
)
"""A seat by its offset from the dealer, at the start of a sentence."""
FROM_SEAT = (
    N_("from the dealer"),
    N_("left of the dealer"),
    N_("across from the dealer"),
    N_("right of the dealer"),
)
"""Where the doubling starts, by the seat's offset from the dealer."""
CHOOSER = (
    N_("The dealer"),
    N_("The player left of the dealer"),
    N_("The player across from the dealer"),
    N_("The player right of the dealer"),
)


def rules_text(contract_id: str | None = None, rules: Rules = STANDARD) -> str:
    """The overview, or one contract of ``rules`` (the standard game by default): the
    numbers and seats come from the rules, so every variant and house rule reads right."""
    if contract_id is None:
        return overview(rules)
    contract = rules.contract(contract_id)
    if contract is None:
        return _("This table's game ({title}) has no such contract.", title=variant_title(rules))
    return f"**{contract_name(contract)}**: {contract_detail(contract_id, rules)}"


def overview(rules: Rules) -> str:
    """How ``rules`` are played, with its contract table and house rules."""
    house = house_rule_lines(rules)
    heading = "\n**" + _("House rules") + "**\n"
    return _(
        OVERVIEW,
        title=variant_title(rules),
        deals=rules.deals,
        chooser=_(CHOOSER[rules.chooser_offset]),
        negatives=len(rules.negative_ids),
        first_doubler=_(FROM_SEAT[rules.doubling_offsets[0]]),
        leader=_(STARTER[rules.first_lead_offset]),
        contracts=contract_lines(rules),
        house_rules=heading + "\n".join(f"• {line}" for line in house) if house else "",
    )


def contract_lines(rules: Rules) -> str:
    """The contract table in this variant's points: each negative, then the trump options
    in one line (they score alike)."""
    lines = [
        f"• **{contract_name(c)}**: {contract_description(c)}"
        for c in rules.contracts
        if not c.is_trump_option
    ]
    per_trick = sorted({rules.by_id[cid].per_trick for cid in rules.trump_ids})
    points = ", ".join(f"{p:+d}" for p in per_trick)
    lines.append(
        _("• **Trump options** (♣ ♦ ♥ ♠ or No Trump): {points} per trick taken", points=points)
    )
    return "\n".join(lines)


def variant_title(rules: Rules) -> str:
    """The variant as the overview names it ("the 12-deal game")."""
    title = TITLES.get(rules.variant)
    return rules.variant if title is None else _(title)


def rules_line(rules: Rules) -> str:
    """The table's rules in one line: ``12-deal game · the dealer leads``: the variant,
    then each house rule not at its default, in a few words."""
    title = LINE_TITLES.get(rules.variant)
    words = [rules.variant if title is None else _(title)]
    words += [_(value.short) for value in _changed(rules) if value.short]
    return " · ".join(words)


def house_rule_lines(rules: Rules) -> list[str]:
    """One sentence per house rule these rules play (those at their default say nothing)."""
    return [_(value.sentence) for value in _changed(rules) if value.sentence]


def _changed(rules: Rules) -> tuple[Value, ...]:
    """The declared value of each house rule ``rules`` play at other than its default, in
    the declarations' order."""
    return _changed_of(rules.house_rules)


@cache
def _changed_of(house_rules: tuple[tuple[str, str], ...]) -> tuple[Value, ...]:
    """:func:`_changed` of the rules whose house rules are these (found once for each
    set: a match's page says its rules for each reader)."""
    played = dict(house_rules)
    values = ((rule, played.get(rule.name, rule.default)) for rule in HOUSE_RULES.values())
    return tuple(rule.value(value) for rule, value in values if value != rule.default)


def shaping_sentences(contract: Contract, rules: Rules) -> list[str]:
    """The sentence of each house rule that shapes ``contract``, for the value ``rules``
    play (default included: a contract's text says how it is played here)."""
    sentences = []
    for rule in HOUSE_RULES.values():
        if rule.shapes is not None and rule.shapes(contract):
            sentence = rule.value(rules.house_rule(rule.name)).sentence
            if sentence:
                sentences.append(_(sentence))
    return sentences


def contract_detail(contract_id: str, rules: Rules) -> str:
    """One contract of ``rules`` in full sentences, its numbers from the rules."""
    contract = rules.by_id[contract_id]
    return " ".join([_contract_text(contract, rules), *shaping_sentences(contract, rules)])


def _contract_text(contract: Contract, rules: Rules) -> str:
    """One contract's own text, before the house rules that shape it."""
    if contract.is_trump_option:
        trump = _("No trumps.") if contract.trump is None else _(SUIT_TRUMPS[contract.trump.name])
        return _(TRUMP_DETAIL, per_trick=contract.per_trick, trump=trump)
    if contract.id not in DETAILS:
        return contract_description(contract)
    points = contract.card_points
    return _(
        DETAILS[contract.id],
        per_trick=contract.per_trick,
        each=min(points.values(), default=0),
        king=next((v for c, v in points.items() if c.rank == KING), 0),
        jack=next((v for c, v in points.items() if c.rank == JACK), 0),
        trick_7=contract.trick_points.get(7, 0),
        trick_13=contract.trick_points.get(13, 0),
        last_holder=contract.last_holder,
        first_lead=_(STARTER[rules.first_lead_offset]),
    )
