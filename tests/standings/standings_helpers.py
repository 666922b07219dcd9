"""Shared helpers for the standings tests: whole matches played through the table service.

Humans act through ``service.act`` (random legal actions) or let their turn run out
(``service.expire_turn``, so a computer plays for them); computers play at ``pace=0``.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, field

from bot.engine import STANDARD, Match, Rules
from bot.ratings import OpenSkillRater
from bot.store import Store, TableSettings
from bot.tables import TableService
from bot.tables import events as ev

GUILD = 1
CHANNEL = 10
ANN, BOB, CAS, DIRK = 101, 102, 103, 104


def actions_taken(match: Match) -> int:
    """How many actions ``match`` has had: the number its next action is stored under."""
    return sum(
        (deal.contract is not None) + len(deal.doubling) + len(deal.plays) for deal in match.deals
    )


class Recorder:
    def __init__(self) -> None:
        self.events: list[ev.Event] = []

    async def __call__(self, event: ev.Event, view: object) -> None:
        self.events.append(event)

    def ended(self) -> list[ev.MatchEnded]:
        return [e for e in self.events if isinstance(e, ev.MatchEnded)]


@dataclass
class Tables:
    """A table service on a test store, with the real openskill rater by default."""

    store: Store
    service: TableService
    events: Recorder
    rng: random.Random = field(default_factory=lambda: random.Random(3))

    async def open(
        self,
        users: tuple[int, ...],
        *,
        guild: int = GUILD,
        channel: int = CHANNEL,
        rules: Rules = STANDARD,
    ) -> int:
        """A started table: ``users`` seated in order, computers in the other seats."""
        settings = TableSettings(rules=rules)
        view = await self.service.open_table(guild, channel, users[0], name(users[0]), settings)
        for user in users[1:]:
            await self.service.join(channel, user, name(user))
        view = await self.service.start(channel, users[0])
        return view.table_id

    async def finish(self, table_id: int, *, time_out: Collection[int] = ()) -> ev.MatchEnded:
        """Play the table's match to its end; users in ``time_out`` never act themselves."""
        await self.run(table_id, time_out=time_out)
        ended = [e for e in self.events.ended() if e.table_id == table_id]
        assert len(ended) == 1, "the match did not end"
        return ended[0]

    async def run(
        self, table_id: int, *, actions: int | None = None, time_out: Collection[int] = ()
    ) -> None:
        """Humans act (or time out) until the match is over or ``actions`` were taken."""
        done = 0
        while actions is None or done < actions:
            await self.service.settle()
            if table_id not in {t.table_id for t in self.service.tables()}:
                return
            view = self.service.view(table_id)
            assert view.to_act is not None
            user = view.seats[view.to_act].user_id
            assert user is not None, "a computer is to act after settle()"
            if user in time_out:
                assert await self.service.expire_turn(table_id, view.turn)
            else:
                seat_view, turn = self.service.hand(table_id, user)
                await self.service.act(table_id, user, turn, self.rng.choice(seat_view.legal))
            done += 1

    async def play(
        self,
        users: tuple[int, ...],
        *,
        guild: int = GUILD,
        time_out: Collection[int] = (),
        rules: Rules = STANDARD,
    ) -> ev.MatchEnded:
        table_id = await self.open(users, guild=guild, rules=rules)
        return await self.finish(table_id, time_out=time_out)


def name(user: int) -> str:
    return f"user{user}"


def make_tables(store: Store, *, rated: bool = True, seed: int = 7) -> Tables:
    events = Recorder()
    service = TableService(
        store,
        events,
        pace=0,
        rng=random.Random(seed),
        rater=OpenSkillRater() if rated else None,
    )
    return Tables(store, service, events, random.Random(seed))
