"""The rules as players read them: ``/bonken rules`` and ``/bonken rules <contract>``.

Every number and every seat comes from the table's :class:`~bot.engine.Rules`, so the
``twelve`` variant and each house rule read as what the table plays; nothing here
restates a rule the engine decides, it only says it in words.
"""

from __future__ import annotations

from bot.engine import STANDARD, HeartLead, Rules
from bot.engine.cards import JACK, KING

OVERVIEW = """\
**Bonken** · {title} · 4 players, 52 cards, {deals} deals, everyone for themselves; \
highest total wins.
• {chooser} **chooses the contract** after seeing their hand. \
The {negatives} negative contracts are each played once; of the five trump options \
(♣ ♦ ♥ ♠ or No Trump) {trumps} are played, and **every player picks exactly one**.
• **Doubling**: before the first card each player has one turn (starting {first_doubler}, \
the chooser last) to double any of the others; doubling someone who doubled you \
is a redouble. The chooser may only redouble. Each pair settles the difference of their \
deal scores once (double) or twice (redouble); doubling never changes the deal's total.
• **Play**: {leader} leads the first trick. Follow suit if you can; otherwise play \
anything (trumping is allowed, never required). Highest trump, else highest card of the \
led suit, takes the trick and leads next. A deal ends early once nothing left can score.
**Contracts**
{contracts}{house_rules}
Use `/bonken rules contract:<name>` for one contract."""

TITLES = {"standard": "the standard game", "twelve": "the 12-deal game"}
"""How the overview names each variant (the record's ``variant`` name otherwise)."""

NO_HEART_LEAD = {
    HeartLead.NEVER: "You may not lead a heart unless you hold only hearts.",
    HeartLead.BROKEN: "You may not lead a heart until a heart has been played to an "
    "earlier trick, unless you hold only hearts.",
}

DETAILS = {
    "ducking": "Take as few tricks as you can: {per_trick} per trick. All 13 tricks are played.",
    "hearts": "{each} per heart you take. {heart_lead} Ends once all 13 hearts are taken.",
    "kingjacks": "{king} per king and {jack} per jack you take. "
    "Ends once all kings and jacks are taken.",
    "queens": "{each} per queen you take. Ends once all four queens are taken.",
    "kingofhearts": "{each} to whoever takes the K♥. {heart_lead} Ends when the K♥ is taken.",
    "lasttrick": "{trick_13} to whoever takes the 13th trick.",
    "seventhirteenth": "{trick_7} to whoever takes the 7th trick and {trick_13} to whoever "
    "takes the 13th. Any card may be led. All 13 tricks are played.",
    "domino": "No tricks: cards are laid out in four suit rows. Play an 8, or a card one "
    "rank next to a card of its suit on the table (an ace only next to the king, a 2 only "
    "next to the 3). If you cannot play you pass (automatically). {first_lead} "
    "starts. The last player still holding cards gets {last_holder}.{domino_doubling}",
}
"""Each negative contract's text; the numbers are filled in from the rules' contract."""
TRUMP_DETAIL = (
    "{per_trick:+d} per trick you take. {trump} Each player picks one trump option per match."
)
SEATS = ("the dealer", "left of the dealer", "across from the dealer", "right of the dealer")
"""A seat by its offset from the dealer, as the rules text says it."""
CHOOSER = (
    "The dealer",
    "The player left of the dealer",
    "The player across from the dealer",
    "The player right of the dealer",
)

HOUSE_RULE_TEXT = {
    ("heart_lead", "broken"): "Hearts may be led once a heart has been played to an earlier "
    "trick (in Heartshunting and King of Hearts).",
    ("first_lead", "left"): "The player left of the dealer leads the first trick (and plays "
    "first in Domino).",
    ("first_lead", "dealer"): "The dealer leads the first trick (and plays first in Domino).",
    ("domino_doubling", "ace_or_two"): "In Domino only a player holding an ace or a 2 may "
    "double or redouble; the others can only pass.",
}
"""What each house rule that differs from its default does, in one sentence."""


