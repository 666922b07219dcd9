"""Every word the bot says, in the language of whoever reads it (gettext catalogues).

The English text in the code is the message id; ``locales/<lang>/LC_MESSAGES/bonken.po``
holds each language's words, read with Babel when a language is first used (see
:func:`translations`). Which language a text is said in is the *current* language, a
context variable set where the reader is known: the person who caused a private reply
(``interaction.locale``), the table's language for channel posts. So a function that
builds a message just calls :func:`_` and is right for whoever it is built for.

Placeholders are Python's ``{name}``, filled by :func:`_` after translation; plurals are
the catalogue's (:func:`ngettext`, with ``{n}``). Nothing here imports Discord.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "nl")
"""The languages the bot speaks; the first is the source language and the fallback."""
DEFAULT = LANGUAGES[0]
DOMAIN = "bonken"
LOCALES = Path(__file__).parent / "locales"
LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands"}
"""Each language by its own name, as a language is offered in a menu (not translated:
a reader looks for their language under its own name)."""

_current: ContextVar[str] = ContextVar("bonken_language", default=DEFAULT)
_installed: dict[str, gettext.NullTranslations] = {}
_looked_up: dict[tuple[str, str | None, str], str] = {}
"""Each message's words by language and context, once looked up in the catalogue (a
page says some fifty: a dict's lookup, not gettext's each time). A catalogue never
changes in a process but through :func:`install`, which forgets them."""
LOOKED_UP_MOST = 20_000
"""Messages kept looked up at most (the catalogues hold about a thousand)."""


def language_of(locale: object) -> str:
    """The bot's language for a Discord locale (``"nl"``, ``"en-GB"``, a ``discord.Locale``
    or None): its language if the bot speaks it, else English."""
    value = str(getattr(locale, "value", locale) or "")
    base = value.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT


@cache
def _compiled(lang: str) -> gettext.NullTranslations:
    """The language's catalogue, compiled in memory from its ``.po`` with Babel: the
    ``.po`` ships in the package (a plain ``pip install`` has it), so no compiled file
    can go stale beside it."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def translations(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (a test may :func:`install` others)."""
    return _installed.get(lang) or _compiled(lang)


def install(lang: str, translations: gettext.NullTranslations | None) -> None:
    """Use ``translations`` for ``lang`` (None: its catalogue again). For tests, e.g. a
    pseudo-locale that marks every translated string."""
    if translations is None:
        _installed.pop(lang, None)
    else:
        _installed[lang] = translations
    _looked_up.clear()


def current() -> str:
    return _current.get()


@contextmanager
def using(locale: object) -> Iterator[str]:
    """Speak the language of ``locale`` (see :func:`language_of`) inside the block."""
    token = _current.set(language_of(locale))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _fill(text: str, values: dict[str, Any]) -> str:
    return text.format(**values) if values else text


def _words(context: str | None, message: str) -> str:
    """``message`` (in ``context``) in the current language, looked up once."""
    key = (_current.get(), context, message)
    words = _looked_up.get(key)
    if words is None:
        catalogue = translations(key[0])
        if context is None:
            words = catalogue.gettext(message)
        else:
            words = catalogue.pgettext(context, message)
        if len(_looked_up) < LOOKED_UP_MOST:
            _looked_up[key] = words
    return words


def _(message: str, **values: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``values``."""
    return _fill(_words(None, message), values)


def pgettext(context: str, message: str, **values: Any) -> str:
    """:func:`_` for a message whose words depend on where it is used (``context``)."""
    return _fill(_words(context, message), values)


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """The form for ``n`` by the language's plural rule; ``{n}`` is the number."""
    return _fill(translations(current()).ngettext(singular, plural, n), {"n": n, **values})


def N_(message: str) -> str:
    """Marks ``message`` for extraction where it is defined; translate it with :func:`_`
    where it is used (module constants are built before anyone's language is known)."""
    return message


def NP_(context: str, message: str) -> str:
    """:func:`N_` for a message translated with :func:`pgettext` in ``context``."""
    return message


def list_text(items: list[str]) -> str:
    """``a, b and c`` in the current language."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])
