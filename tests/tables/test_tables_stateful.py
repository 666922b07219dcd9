"""Random sequences of lobby moves, legal and illegal actions, stale turns, timer expiries,
store failures and restarts. After every step the in-memory match equals a replay of what
is stored, and nothing but a :class:`Refusal` ever escapes the service."""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bot.engine import CARDS, CONTRACTS, Action, Choose, Double, Play
from bot.store import StoreError, TableStatus, open_store
from bot.tables import Refusal, TableService
from tests.sqlite_template import fresh_sqlite
from tests.tables.tables_helpers import Recorder, same_position

T = TypeVar("T")
GUILD, CHANNEL = 1, 10
USERS = (1, 2, 3, 4, 5)
users = st.sampled_from(USERS)
actions: st.SearchStrategy[Action] = st.one_of(
    st.sampled_from([Play(card) for card in CARDS]),
    st.sampled_from([Choose(c) for c in CONTRACTS]),
    st.frozensets(st.integers(0, 4), max_size=3).map(Double),
)


class FlakyMatches:
    """The real match store; ``append_action`` fails once when ``fail_next`` is set."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.fail_next = False

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._inner, attribute)

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        if self.fail_next:
            self.fail_next = False
            raise StoreError("disk I/O error")
        await self._inner.append_action(*args, **kwargs)


class FlakyStore:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.tables = inner.tables
        self.claims = inner.claims
        self.matches = FlakyMatches(inner.matches)


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.errors: list[dict[str, Any]] = []
        self.loop.set_exception_handler(lambda loop, context: self.errors.append(context))
        self.folder = Path(tempfile.mkdtemp(prefix="bonken-tables-"))
        self.restarts = 0
        self.boot()

    # -- running the service ---------------------------------------------------------

    def _database(self) -> Path:
        """The machine's database file: a new one at the bot's schema, copied from the
        template, at the first boot; the same file at every restart."""
        path = self.folder / "db.sqlite3"
        return path if path.exists() else fresh_sqlite(path)

    def boot(self) -> None:
        store = self.loop.run_until_complete(open_store(self._database()))
        self.store = FlakyStore(store)
        self.events = Recorder()
        self.service = TableService(
            self.store,  # type: ignore[arg-type]
            self.events,
            pace=0,
            rng=random.Random(self.restarts),
        )

    def shut(self) -> None:
        self.loop.run_until_complete(self.service.close())
        self.loop.run_until_complete(self.store.inner.close())

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T | None:
        """Run one request and let the computers move; a Refusal is a fine answer."""
        try:
            return self.loop.run_until_complete(coroutine)
        except Refusal:
            return None
        finally:
            self.loop.run_until_complete(self.service.settle())

    def teardown(self) -> None:
        try:
            self.shut()
        finally:
            self.loop.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    # -- what the table looks like now -----------------------------------------------

    @property
    def table(self) -> Any:
        return self.service.table_in_channel(CHANNEL)

    def playing(self) -> bool:
        table = self.table
        return table is not None and table.status is TableStatus.PLAYING

    def human_to_act(self) -> tuple[int, int, list[Action]] | None:
        table = self.table
        if table is None or table.to_act is None:
            return None
        user = table.seats[table.to_act].user_id
        if user is None or table.seats[table.to_act].away:
            return None
        view, turn = self.service.hand(table.table_id, user)
        return user, turn, list(view.legal)

    def snapshot(self) -> tuple[Any, ...]:
        table = self.table
        if table is None:
            return (None,)
        return (self.service.record(table.table_id, full=True), table.turn, table.seats)

    # -- the lobby -------------------------------------------------------------------

    @rule(host=users, seated=st.booleans())
    def open_table(self, host: int, seated: bool) -> None:
        self.run(self.service.open_table(GUILD, CHANNEL, host, f"user{host}", host_seated=seated))

    @rule(user=users)
    def join(self, user: int) -> None:
        self.run(self.service.join(CHANNEL, user, f"user{user}"))

    @rule(user=users)
    def leave(self, user: int) -> None:
        self.run(self.service.leave(CHANNEL, user))

    @rule(user=users, level=st.sampled_from(["easy", "normal", "hard", "expert", None]))
    def add_computer(self, user: int, level: str | None) -> None:
        self.run(self.service.add_computer(CHANNEL, user, level))

    @rule(user=users, seat=st.integers(0, 4), admin=st.booleans())
    def kick(self, user: int, seat: int, admin: bool) -> None:
        self.run(self.service.kick(CHANNEL, user, seat, is_admin=admin))

    @rule(user=users, admin=st.booleans())
    def start(self, user: int, admin: bool) -> None:
        self.run(self.service.start(CHANNEL, user, is_admin=admin))

    @rule(user=users, admin=st.booleans(), really=st.integers(0, 3))
    def cancel(self, user: int, admin: bool, really: int) -> None:
        if really == 0:  # rarely, or few matches would get far
            self.run(self.service.cancel(CHANNEL, user, is_admin=admin))

    # -- playing ---------------------------------------------------------------------

    @precondition(lambda self: self.playing())
    @rule(pick=st.integers(0, 100), count=st.integers(1, 30))
    def act_legal(self, pick: int, count: int) -> None:
        """Humans play ``count`` legal actions with the turn number they saw."""
        for step in range(count):
            now = self.human_to_act() if self.playing() else None
            if now is None:
                return
            user, turn, legal = now
            self.run(
                self.service.act(self.table.table_id, user, turn, legal[(pick + step) % len(legal)])
            )
            assert self.table is None or self.table.turn > turn

    @precondition(lambda self: self.playing())
    @rule(action=actions, user=users)
    def act_anything(self, action: Action, user: int) -> None:
        """Any action by anyone for the current turn: accepted only if it is legal."""
        table = self.table
        before = self.snapshot()
        legal = self.human_to_act()
        self.run(self.service.act(table.table_id, user, table.turn, action))
        if legal is None or legal[0] != user or action not in legal[2]:
            assert self.snapshot() == before

    @precondition(lambda self: self.playing() and self.table.turn > 0)
    @rule(back=st.integers(1, 5), pick=st.integers(0, 100))
    def act_stale(self, back: int, pick: int) -> None:
        now = self.human_to_act()
        if now is None:
            return
        user, turn, legal = now
        before = self.snapshot()
        result = self.loop.run_until_complete(
            _refused(self.service.act(self.table.table_id, user, max(turn - back, 0), legal[0]))
        )
        assert result == "that was for an earlier turn"
        assert self.snapshot() == before

    @precondition(lambda self: self.playing())
    @rule()
    def timer_expires(self) -> None:
        table = self.table
        self.run(self.service.expire_turn(table.table_id, table.turn))

    @precondition(lambda self: self.playing())
    @rule(user=users)
    def take_back(self, user: int) -> None:
        self.run(self.service.take_back(CHANNEL, user))

    @precondition(lambda self: self.playing())
    @rule()
    def store_fails(self) -> None:
        now = self.human_to_act()
        if now is None:
            return
        user, turn, legal = now
        before = self.snapshot()
        self.store.matches.fail_next = True
        result = self.loop.run_until_complete(
            _refused(self.service.act(self.table.table_id, user, turn, legal[0]))
        )
        self.store.matches.fail_next = False
        assert result == "sorry, that could not be saved; please try again"
        assert self.snapshot() == before

    @rule()
    def restart(self) -> None:
        self.shut()
        self.restarts += 1
        self.boot()
        self.run(self.service.restore())

    # -- the invariant ---------------------------------------------------------------

    @invariant()
    def memory_equals_a_replay_of_the_store(self) -> None:
        assert not self.errors, self.errors
        for view in self.service.tables():
            stored_table = self.loop.run_until_complete(self.store.tables.get_table(view.table_id))
            assert stored_table.status is view.status
            assert stored_table.host_id == view.host_id
            assert [(s.user_id, s.level) for s in view.seats] == [
                (getattr(o, "user_id", None), getattr(o, "level", None)) for o in stored_table.seats
            ]
            if view.match_id is None:
                assert view.status is TableStatus.LOBBY
                continue
            stored = self.loop.run_until_complete(self.store.matches.load_record(view.match_id))
            info = self.loop.run_until_complete(self.store.matches.get_match(view.match_id))
            record = self.service.record(view.table_id, full=True)
            assert record is not None
            same_position(record, stored)
            assert view.turn == info.actions
        open_tables = self.loop.run_until_complete(self.store.tables.open_tables())
        assert {t.table_id for t in open_tables} == {v.table_id for v in self.service.tables()}


async def _refused(coroutine: Coroutine[Any, Any, Any]) -> str | None:
    try:
        await coroutine
    except Refusal as refusal:
        return str(refusal)
    return None


TableMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_table_service_state_machine = TableMachine.TestCase
