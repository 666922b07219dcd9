"""The service's parts on their own, refusals by reason, and no front end's words.

The table service is built of parts given what they need (a context, the closing, play,
turns, the lobby, recovery); these tests use some of them alone, and check that every
refusal says why as an enum beside its sentence.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from bot.engine import CARDS, Action, Choose, Double, Match, Phase, Reason, seat_view
from bot.engine import Play as PlayCard
from bot.store import Computer, Store, TableStatus
from bot.tables import Refusal, TableReason
from bot.tables import events as ev
from bot.tables.closing import Closing
from bot.tables.context import Context
from bot.tables.play import Next, Play
from bot.tables.table import Seat, Table, table_from_record
from tests.tables.tables_helpers import ANN, CHANNEL, GUILD, HOST, Harness, Recorder, name

pytestmark = pytest.mark.service_logic

TABLES = Path(__file__).resolve().parents[2] / "bot" / "tables"


async def _computers_playing(store: Store, events: Recorder) -> tuple[Context, Play, Table]:
    """Four computers at a table whose match has its first deal: only a context, the
    closing and play, no lobby, timers or computers' driver."""
    context = Context(store, events)
    play = Play(context, Closing(context), rater=None)
    record = await store.tables.create_table(GUILD, CHANNEL, HOST)
    table = table_from_record(record)
    table.seats = [Seat(Computer("easy"), f"bot {seat}") for seat in range(4)]
    await store.tables.update_table(
        table.table_id, seats={seat: Computer("easy") for seat in range(4)}
    )
    names = [seat.name for seat in table.seats]
    info = await store.matches.create_match(table.table_id, names, seed=5)
    table.match_id, table.seed, table.status = info.match_id, 5, TableStatus.PLAYING
    table.match = Match(names, first_dealer=info.first_dealer)
    context.registry.add(table)
    await play.next_deal(table)
    return context, play, table


async def test_play_alone_plays_a_whole_match_and_closes_the_table(store: Store) -> None:
    """Play needs only a context and the closing: no lobby, timers or computers."""
    events = Recorder()
    context, play, table = await _computers_playing(store, events)
    rng = random.Random(3)
    after = Next.PLAY_ON
    while after is Next.PLAY_ON:
        assert table.match.to_act is not None
        action = rng.choice(seat_view(table.match, table.match.to_act).legal)
        after = await play.accept(table, table.match.to_act, action, by_computer=True)
    assert after is Next.OVER
    assert len(events.of(ev.DealScored)) == 11
    assert isinstance(events.events[-1], ev.TableClosed) and events.events[-1].finished
    assert context.registry.get(table.table_id) is None


async def test_every_event_comes_with_the_view_of_its_table_as_it_left_it(store: Store) -> None:
    """The front end renders the view it is given: it never calls back into the service."""
    events = Recorder()
    _, play, table = await _computers_playing(store, events)
    rng = random.Random(4)
    for _ in range(40):  # the contract, the doubling and a few tricks
        assert table.match.to_act is not None
        action = rng.choice(seat_view(table.match, table.match.to_act).legal)
        await play.accept(table, table.match.to_act, action, by_computer=True)
    played = [
        (event, view)
        for event, view in zip(events.events, events.views, strict=True)
        if isinstance(event, ev.CardPlayed)
    ]
    assert played
    for event, view in played:
        assert view is not None and view.table_id == table.table_id
        trick = dict(view.trick)
        # The card is on the table, or its trick was just taken (then none is).
        assert trick.get(event.seat) == event.card or not view.trick


async def test_redoubles_come_from_the_engine_outcome(h: Harness) -> None:
    """The Doubled event splits doubles and redoubles as the engine's outcome does."""
    view = await h.open_with_humans((HOST, ANN))
    match = h.match(view.table_id)
    seen = h.events.of(ev.Doubled)
    assert seen, "some doubling turn was played"
    # Replay the stored actions through the engine and compare each doubling turn.
    replay = Match(match.players, first_dealer=match.first_dealer)
    outcomes = []
    for deal in match.deals:
        replay.start_deal(deal.hands)
        if deal.contract is not None:
            replay.apply(Choose(deal.contract.id))
        for targets in deal.doubling:
            outcomes.append(replay.apply(Double(frozenset(targets))))
        for card in deal.plays:
            replay.apply(PlayCard(card))
    assert [(e.seat, e.doubles, e.redoubles) for e in seen] == [
        (o.seat, o.doubles, o.redoubles) for o in outcomes
    ][: len(seen)]


async def test_service_refusals_carry_a_reason(h: Harness) -> None:
    with pytest.raises(Refusal) as no_table:
        await h.service.join(CHANNEL, ANN, name(ANN))
    assert no_table.value.reason is TableReason.NO_TABLE
    await h.service.open_table(GUILD, CHANNEL, HOST, name(HOST))
    with pytest.raises(Refusal) as taken:
        await h.service.open_table(GUILD, CHANNEL, ANN, name(ANN))
    assert taken.value.reason is TableReason.CHANNEL_TAKEN
    with pytest.raises(Refusal) as not_host:
        await h.service.start(CHANNEL, ANN)
    assert not_host.value.reason is TableReason.NOT_HOST
    assert not_host.value.subject == "start the match"
    with pytest.raises(Refusal) as not_seated:
        await h.service.leave(CHANNEL, ANN)
    assert not_seated.value.reason is TableReason.NOT_SEATED
    with pytest.raises(Refusal) as seated:
        await h.service.join(CHANNEL, HOST, name(HOST))
    assert seated.value.reason is TableReason.ALREADY_SEATED


async def test_rule_refusals_carry_the_engine_reason(h: Harness) -> None:
    view = await h.open_with_humans((HOST,))
    user, turn, legal = await h.human_turn(view.table_id)
    mine, _ = h.service.hand(view.table_id, user)
    illegal: Action
    if mine.phase is Phase.CHOOSING:
        illegal, expected = Choose("no-such-contract"), Reason.UNKNOWN_CONTRACT
    elif mine.phase is Phase.DOUBLING:
        illegal, expected = Double.of(mine.seat), Reason.DOUBLE_SELF
    else:
        card = next(c for c in CARDS if c not in mine.hand)
        illegal, expected = PlayCard(card), Reason.NOT_HELD
    with pytest.raises(Refusal) as refused:
        await h.service.act(view.table_id, user, turn, illegal)
    assert refused.value.reason is expected
    with pytest.raises(Refusal) as stale:
        await h.service.act(view.table_id, user, turn + 1, legal[0])
    assert stale.value.reason is TableReason.STALE_TURN


def _spoken(path: Path) -> list[str]:
    """The strings a module says (its docstrings and comments are not said to anyone)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


def test_the_table_service_speaks_no_discord() -> None:
    """Ids and reasons, no commands, mentions or permission names: the front end words
    those (bot/ui/replies.py ``worded``)."""
    discordish = re.compile(r"/bonken|Manage Server|<@|discord", re.IGNORECASE)
    said = {path.name: _spoken(path) for path in sorted(TABLES.glob("*.py"))}
    assert said["lobby.py"], "the check reads the strings"
    assert {name: [s for s in texts if discordish.search(s)] for name, texts in said.items()} == {
        name: [] for name in said
    }
