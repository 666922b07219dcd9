"""The daily attempt's private message: its words, and its buttons.

Built from an :class:`~bot.daily.AttemptView` only (the person's own hand and what is
public), so it can never show another hand or a deal still to come. A button carries
the attempt and the move it was made for: ``bonken:daily:<attempt>:<step>:<action>``
(a card ``P:QS``, a double ``D:13`` or a pass ``D:-``; Confirm adds ``:ok``), and a
doubling toggle ``bonken:dailydbl:<attempt>:<step>:<chosen>:<seat>``. The daily service
checks whose attempt it is, that it is not finished and that the move is the newest, so
a click on someone else's, a finished or an older message, or a forged id, changes
nothing; nothing is kept per message, so the buttons work after a restart.

A click reaches the bot as a ``DynamicItem`` (:class:`DailyMove`, :class:`DailyToggle`)
rebuilt from its custom_id, as every click does. The buttons a message is sent with,
though, are written as the component data Discord takes (:class:`ButtonRows`): a
daily message has up to fourteen, one message a click, and making each a
``DynamicItem`` around a ``discord.ui.Button`` to be turned into that data again cost
some 230 microseconds a message, a seventh of a click's work on the event loop (about
35 now).
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

from .front import Settled

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


def daily_buttons(view: AttemptView, chosen: frozenset[int] = frozenset()) -> ButtonRows:
    """The person's choices now: their cards (the legal ones enabled), or their doubling
    turn's toggles with Confirm and Pass (``chosen``: the players toggled so far); none
    once the attempt is finished."""
    if view.finished:
        return ButtonRows([])
    seat = view.seat
    attempt_id, step = view.attempt_id, view.step
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
        buttons = []
        for target in targets:
            label = (
                _("Redouble {name}", name=names[target])
                if target in doubled_me
                else _("Double {name}", name=names[target])
            )
            buttons.append(toggle_button(attempt_id, step, chosen, target, label[:80]))
        if targets:
            buttons.append(move_button(attempt_id, step, Double(chosen).code, confirm=True))
        buttons.append(move_button(attempt_id, step, Double(frozenset()).code))
        return ButtonRows(
            [buttons[i : i + MAX_PER_ROW] for i in range(0, len(buttons), MAX_PER_ROW)]
        )
    legal = {action.card for action in seat.legal if isinstance(action, Play)}
    return ButtonRows(
        [
            [card_button(attempt_id, step, card, enabled=card in legal) for card in cards]
            for cards in _rows(seat.hand)
        ]
    )


class ButtonRows(discord.ui.View):
    """Rows of buttons as Discord's component data (see the module's docstring): sent
    by discord.py as any view is, with no item of its own to dispatch or keep."""

    def __init__(self, rows: list[list[dict[str, Any]]]) -> None:
        super().__init__(timeout=None)
        self._rows = [{"type": 1, "components": row} for row in rows]

    def to_components(self) -> list[dict[str, Any]]:
        return self._rows


def card_button(attempt_id: int, step: int, card: Card, *, enabled: bool) -> dict[str, Any]:
    """A card of the person's hand, to play at ``step``: blue if legal, grey if not."""
    style = discord.ButtonStyle.primary if enabled else discord.ButtonStyle.secondary
    return _button(move_id(attempt_id, step, Play(card).code), card_text(card), style, enabled)


def move_button(attempt_id: int, step: int, code: str, *, confirm: bool = False) -> dict[str, Any]:
    """Confirm (the doubles toggled; greyed out while none is) or Pass."""
    if confirm:
        enabled = code != Double(frozenset()).code
        return _button(
            move_id(attempt_id, step, code, confirm=True),
            _("Confirm"),
            discord.ButtonStyle.primary,
            enabled,
        )
    return _button(move_id(attempt_id, step, code), _("Pass"), discord.ButtonStyle.secondary)


def toggle_button(
    attempt_id: int, step: int, chosen: frozenset[int], seat: int, label: str
) -> dict[str, Any]:
    """Flips ``seat`` in the doubling turn's choice: red with a tick while chosen."""
    on = seat in chosen
    return _button(
        toggle_id(attempt_id, step, chosen, seat),
        ("✓ " if on else "") + label,
        discord.ButtonStyle.danger if on else discord.ButtonStyle.secondary,
    )


def move_id(attempt_id: int, step: int, code: str, *, confirm: bool = False) -> str:
    """A move button's custom_id (what :class:`DailyMove` reads back)."""
    return f"bonken:daily:{attempt_id}:{step}:{code}" + (":ok" if confirm else "")


def toggle_id(attempt_id: int, step: int, chosen: frozenset[int], seat: int) -> str:
    """A doubling toggle's custom_id (what :class:`DailyToggle` reads back)."""
    return f"bonken:dailydbl:{attempt_id}:{step}:{Double(chosen).code}:{seat}"


def _button(
    custom_id: str, label: str, style: discord.ButtonStyle, enabled: bool = True
) -> dict[str, Any]:
    return {
        "type": discord.ComponentType.button.value,
        "style": style.value,
        "label": label,
        "custom_id": custom_id,
        "disabled": not enabled,
    }


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
    Settled[discord.ui.Button[Any]],
    template=rf"bonken:daily:(?P<attempt>\d+):(?P<step>\d+):(?P<code>P:[2-9TJQKA][CDHS]|{DOUBLE})(?P<ok>:ok)?",
):
    """A move of the attempt: a card, Confirm (the doubles toggled) or Pass."""

    def __init__(self, attempt_id: int, step: int, code: str, *, confirm: bool = False) -> None:
        self.attempt_id, self.step, self.code = attempt_id, step, code
        custom_id = move_id(attempt_id, step, code, confirm=confirm)
        super().__init__(discord.ui.Button(custom_id=custom_id))

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
    Settled[discord.ui.Button[Any]],
    template=rf"bonken:dailydbl:(?P<attempt>\d+):(?P<step>\d+):(?P<code>{DOUBLE}):(?P<seat>[0-3])",
):
    """Flips one player in the doubling turn's choice; nothing is played until Confirm."""

    def __init__(self, attempt_id: int, step: int, chosen: frozenset[int], seat: int) -> None:
        self.attempt_id, self.step, self.chosen, self.seat = attempt_id, step, chosen, seat
        super().__init__(discord.ui.Button(custom_id=toggle_id(attempt_id, step, chosen, seat)))

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
