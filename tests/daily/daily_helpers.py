"""Shared helpers for the daily deals' tests: a clock, and people who play their deals."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.daily import AttemptView, DailyService
from bot.engine import Action, Card, Contract, Rules

GUILD = 41
START = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)


@dataclass
class Clock:
    """The time now, moved by hand."""

    now: datetime = field(default=START)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


Strategy = Callable[[AttemptView], Action]


def first_legal(view: AttemptView) -> Action:
    return view.seat.legal[0]


def at_random(seed: int) -> Strategy:
    """A legal action drawn from ``seed`` and the move's number: the same position and
    seed give the same choice, whoever asks and whenever."""
    return lambda view: random.Random(f"{seed}:{view.step}").choice(view.seat.legal)


async def play_out(
    service: DailyService,
    view: AttemptView,
    strategy: Strategy = first_legal,
    *,
    moves: int | None = None,
) -> AttemptView:
    """Play the person's moves by ``strategy`` until the attempt is finished (or for
    ``moves`` moves)."""
    made = 0
    while not view.finished and (moves is None or made < moves):
        view = await service.act(view.attempt_id, view.user_id, view.step, strategy(view))
        made += 1
    return view


def cards_in(value: object) -> set[Card]:
    """Every card reachable in ``value`` (dataclasses, tuples, dicts, frozensets...),
    but for the rules' own (what a contract's cards score), which are no one's hand."""
    found: set[Card] = set()
    seen: set[int] = set()

    def walk(item: object) -> None:
        if id(item) in seen or isinstance(item, str | int | float | Rules | Contract | None):
            return
        seen.add(id(item))
        if isinstance(item, Card):
            found.add(item)
        elif isinstance(item, dict):
            for key, entry in item.items():
                walk(key)
                walk(entry)
        elif isinstance(item, list | tuple | set | frozenset):
            for entry in item:
                walk(entry)
        elif hasattr(item, "__dataclass_fields__"):
            for name in item.__dataclass_fields__:
                walk(getattr(item, name))

    walk(value)
    return found
