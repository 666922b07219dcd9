"""``/bonken review`` and the Review button: a player's review of a finished match.

The reply is private to the asker. It is acknowledged at once (deferred), then shows
where the review is: its place in line, or "deal 4 of 11" while the service computes
it, edited as it moves (at most once per ``edit_every`` seconds), then the summary with
a menu of the deals. A review done before is shown from the store at once. The menu and
the button are ``DynamicItem``s carrying the match (and the seat): they work after a
restart and are checked like a command (the asker's server, a finished match).

The interaction's token lets the message be edited for 15 minutes: a review still
waiting then goes on in the background, and asking again shows it.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

import discord

from bot import i18n
from bot.archive import MATCH_ID, ArchiveRefusal, FinishedMatchService
from bot.i18n import N_, _
from bot.render.replay import replay_png
from bot.render.text import player_name
from bot.review import Address, PlayerReview, Replay
from bot.review.service import ReviewService, ReviewTicket
from bot.store import MatchInfo, ReviewStatus

from .front import Guarded, picked
from .pictures import DRAWER, attachment, show
from .replies import UIRefusal, literal
from .review_posts import (
    SUMMARY,
    deal_embed,
    deal_options,
    other_line,
    position_embed,
    progress_text,
    summary_embed,
)
from .web import WebLinker, with_web_link

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
T = TypeVar("T")
NOT_PLAYED = N_("{name} did not play in match {match}")
NOT_READY = N_("that review is not ready yet; `/bonken review` shows how far it is")


class ReviewController:
    """Shows reviews (see the module); ``edit_every``: the least seconds between two
    edits of a review's message."""

    def __init__(
        self,
        reviews: ReviewService,
        archive: FinishedMatchService,
        *,
        edit_every: float = 2.0,
        web: WebLinker | None = None,
    ) -> None:
        """``archive``: the finished matches, and their replays to draw the costliest
        decisions' positions; ``web``: the link to the match's page a finished review
        carries."""
        self._web = web or WebLinker.none()
        self._reviews = reviews
        self._archive = archive
        self._edit_every = edit_every
        self._following: set[asyncio.Task[None]] = set()

    async def review(
        self, interaction: Interaction, match: str | None, player: discord.abc.User | None
    ) -> None:
        """``player``'s review (the asker's by default) of ``match`` (the channel's
        newest finished match by default), privately."""
        info = await self._archive.find(
            interaction.guild_id, typed=match, channel_id=interaction.channel_id
        )
        who = player or interaction.user
        seat = self._archive.seat_of(info, who.id)
        if seat is None:
            raise UIRefusal(_(NOT_PLAYED, name=literal(who.display_name), match=info.match_id))
        await interaction.response.defer(ephemeral=True, thinking=True)
        ticket = await self._reviews.request(info.match_id, seat, info.guild_id)
        names = [player_name(s.name) for s in info.seats]
        await self._show(interaction, ticket, names)
        if ticket.status is not ReviewStatus.DONE and not ticket.failed:
            task = asyncio.create_task(self._follow(interaction, ticket, names))
            self._following.add(task)
            task.add_done_callback(self._following.discard)

    async def show_deal(self, interaction: Interaction, match_id: int, seat: int) -> None:
        """The deal menu's pick: every decision of that deal, or the summary again."""
        value = picked(interaction)[0]
        info = await self._archive.get(interaction.guild_id or 0, match_id)
        state = await self._reviews.stored(info.match_id, seat)
        if state is None:
            raise UIRefusal(_(NOT_READY))
        names = [player_name(s.name) for s in info.seats]
        view = deal_view(state, info.match_id)
        if value == SUMMARY:
            await interaction.response.defer()  # drawing the positions takes a moment
            embeds, files = await self._summary_message(state, info, names)
            await interaction.edit_original_response(embeds=embeds, attachments=files, view=view)
        elif value.isascii() and value.isdigit() and int(value) < len(state.deals):
            embed = deal_embed(state, info.match_id, int(value), names)
            await interaction.response.edit_message(embed=embed, attachments=[], view=view)
        else:
            raise UIRefusal(_("nothing was selected"))

    def close(self) -> None:
        """Stop following reviews (the bot stops; the reviews resume at the next start)."""
        for task in list(self._following):
            task.cancel()

    async def _follow(
        self, interaction: Interaction, shown: ReviewTicket, names: list[str]
    ) -> None:
        """Edit the message as the review moves, until it is done."""
        key = shown.match_id, shown.seat
        try:
            while True:
                now = self._reviews.ticket(*key)
                if now is None or now == shown:  # done and gone from memory, or not moved
                    now = await self._reviews.changed(*key)
                if now is None:
                    return
                await self._show(interaction, now, names)
                shown = now
                if now.status is ReviewStatus.DONE or now.failed:
                    return
                await asyncio.sleep(self._edit_every)
        except discord.HTTPException as error:  # the token expired: asking again shows it
            log.info("stopped following review %s: %s", key, error)
        except Exception:  # a failed read: the review goes on, asking again shows it
            log.exception("stopped following review %s", key)

    async def _show(self, interaction: Interaction, ticket: ReviewTicket, names: list[str]) -> None:
        name = names[ticket.seat]
        if ticket.review is None:
            await interaction.edit_original_response(
                content=progress_text(ticket, name), embed=None, view=None
            )
            return
        info = await self._archive.get(interaction.guild_id or 0, ticket.match_id)
        embeds, files = await self._summary_message(ticket.review, info, names)
        url = await self._web.match(interaction.guild_id, ticket.match_id)
        await interaction.edit_original_response(
            content=None,
            embeds=embeds,
            attachments=files,
            view=with_web_link(deal_view(ticket.review, ticket.match_id), url),
        )

    async def _summary_message(
        self, review: PlayerReview, info: MatchInfo, names: list[str]
    ) -> tuple[list[discord.Embed], list[discord.File]]:
        """The summary, then each costliest decision's position with its heading."""
        embeds = [await self._summary(review, info.match_id, names)]
        files = []
        drawn = await self._positions(review, info)
        for rank, (decision, file) in enumerate(zip(review.costliest, drawn, strict=True), 1):
            if file is not None:
                embeds.append(
                    show(position_embed(rank, decision, review.deals[decision.deal]), file)
                )
                files.append(file)
        return embeds, files

    async def _positions(self, review: PlayerReview, info: MatchInfo) -> list[discord.File | None]:
        """The replay's picture of each costliest decision's position (all hands face up:
        the match is over), drawn in the picture thread; None where drawing failed."""
        if not review.costliest:
            return []
        language = i18n.current()
        try:
            replay = await self._archive.replay(info.guild_id, info.match_id)
        except ArchiveRefusal:  # (logged by the archive) the summary goes without them
            return [None] * len(review.costliest)
        files: list[discord.File | None] = []
        for i, decision in enumerate(review.costliest, 1):
            try:
                data = await _drawn(partial(_position_png, replay, decision.address, language))
            except Exception:
                log.exception(
                    "drawing decision %s of match %s failed", decision.address, info.match_id
                )
                files.append(None)
                continue
            files.append(attachment(data, f"review-{i}.png"))
        return files

    async def _summary(
        self, review: PlayerReview, match_id: int, names: list[str]
    ) -> discord.Embed:
        others = []
        for seat in range(4):
            if seat != review.seat:
                other = await self._reviews.stored(match_id, seat)
                if other is not None:
                    others.append(other_line(other, names))
        return summary_embed(review, match_id, names, others)


