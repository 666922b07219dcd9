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
    """Each contract's name and description (mapped to ``bot/engine/contracts.py``)."""
    from bot.engine import CONTRACTS

    for line, contract in enumerate(CONTRACTS.values(), start=1):
        yield line, "pgettext", (CONTRACT, contract.name), [f"contract id: {contract.id}"]
        yield line, "pgettext", (CONTRACT_DESCRIPTION, contract.description), []
