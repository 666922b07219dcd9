"""``/bonken scores, rules, record``: what a player may want to look up."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot.engine import VARIANTS, Rules, from_record, public_record, rules_for
from bot.i18n import N_, _
from bot.render.rules import rules_text
from bot.render.text import contract_name
from bot.store.matches import MatchStore
from bot.store.tables import TableStore
from bot.tables import TableService, TableView
from bot.ui.embeds import compass, plain_name
from bot.ui.pictures import chart_of_scores, chart_picture, show
from bot.ui.places import Places
from bot.ui.records import record_file
from bot.ui.replies import Guard, UIRefusal
from bot.ui.threads import THREAD

Interaction = discord.Interaction[Any]
RECORD_DONE = N_("The match record (`bonken-record/1`); `python -m bot.engine verify` checks it.")
RECORD_SO_FAR = N_(
    "The match so far (`bonken-record/1`): every finished deal in full; of the deal in "
    "play only your own hand, and no seed. The full record is posted in <#{place}> when "
    "the match ends."
)
RECORD_STOPPED = N_(
    "The last match here was not played to the end: its finished deals in full, without "
    "the hands of the deal it stopped in and without the seed."
)
CONTRACT_CHOICES = [
    app_commands.Choice(name=contract.name, value=contract.id)
    for contract in {c.id: c for v in VARIANTS for c in rules_for(v).contracts}.values()
]
"""Every contract of every variant, named as the engine names them (the command translator
gives each its Dutch name); ``/bonken rules`` answers for the table's own."""


HELP = (
    (
        N_("A table"),
        N_(
            "`/bonken new` opens a table in this channel; others press **Join**. The host adds "
            "computers or presses **Start** (empty seats get computers). The table message "
            "shows whose turn it is and how long they have."
        ),
    ),
    (
        N_("Your hand"),
        N_(
            "Press **Show my hand** under the table message: only you see it. Your legal cards "
            "light up on your turn; a click plays. The chooser picks the contract from a menu. "
            "A hand message updates itself for about 14 minutes (Discord's limit); before it "
            "stops it says so: press **Show my hand** again for a fresh one."
        ),
    ),
    (
        N_("Doubling"),
        N_(
            "Before the first card each player has one doubling turn: toggle the players to "
            "double (or redouble) and **Confirm**, or **Pass**. Each doubled pair settles the "
            "difference of their deal scores; the score line says what it moved for whom. "
            "Also `/bonken double` and `/bonken pass`."
        ),
    ),
    (
        N_("Time"),
        N_(
            "You have the table's turn time per card, half as long again to choose or double; "
            "a ping reminds you at half time, then a computer plays for you. After two timeouts "
            "in a row a computer plays your seat until you act again or use `/bonken back`."
        ),
    ),
    (
        N_("Afterwards"),
        N_(
            "`/bonken scores` shows the match so far; the final standings come with the match "
            "record (`/bonken record` any time), a **Play again** button for a rematch with "
            "the same seats, a **Replay** button to watch the match again with every hand "
            "face up (`/bonken replay` any time) and a **Review** button that shows you where "
            "you lost points (`/bonken review`). `/bonken rules` explains the game; "
            "`/bonken leaderboard` and `/bonken stats` the standings."
        ),
    ),
    (
        N_("Daily deals"),
        N_(
            "`/bonken daily`: a few deals a day, the same for everyone in this server, each "
            "played alone against three computers in a message only you see. Each deal is "
            "compared with everyone who played it: percentage = 100 × (players beaten + ties "
            "÷ 2) ÷ (players on the deal − 1); the day's result is the mean of its deals. "
            "`/bonken daily results:` shows a day's ranking (each deal's comparison once you "
            "have played it); `/bonken leaderboard daily:True` the season's daily board."
        ),
    ),
)


def played_in(table: TableView) -> int:
    """Where the table's match is posted: its thread, else its channel."""
    return table.messages.get(THREAD) or table.channel_id


def help_embed() -> discord.Embed:
    embed = discord.Embed(title=_("Playing Bonken with this bot"))
    for name, value in HELP:
        embed.add_field(name=_(name), value=_(value), inline=False)
    return embed


