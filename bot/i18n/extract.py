"""Babel extractors for texts that live as data, not as ``_()`` calls (see ``babel.cfg``).

The engine names and describes its contracts, and declares its house rules, in English
and stays language-free; these texts enter the catalogue from the engine's own tables,
under the contexts the front end translates them by (:func:`bot.render.text.contract_name`),
so a new contract's or house rule's words are extracted with the next ``pybabel
extract`` and never copied by hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Extracted = tuple[int, str, tuple[str, str], list[str]]

CONTRACT = "contract"
CONTRACT_DESCRIPTION = "contract description"


def extract_contracts(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Extracted]:
    """Each contract's name and description (mapped to ``bot/engine/contracts.py``), of
    every variant and every value of every house rule: descriptions as templates, the
    numbers filled in by the front end with the table's own."""
    from bot.engine import HOUSE_RULES, VARIANTS, rules_for

    seen: set[tuple[str, str]] = set()
    line = 0
    for variant in VARIANTS:
        for rule in HOUSE_RULES.values():
            for value in rule.value_names:
                for contract in rules_for(variant, {rule.name: value}).contracts:
                    for message in (
                        (CONTRACT, contract.name),
                        (
                            CONTRACT_DESCRIPTION,
                            contract.description_template or contract.description,
                        ),
                    ):
                        if message in seen:
                            continue
                        seen.add(message)
                        line += 1
                        comment = [f"contract id: {contract.id}"] if message[0] == CONTRACT else []
                        yield line, "pgettext", message, comment


def extract_house_rules(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Each house rule's words (mapped to ``bot/engine/house_rules.py``): how a sentence
    names it, its option's description, each value's label, sentence and short words,
    and the sentences of the refusals it adds."""
    from bot.engine import HOUSE_RULES

    seen: set[str] = set()
    line = 0
    for rule in HOUSE_RULES.values():
        words = [rule.title, rule.option]
        for value in rule.values:
            words += [value.label, value.sentence, value.short]
        words += [sentence for _reason, sentence in rule.refusals]
        for text in words:
            if not text or text in seen:
                continue
            seen.add(text)
            line += 1
            yield line, "_", text, [f"house rule: {rule.name}"]
