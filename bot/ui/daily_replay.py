"""The replay of a closed day's attempts in Discord: each deal stepped, every hand face up.

Under a closed day's results (``/bonken daily results:``) a menu lists the attempts'
finished deals ("Ann · deal 2 · Queens"); a choice answers privately with the picture of
that deal at its end (:func:`bot.render.replay.replay_png`, the finished matches' own
replay) and buttons to step through it. Every item carries the day, the attempt and the
point it leads to (``bonken:drs:<day>:<attempt>:<deal>.<step>:<op>``), so it works after
a restart; nothing is kept per message.

Each click asks the daily service again (:meth:`DailyService.attempt_replay`), for the
clicking person's server: only a closed day's attempts are given, so a deal is never
shown before its day's results are, and another server's attempt is unknown. A closed
day never changes, so the newest replays read are kept. Pictures are drawn in the one
picture thread (:data:`bot.ui.pictures.DRAWER`), after the interaction is acknowledged.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol, TypeVar

import discord

from bot import i18n
from bot.daily import DailyRefusal, DailyService, DayResults
from bot.i18n import N_, _
from bot.render import daily as words
from bot.render.replay import replay_scene, replay_scene_png
from bot.render.text import contract_name, player_name
from bot.review.replay import Address, Replay, ReplayError

from .front import Guarded, picked
from .pictures import DRAWER, attachment, show
from .replay import step_button
from .replies import UIRefusal, literal

Interaction = discord.Interaction[Any]
T = TypeVar("T")

PICTURE_FILE = "daily-replay.png"
KEPT = 16
"""Deals' replays kept in memory (a closed day never changes): the newest asked for."""
OPTIONS = 25
"""Deals the menu lists at most (Discord's limit), best attempts first."""
DAY = r"(?P<day>\d{4}-\d{2}-\d{2})"
ATTEMPT = r"(?P<attempt>[1-9]\d{0,17})"
DEAL = r"(?P<deal>0|[1-9]\d?)"
STEP = r"(?P<step>0|[1-9]\d?)"
CHOICE = re.compile(rf"{ATTEMPT}\.{DEAL}")
"""A menu option's value: the attempt and the deal (0-based)."""

OPTION = N_("{name} · deal {number} · {contract}")
POSITION = N_("step {step} of {steps}")
NO_POINT = N_("that does not lead to a point of this deal")
UNFINISHED = N_("that deal was not finished, so it cannot be replayed")


@dataclass(frozen=True)
class Kept:
    """A deal's replay as asked for: its attempt's player, and the day's deals."""

    name: str
    deals: int
    replay: Replay


class DailyReplays:
    """The replays of a closed day's deals, for the menu and the buttons (see the module)."""

    def __init__(self, service: DailyService) -> None:
        self._service = service
        self._kept: OrderedDict[tuple[int, str, int, int], Kept] = OrderedDict()

    async def menu(self, results: DayResults) -> discord.ui.View | None:
        """The menu of the day's finished deals, once the day has closed (else None)."""
        if not results.replays:
            return None
        options: list[tuple[str, str]] = []
        for replay in results.replays:
            for deal, record in enumerate(replay.records):
                if len(options) < OPTIONS and await _drawn(partial(_finished, record)):
                    contract = str(record["deals"][0]["contract"])
                    label = _(
                        OPTION,
                        name=player_name(replay.name),
                        number=deal + 1,
                        contract=contract_name(contract),
                    )
                    options.append((label[:100], f"{replay.attempt_id}.{deal}"))
        if not options:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(DailyReplayMenu(results.day.isoformat(), options))
        return view

    async def open(self, interaction: Interaction, day: str, value: str) -> None:
        """The menu's choice: the deal at its end, in a new private message."""
        chosen = CHOICE.fullmatch(value)
        if chosen is None:
            raise UIRefusal(_(NO_POINT))
        attempt_id, deal = int(chosen["attempt"]), int(chosen["deal"])
        kept = await self._replay(interaction, day, attempt_id, deal)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._answer(interaction, day, (attempt_id, deal), kept, kept.replay.end(0).step)

    async def step(self, interaction: Interaction, day: str, attempt_id: int, at: Address) -> None:
        """A button's click: the message shows ``at`` now (a point the deal does not have
        refused before the click is acknowledged)."""
        kept = await self._replay(interaction, day, attempt_id, at.deal)
        if not kept.replay.contains(Address(0, at.step)):
            raise UIRefusal(_(NO_POINT))
        await interaction.response.defer()  # the clicked message is edited below
        await self._answer(interaction, day, (attempt_id, at.deal), kept, at.step)

    # -- inside -------------------------------------------------------------------------

    async def _replay(self, interaction: Interaction, day: str, attempt_id: int, deal: int) -> Kept:
        """The replay of the attempt's ``deal``, if the service gives the attempt to this
        person in this server; else a refusal."""
        guild_id = _guild(interaction)
        key = (guild_id, day, attempt_id, deal)
        kept = self._kept.get(key)
        if kept is None:
            try:
                found = await self._service.attempt_replay(
                    guild_id, day, attempt_id, interaction.user.id
                )
            except DailyRefusal as refusal:
                raise UIRefusal(words.daily_refusal_text(refusal, self._service.today())) from None
            if deal >= len(found.records):
                raise UIRefusal(_(NO_POINT))
            record = found.records[deal]
            try:
                replay = await asyncio.to_thread(Replay.from_record, record, whole=False)
            except ReplayError:
                raise UIRefusal(_(UNFINISHED)) from None
            kept = Kept(found.name, len(found.records), replay)
        self._kept[key] = kept
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return kept

    async def _answer(
        self,
        interaction: Interaction,
        day: str,
        which: tuple[int, int],
        kept: Kept,
        step: int,
    ) -> None:
        """Show point ``step`` of the attempt's ``deal`` in the interaction's message
        (acknowledged already), in the reader's language: the message is theirs alone.
        ``which``: the attempt and the deal."""
        (attempt_id, deal), at = which, Address(0, step)
        replay, language = kept.replay, i18n.current()
        picture = await _drawn(lambda: _picture(kept, at, (deal + 1, kept.deals), language))
        file = attachment(picture, PICTURE_FILE)
        title = _(
            OPTION,
            name=player_name(kept.name),
            number=deal + 1,
            contract=contract_name(replay.label(0).contract),
        )
        embed = discord.Embed(
            title=literal(title),
            description=_(POSITION, step=step, steps=replay.steps(0) - 1),
        )
        view = discord.ui.View(timeout=None)
        targets: list[tuple[Address | None, str]] = [
            (replay.start(0), "first"),
            (replay.back(at), "back"),
            (replay.forward(at), "next"),
            (replay.end(0), "last"),
        ]
        for target, op in targets:
            leads = target is not None and target != at
            code = Address(deal, (target or at).step)
            view.add_item(DailyReplayStep(day, attempt_id, code, op, disabled=not leads))
        await interaction.edit_original_response(
            embed=show(embed, file), attachments=[file], view=view
        )


