"""The daily attempt's private message: its words, and its buttons as ``DynamicItem``s.

Built from an :class:`~bot.daily.AttemptView` only (the person's own hand and what is
public), so it can never show another hand or a deal still to come. A button carries
the attempt and the move it was made for: ``bonken:daily:<attempt>:<step>:<action>``
(a card ``P:QS``, a double ``D:13`` or a pass ``D:-``; Confirm adds ``:ok``), and a
doubling toggle ``bonken:dailydbl:<attempt>:<step>:<chosen>:<seat>``. The daily service
checks whose attempt it is, that it is not finished and that the move is the newest, so
a click on someone else's, a finished or an older message, or a forged id, changes
nothing; nothing is kept per message, so the buttons work after a restart.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Protocol

import discord

from bot.daily import AttemptView
from bot.engine import Action, Double, Phase, Play, parse_action
from bot.engine.cards import SUITS, Card
from bot.i18n import _
from bot.render import daily as words
from bot.render.text import card_text

from .front import Guarded

Interaction = discord.Interaction[Any]

MAX_PER_ROW = 5
DOUBLE = r"D:(?:-|(?=[0-3])0?1?2?3?)"
"""A double's action code (``D:13``, ``D:-``): exactly what ``parse_action`` reads."""


def daily_content(view: AttemptView, today: date) -> str:
    """The message's words: the title, what happened, what to do, when it closes."""
    lines = [f"**{words.attempt_title(view, today)}**", *words.attempt_lines(view, today)]
    if not view.finished:
        lines.append(f"-# {words.closing_text(view)}")
    return "\n".join(lines)


def daily_buttons(view: AttemptView, chosen: frozenset[int] = frozenset()) -> discord.ui.View:
    """The person's choices now: their cards (the legal ones enabled), or their doubling
    turn's toggles with Confirm and Pass (``chosen``: the players toggled so far); none
    once the attempt is finished."""
    ui = discord.ui.View(timeout=None)
    if view.finished:
        return ui
    seat = view.seat
    if seat.phase is Phase.DOUBLING:
        names = words.seat_names(view)
        doubled_me = {j for j in range(4) if seat.multipliers[seat.seat][j] == 1}
        targets = sorted(
            {
                target
                for action in seat.legal
                if isinstance(action, Double)
                for target in action.targets
            }
        )
        for target in targets:
            label = (
                _("Redouble {name}", name=names[target])
                if target in doubled_me
                else _("Double {name}", name=names[target])
            )
            ui.add_item(DailyToggle(view.attempt_id, view.step, chosen, target, label[:80]))
        if targets:
            ui.add_item(DailyMove(view.attempt_id, view.step, Double(chosen).code, confirm=True))
        ui.add_item(DailyMove(view.attempt_id, view.step, Double(frozenset()).code))
        return ui
    legal = {action.card for action in seat.legal if isinstance(action, Play)}
    for row, cards in enumerate(_rows(seat.hand)):
        for card in cards:
            ui.add_item(
                DailyMove(
                    view.attempt_id, view.step, Play(card).code, enabled=card in legal, row=row
                )
            )
    return ui


def _rows(hand: tuple[Card, ...]) -> list[list[Card]]:
    """Cards grouped by suit, one suit per row, a long suit wrapping (at most 5 rows)."""
    rows: list[list[Card]] = []
    for suit in SUITS:
        cards = [card for card in hand if card.suit is suit]
        rows.extend(cards[i : i + MAX_PER_ROW] for i in range(0, len(cards), MAX_PER_ROW))
    return rows


class DailyMoves(Protocol):
    """What a daily attempt's buttons ask of the daily deals' controller."""

    async def act(
        self, interaction: Interaction, attempt_id: int, step: int, action: Action
    ) -> None: ...

    async def toggle(
        self, interaction: Interaction, attempt_id: int, step: int, chosen: frozenset[int]
    ) -> None: ...


class DailyFront(Protocol):
    """The part of the bot a daily attempt's buttons use."""

    @property
    def daily(self) -> DailyMoves: ...


class DailyMove(
    Guarded[discord.ui.Button[Any]],
    template=rf"bonken:daily:(?P<attempt>\d+):(?P<step>\d+):(?P<code>P:[2-9TJQKA][CDHS]|{DOUBLE})(?P<ok>:ok)?",
):
    """A move of the attempt: a card, Confirm (the doubles toggled) or Pass."""

    def __init__(
        self,
        attempt_id: int,
        step: int,
        code: str,
        *,
        confirm: bool = False,
        enabled: bool = True,
        row: int | None = None,
    ) -> None:
        self.attempt_id, self.step, self.code = attempt_id, step, code
        action = parse_action(code)
        if isinstance(action, Play):
            label = card_text(action.card)
            style = discord.ButtonStyle.primary if enabled else discord.ButtonStyle.secondary
        elif confirm:
            label, style = _("Confirm"), discord.ButtonStyle.primary
            enabled = enabled and code != Double(frozenset()).code
        else:
            label, style = _("Pass"), discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=not enabled,
                custom_id=f"bonken:daily:{attempt_id}:{step}:{code}" + (":ok" if confirm else ""),
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DailyMove:
        return cls(
            int(match["attempt"]), int(match["step"]), match["code"], confirm=bool(match["ok"])
        )

    async def clicked(self, interaction: Interaction, front: DailyFront) -> None:
        action = parse_action(self.code)
        await front.daily.act(interaction, self.attempt_id, self.step, action)


class DailyToggle(
    Guarded[discord.ui.Button[Any]],
    template=rf"bonken:dailydbl:(?P<attempt>\d+):(?P<step>\d+):(?P<code>{DOUBLE}):(?P<seat>[0-3])",
):
    """Flips one player in the doubling turn's choice; nothing is played until Confirm."""

    def __init__(
        self, attempt_id: int, step: int, chosen: frozenset[int], seat: int, label: str = ""
    ) -> None:
        self.attempt_id, self.step, self.chosen, self.seat = attempt_id, step, chosen, seat
        on = seat in chosen
        super().__init__(
            discord.ui.Button(
                label=("✓ " if on else "") + (label or _("Double")),
                style=discord.ButtonStyle.danger if on else discord.ButtonStyle.secondary,
                custom_id=f"bonken:dailydbl:{attempt_id}:{step}:{Double(chosen).code}:{seat}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DailyToggle:
        action = parse_action(match["code"])
        assert isinstance(action, Double)  # the template admits only a double's code
        return cls(int(match["attempt"]), int(match["step"]), action.targets, int(match["seat"]))

    async def clicked(self, interaction: Interaction, front: DailyFront) -> None:
        toggled = self.chosen ^ {self.seat}
        await front.daily.toggle(interaction, self.attempt_id, self.step, toggled)


ITEMS = (DailyMove, DailyToggle)
"""A daily attempt's buttons, for the bot to register."""
