"""A table's buttons and menus: the lobby's, Show my hand, the hand message's cards,
contracts and doubles, and Play again. Everything a click needs lives in its custom_id.

``bonken:<kind>:<table>[:<turn>...]``: the table id routes the click, and the turn number
lets the service refuse a click made for an earlier turn. Because nothing is kept in
memory per message, the buttons keep working after a restart. The other features declare
their own items beside their work; :mod:`bot.ui.items` gathers every feature's for the
bot to register.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol

import discord

from bot.engine import Action, Card, Choose, Double, Play, parse_action
from bot.i18n import N_, _
from bot.render.text import card_text

from .front import Guarded, picked
from .replay import ReplayButton
from .review import ReviewButton

TRUMPS = "trumps"
Interaction = discord.Interaction[Any]


class HandButtons(Protocol):
    """What a hand message's buttons ask of the hand controller."""

    async def show(self, interaction: Interaction, table_id: int) -> None: ...

    async def act(
        self, interaction: Interaction, table_id: int, turn: int, action: Action
    ) -> None: ...

    async def offer_trumps(self, interaction: Interaction, table_id: int, turn: int) -> None: ...

    async def toggle_double(
        self, interaction: Interaction, table_id: int, turn: int, chosen: frozenset[int]
    ) -> None: ...


class LobbyButtons(Protocol):
    async def button(self, interaction: Interaction, table_id: int, op: str) -> None: ...

    async def launch_activity(self, interaction: Interaction, table_id: int) -> None: ...


class PlayAgain(Protocol):
    async def play_again(self, interaction: Interaction, table_id: int) -> None: ...


class TableFront(Protocol):
    """The parts of the bot a table's buttons use."""

    @property
    def lobby(self) -> LobbyButtons: ...

    @property
    def hands(self) -> HandButtons: ...

    @property
    def rematch(self) -> PlayAgain: ...


DOUBLE_CODE = r"(?P<code>D:(?:-|(?=[0-3])0?1?2?3?))"
"""A double's :attr:`~bot.engine.Double.code` in a custom_id (``D:13``, ``D:-``): exactly
the codes :func:`~bot.engine.parse_action` reads, so a claimed custom_id always parses."""
OLD_MASK = r"(?P<mask>\d+)"
"""The seats as a bit mask, as buttons posted before the action codes spelled them."""


def _double_seats(match: re.Match[str]) -> frozenset[int]:
    """The seats a double button carries: its action code, or an older button's mask."""
    if match["code"] is not None:
        action = parse_action(match["code"])
        assert isinstance(action, Double)  # the template admits only a double's code
        return action.targets
    mask = int(match["mask"])
    return frozenset(seat for seat in range(4) if mask >> seat & 1)


def _play_card(code: str) -> Card:
    """The card a play button carries: its action code, or an older button's card code."""
    action = parse_action(code if code.startswith("P:") else f"P:{code}")
    assert isinstance(action, Play)
    return action.card


