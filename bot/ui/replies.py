"""Answering interactions: refusals are ephemeral and polite, surprises are logged.

Every command and component handler runs its work through a :class:`Guard`, so a
refusal (the front end's own :class:`UIRefusal`, the table service's
:class:`~bot.tables.Refusal`, the finished matches' :class:`~bot.archive.ArchiveRefusal`, the
standings' :class:`~bot.boards.NoSeason`)
becomes an ephemeral reply to the person who caused it and
an unexpected error becomes a logged traceback plus an apology, never Discord's
"This interaction failed". :func:`worded` adds Discord's words (a command, a permission)
to the refusals whose reason needs them; the table service never speaks Discord.
Everything said to the person who caused the interaction is in their language
(``interaction.locale``): the guard speaks it while the work runs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import i18n
from bot.archive import ArchiveRefusal
from bot.boards import NoSeason
from bot.i18n import N_, _
from bot.render.archive import refusal_text as archive_refusal_text
from bot.render.reasons import refusal_text
from bot.store.tables import TableStore
from bot.tables import Refusal, TableReason, TableView

log = logging.getLogger(__name__)

APOLOGY = N_("Sorry, something went wrong on our side. The table is safe; please try again.")


class UIRefusal(Exception):
    """A refusal of the front end's own (a menu with nothing picked, a permission the
    bot lacks, an option out of range): its sentence is said as it is, worded when it
    is raised (the guard speaks the reader's language then). Nothing changed."""


def literal(text: str) -> str:
    """Text a user chose (a display name, a season name), to show as it is in a message
    that Discord renders as Markdown: no heading, emphasis or masked link, and no
    ``@everyone`` or mention that could ping. Embed footers, button labels and
    autocomplete choices are plain text already and take the name as it is."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


async def say_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral message, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def worded(refusal: Refusal, view: TableView | None = None) -> str:
    """The refusal as this front end says it, in the current language: by its reason,
    with Discord's words where it has its own (``view``: the table it is about)."""
    if refusal.reason is TableReason.NO_TABLE:
        return _("there is no Bonken table here; open one with /bonken new")
    if refusal.reason is TableReason.NOT_HOST:
        return _(
            "only the host or a member with Manage Server can {subject}",
            subject=_(refusal.subject),
        )
    return refusal_text(refusal, view)


class Guard:
    """Runs an interaction's work in the user's language: a refusal becomes an ephemeral
    reply, worded with the table it is about (its players' names, the suit led), and an
    unexpected error a logged traceback and an apology."""

    def __init__(self, table_at: Callable[[discord.Interaction[Any]], TableView | None]) -> None:
        """``table_at``: the table an interaction is about, if any."""
        self._table_at = table_at

    async def __call__(
        self, interaction: discord.Interaction[Any], work: Callable[[], Awaitable[None]]
    ) -> None:
        with i18n.using(interaction.locale):
            await self._guarded(interaction, work)

    async def _guarded(
        self, interaction: discord.Interaction[Any], work: Callable[[], Awaitable[None]]
    ) -> None:
        try:
            await work()
        except Refusal as refusal:  # plain words, which may quote a name someone chose
            text = literal(worded(refusal, self._table_at(interaction)))
            await say_privately(interaction, f"⚠️ {text}")
        except (UIRefusal, NoSeason) as refusal:
            await say_privately(interaction, f"⚠️ {literal(str(refusal))}")
        except ArchiveRefusal as refusal:  # (a typed id it quotes is the asker's own)
            await say_privately(interaction, f"⚠️ {literal(archive_refusal_text(refusal))}")
        except Exception:
            log.exception(
                "interaction failed: user=%s guild=%s channel=%s data=%s",
                interaction.user.id,
                interaction.guild_id,
                interaction.channel_id,
                interaction.data,
            )
            try:
                await say_privately(interaction, _(APOLOGY))
            except discord.HTTPException:
                log.warning("could not send the apology for interaction %s", interaction.id)


async def apologise(interaction: discord.Interaction[Any], error: Exception) -> None:
    """A command's last net (its cog's error handler), for anything its guard did not
    catch: log it with the command and its options, apologise to the user."""
    command = interaction.command
    log.error(
        "command /%s failed: user=%s guild=%s channel=%s data=%s",
        command.qualified_name if command else "?",
        interaction.user.id,
        interaction.guild_id,
        interaction.channel_id,
        interaction.data,
        exc_info=error,
    )
    try:
        with i18n.using(interaction.locale):
            await say_privately(interaction, _(APOLOGY))
    except discord.HTTPException:
        log.warning("could not apologise for interaction %s", interaction.id)


async def server_language(tables: TableStore, interaction: discord.Interaction[Any]) -> str:
    """The language the bot posts in for this server's channels: the server's setting
    (``/bonken-admin settings language``), else the server's preferred locale."""
    settings = await tables.guild_settings(interaction.guild_id or 0)
    return settings.language or i18n.language_of(interaction.guild_locale)


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server in this channel: may run any table, as the host can."""
    return interaction.permissions.manage_guild


def display_name(interaction: discord.Interaction[Any]) -> str:
    return interaction.user.display_name
