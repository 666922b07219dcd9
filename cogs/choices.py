"""Autocomplete for seats and contracts, from what the engine says is allowed now, and
for the server's finished matches."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot import i18n
from bot.archive import FinishedMatchService
from bot.engine import Choose, Double
from bot.i18n import _
from bot.render.text import contract_name, player_name
from bot.tables.table import SEAT_NAMES
from bot.ui.embeds import compass
from bot.ui.front import front_of
from bot.ui.places import Places
from bot.ui.replay import match_choice_name
from bot.ui.replies import UIRefusal

Interaction = discord.Interaction[Any]


@runtime_checkable
class ChoicesFront(Protocol):
    """The parts of the bot the options' lists use."""

    @property
    def places(self) -> Places: ...

    @property
    def archive(self) -> FinishedMatchService: ...


def parse_seat(value: str) -> int:
    """A seat from an autocomplete value ("2") or a typed seat name ("south", "zuid")."""
    value = value.strip()
    if value.isdigit() and int(value) in range(4):
        return int(value)
    for seat, name in enumerate(SEAT_NAMES):
        if value.lower() in (name.lower(), compass(seat).lower()):
            return seat
    raise UIRefusal(_("there is no seat {seat}; pick one from the list", seat=repr(value)))


async def seat_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Every occupied seat of this channel's table, as "South: Ann" (in the asker's
    language)."""
    view = front_of(interaction, ChoicesFront).places.table_at(interaction)
    if view is None:
        return []
    with i18n.using(interaction.locale):
        return [
            app_commands.Choice(name=f"{compass(i)}: {player_name(seat.name)}"[:100], value=str(i))
            for i, seat in enumerate(view.seats)
            if seat.name and current.lower() in f"{compass(i)} {player_name(seat.name)}".lower()
        ]


async def double_target_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The seats you may double or redouble on your doubling turn."""
    found = front_of(interaction, ChoicesFront).places.my_seat(interaction)
    if found is None:
        return []
    view, seat_view = found
    targets = sorted(
        {s for action in seat_view.legal if isinstance(action, Double) for s in action.targets}
    )
    with i18n.using(interaction.locale):
        names = [player_name(seat.name) for seat in view.seats]
        return [
            app_commands.Choice(name=f"{compass(s)}: {names[s]}"[:100], value=str(s))
            for s in targets
            if current.lower() in f"{compass(s)} {names[s]}".lower()
        ]


async def contract_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Only the contracts you may choose now (none when it is not your choice)."""
    found = front_of(interaction, ChoicesFront).places.my_seat(interaction)
    if found is None:
        return []
    with i18n.using(interaction.locale):
        return [
            app_commands.Choice(name=contract_name(a.contract), value=a.contract)
            for a in found[1].legal
            if isinstance(a, Choose) and current.lower() in contract_name(a.contract).lower()
        ]


async def match_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The server's newest finished matches: number, when, who played."""
    if interaction.guild_id is None:
        return []
    found = await front_of(interaction, ChoicesFront).archive.recent(interaction.guild_id)
    typed = current.strip().lower()
    with i18n.using(interaction.locale):
        names = [match_choice_name(match) for match in found]
    return [
        app_commands.Choice(name=name, value=str(match.match_id))
        for name, match in zip(names, found, strict=True)
        if typed in name.lower()
    ][:25]