def _picture(kept: Kept, at: Address, number: tuple[int, int], language: str) -> bytes:
    """The replay picture of a daily deal, headed as the day's deal ``number`` (of its
    deals), not as its match's first."""
    scene = replay_scene(kept.replay.point(at), kept.replay.match.players, language)
    deal, deals = number
    table = replace(scene.table, deal_number=deal, deals=deals)
    return replay_scene_png(replace(scene, table=table))


def _guild(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise UIRefusal(_("the daily deals belong to a server; use this command in one"))
    return interaction.guild_id


def _finished(record: dict[str, Any]) -> bool:
    """The record's deal was played to its end (a closed day keeps unfinished ones)."""
    try:
        Replay.from_record(record, whole=False)
    except ReplayError:
        return False
    return True


async def _drawn(work: Callable[[], T]) -> T:
    """``work`` in the picture thread: replaying a record and drawing share it."""
    return await asyncio.get_running_loop().run_in_executor(DRAWER, work)


class DailyReplayFront(Protocol):
    """The part of the bot a daily replay's menu and buttons use."""

    @property
    def daily_replays(self) -> DailyReplays: ...


class DailyReplayMenu(Guarded[discord.ui.Select[Any]], template=rf"bonken:drm:{DAY}"):
    """Under a closed day's results: the menu of its attempts' deals."""

    def __init__(self, day: str, options: list[tuple[str, str]] | None = None) -> None:
        self.day = day
        # Rebuilt from a click, the options do not matter: the click carries its value.
        choices = [discord.SelectOption(label=label, value=value) for label, value in options or []]
        super().__init__(
            discord.ui.Select(
                placeholder=_("Replay a deal of this day"),
                options=choices or [discord.SelectOption(label="-", value="-")],
                custom_id=f"bonken:drm:{day}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DailyReplayMenu:
        return cls(match["day"])

    async def clicked(self, interaction: Interaction, front: DailyReplayFront) -> None:
        await front.daily_replays.open(interaction, self.day, picked(interaction)[0])


class DailyReplayStep(
    Guarded[discord.ui.Button[Any]],
    template=rf"bonken:drs:{DAY}:{ATTEMPT}:{DEAL}\.{STEP}:(?P<op>first|back|next|last)",
):
    """Start of deal, one back, one forward, end of deal: each carries where it leads."""

    def __init__(
        self, day: str, attempt_id: int, target: Address, op: str, *, disabled: bool = False
    ) -> None:
        self.day, self.attempt_id, self.target = day, attempt_id, target
        custom_id = f"bonken:drs:{day}:{attempt_id}:{target.code}:{op}"
        super().__init__(step_button(op, custom_id, disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DailyReplayStep:
        target = Address(int(match["deal"]), int(match["step"]))
        return cls(match["day"], int(match["attempt"]), target, match["op"])

    async def clicked(self, interaction: Interaction, front: DailyReplayFront) -> None:
        await front.daily_replays.step(interaction, self.day, self.attempt_id, self.target)


ITEMS = (DailyReplayMenu, DailyReplayStep)
"""A closed day's replay menu and step buttons, for the bot to register."""
