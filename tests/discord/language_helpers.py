"""What came from the catalogue and what did not: every string asked of it marked, and
the texts a person reads in a message."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from typing import Any


class Pseudo(gettext.NullTranslations):
    """Marks every string asked of the catalogue: ``⟦Trick {number}: ...⟧``."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"


MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


CUT = re.compile(r"⟦[^⟦⟧\n]*")
"""A mark cut short, with what it opened up to the line's end: a name cut to a column's
width, a menu option's description cut to Discord's 100 characters."""


NOT_WORDS = re.compile(r"<(?:@|#|t:)\d+(?::R)?>|https?://\S+")


def unmarked(text: str, names: set[str]) -> str:
    """What is left of ``text`` without its marked parts, mentions and the players'
    own names: what did not come from the catalogue."""
    while MARKED.search(text):
        text = MARKED.sub(" ", text)
    text = CUT.sub(" ", text)
    text = NOT_WORDS.sub(" ", text)
    for name in names:
        text = text.replace(name, " ")
    return text


def texts_of(body: Any) -> Iterator[str]:
    """Every text a person reads in a message body: content, embeds, button labels,
    menu placeholders and options, autocomplete choices."""
    if not isinstance(body, dict):
        return
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    if isinstance(data.get("content"), str):
        yield data["content"]
    for embed in data.get("embeds") or []:
        yield from (embed.get(k) or "" for k in ("title", "description"))
        for field in embed.get("fields") or []:
            yield field["name"]
            yield field["value"]
        yield (embed.get("footer") or {}).get("text") or ""
    for row in data.get("components") or []:
        for item in row.get("components") or []:
            yield item.get("label") or ""
            yield item.get("placeholder") or ""
            for option in item.get("options") or []:
                yield option.get("label") or ""
                yield option.get("description") or ""
    for choice in data.get("choices") or []:
        yield choice["name"]