def rules_text(contract_id: str | None = None, rules: Rules = STANDARD) -> str:
    """The overview, or one contract of ``rules`` (the standard game by default): the
    numbers and seats come from the rules, so every variant and house rule reads right."""
    if contract_id is None:
        return overview(rules)
    contract = rules.contract(contract_id)
    if contract is None:
        return f"This table's game ({variant_title(rules)}) has no such contract."
    return f"**{contract.name}**: {contract_detail(contract_id, rules)}"


def overview(rules: Rules) -> str:
    """How ``rules`` are played, with its contract table and house rules."""
    negatives = len(rules.negative_ids)
    house = house_rule_lines(rules)
    return OVERVIEW.format(
        title=variant_title(rules),
        deals=rules.deals,
        chooser=CHOOSER[rules.chooser_offset],
        negatives=_number_word(negatives),
        trumps=_number_word(rules.deals - negatives),
        first_doubler=SEATS[rules.doubling_offsets[0]],
        leader=SEATS[rules.first_lead_offset].capitalize(),
        contracts=contract_lines(rules),
        house_rules="\n**House rules**\n" + "\n".join(f"• {line}" for line in house)
        if house
        else "",
    )


def contract_lines(rules: Rules) -> str:
    """The contract table in this variant's points: each negative, then the trump options
    in one line (they score alike)."""
    lines = [f"• **{c.name}**: {c.description}" for c in rules.contracts if not c.is_trump_option]
    per_trick = {rules.by_id[cid].per_trick for cid in rules.trump_ids}
    points = ", ".join(f"{p:+d}" for p in sorted(per_trick))
    lines.append(f"• **Trump options** (♣ ♦ ♥ ♠ or No Trump): {points} per trick taken")
    return "\n".join(lines)


def variant_title(rules: Rules) -> str:
    return TITLES.get(rules.variant, rules.variant)


SHORT_HOUSE_RULES = {
    ("heart_lead", "broken"): "hearts may be led once broken",
    ("first_lead", "left"): "left of the dealer leads",
    ("first_lead", "dealer"): "the dealer leads",
    ("domino_doubling", "ace_or_two"): "Domino: double only with an ace or a 2",
}
"""Each house rule in a few words, for the one line the lobby and deal messages show."""


def rules_line(rules: Rules) -> str:
    """The table's rules in one line: ``12-deal game · the dealer leads``."""
    words = [variant_title(rules).removeprefix("the ").capitalize()]
    words += [text for pair, text in SHORT_HOUSE_RULES.items() if pair in rules.house_rules]
    return " · ".join(words)


def house_rule_lines(rules: Rules) -> list[str]:
    """One sentence per house rule these rules play (those at their default say nothing)."""
    return [HOUSE_RULE_TEXT[pair] for pair in rules.house_rules if pair in HOUSE_RULE_TEXT]


def contract_detail(contract_id: str, rules: Rules) -> str:
    """One contract of ``rules`` in full sentences, its numbers from the rules."""
    contract = rules.by_id[contract_id]
    if contract.is_trump_option:
        trump = (
            "No trumps."
            if contract.trump is None
            else f"{contract.trump.name.title()} are trump: a player void in the led suit "
            "may trump, but never has to."
        )
        return TRUMP_DETAIL.format(per_trick=contract.per_trick, trump=trump)
    if contract_id not in DETAILS:
        return contract.description
    points = contract.card_points
    domino_doubling = HOUSE_RULE_TEXT.get(("domino_doubling", rules.house_rule("domino_doubling")))
    return DETAILS[contract_id].format(
        per_trick=contract.per_trick,
        each=min(points.values(), default=0),
        king=next((v for c, v in points.items() if c.rank == KING), 0),
        jack=next((v for c, v in points.items() if c.rank == JACK), 0),
        trick_7=contract.trick_points.get(7, 0),
        trick_13=contract.trick_points.get(13, 0),
        last_holder=contract.last_holder,
        first_lead=SEATS[rules.first_lead_offset].capitalize(),
        heart_lead=NO_HEART_LEAD[contract.heart_lead] if contract.heart_lead else "",
        domino_doubling=f" {domino_doubling}" if domino_doubling else "",
    )


def _number_word(n: int) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    return words[n] if n < len(words) else str(n)
