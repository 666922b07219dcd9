"""The table service: every table of the bot, behind one object made of parts.

It knows nothing of Discord: callers pass ids and names, and what happens comes back as
:mod:`bot.tables.events` through one ``publish`` callback. Each table has its own lock,
so tables never wait for each other; a human's action is checked by the engine, stored
(committed) and only then applied and announced, so a refusal or a failed write leaves
the table exactly as it was.

:class:`TableService` builds its parts and hands each what it needs, explicitly:

- a :class:`~bot.tables.context.Context` (the store, the event callback, the clock's
  scale) with the :class:`~bot.tables.context.Registry` of open tables;
- :class:`~bot.tables.closing.Closing`, the one way a table ends;
- :class:`~bot.tables.play.Play`, which stores, applies and announces an action, deals
  and finishes the match;
- :class:`~bot.tables.turns.Turns`, a human's action, the timers and the computers;
- :class:`~bot.tables.lobby.Lobby`, seats and the host's powers;
- :class:`~bot.tables.recovery.Recovery`, every open table back after a restart.

The service itself only looks tables up and passes each request to its part.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from bot.engine import Action, Phase, SeatView, public_record, seat_view, to_record
from bot.store import Rater, Store, TableSettings

from .closing import Closing
from .computers import Decider, random_decider
from .context import Context, Publish, seated
from .errors import Refusal, TableReason
from .lobby import Left, Lobby
from .play import Play
from .recovery import Recovery
from .table import TableView, view_of
from .turns import Turns, on_turn

__all__ = ["Hand", "Left", "TableService"]


class Hand(NamedTuple):
    """What one seated person may see and do now: their seat's view, and the turn the
    buttons made from it carry."""

    view: SeatView
    turn: int


def every_guild(guild_id: int) -> bool:
    """One process serves every guild (no shards across processes)."""
    return True


class TableService:
    """Every table of the bot. Public methods raise :class:`Refusal` for bad requests."""

    def __init__(
        self,
        store: Store,
        publish: Publish,
        *,
        decide: Decider = random_decider,
        pace: float = 1.0,
        time_scale: float = 1.0,
        rater: Rater | None = None,
        rng: random.Random | None = None,
        owns_guild: Callable[[int], bool] = every_guild,
    ) -> None:
        """``pace``: seconds a computer waits before each move, so people can follow (0 in
        tests). ``time_scale`` multiplies every timer (turns and the idle lobby).
        ``owns_guild``: whether this process serves a guild (with shards across
        processes, only its own shards' guilds); it restores only their tables."""
        self.context = Context(store, publish, time_scale)
        self.registry = self.context.registry
        closing = Closing(self.context)
        self.play = Play(self.context, closing, rater=rater)
        self.turns = Turns(self.context, self.play, decide=decide, pace=pace)
        self.lobby = Lobby(self.context, closing, self.play, self.turns, rng=rng or random.Random())
        self.recovery = Recovery(self.context, self.lobby, self.play, self.turns, owns_guild)

    # -- looking things up --------------------------------------------------------------

    def table_in_channel(self, channel_id: int) -> TableView | None:
        table = self.registry.find_in_channel(channel_id)
        return None if table is None else view_of(table)

    def view(self, table_id: int) -> TableView:
        return view_of(self.registry.table(table_id))

    def tables(self) -> list[TableView]:
        return [view_of(table) for table in self.registry.all()]

    def hand(self, table_id: int, user_id: int) -> Hand:
        """The seat view of ``user_id`` at this table, with the turn its buttons carry."""
        table = self.registry.table(table_id)
        seat = seated(table, user_id)
        if table.match is None:
            raise Refusal("the match has not started yet", TableReason.NOT_STARTED)
        return Hand(seat_view(table.match, seat), table.turn)

    def on_turn(self, table_id: int, user_id: int, turn: int, phase: Phase) -> Hand:
        """The hand of ``user_id`` if it is their turn ``turn`` and the match is in
        ``phase`` (the trumps menu, a doubling's targets: what leads to an action); else
        the refusal :meth:`act` would give."""
        table = self.registry.table(table_id)
        seat = on_turn(table, user_id, turn, phase)
        assert table.match is not None
        return Hand(seat_view(table.match, seat), table.turn)

    def scores(self, table_id: int) -> list[tuple[int, str, tuple[int, ...], tuple[int, ...]]]:
        """(deal number, contract, base, final) for every deal chosen so far."""
        match = self.registry.table(table_id).match
        if match is None:
            return []
        return [
            (number, deal.contract.id, tuple(deal.base), tuple(deal.final_scores()))
            for number, deal in enumerate(match.deals, start=1)
            if deal.contract is not None
        ]

    def record(
        self, table_id: int, user_id: int | None = None, *, full: bool = False
    ) -> dict[str, Any] | None:
        """The table's match so far as ``user_id`` may see it (None before it starts):
        finished deals in full, the deal in play with only their own hand, no seed.

        ``full`` is the whole record with every hand and the seed, which predicts every
        deal still to come: for the operator and tests, never for a player while the
        match is played (the finished match's record comes with ``MatchEnded``)."""
        table = self.registry.table(table_id)
        if table.match is None:
            return None
        if full:
            return to_record(table.match, seed=table.seed)
        viewer = None if user_id is None else table.seat_of(user_id)
        return public_record(table.match, viewer)

    async def remember_message(self, table_id: int, role: str, message_id: int | None) -> None:
        """Keep a front end's message id (e.g. the table message) across restarts; also
        of a table that closed meanwhile (its front end, behind the table, still posts its
        last deal, and shows its end again from these after a stop)."""
        await self.context.store.tables.update_table(table_id, messages={role: message_id})
        table = self.registry.get(table_id)
        if table is None:
            return
        if message_id is None:
            table.messages.pop(role, None)
        else:
            table.messages[role] = message_id

    # -- the lobby ----------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        settings: TableSettings | None = None,
        *,
        host_seated: bool = True,
        messages: Mapping[str, int] | None = None,
    ) -> TableView:
        """Open a table in the channel, with the host in the first seat (unless the host
        only hosts, as in the all-computer demo); its matches are played by the rules of
        ``settings`` (the guild's defaults when None). ``messages``: a front end's
        message ids by role to keep from the start (as :meth:`remember_message`)."""
        return await self.lobby.open_table(
            guild_id,
            channel_id,
            host_id,
            host_name,
            settings,
            host_seated=host_seated,
            messages=messages,
        )

    async def join(self, channel_id: int, user_id: int, name: str) -> TableView:
        """Take the first empty seat in the lobby, or a seat left during the match."""
        return await self.lobby.join(self.registry.in_channel(channel_id), user_id, name)

    async def leave(self, channel_id: int, user_id: int) -> Left:
        """Leave the lobby or the match; the answer says what became of the table."""
        return await self.lobby.leave(self.registry.in_channel(channel_id), user_id)

    async def add_computer(
        self, channel_id: int, actor_id: int, level: str | None = None, *, is_admin: bool = False
    ) -> TableView:
        table = self.registry.in_channel(channel_id)
        return await self.lobby.add_computer(table, actor_id, level, is_admin=is_admin)

    async def kick(
        self, channel_id: int, actor_id: int, seat: int, *, is_admin: bool = False
    ) -> TableView:
        """Empty a seat (lobby) or hand it to a computer (match): the host or an admin."""
        table = self.registry.in_channel(channel_id)
        return await self.lobby.kick(table, actor_id, seat, is_admin=is_admin)

    async def cancel(self, channel_id: int, actor_id: int, *, is_admin: bool = False) -> None:
        table = self.registry.in_channel(channel_id)
        await self.lobby.cancel(table, actor_id, is_admin=is_admin)

    async def start(self, channel_id: int, actor_id: int, *, is_admin: bool = False) -> TableView:
        """Start the match, filling empty seats with computers at the table's level."""
        table = self.registry.in_channel(channel_id)
        return await self.lobby.start(table, actor_id, is_admin=is_admin)

    # -- playing ------------------------------------------------------------------------

    async def act(
        self, table_id: int, user_id: int, turn: int | None, action: Action
    ) -> Hand | None:
        """A human's action. ``turn`` is the number their button carried (None: now).
        Answers with the actor's hand as the action left it (None: it ended the match)."""
        table = self.registry.table(table_id)
        await self.turns.act(table, user_id, turn, action)
        return self._after(table_id, user_id)

    async def act_in_channel(self, channel_id: int, user_id: int, action: Action) -> Hand | None:
        """A slash command's action: the table of the channel, the current turn; answers
        as :meth:`act` does."""
        table = self.registry.in_channel(channel_id)
        await self.turns.act(table, user_id, None, action)
        return self._after(table.table_id, user_id)

    def _after(self, table_id: int, user_id: int) -> Hand | None:
        """The actor's hand after their action, unless it closed the table."""
        if self.registry.get(table_id) is None:
            return None
        try:
            return self.hand(table_id, user_id)
        except Refusal:  # (the table closed with the match, or they left it meanwhile)
            return None

    async def take_back(self, channel_id: int, user_id: int) -> None:
        """``back``: the player takes their seat back from the computer."""
        await self.turns.take_back(self.registry.in_channel(channel_id), user_id)

    async def expire_turn(self, table_id: int, turn: int) -> bool:
        """The turn ran out: a computer acts for the human. False if the turn had moved on."""
        table = self.registry.get(table_id)
        return False if table is None else await self.turns.expire_turn(table, turn)

    async def settle(self) -> None:
        """Wait until no computer is thinking or about to move (for tests and the demo)."""
        await self.turns.settle()

    # -- starting and stopping ----------------------------------------------------------

    async def restore(self) -> int:
        """Rebuild every open table from the store and resume its timers and computers."""
        return await self.recovery.restore()

    async def restore_end(self, table_id: int, match_id: int) -> bool:
        """Publish a finished match's end again (its front end may not have shown it)."""
        return await self.recovery.restore_end(table_id, match_id)

    async def close(self) -> None:
        """Stop every timer and computer (the bot is shutting down; the store keeps all)."""
        for table in self.registry.all():
            table.stop_timer()
            table.stop_lobby_timer()
            if table.driver is not None:
                table.driver.cancel()