class LobbyButton(
    Guarded[discord.ui.Button[Any]],
    template=r"bonken:lobby:(?P<table>\d+):(?P<op>join|leave|addbot|start)",
):
    LABELS: ClassVar[dict[str, str]] = {
        "join": N_("Join"),
        "leave": N_("Leave"),
        "addbot": N_("Add computer"),
        "start": N_("Start"),
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "addbot": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, table_id: int, op: str) -> None:
        self.table_id, self.op = table_id, op
        super().__init__(
            discord.ui.Button(
                label=_(self.LABELS[op]),
                style=self.STYLES[op],
                custom_id=f"bonken:lobby:{table_id}:{op}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["table"]), match["op"])

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        await front.lobby.button(interaction, self.table_id, self.op)


class ActivityButton(Guarded[discord.ui.Button[Any]], template=r"bonken:activity:(?P<table>\d+)"):
    """Play in an Activity: Discord opens the bot's Activity (the drawn table) in the
    channel, where the clicker signs in and plays his seat."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_("Play in an Activity"),
                emoji="🎴",
                style=discord.ButtonStyle.secondary,
                custom_id=f"bonken:activity:{table_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActivityButton:
        return cls(int(match["table"]))

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        await front.lobby.launch_activity(interaction, self.table_id)


def lobby_view(table_id: int, *, activity: bool = False) -> discord.ui.View:
    """The lobby's buttons; ``activity``: with Play in an Activity (the application has
    the Activity set up, :mod:`bot.ui.activity`)."""
    view = discord.ui.View(timeout=None)
    for op in LobbyButton.LABELS:
        view.add_item(LobbyButton(table_id, op))
    if activity:
        view.add_item(ActivityButton(table_id))
    return view


class ShowHandButton(Guarded[discord.ui.Button[Any]], template=r"bonken:hand:(?P<table>\d+)"):
    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_("Show my hand"),
                emoji="🃏",
                style=discord.ButtonStyle.primary,
                custom_id=f"bonken:hand:{table_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ShowHandButton:
        return cls(int(match["table"]))

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        await front.hands.show(interaction, self.table_id)


def table_view(table_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHandButton(table_id))
    return view


class PlayAgainButton(Guarded[discord.ui.Button[Any]], template=r"bonken:again:(?P<table>\d+)"):
    """Under the final standings: a rematch of that (finished) table."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(
            discord.ui.Button(
                label=_("Play again"),
                emoji="🔁",
                style=discord.ButtonStyle.success,
                custom_id=f"bonken:again:{table_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayAgainButton:
        return cls(int(match["table"]))

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        await front.rematch.play_again(interaction, self.table_id)


def rematch_view(table_id: int, match_id: int) -> discord.ui.View:
    """Under the final standings: Play again, the match's Replay and Review."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayAgainButton(table_id))
    view.add_item(ReplayButton(match_id))
    view.add_item(ReviewButton(match_id))
    return view


class PlayButton(
    Guarded[discord.ui.Button[Any]],
    template=r"bonken:play:(?P<table>\d+):(?P<turn>\d+):(?P<card>(?:P:)?[2-9TJQKA][CDHS])",
):
    def __init__(
        self, table_id: int, turn: int, card: Card, *, enabled: bool = True, row: int | None = None
    ) -> None:
        self.table_id, self.turn, self.card = table_id, turn, card
        super().__init__(
            discord.ui.Button(
                label=card_text(card),
                style=discord.ButtonStyle.primary if enabled else discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=f"bonken:play:{table_id}:{turn}:{Play(card).code}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayButton:
        return cls(int(match["table"]), int(match["turn"]), _play_card(match["card"]))

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        await front.hands.act(interaction, self.table_id, self.turn, Play(self.card))


class ContractSelect(
    Guarded[discord.ui.Select[Any]],
    template=r"bonken:(?P<kind>choose|trump):(?P<table>\d+):(?P<turn>\d+)",
):
    """The chooser's menu: the contracts (``choose``), or after "Trumps…" the trump
    options left (``trump``). Either way a pick is a ``Choose`` for this turn."""

    PLACEHOLDERS: ClassVar[dict[str, str]] = {
        "choose": N_("Choose the contract"),
        "trump": N_("Choose the trump (or No Trump)"),
    }

    def __init__(
        self,
        table_id: int,
        turn: int,
        choices: list[tuple[str, str, str]] | None = None,
        *,
        kind: str = "choose",
    ) -> None:
        self.table_id, self.turn = table_id, turn
        # Rebuilt from a click, the options do not matter: the click carries its value.
        options = [
            discord.SelectOption(label=label, value=value, description=description[:100])
            for value, label, description in choices or [(TRUMPS, _("Trumps…"), "")]
        ]
        super().__init__(
            discord.ui.Select(
                placeholder=_(self.PLACEHOLDERS[kind]),
                options=options,
                custom_id=f"bonken:{kind}:{table_id}:{turn}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ContractSelect:
        return cls(int(match["table"]), int(match["turn"]), kind=match["kind"])

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        value = picked(interaction)[0]
        if value == TRUMPS:
            await front.hands.offer_trumps(interaction, self.table_id, self.turn)
        else:
            await front.hands.act(interaction, self.table_id, self.turn, Choose(value))


class DoubleToggle(
    Guarded[discord.ui.Button[Any]],
    template=rf"bonken:dbl:(?P<table>\d+):(?P<turn>\d+):(?:{DOUBLE_CODE}|{OLD_MASK}):(?P<seat>[0-3])",
):
    def __init__(
        self, table_id: int, turn: int, chosen: frozenset[int], seat: int, label: str = ""
    ) -> None:
        self.table_id, self.turn, self.chosen, self.seat = table_id, turn, chosen, seat
        on = seat in chosen
        super().__init__(
            discord.ui.Button(
                label=("✓ " if on else "") + (label or _("Double")),
                style=discord.ButtonStyle.danger if on else discord.ButtonStyle.secondary,
                custom_id=f"bonken:dbl:{table_id}:{turn}:{Double(chosen).code}:{seat}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DoubleToggle:
        chosen = _double_seats(match)
        return cls(int(match["table"]), int(match["turn"]), chosen, int(match["seat"]))

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        toggled = self.chosen ^ {self.seat}
        await front.hands.toggle_double(interaction, self.table_id, self.turn, toggled)


class DoubleConfirm(
    Guarded[discord.ui.Button[Any]],
    template=rf"bonken:dblok:(?P<table>\d+):(?P<turn>\d+):(?:{DOUBLE_CODE}|{OLD_MASK})(?P<pass>:pass)?",
):
    def __init__(
        self, table_id: int, turn: int, chosen: frozenset[int], *, is_pass: bool = False
    ) -> None:
        self.table_id, self.turn, self.chosen = table_id, turn, chosen
        super().__init__(
            discord.ui.Button(
                label=_("Pass") if is_pass else _("Confirm"),
                style=discord.ButtonStyle.secondary if is_pass else discord.ButtonStyle.primary,
                disabled=not is_pass and not chosen,
                custom_id=f"bonken:dblok:{table_id}:{turn}:{Double(chosen).code}"
                + (":pass" if is_pass else ""),
            )
        )

    @classmethod
    def build(
        cls, table_id: int, turn: int, chosen: frozenset[int], is_pass: bool
    ) -> DoubleConfirm:
        return cls(table_id, turn, frozenset() if is_pass else chosen, is_pass=is_pass)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DoubleConfirm:
        chosen = _double_seats(match)
        is_pass = match["pass"] is not None
        return cls(int(match["table"]), int(match["turn"]), chosen, is_pass=is_pass)

    async def clicked(self, interaction: Interaction, front: TableFront) -> None:
        await front.hands.act(interaction, self.table_id, self.turn, Double(self.chosen))


ITEMS = (
    LobbyButton,
    ActivityButton,
    ShowHandButton,
    PlayAgainButton,
    PlayButton,
    ContractSelect,
    DoubleToggle,
    DoubleConfirm,
)
"""The table's buttons and menus, for the bot to register."""