def scores_table(
    table: TableView, deals: list[tuple[int, str, tuple[int, ...], tuple[int, ...]]]
) -> str:
    """The deals as a code block with aligned columns, one per player (headed by their
    name, cut to fit), the deal in progress marked as such, then the totals."""
    in_play = table.deal_number if table.to_act is not None else None
    width = max(5, *(len(_cell_name(plain_name(seat))) for seat in table.seats))
    first = max(len(contract_name(c)) for c in table.rules.contracts) + 3  # room for " *"
    heading = _("contract")
    rows = [
        f"{'#':<3}{heading:<{first}}"
        + "".join(f"{_cell_name(plain_name(s)):>{width + 1}}" for s in table.seats)
    ]
    for number, contract, _base, final in deals:
        name = contract_name(contract) + (" *" if number == in_play else "")
        rows.append(
            f"{number:<3}{name:<{first}}" + "".join(f"{score:>{width + 1}}" for score in final)
        )
    total = _("total")  # outside the f-string, where the catalogue's extraction finds it
    rows.append(
        f"{'':<3}{total:<{first}}" + "".join(f"{points:>{width + 1}}" for points in table.totals)
    )
    note = "\n\\* " + _("in progress: its score so far") if in_play in {d[0] for d in deals} else ""
    return "```\n" + "\n".join(rows) + "\n```" + note


def _cell_name(name: str) -> str:
    """A player's name as a column heading: short, and nothing that ends the code block."""
    return name.replace("`", "'")[:10]


class InfoCommands(commands.Cog):
    """Mixed into the ``/bonken`` group cog, which is given these:"""

    guard: Guard
    places: Places
    service: TableService
    tables: TableStore
    matches: MatchStore

    @app_commands.command(name="scores", description="The scores of this match so far")
    async def scores(self, interaction: Interaction) -> None:
        async def work() -> None:
            table = self.places.table_here(interaction)
            deals = self.service.scores(table.table_id)
            if not deals:
                raise UIRefusal(_("no deal has been scored yet"))
            embed = discord.Embed(
                title=_("Scores so far (after doubling)"), description=scores_table(table, deals)
            )
            embed.set_footer(
                text=" · ".join(f"{compass(s)}: {plain_name(table.seats[s])}" for s in range(4))
            )
            chart = await chart_picture(table, chart_of_scores(table, deals))
            await interaction.response.send_message(
                embed=show(embed, chart),
                ephemeral=True,
                file=MISSING if chart is None else chart,
            )

        await self.guard(interaction, work)

    @app_commands.command(
        name="rules", description="How this table's Bonken is played, or one contract (only you)"
    )
    @app_commands.describe(contract="One contract's rules")
    @app_commands.choices(contract=CONTRACT_CHOICES)
    async def rules(self, interaction: Interaction, contract: str | None = None) -> None:
        async def work() -> None:
            rules = await self._rules_here(interaction)
            text = rules_text(contract, rules)
            if contract is None:  # the overview, with its contract table, is an embed's size
                embed = discord.Embed(description=text)
                await interaction.response.send_message(embed=embed, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)

        await self.guard(interaction, work)

    async def _rules_here(self, interaction: Interaction) -> Rules:
        """The rules of this channel's table, else the server's defaults for new tables."""
        table = self.service.table_in_channel(self.places.channel_of(interaction))
        if table is not None:
            return table.rules
        settings = await self.tables.guild_settings(interaction.guild_id or 0)
        return settings.table_defaults.rules

    @app_commands.command(name="help", description="How to play with this bot (only you see it)")
    async def help(self, interaction: Interaction) -> None:
        async def work() -> None:
            await interaction.response.send_message(embed=help_embed(), ephemeral=True)

        await self.guard(interaction, work)

    @app_commands.command(name="record", description="This (or the last) match's record file")
    async def record(self, interaction: Interaction) -> None:
        async def work() -> None:
            record, note = await self._record_for(interaction)
            file = await record_file(record, "bonken-match.json")
            await interaction.response.send_message(note, file=file, ephemeral=True)

        await self.guard(interaction, work)

    async def _record_for(self, interaction: Interaction) -> tuple[dict[str, Any], str]:
        """The record the asking player may have now, and the words that go with it: the
        match in play as everyone may know it, else the channel's last match, in full
        only if it was played to the end (the hands and seed are for after the match)."""
        channel = self.places.channel_of(interaction)
        table = self.service.table_in_channel(channel)
        if table is not None:
            record = self.service.record(table.table_id, interaction.user.id)
            if record is not None:
                return record, _(RECORD_SO_FAR, place=played_in(table))
        # Asked in the channel, or in the thread the last match played in (it stays
        # open a while after the match, and a restart forgets it was the table's).
        stored = await self.matches.latest_record_in_channel(channel, thread_role=THREAD)
        if stored is None:
            raise UIRefusal(_("no match has been played here yet"))
        match = await asyncio.to_thread(from_record, stored)  # a whole match: off the loop
        if match.is_over:
            return stored, _(RECORD_DONE)
        return public_record(match), _(RECORD_STOPPED)
