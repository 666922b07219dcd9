"""Babel extractors for texts that live as data, not as ``_()`` calls (see ``babel.cfg``).

The engine names and describes its contracts in English and stays language-free; these
texts enter the catalogue from the engine's own tables, under the contexts the front
end translates them by (:func:`bot.render.text.contract_name`), so a new contract's
words are extracted with the next ``pybabel extract`` and never copied by hand.
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
    every variant and heart-lead rule: descriptions as templates, the numbers filled in
    by the front end with the table's own."""
    from bot.engine import VARIANTS, HeartLead, rules_for

    seen: set[tuple[str, str]] = set()
    line = 0
    for variant in VARIANTS:
        for heart_lead in HeartLead:
            for contract in rules_for(variant, {"heart_lead": heart_lead.value}).contracts:
                for message in (
                    (CONTRACT, contract.name),
                    (CONTRACT_DESCRIPTION, contract.description_template or contract.description),
                ):
                    if message in seen:
                        continue
                    seen.add(message)
                    line += 1
                    comment = [f"contract id: {contract.id}"] if message[0] == CONTRACT else []
                    yield line, "pgettext", message, comment
