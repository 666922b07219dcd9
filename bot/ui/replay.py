"""The replay of a finished match in Discord: one point at a time, every hand face up.

``/bonken replay`` (and **Replay** under the final standings) answers with the picture of
a point of the match (:func:`bot.render.replay.replay_png`) and buttons: the start of the
deal, one action back, one forward, the end of the deal, the deal as an animation, and a
menu of the deals. Each button carries the match and the point it leads to
(``bonken:rp:<match>:<deal>.<step>:<op>``), so it works after a restart and for whoever
presses it; a click edits the message it is on.

Nothing is kept per message. Every click asks the finished matches' service
(:mod:`bot.archive`) for the match, which checks it is this server's and finished and
gives its replay (kept there: a finished match never changes); a point or deal the
match does not have is refused before the click is acknowledged. The pictures are drawn
in the one picture thread (:data:`bot.ui.pictures.DRAWER`), after the acknowledgement.
A private replay speaks its reader's language; one posted in the channel, and an
animation (posted there to share), the server's.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import discord

from bot import i18n
from bot.archive import MATCH_ID, FinishedMatchService
from bot.i18n import N_, _
from bot.render.replay import deal_animation, replay_png
from bot.render.text import contract_name, player_name
from bot.review.replay import Address, DealLabel, Replay
from bot.store import FinishedMatch
from bot.store.tables import TableStore

from .front import Guarded, picked
from .pictures import DRAWER, attachment, show
from .replies import literal, server_language
from .web import WebLinker, with_web_link

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
T = TypeVar("T")

PICTURE_FILE = "replay.png"
ANIMATION_FILE = "deal.gif"
ANIMATIONS_KEPT = 4
NO_MENTIONS = discord.AllowedMentions.none()
MATCH = rf"(?P<match>{MATCH_ID})"
"""A match id in a custom_id, as the finished matches' service reads it."""
ADDRESS = r"(?P<code>(?:0|[1-9]\d?)\.(?:0|[1-9]\d?))"
"""An :class:`Address` code exactly as :meth:`Address.parse` reads it (two numbers below
100 without leading zeros), so a claimed custom_id always parses."""

DEAL_LABEL = N_("Deal {number} · {contract} · chosen by {name}")
STEP = N_("step {step} of {steps}")
TITLE = N_("Replay of match {match}")
SHARED = N_("Deal {number} of match {match}, every card in order ({contract}, chosen by {name}).")


