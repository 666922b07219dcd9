"""The daily deals' controller on a real store and a fake Discord, for its tests: a
person's interactions, a whole attempt played through, the message shown."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from types import SimpleNamespace
from typing import Any

from bot.daily import DailyService
from bot.store import Store
from bot.ui.daily import DailyController
from bot.ui.daily_message import DailyMove, DailyToggle
from bot.ui.drawing import DrawingProcesses
from bot.ui.replies import Guard
from bot.ui.standings import Boards
from tests.daily.daily_helpers import Clock
from tests.discord.fakes import FakeInteraction, Sent, interaction

ANN, BOB, CAS = 101, 102, 103


@dataclass
class Daily:
    store: Store
    clock: Clock
    service: DailyService
    controller: DailyController
    front: Any

    def restarted(self) -> Daily:
        """A new service and controller on the same store: nothing kept in memory."""
        return new_daily(self.store, self.clock)


def new_daily(store: Store, clock: Clock, drawing: DrawingProcesses | None = None) -> Daily:
    """The daily deals' controller on ``store``; ``drawing``: its drawing processes (none:
    the picture thread draws)."""
    service = DailyService(store.daily, store.tables, clock=clock)
    boards = Boards(store.seasons, store.standings, store.tables)
    controller = DailyController(service, store.tables, boards, drawing=drawing)
    # What the daily features' buttons use of the bot (their Protocols' parts).
    front = SimpleNamespace(
        guard=Guard(lambda _interaction: None),
        daily=controller,
        daily_replays=controller.replays,
        boards=boards,
    )
    return Daily(store, clock, service, controller, front)


def daily_user(daily: Daily, user_id: int, name: str, **options: Any) -> FakeInteraction:
    made = interaction(user_id, name, **options)
    made.client = daily.front  # type: ignore[attr-defined]
    return made


async def start(daily: Daily, user_id: int, name: str, **options: Any) -> FakeInteraction:
    """``/bonken daily`` typed by ``user_id`` (its work in the guard, as the cog runs it)."""
    asked = daily_user(daily, user_id, name, **options)
    await daily.front.guard(asked, partial(daily.controller.start, asked))
    return asked


async def click(daily: Daily, user_id: int, custom_id: str, **options: Any) -> FakeInteraction:
    """A click on the button ``custom_id``, rebuilt and run as discord.py would."""
    clicked = daily_user(daily, user_id, f"User {user_id}", **options)
    for kind in (DailyMove, DailyToggle):
        match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            item = await kind.from_custom_id(clicked, None, match)  # type: ignore[arg-type]
            await item.callback(clicked)  # type: ignore[arg-type]
            return clicked
    raise AssertionError(f"no daily button claims {custom_id!r}")


def shown(asked: FakeInteraction) -> Sent:
    """What the interaction's message shows now: its last edit, after the answer or as
    the answer (a click's message updated by its callback)."""
    edits = [answer for answer in asked.response.sent if answer.kind == "edit"] + asked.edits
    assert edits, f"the message was not edited: {asked.response.sent}"
    return edits[-1]


def next_move(edit: Sent) -> str:
    """The person's move on the message: Pass in a doubling turn, else the first card
    whose button is enabled."""
    moves = [i for i in edit.custom_ids(enabled_only=True) if i.startswith("bonken:daily:")]
    passes = [i for i in moves if i.endswith(":D:-")]
    return passes[0] if passes else moves[0]


async def play_through(daily: Daily, user_id: int, name: str) -> list[str]:
    """Start and play every deal by the message's buttons; what the message showed after
    each click, in order (the last is the finished attempt's)."""
    edit = shown(await start(daily, user_id, name))
    seen = [edit.content or ""]
    while edit.custom_ids(enabled_only=True):
        clicked = await click(daily, user_id, next_move(edit))
        assert not clicked.followup.sent or not clicked.followup.sent[0].ephemeral
        edit = shown(clicked)
        seen.append(edit.content or "")
    return seen
