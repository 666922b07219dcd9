""" "Play again": a new table in the same channel with the finished match's seats and
settings; the players who click are seated, its computers come back at their level. A
match that played in a thread gets a rematch whose lobby is in the channel and whose
match plays in a thread again, wherever the button was clicked.

Everything comes from the store (the finished table's seats and settings), so the button
under the final standings keeps working after a restart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot import i18n
from bot.i18n import N_, _
from bot.store import Computer, Human, NotFound, TableRecord, TableStatus
from bot.tables import Refusal, TableView

from .components import lobby_view
from .embeds import compass, lobby_embed
from .presenter import THREAD, THREAD_WANTED, post_nonce
from .replies import display_name

if TYPE_CHECKING:
    from bot.app import BonkenBot

Interaction = discord.Interaction[Any]
NOT_A_PLAYER = N_(
    "only the players of that match can start its rematch; `/bonken new` opens a table"
)
TABLE_OPEN = N_("a table is already open in <#{channel}>; finish or cancel it first")


async def play_again(interaction: Interaction, old_table_id: int) -> None:
    """The first player to click opens the new table (and hosts it); a later player who
    sat at the old table joins it while it is in the lobby."""
    bot: BonkenBot = interaction.client  # type: ignore[assignment]
    try:
        old = await bot.store.tables.get_table(old_table_id)
    except NotFound:
        raise Refusal(_("that match is not known any more; `/bonken new` opens a table")) from None
    user_id = interaction.user.id
    if Human(user_id) not in old.seats:
        raise Refusal(_(NOT_A_PLAYER))
    here = bot.service.table_in_channel(old.channel_id)
    if here is None:
        await _open(bot, interaction, old)
    elif here.status is TableStatus.LOBBY and Human(here.host_id) in old.seats:
        view = await bot.service.join(old.channel_id, user_id, display_name(interaction))
        seat = next(i for i, s in enumerate(view.seats) if s.user_id == user_id)
        await interaction.response.send_message(
            _("You sit {seat}.", seat=compass(seat)), ephemeral=True
        )
    else:
        raise Refusal(_(TABLE_OPEN, channel=old.channel_id))


async def _open(bot: BonkenBot, interaction: Interaction, old: TableRecord) -> None:
    """Open the table with the clicker as host, seat the old computers, post the lobby."""
    service = bot.service
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
        embed, buttons = lobby_embed(view), lobby_view(view.table_id)
    message: discord.Message
    if interaction.channel_id == channel:
        await interaction.response.send_message(embed=embed, view=buttons)
        message = await interaction.original_response()
    else:
        # Clicked in the finished match's thread: the new lobby belongs in the channel.
        await interaction.response.send_message(
            _("A new table is open in <#{channel}>: its lobby message is there.", channel=channel),
            ephemeral=True,
        )
        message = await bot.get_partial_messageable(channel).send(
            embed=embed,
            view=buttons,
            allowed_mentions=discord.AllowedMentions.none(),
            nonce=post_nonce(view.table_id, "lobby"),
        )
    await service.remember_message(view.table_id, "table", message.id)
    bot.presenter.adopt_message(view.table_id, message.id)
