""" "Play again": a new table in the same channel with the finished match's seats and
settings; the players who click are seated, its computers come back at their level. A
match that played in a thread gets a rematch whose lobby is in the channel and whose
match plays in a thread again, wherever the button was clicked.

Everything comes from the store (the finished table's seats and settings), so the button
under the final standings keeps working after a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot import i18n
from bot.i18n import N_, _
from bot.store import Computer, Human, NotFound, TableRecord, TableStatus
from bot.store.tables import TableStore
from bot.tables import TableService, TableView

from .components import lobby_view
from .embeds import compass, lobby_embed
from .lines import post_nonce
from .lobby import LobbyMessages
from .replies import UIRefusal, display_name
from .table_message import TABLE_MESSAGE
from .threads import THREAD, THREAD_WANTED

Interaction = discord.Interaction[Any]
NOT_A_PLAYER = N_(
    "only the players of that match can start its rematch; `/bonken new` opens a table"
)
TABLE_OPEN = N_("a table is already open in <#{channel}>; finish or cancel it first")


class Rematch:
    """The Play again button's work (see the module)."""

    def __init__(
        self,
        service: TableService,
        tables: TableStore,
        presenter: LobbyMessages,
        channel: Callable[[int], discord.PartialMessageable],
        *,
        activity: bool = False,
    ) -> None:
        """``tables``: the finished table, as stored; ``presenter``: told of the new
        lobby message; ``channel``: where a lobby goes when the click came from a thread;
        ``activity``: the lobby offers Play in an Activity (:mod:`.activity`)."""
        self._activity = activity
        self._service = service
        self._tables = tables
        self._presenter = presenter
        self._channel = channel

    async def play_again(self, interaction: Interaction, old_table_id: int) -> None:
        """The first player to click opens the new table (and hosts it); a later player
        who sat at the old table joins it while it is in the lobby."""
        try:
            old = await self._tables.get_table(old_table_id)
        except NotFound:
            raise UIRefusal(
                _("that match is not known any more; `/bonken new` opens a table")
            ) from None
        user_id = interaction.user.id
        if Human(user_id) not in old.seats:
            raise UIRefusal(_(NOT_A_PLAYER))
        here = self._service.table_in_channel(old.channel_id)
        if here is None:
            await self._open(interaction, old)
        elif here.status is TableStatus.LOBBY and Human(here.host_id) in old.seats:
            view = await self._service.join(old.channel_id, user_id, display_name(interaction))
            seat = next(i for i, s in enumerate(view.seats) if s.user_id == user_id)
            await interaction.response.send_message(
                _("You sit {seat}.", seat=compass(seat)), ephemeral=True
            )
        else:
            raise UIRefusal(_(TABLE_OPEN, channel=old.channel_id))

    async def _open(self, interaction: Interaction, old: TableRecord) -> None:
        """Open the table with the clicker as host, seat the old computers, post the lobby."""
        service = self._service
        channel = old.channel_id
        # The match played in a thread of its own: so does this one.
        threaded = THREAD in old.messages
        view: TableView = await service.open_table(
            old.guild_id,
            channel,
            interaction.user.id,
            display_name(interaction),
            old.settings,
            messages={THREAD: THREAD_WANTED} if threaded else None,
        )
        for occupant in old.seats:
            if isinstance(occupant, Computer):
                view = await service.add_computer(channel, interaction.user.id, occupant.level)
        with i18n.using(view.settings.language):  # a channel post: the table's language
            embed = lobby_embed(view)
            buttons = lobby_view(view.table_id, activity=self._activity)
        message: discord.Message
        if interaction.channel_id == channel:
            await interaction.response.send_message(embed=embed, view=buttons)
            message = await interaction.original_response()
        else:
            # Clicked in the finished match's thread: the new lobby belongs in the channel.
            await interaction.response.send_message(
                _(
                    "A new table is open in <#{channel}>: its lobby message is there.",
                    channel=channel,
                ),
                ephemeral=True,
            )
            message = await self._channel(channel).send(
                embed=embed,
                view=buttons,
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=post_nonce(view.table_id, "lobby"),
            )
        await service.remember_message(view.table_id, TABLE_MESSAGE, message.id)
        self._presenter.adopt_message(view.table_id, message.id)