class Replays:
    """The replay's work for the command and the buttons (see the module)."""

    def __init__(
        self, archive: FinishedMatchService, tables: TableStore, web: WebLinker | None = None
    ) -> None:
        """``archive``: the finished matches and their replays; ``tables``: the server's
        language; ``web``: the link to the match's page the replay carries."""
        self._web = web or WebLinker.none()
        self._archive = archive
        self._tables = tables
        self._animations: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self._animating = asyncio.Lock()

    async def open(self, interaction: Interaction, match: str | None, *, public: bool) -> None:
        """The replay of the match typed (None: the newest finished match played here) at
        the start of its first deal, for the asker only unless ``public``."""
        info = await self._archive.find(
            interaction.guild_id, typed=match, channel_id=interaction.channel_id
        )
        await self._open(interaction, info.match_id, public=public)

    async def open_match(self, interaction: Interaction, match_id: int) -> None:
        """The Replay button under the final standings: that match, privately."""
        await self._archive.get(_guild(interaction), match_id)
        await self._open(interaction, match_id, public=False)

    async def step(self, interaction: Interaction, match_id: int, address: Address) -> None:
        """A button's click: the message shows ``address`` now (a point the match does
        not have is refused before the click is acknowledged)."""
        replay = await self._archive.point(_guild(interaction), match_id, address)
        await interaction.response.defer()
        language = await self._language(interaction, public=_is_public(interaction))
        await self._answer(interaction, replay, match_id, address, language)

    async def go_to_deal(self, interaction: Interaction, match_id: int, value: str) -> None:
        """The menu's pick: the start of deal ``value`` (its 0-based index)."""
        deal = int(value) if value.isascii() and value.isdigit() and len(value) <= 2 else -1
        await self.step(interaction, match_id, Address(deal, 0))  # (-1: refused as no point)

    async def animate(self, interaction: Interaction, match_id: int, deal: int) -> None:
        """Every card of ``deal`` as one animated picture, posted in the channel to share
        (made one at a time, in the picture thread, after the click is acknowledged)."""
        replay = await self._archive.deal(_guild(interaction), match_id, deal)
        await interaction.response.defer(thinking=True)
        language = await server_language(self._tables, interaction)
        key = (match_id, deal, language)
        async with self._animating:
            data = self._animations.get(key)
            if data is None:
                names = replay.match.players
                data = await _drawn(
                    lambda: deal_animation(replay.deal_points(deal), names, language)
                )
                _keep(self._animations, key, data, ANIMATIONS_KEPT)
        with i18n.using(language):
            label = replay.label(deal)
            words = _(
                SHARED,
                number=label.number,
                match=match_id,
                contract=contract_name(label.contract),
                name=literal(player_name(label.chooser_name)),
            )
        await interaction.edit_original_response(
            content=words,
            attachments=[attachment(data, ANIMATION_FILE)],
            allowed_mentions=NO_MENTIONS,
        )

    # -- the parts ------------------------------------------------------------------------

    async def _open(self, interaction: Interaction, match_id: int, *, public: bool) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        language = await self._language(interaction, public=public)
        replay = await self._archive.replay(_guild(interaction), match_id)
        await self._answer(interaction, replay, match_id, replay.start(0), language)

    async def _language(self, interaction: Interaction, *, public: bool) -> str:
        if public:
            return await server_language(self._tables, interaction)
        return i18n.current()  # the guard speaks the reader's

    async def _answer(
        self,
        interaction: Interaction,
        replay: Replay,
        match_id: int,
        address: Address,
        language: str,
    ) -> None:
        """Show ``address`` in the interaction's message (acknowledged already)."""
        names = replay.match.players
        picture = await _drawn(lambda: replay_png(replay.point(address), names, language))
        file = attachment(picture, PICTURE_FILE)
        url = await self._web.match(interaction.guild_id, match_id)
        with i18n.using(language):
            embed = replay_embed(replay, match_id, address)
            buttons = with_web_link(replay_view(replay, match_id, address), url)
        await interaction.edit_original_response(
            embed=show(embed, file), attachments=[file], view=buttons
        )


def _guild(interaction: Interaction) -> int:
    """The server a button's click came from (a button of a match is always in one)."""
    return interaction.guild_id or 0


async def _drawn(work: Callable[[], T]) -> T:
    """``work`` in the picture thread: the replay's points and the pictures share it."""
    return await asyncio.get_running_loop().run_in_executor(DRAWER, work)


def _keep(kept: OrderedDict[Any, T], key: Any, value: T, limit: int) -> None:
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > limit:
        kept.popitem(last=False)


def _is_public(interaction: Interaction) -> bool:
    """The clicked message is in the channel for everyone (else only its reader sees it)."""
    message = interaction.message
    return message is not None and not message.flags.ephemeral


def deal_label(label: DealLabel) -> str:
    """ "Deal 4 · Queens · chosen by Bob", in the current language."""
    return _(
        DEAL_LABEL,
        number=label.number,
        contract=contract_name(label.contract),
        name=player_name(label.chooser_name),
    )


def replay_embed(replay: Replay, match_id: int, address: Address) -> discord.Embed:
    """The replay message's words: the match, its players, the deal and the step."""
    players = ", ".join(literal(player_name(name)) for name in replay.match.players)
    where = _(STEP, step=address.step, steps=replay.steps(address.deal) - 1)
    return discord.Embed(
        title=_(TITLE, match=match_id),
        description=f"{players}\n**{literal(deal_label(replay.label(address.deal)))}** · {where}",
    )


def replay_view(replay: Replay, match_id: int, address: Address) -> discord.ui.View:
    """The stepping buttons (each leading to its point, disabled where it leads nowhere),
    Animate deal, and the menu of the deals."""
    deal = address.deal
    start, end = replay.start(deal), replay.end(deal)
    back, forward = replay.back(address), replay.forward(address)
    view = discord.ui.View(timeout=None)
    for target, op in ((start, "first"), (back, "back"), (forward, "next"), (end, "last")):
        leads = target is not None and target != address
        view.add_item(ReplayStep(match_id, target or address, op, disabled=not leads))
    view.add_item(AnimateButton(match_id, deal))
    view.add_item(DealMenu(match_id, replay.labels(), deal))
    return view


