"""The options that choose a table's rules, shared by ``/bonken new`` and the server
settings: the variant and one option per house rule, generated from the house rules'
declarations (:mod:`bot.engine.house_rules`), each a short list of choices.

A command takes them as ``**rules`` and :func:`rule_options` gives it the options:
discord.py reads a callback's signature, so the decorator writes one with a keyword
parameter per rule, described and with its choices; the translator and the catalogue
see them as they see every written-out option.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from discord import app_commands

from bot.engine import HOUSE_RULES, VARIANTS, Rules
from bot.i18n import N_, _

from .replies import UIRefusal

VARIANT_NAMES = {"standard": "Standard: 11 deals", "twelve": "Twelve: 12 deals, 7th and 13th trick"}
"""How each variant reads in Discord's option list."""
VARIANT = "variant"

OPTIONS: tuple[str, ...] = (VARIANT, *HOUSE_RULES)
"""The rules options, as the commands name them: the variant, then each house rule."""
CHOICES: dict[str, list[app_commands.Choice[str]]] = {
    VARIANT: [app_commands.Choice(name=VARIANT_NAMES[v], value=v) for v in VARIANTS],
    **{
        rule.name: [app_commands.Choice(name=v.label, value=v.name) for v in rule.values]
        for rule in HOUSE_RULES.values()
    },
}
"""Each rules option's choices, as ``app_commands.choices`` takes them."""
DESCRIPTIONS: dict[str, str] = {
    VARIANT: "Standard (11 deals) or twelve (12 deals, an eighth contract, double points)",
    **{rule.name: rule.option for rule in HOUSE_RULES.values()},
}
TITLES: dict[str, str] = {
    VARIANT: N_("variant"),
    **{rule.name: rule.title for rule in HOUSE_RULES.values()},
}
"""How a reply names each option ("Changed: variant, heart lead")."""

Callback = TypeVar("Callback", bound=Callable[..., Any])


def rule_options(callback: Callback) -> Callback:
    """Give a slash command callback that takes ``**rules`` one optional option per rule
    (:data:`OPTIONS`), with its description and choices; put it under
    ``@app_commands.command``. Discord sends only the options given, so ``rules`` holds
    those (each a value from the choices, unless forged: see :func:`chosen_rules`)."""
    signature = inspect.signature(callback)
    kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None)
        for name in OPTIONS
    ]
    function: Any = callback
    function.__signature__ = signature.replace(parameters=[*kept, *added])
    app_commands.describe(**DESCRIPTIONS)(callback)
    app_commands.choices(**CHOICES)(callback)
    return callback


def chosen_rules(base: Rules, chosen: Mapping[str, str | None]) -> Rules:
    """``base`` (the server's defaults) with what the command chose (``chosen``: option
    name to value, None or left out for the default); a value Discord's choices would
    not send is refused politely, naming the option."""
    variant = chosen.get(VARIANT)
    if variant is not None and variant not in VARIANTS:
        raise UIRefusal(
            _("{value} is not a variant I know; pick one from the list", value=repr(variant))
        )
    house_rules = {name: chosen.get(name) for name in HOUSE_RULES}
    for name, value in house_rules.items():
        if value is not None and value not in HOUSE_RULES[name].value_names:
            raise UIRefusal(
                _(
                    "{value} is not a choice for {option}; pick one from the list",
                    value=repr(value),
                    option=_(TITLES[name]),
                )
            )
    return base.changed(variant, **house_rules)
