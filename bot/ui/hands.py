"""Private hand messages: show them, act from them, and keep them current.

A hand message is ephemeral, so only its interaction's token can edit it, for 15
minutes. We keep the newest token per (table, player) and refresh that message when the
player's turn comes, so the buttons light up without anyone pressing Show my hand again.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Action, MatchPhase, SeatView
from bot.tables import Refusal

from . import components as c
from .hand import doubling_items, hand_message, trump_choices

if TYPE_CHECKING:
    from bot.app import BonkenBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
TOKEN_LIFETIME = 14 * 60
"""Seconds we use an interaction token for; Discord allows 15 minutes."""
MATCH_OVER = "This match is over; the final standings are in the channel."


class HandController:
    def __init__(self, bot: BonkenBot) -> None:
        self.bot = bot
        self._live: dict[tuple[int, int], tuple[Interaction, float]] = {}

    def _render(self, table_id: int, user_id: int) -> tuple[str, discord.ui.View]:
        service = self.bot.service
        seat_view, turn = service.hand(table_id, user_id)
        names = [seat.name for seat in service.view(table_id).seats]
        return hand_message(table_id, turn, seat_view, names)

    def _remember(self, interaction: Interaction, table_id: int) -> None:
        key = (table_id, interaction.user.id)
        self._live[key] = (interaction, time.monotonic() + TOKEN_LIFETIME)

    async def show(self, interaction: Interaction, table_id: int) -> None:
        """A new ephemeral hand message (Show my hand, ``/bonken hand``)."""
        content, view = self._render(table_id, interaction.user.id)
        await interaction.response.send_message(content, view=view, ephemeral=True)
        self._remember(interaction, table_id)

    async def act(self, interaction: Interaction, table_id: int, turn: int, action: Action) -> None:
        """A click that acts; the hand message then shows the new position in place."""
        await self.bot.service.act(table_id, interaction.user.id, turn, action)
        await self._update_in_place(interaction, table_id)

    async def _update_in_place(self, interaction: Interaction, table_id: int) -> None:
        try:
            content, view = self._render(table_id, interaction.user.id)
        except Refusal:
            await interaction.response.edit_message(content=MATCH_OVER, view=None)
            return
        await interaction.response.edit_message(content=content, view=view)
        self._remember(interaction, table_id)

    def _current_turn(self, table_id: int, user_id: int, turn: int, phase: MatchPhase) -> SeatView:
        seat_view, now = self.bot.service.hand(table_id, user_id)
        if now != turn:
            raise Refusal("that was for an earlier turn")
        if not seat_view.my_turn or seat_view.phase is not phase:
            raise Refusal("it is not your turn for that")
        return seat_view

    async def offer_trumps(self, interaction: Interaction, table_id: int, turn: int) -> None:
        """The chooser picked "Trumps…": show the trump options left."""
        seat_view = self._current_turn(table_id, interaction.user.id, turn, MatchPhase.CHOOSING)
        ui = discord.ui.View(timeout=None)
        ui.add_item(c.ContractSelect(table_id, turn, trump_choices(seat_view), kind="trump"))
        await interaction.response.edit_message(
            content="**Choose the trump suit** (or No Trump); +10 per trick taken.", view=ui
        )

    async def toggle_double(
        self, interaction: Interaction, table_id: int, turn: int, chosen: frozenset[int]
    ) -> None:
        """Flip one target of the doubling turn; nothing is sent to the table until Confirm."""
        seat_view = self._current_turn(table_id, interaction.user.id, turn, MatchPhase.DOUBLING)
        names = [seat.name for seat in self.bot.service.view(table_id).seats]
        ui = discord.ui.View(timeout=None)
        for item in doubling_items(table_id, turn, seat_view, names, chosen):
            ui.add_item(item)
        await interaction.response.edit_message(view=ui)

    async def refresh(self, table_id: int, user_id: int) -> None:
        """Bring the player's last hand message up to date (their turn has come)."""
        entry = self._live.get((table_id, user_id))
        if entry is None:
            return
        interaction, expires = entry
        if time.monotonic() > expires:
            del self._live[(table_id, user_id)]
            return
        try:
            content, view = self._render(table_id, user_id)
        except Refusal:
            del self._live[(table_id, user_id)]
            return
        try:
            await interaction.edit_original_response(content=content, view=view)
        except discord.HTTPException as error:
            log.info("hand message of %s could not be refreshed: %s", user_id, error)
            self._live.pop((table_id, user_id), None)

    async def close_table(self, table_id: int, text: str) -> None:
        """The table is gone: its open hand messages say so and lose their buttons."""
        for key in [key for key in self._live if key[0] == table_id]:
            interaction, expires = self._live.pop(key)
            if time.monotonic() > expires:
                continue
            try:
                await interaction.edit_original_response(content=text, view=None)
            except discord.HTTPException as error:
                log.info("hand message of %s could not be closed: %s", key[1], error)
