"""Which table an interaction is about: its channel's, or, from the thread a table plays
in, the table of the channel it was opened in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.engine import SeatView
from bot.i18n import _
from bot.tables import Refusal, TableReason, TableService, TableView

from .replies import UIRefusal

Interaction = discord.Interaction[Any]


class Places:
    def __init__(self, service: TableService, table_channel: Callable[[int], int]) -> None:
        """``table_channel``: the channel whose table plays in a thread, given the
        thread's id (any other channel's id is given back as it is)."""
        self._service = service
        self._table_channel = table_channel

    def channel_of(self, interaction: Interaction) -> int:
        """The channel whose table the interaction is about; a refusal outside a server."""
        if interaction.channel_id is None or interaction.guild_id is None:
            raise UIRefusal(_("Bonken is played in a server's text channel"))
        return self._table_channel(interaction.channel_id)

    def table_at(self, interaction: Interaction) -> TableView | None:
        """The table the interaction is about, if there is one."""
        channel = self._table_channel(interaction.channel_id or 0)
        return self._service.table_in_channel(channel)

    def table_here(self, interaction: Interaction) -> TableView:
        """The table the interaction is about; a refusal if there is none."""
        view = self._service.table_in_channel(self.channel_of(interaction))
        if view is None:
            raise Refusal("there is no Bonken table in this channel", TableReason.NO_TABLE)
        return view

    def my_seat(self, interaction: Interaction) -> tuple[TableView, SeatView] | None:
        """The table and the caller's seat view, or None (no table, not seated, or the
        match has not started)."""
        view = self.table_at(interaction)
        if view is None:
            return None
        try:
            seat_view, _turn = self._service.hand(view.table_id, interaction.user.id)
        except Refusal:
            return None
        return view, seat_view