STEP_LABELS: dict[str, tuple[str, str]] = {
    "first": ("⏮️", N_("Start of deal")),
    "back": ("◀️", N_("Back")),
    "next": ("▶️", N_("Forward")),
    "last": ("⏭️", N_("End of deal")),
}
"""A replay's step buttons, by what they do: their emoji and words."""


def step_button(
    op: str, custom_id: str, *, disabled: bool, row: int | None = None
) -> discord.ui.Button[Any]:
    """One of a replay's step buttons (:data:`STEP_LABELS`), for a match's or a daily
    attempt's replay alike."""
    emoji, label = STEP_LABELS[op]
    return discord.ui.Button(
        label=_(label),
        emoji=emoji,
        style=discord.ButtonStyle.secondary,
        disabled=disabled,
        custom_id=custom_id,
        row=row,
    )


class ReplayFront(Protocol):
    """The part of the bot a replay's buttons use."""

    @property
    def replays(self) -> Replays: ...


class ReplayStep(
    Guarded[discord.ui.Button[Any]],
    template=rf"bonken:rp:{MATCH}:{ADDRESS}:(?P<op>first|back|next|last)",
):
    """Start of deal, one back, one forward, end of deal: each carries where it leads."""

    def __init__(self, match_id: int, target: Address, op: str, *, disabled: bool = False):
        self.match_id, self.target = match_id, target
        custom_id = f"bonken:rp:{match_id}:{target.code}:{op}"
        super().__init__(step_button(op, custom_id, disabled=disabled, row=0))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayStep:
        return cls(int(match["match"]), Address.parse(match["code"]), match["op"])

    async def clicked(self, interaction: Interaction, front: ReplayFront) -> None:
        await front.replays.step(interaction, self.match_id, self.target)


class AnimateButton(
    Guarded[discord.ui.Button[Any]],
    template=rf"bonken:rpa:{MATCH}:(?P<deal>0|[1-9]\d?)",
):
    """The deal as one animated picture, posted in the channel."""

    def __init__(self, match_id: int, deal: int) -> None:
        self.match_id, self.deal = match_id, deal
        super().__init__(
            discord.ui.Button(
                label=_("Animate deal"),
                emoji="🎞️",
                style=discord.ButtonStyle.primary,
                custom_id=f"bonken:rpa:{match_id}:{deal}",
                row=0,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnimateButton:
        return cls(int(match["match"]), int(match["deal"]))

    async def clicked(self, interaction: Interaction, front: ReplayFront) -> None:
        await front.replays.animate(interaction, self.match_id, self.deal)


class DealMenu(Guarded[discord.ui.Select[Any]], template=rf"bonken:rpd:{MATCH}"):
    """The menu of the match's deals ("Deal 4 · Queens · chosen by Bob")."""

    def __init__(self, match_id: int, labels: tuple[DealLabel, ...] = (), current: int = 0) -> None:
        self.match_id = match_id
        # Rebuilt from a click, the options do not matter: the click carries its value.
        options = [
            discord.SelectOption(
                label=deal_label(label)[:100],
                value=str(label.number - 1),
                default=label.number - 1 == current,
            )
            for label in labels
        ] or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                placeholder=_("Go to a deal"),
                options=options,
                custom_id=f"bonken:rpd:{match_id}",
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DealMenu:
        return cls(int(match["match"]))

    async def clicked(self, interaction: Interaction, front: ReplayFront) -> None:
        await front.replays.go_to_deal(interaction, self.match_id, picked(interaction)[0])


class ReplayButton(Guarded[discord.ui.Button[Any]], template=rf"bonken:replay:{MATCH}"):
    """Under the final standings: that match's replay, privately, for whoever clicks."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(
            discord.ui.Button(
                label=_("Replay"),
                emoji="⏯️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"bonken:replay:{match_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["match"]))

    async def clicked(self, interaction: Interaction, front: ReplayFront) -> None:
        await front.replays.open_match(interaction, self.match_id)


def match_choice_name(found: FinishedMatch) -> str:
    """A finished match as the ``match`` option lists it: its number, when it ended
    (UTC), its players."""
    players = ", ".join(player_name(name) for name in found.names)
    return f"#{found.match_id} · {found.ended_at:%Y-%m-%d %H:%M} · {players}"[:100]


ITEMS = (ReplayStep, AnimateButton, DealMenu, ReplayButton)
"""The replay's buttons and menu, for the bot to register."""
