"""The slash commands in every language of the catalogue: discord.py's ``Translator``.

A command's name, description, options and choices are written in English in the cogs;
at sync discord.py asks this translator for each of them in every locale Discord knows,
and Discord shows a Dutch client ``/bonken nieuw`` with Dutch descriptions. Names take a
context of their own (``command``, ``option``), so "start" the command and "start" in a
sentence can be translated apart; contract and level choices are the words the messages
use for them. :func:`extract_commands` feeds the same texts to ``pybabel extract``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import i18n
from bot.engine import CONTRACTS
from bot.i18n.extract import CONTRACT
from bot.render.reasons import LEVEL
from bot.tables import LEVELS

COMMAND = "command"
OPTION = "option"

NAMES = (Where.command_name, Where.group_name)


def message_context(location: Where, data: Any) -> str | None:
    """The catalogue context a command text is translated in (None: no context)."""
    if location in NAMES:
        return COMMAND
    if location is Where.parameter_name:
        return OPTION
    if location is Where.choice_name and isinstance(data, app_commands.Choice):
        if data.value in CONTRACTS:
            return CONTRACT
        if data.value in LEVELS:
            return LEVEL
    return None


def translate(message: str, context: str | None) -> str:
    """``message`` in the current language, by its context."""
    return i18n._(message) if context is None else i18n.pgettext(context, message)


class CatalogueTranslator(app_commands.Translator):
    """Each command text in the catalogue's languages; None (Discord shows the English)
    for every other locale and for a text the language says the same way."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = i18n.language_of(locale)
        if lang == i18n.DEFAULT:
            return None
        with i18n.using(lang):
            text = translate(string.message, message_context(context.location, context.data))
        return None if text == string.message else text


def _command_texts() -> Iterator[tuple[str | None, str]]:
    """(context, English text) of every name, description, option and choice."""
    from cogs.admin import BonkenAdmin
    from cogs.bonken import Bonken

    for cog in (Bonken(None), BonkenAdmin(None)):  # type: ignore[arg-type]
        group = cog.__cog_app_commands_group__
        assert group is not None
        yield COMMAND, group.name
        yield None, group.description
        for command in group.walk_commands():
            yield COMMAND, command.name
            yield None, command.description
            for parameter in getattr(command, "parameters", ()):
                yield OPTION, parameter.name
                yield None, parameter.description
                for choice in parameter.choices:
                    yield message_context(Where.choice_name, choice), choice.name


def extract_commands(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel extractor (mapped to ``cogs/bonken.py`` in ``babel.cfg``): the commands'
    texts, each once."""
    seen: set[tuple[str | None, str]] = set()
    for line, (context, text) in enumerate(_command_texts(), start=1):
        if (context, text) in seen or not text:
            continue
        seen.add((context, text))
        if context is None:
            yield line, "_", text, []
        else:
            yield line, "pgettext", (context, text), []