async def _drawn(work: Callable[[], T]) -> T:
    """``work`` in the picture thread, where the replay draws too."""
    return await asyncio.get_running_loop().run_in_executor(DRAWER, work)


def _position_png(replay: Replay, address: Address, language: str) -> bytes:
    """The replay's picture of one point (its points are made where it is drawn)."""
    return replay_png(replay.point(address), replay.match.players, language)


class ReviewFront(Protocol):
    """The part of the bot a review's button and menu use."""

    @property
    def reviews(self) -> ReviewController: ...


class ReviewButton(
    Guarded[discord.ui.Button[Any]], template=rf"bonken:review:(?P<match>{MATCH_ID})"
):
    """Under the final standings: the clicker's review of that match."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(
            discord.ui.Button(
                label=_("Review"),
                emoji="🔍",
                style=discord.ButtonStyle.secondary,
                custom_id=f"bonken:review:{match_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton:
        return cls(int(match["match"]))

    async def clicked(self, interaction: Interaction, front: ReviewFront) -> None:
        await front.reviews.review(interaction, str(self.match_id), None)


class ReviewDealSelect(
    Guarded[discord.ui.Select[Any]],
    template=rf"bonken:rvdeal:(?P<match>{MATCH_ID}):(?P<seat>[0-3])",
):
    """A review's menu of deals (and the summary)."""

    def __init__(
        self, match_id: int, seat: int, options: list[discord.SelectOption] | None = None
    ) -> None:
        self.match_id, self.seat = match_id, seat
        super().__init__(
            discord.ui.Select(
                placeholder=_("See every decision of a deal"),
                # Rebuilt from a click, the options do not matter: the click carries its value.
                options=options or [discord.SelectOption(label=SUMMARY, value=SUMMARY)],
                custom_id=f"bonken:rvdeal:{match_id}:{seat}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewDealSelect:
        return cls(int(match["match"]), int(match["seat"]))

    async def clicked(self, interaction: Interaction, front: ReviewFront) -> None:
        await front.reviews.show_deal(interaction, self.match_id, self.seat)


def deal_view(review: PlayerReview, match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewDealSelect(match_id, review.seat, deal_options(review)))
    return view


ITEMS = (ReviewButton, ReviewDealSelect)
"""The review's button and menu, for the bot to register."""
