"""The slash commands in every language of the catalogue: discord.py's ``Translator``.

A command's name, description, options and choices are written in English in the cogs;
at sync discord.py asks this translator for each of them in every locale Discord knows,
and Discord shows a Dutch client ``/bonken nieuw`` with Dutch descriptions. Names take a
context of their own (``command``, ``option``), so "start" the command and "start" in a
sentence can be translated apart; contract and level choices are the words the messages
use for them. :func:`cogs.texts.extract_commands` gives ``pybabel extract`` the
same texts.
"""

from __future__ import annotations

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
