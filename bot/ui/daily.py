"""The daily deals in Discord: one private message per attempt, results and the board.

``/bonken daily`` answers with an ephemeral message holding the table picture and the
person's cards; each click is that message's own interaction, so the message is edited
as the click's answer, and nothing is posted in the channel while someone plays. A
click's answer (the move stored, the computers' answers, the picture) is mostly ready
in milliseconds, so it is the click's one callback, the message updated in it: one
request to Discord, not an acknowledgement and then an edit, which under load was
much of the event loop's work. If it is not ready within :data:`ANSWER_WITHIN` (a
picture still to draw behind many, a slow store), or by :data:`ACKNOWLEDGED_BY` after
Discord made the click, the click is acknowledged then and the message edited once the
answer is ready, so every click is acknowledged well within Discord's 3 seconds. When
the person finishes, one public line (a followup of the last click, without a card)
says how they did. A refusal of the daily service changes nothing and
is said privately, in the person's language.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, TypeVar

import discord

from bot import i18n
from bot.daily import AttemptView, DailyReason, DailyRefusal, DailyService, DayResults
from bot.daily.board import MIN_DAYS
from bot.engine import Action
from bot.i18n import _
from bot.render import daily as words
from bot.store.recent import RecentSettings
from bot.store.tables import TableStore

from .daily_message import daily_buttons, daily_content
from .daily_replay import DailyReplays
from .drawing import DrawingProcesses
from .pictures import DAILY_FILE, attachment, daily_picture
from .replies import UIRefusal, display_name, literal, server_language
from .standings import GOLD, NO_MENTIONS, Boards
from .web import WebLinker, with_web_link

Interaction = discord.Interaction[Any]
T = TypeVar("T")
BOARD_ROWS = 20
"""Lines the daily board shows (the asker's own line is added if it falls below)."""
RECENT_DAYS = 7
"""Days the results option offers (any earlier date can be typed)."""
TEXT_LIMIT = 4000
"""Characters of an embed's description we fill (Discord takes 4096)."""
ANSWER_WITHIN = 1.0
"""Seconds a click's answer may take to be ready and still be the click's one callback;
a slower one is acknowledged at that point and shown by an edit after."""
ACKNOWLEDGED_BY = 1.5
"""Seconds after Discord made a click (its id's time) by which it is acknowledged, at
the latest: an event loop behind with other clicks leaves less of :data:`ANSWER_WITHIN`,
so Discord's 3 seconds keep room for the network."""
TRUSTED_CLOCK = 60.0
"""A click older than this by the id's time, or younger than nothing, says the bot's
clock disagrees with Discord's: its answer then has :data:`ANSWER_WITHIN` from now."""


@dataclass(frozen=True)
class Shown:
    """What an attempt's message shows: its words, picture (in the embed) and buttons."""

    content: str
    embed: discord.Embed | None
    attachments: list[discord.File]
    buttons: discord.ui.View


class DailyController:
    """Plays, shows and ranks the daily deals for the commands and the buttons."""

    def __init__(
        self,
        service: DailyService,
        tables: TableStore,
        boards: Boards,
        web: WebLinker | None = None,
        drawing: DrawingProcesses | None = None,
    ) -> None:
        """``tables``: the server's settings (pictures, the language of the public line);
        ``boards``: which season a board is asked for; ``web``: the link to a closed
        day's page its results carry; ``drawing``: the processes that draw the attempts'
        pictures (none: the bot's picture thread), each started at the first picture it
        draws: a bot whose servers never play the daily deals starts none (a start costs
        about a second of CPU, which that first picture waits for)."""
        self._web = web or WebLinker.none()
        self.drawing = drawing or DrawingProcesses(0)
        """The processes that draw the attempts' pictures (and count them)."""
        self._service = service
        self._tables = tables
        self._settings = RecentSettings(tables)
        """The servers' settings a click's picture follows (read again every moment)."""
        self._boards = boards
        self.replays = DailyReplays(service)
        """A closed day's deals, replayed (the menu under its results, and its buttons)."""
        self.answer_within = ANSWER_WITHIN
        """Seconds a click's answer may take to be its one callback (see the module)."""

    async def start(self, interaction: Interaction) -> None:
        """``/bonken daily``: today's attempt begun, or the one in play resumed, in a new
        private message."""
        guild_id = _guild(interaction)
        # One attempt a day: refused as the command's own answer, before any "thinking".
        await self._checked(self._service.may_play(guild_id, interaction.user.id))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            view = await self._service.play(
                guild_id, interaction.user.id, display_name(interaction)
            )
        except DailyRefusal as refusal:
            await interaction.edit_original_response(content=f"⚠️ {self._worded(refusal)}")
            return
        await self._show(interaction, view)

    async def act(
        self, interaction: Interaction, attempt_id: int, step: int, action: Action
    ) -> None:
        """A card, Confirm or Pass: the move and the computers' answers, then the same
        message shows where the attempt stands (see :meth:`_answer`). The move is
        checked before the click is acknowledged (a refusal is then the click's own
        private answer). A click on a message behind the attempt (its update lost, or an
        older message of the same attempt) is not refused: that message is brought up
        to where the attempt stands, with a line saying the click was not played."""
        user_id = interaction.user.id
        try:
            await self._service.turn(attempt_id, user_id, step, action)
        except DailyRefusal as refusal:
            self._unless_stale(refusal)
            answer = self._caught_up(attempt_id, user_id, refusal)
        else:
            answer = self._played(attempt_id, user_id, step, action)
        view = await self._answer(interaction, answer)
        if view.finished and view.standing is not None:
            await self._announce(interaction, view)

    async def toggle(
        self, interaction: Interaction, attempt_id: int, step: int, chosen: frozenset[int]
    ) -> None:
        """A doubling toggle: the buttons show the choice; nothing is played yet (a
        toggle on a message behind the attempt brings it up to date, as :meth:`act`)."""
        user_id = interaction.user.id
        try:
            view = await self._service.turn(attempt_id, user_id, step)
        except DailyRefusal as refusal:
            self._unless_stale(refusal)
            await self._answer(interaction, self._caught_up(attempt_id, user_id, refusal))
            return
        await interaction.response.edit_message(view=daily_buttons(view, chosen))

    async def results(self, interaction: Interaction, when: str | None) -> None:
        """``/bonken daily results:``: the day's ranking, and what the asker may see of
        its deals; once the day has closed, a menu to replay each attempt's deals and
        every attempt's record as a file."""
        guild_id = _guild(interaction)
        try:
            self._service.day(when)  # a date that is none is refused before the "thinking"
        except DailyRefusal as refusal:
            raise UIRefusal(self._worded(refusal)) from None
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            results = await self._service.results(guild_id, when, interaction.user.id)
        except DailyRefusal as refusal:
            await interaction.edit_original_response(content=f"⚠️ {self._worded(refusal)}")
            return
        lines = words.results_lines(results, self._service.today())
        embed = discord.Embed(
            title=_("Daily deals of {day}", day=results.day.isoformat()),
            description=_clipped([literal(line) for line in lines]),
            colour=GOLD,
        )
        replay = _replay_file(results)
        if replay is not None:
            embed.set_footer(
                text=_("Every attempt's deals, move by move: {file}", file=replay.filename)
            )
        menu = await self.replays.menu(results)
        if results.closed:
            menu = with_web_link(menu, await self._web.day(guild_id, results.day))
        await interaction.edit_original_response(
            embed=embed,
            attachments=[] if replay is None else [replay],
            view=menu,
            allowed_mentions=NO_MENTIONS,
        )

    async def board(self, interaction: Interaction, season: str | None) -> None:
        """``/bonken leaderboard daily:True``: the season's daily board, for the channel."""
        found = await self._boards.season(interaction.guild_id, season)
        rows = await self._service.board(found.guild_id, found.season_id)
        shown = rows[:BOARD_ROWS]
        mine = next((row for row in rows if row.user_id == interaction.user.id), None)
        if mine is not None and mine not in shown:
            shown.append(mine)
        with i18n.using(await self._boards.language(interaction)):  # posted for the channel
            lines = [literal(words.board_line(row)) for row in shown]
            embed = discord.Embed(
                title=_("Daily board · {season}", season=found.name),
                description=_clipped(lines)
                if lines
                else _("Nobody has played the daily deals in this season yet."),
                colour=GOLD,
            )
            embed.set_footer(
                text=_(
                    "The mean percentage over the days played; ranked from {days} days.",
                    days=MIN_DAYS,
                )
            )
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)

    def recent_days(self) -> list[tuple[str, str]]:
        """The days ``results:`` offers, newest first, as (label, ``YYYY-MM-DD``): today,
        yesterday and the days before, in the current language."""
        today = self._service.today()
        days = [today - timedelta(days=back) for back in range(RECENT_DAYS)]
        return [
            (f"{words.which_deals(day, today)} ({day.isoformat()})", day.isoformat())
            for day in days
        ]

    def close(self) -> None:
        """Stop the drawing processes."""
        self.drawing.close()

    # -- inside -------------------------------------------------------------------------

    async def _checked(self, call: Awaitable[T]) -> T:
        """The service's answer, its refusal worded for the guard (changes nothing)."""
        try:
            return await call
        except DailyRefusal as refusal:
            raise UIRefusal(self._worded(refusal)) from None

    def _unless_stale(self, refusal: DailyRefusal) -> None:
        """``refusal`` said to the person, unless it is only that the click's message is
        behind the attempt (which the click then brings up to date)."""
        if refusal.reason is not DailyReason.STALE:
            raise UIRefusal(self._worded(refusal)) from None

    def _worded(self, refusal: DailyRefusal) -> str:
        return words.daily_refusal_text(refusal, self._service.today())

    async def _answer(
        self, interaction: Interaction, answer: Awaitable[tuple[AttemptView, Shown]]
    ) -> AttemptView:
        """The click's message shows ``answer``: as the click's one callback if it is
        ready within :meth:`_answer_time`, else acknowledged at that time (from a timer,
        so the answer's work goes on meanwhile) and the message edited once it is. A
        click with no time left is acknowledged before ``answer`` even starts: if
        Discord refused so late an acknowledgement, the move was not made."""
        within = self._answer_time(interaction)
        if within <= 0.0:
            await interaction.response.defer()
            view, shown = await answer
            await self._edit(interaction, shown)
            return view
        acknowledging: list[asyncio.Future[Any]] = []
        timer = asyncio.get_running_loop().call_later(
            within,
            lambda: acknowledging.append(asyncio.ensure_future(interaction.response.defer())),
        )
        try:
            view, shown = await answer
        finally:
            timer.cancel()
            if acknowledging:
                await acknowledging[0]  # before the edit, or a refusal's followup
        if acknowledging:
            await self._edit(interaction, shown)
        else:
            await interaction.response.edit_message(
                content=shown.content,
                embed=shown.embed,
                attachments=shown.attachments,
                view=shown.buttons,
                allowed_mentions=NO_MENTIONS,
            )
        return view

    def _answer_time(self, interaction: Interaction) -> float:
        """Seconds the click's answer may still take to be its one callback."""
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if not 0.0 <= age <= TRUSTED_CLOCK:
            return self.answer_within
        return max(0.0, min(self.answer_within, ACKNOWLEDGED_BY - age))

    async def _played(
        self, attempt_id: int, user_id: int, step: int, action: Action
    ) -> tuple[AttemptView, Shown]:
        """The move played, and the message showing where the attempt stands then (the
        move of a click that raced another on the same button is not played again)."""
        try:
            view = await self._service.act(attempt_id, user_id, step, action)
        except DailyRefusal as refusal:
            self._unless_stale(refusal)
            return await self._caught_up(attempt_id, user_id, refusal)
        return view, await self._message(view)

    async def _caught_up(
        self, attempt_id: int, user_id: int, stale: DailyRefusal
    ) -> tuple[AttemptView, Shown]:
        """The message showing where the attempt stands, under the line saying that the
        click was for an earlier point and was not played."""
        view = await self._checked(self._service.current(attempt_id, user_id))
        shown = await self._message(view)
        return view, replace(shown, content=f"⚠️ {self._worded(stale)}\n{shown.content}")

    async def _show(self, interaction: Interaction, view: AttemptView) -> None:
        """The interaction's message (acknowledged already) shows ``view``."""
        await self._edit(interaction, await self._message(view))

    async def _edit(self, interaction: Interaction, shown: Shown) -> None:
        await interaction.edit_original_response(
            content=shown.content,
            embed=shown.embed,
            attachments=shown.attachments,
            view=shown.buttons,
            allowed_mentions=NO_MENTIONS,
        )

    async def _message(self, view: AttemptView) -> Shown:
        """The message showing ``view``: words, picture (drawn off the event loop; text
        alone if the server wants none or drawing fails) and buttons."""
        content = daily_content(view, self._service.today())
        settings = await self._settings.of(view.guild_id)
        picture = None
        if settings.table_defaults.images:
            picture = await daily_picture(words.daily_scene(view, i18n.current()), self.drawing)
        embed = None
        if picture is not None:
            embed = discord.Embed().set_image(url=f"attachment://{DAILY_FILE}")
        return Shown(content, embed, [] if picture is None else [picture], daily_buttons(view))

    async def _announce(self, interaction: Interaction, view: AttemptView) -> None:
        """The public line for the channel, in the server's language: no card in it."""
        assert view.standing is not None
        with i18n.using(await server_language(self._tables, interaction)):
            name = literal(view.players[view.seat.seat])
            line = words.finished_line(name, view.day, self._service.today(), view.standing)
        await interaction.followup.send(line, allowed_mentions=NO_MENTIONS)


def _guild(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise UIRefusal(_("the daily deals belong to a server; use this command in one"))
    return interaction.guild_id


def _clipped(lines: list[str]) -> str:
    """Lines joined, cut before the embed's limit (an ellipsis says so)."""
    text = "\n".join(lines)
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"


def _replay_file(results: DayResults) -> discord.File | None:
    """A closed day's attempts as one JSON file: each deal a ``bonken-record/1``."""
    if not results.replays:
        return None
    data = [
        {"name": replay.name, "percent": round(replay.percent, 2), "deals": list(replay.records)}
        for replay in results.replays
    ]
    body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    return attachment(body, f"daily-{results.day.isoformat()}.json")
