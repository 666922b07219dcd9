"""Every slash command's texts for the catalogue: a Babel extractor (see ``babel.cfg``).

The names, descriptions, options and choices are written once, in the cogs; this walks
the command tree the cogs declare and hands each text to ``pybabel extract`` under the
context :class:`~bot.ui.translator.CatalogueTranslator` translates it by, so a new
command's words reach the catalogue with the next extraction and are never copied.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.ui.translator import COMMAND, OPTION, message_context

from .admin import BonkenAdmin
from .bonken import Bonken


def command_texts() -> Iterator[tuple[str | None, str]]:
    """(context, English text) of every name, description, option and choice."""
    for cog_type in (Bonken, BonkenAdmin):
        # A cog's commands are built by ``Cog.__new__``; its ``__init__``, which takes
        # the bot's parts, is not needed to read them.
        cog = cog_type.__new__(cog_type)
        group = cog.__cog_app_commands_group__
        assert group is not None
        yield COMMAND, group.name
        yield None, group.description
        for command in group.walk_commands():
            yield COMMAND, command.name
            yield None, command.description
            if not isinstance(command, app_commands.Command):
                continue  # a subgroup: its commands follow
            for parameter in command.parameters:
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
    for line, (context, text) in enumerate(command_texts(), start=1):
        if (context, text) in seen or not text:
            continue
        seen.add((context, text))
        if context is None:
            yield line, "_", text, []
        else:
            yield line, "pgettext", (context, text), []
