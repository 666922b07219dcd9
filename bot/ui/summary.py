"""The table's one message in its channel while the match plays in a thread.

A match posts some 25 messages (a message and a score line a deal); in a thread they
leave the channel alone, and the lobby message that opened the table stays behind as
the match's summary: the seats, which deal is played, the totals, and at the end the
final standings with the score chart. It is
edited only when a deal starts (showing the totals of the deals before it) and when the
match ends, paced like the table message (:class:`~bot.ui.pacing.EditPacer`), so quick
deals share one edit.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.utils import MISSING

from bot import i18n
from bot.i18n import _
from bot.render import text
from bot.render.chart import ChartData
from bot.render.rules import rules_line
from bot.tables import TableView

from .embeds import GREEN, GREY, compass, level_name, seat_labels
from .pacing import EditPacer
from .pictures import chart_picture, show

log = logging.getLogger(__name__)

Standings = tuple[tuple[int, ...], tuple[int, ...]]
"""(totals, ranks) of a finished match."""


def summary_embed(
    view: TableView,
    thread_id: int,
    *,
    standings: Standings | None = None,
    closed: str | None = None,
) -> discord.Embed:
    """The match at a glance: where it is played, the seats with their totals, and at the
    end the final standings (or why the table closed)."""
    labels = seat_labels(view)
    if standings is not None:
        title = _("Bonken · the match is over")
    elif closed is not None:
        title = _("Bonken · the table is closed")
    else:
        deal = max(view.deal_number, 1)
        title = _("Bonken · deal {number} of {deals}", number=deal, deals=view.rules.deals)
    embed = discord.Embed(
        title=title,
        colour=GREEN if standings is None and closed is None else GREY,
        description=_(
            "Played in <#{thread}> · host <@{host}> · {seconds} s per card · computers: {level}",
            thread=thread_id,
            host=view.host_id,
            seconds=view.settings.turn_seconds,
            level=level_name(view.settings.computer_level),
        )
        + "\n"
        + _("Rules: {rules}", rules=rules_line(view.rules)),
    )
    totals = standings[0] if standings is not None else view.totals
    embed.add_field(
        name=_("Seats"),
        value="\n".join(f"{compass(s)}: {labels[s]} · {text.signed(totals[s])}" for s in range(4)),
        inline=False,
    )
    if standings is not None:
        short = seat_labels(view, short=True)
        embed.add_field(
            name=_("Final standings"), value=text.standings_text(short, *standings), inline=False
        )
    elif closed is not None:
        embed.add_field(name=_("Closed"), value=f"{closed[:1].upper()}{closed[1:]}.", inline=False)
    return embed


class SummaryMessage:
    """The lobby message in the channel, kept as the match's summary (see the module)."""

    def __init__(
        self,
        channel: discord.PartialMessageable,
        message_id: int,
        thread_id: int,
        pacer: EditPacer,
    ) -> None:
        """``channel``: where the lobby message is, the table's channel."""
        self._channel = channel
        self.message_id = message_id
        self.thread_id = thread_id
        self._pacer = pacer
        self._view: TableView | None = None
        self._standings: Standings | None = None
        self._closed: str | None = None
        self._chart: ChartData | None = None
        self._dirty = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task = asyncio.create_task(self._loop())

    def show(
        self,
        view: TableView | None,
        *,
        standings: Standings | None = None,
        closed: str | None = None,
        chart: ChartData | None = None,
    ) -> None:
        """The summary should show this (the final standings with their ``chart``); the
        edit follows, paced."""
        self._view = view or self._view
        self._standings = standings or self._standings
        self._chart = chart or self._chart
        self._closed = closed or self._closed
        self._dirty.set()

    @property
    def pending(self) -> bool:
        return self._dirty.is_set()

    async def _loop(self) -> None:
        while True:
            await self._dirty.wait()
            async with self._lock:
                if self._dirty.is_set():
                    await self._edit()

    async def _edit(self) -> None:
        await self._pacer.wait_turn()
        self._dirty.clear()
        if self._view is None:
            return
        with i18n.using(self._view.settings.language):
            embed = summary_embed(
                self._view, self.thread_id, standings=self._standings, closed=self._closed
            )
        picture = None
        if self._standings is not None and self._chart is not None:
            picture = await chart_picture(self._view, self._chart)
        try:
            await self._channel.get_partial_message(self.message_id).edit(
                embed=show(embed, picture),
                view=None,
                attachments=MISSING if picture is None else [picture],
            )
        except discord.HTTPException as error:
            log.warning("channel %s: editing the summary failed: %s", self._channel.id, error)
        finally:
            self._pacer.edited()

    async def flush(self) -> None:
        """Send the pending edit now (the match ended, or shutdown)."""
        async with self._lock:
            if self._dirty.is_set():
                await self._edit()

    def close(self) -> None:
        self._task.cancel()
