"""Shared helpers for the table service tests: an event recorder, tables, human moves."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from bot.engine import Action, Match, from_record, to_record
from bot.store import Store, TableSettings, open_store
from bot.tables import TableService, TableView
from bot.tables import events as ev
from tests.sqlite_template import fresh_sqlite

E = TypeVar("E", bound=ev.Event)

GUILD = 1
CHANNEL = 10
HOST, ANN, BOB, CAS = 100, 101, 102, 103


class Recorder:
    """The ``publish`` callback: keeps every event in order."""

    def __init__(self) -> None:
        self.events: list[ev.Event] = []
        self.views: list[TableView | None] = []  # the table as each event left it
        self.times: list[float] = []  # the loop's clock when each event came

    async def __call__(self, event: ev.Event, view: TableView | None) -> None:
        self.events.append(event)
        self.views.append(view)
        self.times.append(asyncio.get_running_loop().time())

    def time_of(self, event: ev.Event) -> float:
        return self.times[next(i for i, e in enumerate(self.events) if e is event)]

    def of(self, kind: type[E], table_id: int | None = None) -> list[E]:
        return [
            e
            for e in self.events
            if isinstance(e, kind) and (table_id is None or e.table_id == table_id)
        ]

    def last(self, kind: type[E]) -> E:
        found = self.of(kind)
        assert found, f"no {kind.__name__} event"
        return found[-1]


@dataclass
class Harness:
    service: TableService
    store: Store
    events: Recorder
    rng: random.Random = field(default_factory=lambda: random.Random(1))

    async def open_with_humans(
        self,
        users: tuple[int, ...] = (HOST,),
        *,
        channel: int = CHANNEL,
        guild: int = GUILD,
        settings: TableSettings | None = None,
        start: bool = True,
    ) -> TableView:
        """A table hosted by ``users[0]``, the others joined, started (computers fill)."""
        view = await self.service.open_table(guild, channel, users[0], name(users[0]), settings)
        for user in users[1:]:
            view = await self.service.join(channel, user, name(user))
        if start:
            view = await self.service.start(channel, users[0])
            await self.service.settle()
            view = self.service.view(view.table_id)
        return view

    async def human_turn(self, table_id: int) -> tuple[int, int, list[Action]]:
        """Wait for the computers; return (user to act, turn, their legal actions)."""
        await self.service.settle()
        view = self.service.view(table_id)
        assert view.to_act is not None, "nobody is to act"
        user = view.seats[view.to_act].user_id
        assert user is not None, "a computer is to act"
        seat_view, turn = self.service.hand(table_id, user)
        assert turn == view.turn
        return user, turn, list(seat_view.legal)

    async def play_random(self, table_id: int, actions: int | None = None) -> None:
        """Humans at the table play random legal actions (all of them, or ``actions``)."""
        done = 0
        while True:
            await self.service.settle()
            if table_id not in {t.table_id for t in self.service.tables()}:
                return
            if actions is not None and done >= actions:
                return
            user, turn, legal = await self.human_turn(table_id)
            await self.service.act(table_id, user, turn, self.rng.choice(legal))
            done += 1

    def match(self, table_id: int) -> Match:
        record = self.service.record(table_id, full=True)
        assert record is not None
        return from_record(record)

    async def stored(self, table_id: int) -> dict[str, Any]:
        match_id = self.service.view(table_id).match_id
        assert match_id is not None
        return await self.store.matches.load_record(match_id)


def name(user: int) -> str:
    return f"user{user}"


def make_harness(store: Store, **options: Any) -> Harness:
    events = Recorder()
    options.setdefault("pace", 0)
    options.setdefault("rng", random.Random(7))
    return Harness(TableService(store, events, **options), store, events)


def same_position(record: dict[str, Any], stored: dict[str, Any]) -> None:
    """The service's record and the stored one replay to the same position."""
    mine, theirs = from_record(record), from_record(stored)
    assert to_record(mine)["deals"] == to_record(theirs)["deals"]
    assert mine.players == theirs.players
    assert [d.plays for d in mine.deals] == [d.plays for d in theirs.deals]
    assert [d.doubling for d in mine.deals] == [d.doubling for d in theirs.deals]
    assert mine.phase == theirs.phase
    assert mine.to_act == theirs.to_act
    assert mine.totals() == theirs.totals()


async def wait_for(predicate: Any, timeout: float = 5.0, step: float = 0.005) -> None:
    """Poll ``predicate()`` until it is true (for real timers)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(step)


class Restartable:
    """A database file and the service on it, which can be stopped and started again."""

    def __init__(self, path: Path, **options: Any) -> None:
        self.path = path
        self.options = options
        self.h: Harness | None = None

    async def start(self) -> Harness:
        # A new file at the bot's schema, copied from the template, at the first start.
        store = await open_store(self.path if self.path.exists() else fresh_sqlite(self.path))
        self.h = make_harness(store, **self.options)
        return self.h

    async def stop(self) -> None:
        assert self.h is not None
        await self.h.service.close()
        await self.h.store.close()
        self.h = None

    async def restart(self) -> Harness:
        await self.stop()
        h = await self.start()
        await h.service.restore()
        return h
