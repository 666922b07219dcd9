"""Autocomplete for seats and contracts, from what the engine says is allowed now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import Choose, Double, SeatView
from bot.tables import Refusal, TableView
from bot.tables.table import SEAT_NAMES

if TYPE_CHECKING:
    from bot.app import BonkenBot

Interaction = discord.Interaction[Any]


def parse_seat(value: str) -> int:
    """A seat from an autocomplete value ("2") or a typed seat name ("south")."""
    value = value.strip()
    if value.isdigit() and int(value) in range(4):
        return int(value)
    for seat, name in enumerate(SEAT_NAMES):
        if value.lower() == name.lower():
            return seat
    raise Refusal(f"there is no seat {value!r}; pick one from the list")


def _bot(interaction: Interaction) -> BonkenBot:
    return interaction.client  # type: ignore[return-value]


async def seat_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Every occupied seat of this channel's table, as "South: Ann"."""
    bot = _bot(interaction)
    view = bot.service.table_in_channel(bot.presenter.table_channel(interaction.channel_id or 0))
    if view is None:
        return []
    return [
        app_commands.Choice(name=f"{SEAT_NAMES[i]}: {seat.name}"[:100], value=str(i))
        for i, seat in enumerate(view.seats)
        if seat.name and current.lower() in f"{SEAT_NAMES[i]} {seat.name}".lower()
    ]


def _my_turn(interaction: Interaction) -> tuple[TableView, SeatView] | None:
    """This channel's table and the caller's seat view, or None (no table, not seated)."""
    bot = _bot(interaction)
    view = bot.service.table_in_channel(bot.presenter.table_channel(interaction.channel_id or 0))
    if view is None:
        return None
    try:
        seat_view, _ = bot.service.hand(view.table_id, interaction.user.id)
    except Refusal:
        return None
    return view, seat_view


async def double_target_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The seats you may double or redouble on your doubling turn."""
    found = _my_turn(interaction)
    if found is None:
        return []
    view, seat_view = found
    targets = sorted(
        {s for action in seat_view.legal if isinstance(action, Double) for s in action.targets}
    )
    return [
        app_commands.Choice(name=f"{SEAT_NAMES[s]}: {view.seats[s].name}"[:100], value=str(s))
        for s in targets
        if current.lower() in f"{SEAT_NAMES[s]} {view.seats[s].name}".lower()
    ]


async def contract_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Only the contracts you may choose now (none when it is not your choice)."""
    found = _my_turn(interaction)
    if found is None:
        return []
    seat = found[1]
    names = {
        a.contract: seat.rules.by_id[a.contract].name for a in seat.legal if isinstance(a, Choose)
    }
    return [
        app_commands.Choice(name=name, value=contract)
        for contract, name in names.items()
        if current.lower() in name.lower()
    ]
