"""The options that choose a table's rules, shared by ``/bonken new`` and the server
settings: a variant and each house rule, as choices (every list is short)."""

from __future__ import annotations

from discord import app_commands

from bot.engine import HOUSE_RULES, VARIANTS, Rules
from bot.tables import Refusal

VARIANT_NAMES = {"standard": "Standard: 11 deals", "twelve": "Twelve: 12 deals, 7th and 13th trick"}
HOUSE_RULE_NAMES = {
    "heart_lead": {"never": "Never (unless only hearts)", "broken": "Once a heart was played"},
    "first_lead": {
        "variant": "The variant's seat",
        "left": "Left of the dealer",
        "dealer": "The dealer",
    },
    "domino_doubling": {"any": "Anyone", "ace_or_two": "Only with an ace or a 2"},
}
"""How each value reads in Discord's option list."""

VARIANT_CHOICES = [app_commands.Choice(name=VARIANT_NAMES[v], value=v) for v in VARIANTS]
HEART_LEAD_CHOICES, FIRST_LEAD_CHOICES, DOMINO_DOUBLING_CHOICES = (
    [app_commands.Choice(name=HOUSE_RULE_NAMES[rule][v], value=v) for v in HOUSE_RULES[rule]]
    for rule in ("heart_lead", "first_lead", "domino_doubling")
)
CHOICES = {
    "variant": VARIANT_CHOICES,
    "heart_lead": HEART_LEAD_CHOICES,
    "first_lead": FIRST_LEAD_CHOICES,
    "domino_doubling": DOMINO_DOUBLING_CHOICES,
}
"""Each rules option's choices, as ``app_commands.choices`` takes them."""
DESCRIPTIONS = {
    "variant": "Standard (11 deals) or twelve (12 deals, an eighth contract, double points)",
    "heart_lead": "Hearts and King of Hearts: when a heart may be led",
    "first_lead": "Who leads the first trick (and plays first in Domino)",
    "domino_doubling": "Domino: who may double",
}


def chosen_rules(
    base: Rules,
    variant: str | None,
    heart_lead: str | None,
    first_lead: str | None,
    domino_doubling: str | None,
) -> Rules:
    """``base`` (the server's defaults) with what the command chose; a value Discord's
    choices would not send is refused politely, naming the option."""
    given = {"heart_lead": heart_lead, "first_lead": first_lead, "domino_doubling": domino_doubling}
    if variant is not None and variant not in VARIANTS:
        raise Refusal(f"{variant!r} is not a variant I know; pick one from the list")
    for option, value in given.items():
        if value is not None and value not in HOUSE_RULES[option]:
            words = option.replace("_", " ")
            raise Refusal(f"{value!r} is not a choice for {words}; pick one from the list")
    return base.changed(variant, **given)
