"""What the live table sends hides what the rules hide: through a whole match played on
its sockets by two people with two computers, every frame sent to each player and to a
spectator is read, and no card appears in it that its reader may not see."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

from bot.engine import from_record
from bot.tables import events as ev
from bot.web.live.socket import FrameLimit
from tests.web.live_helpers import ANN, BOB, LiveSite, Socket, live_site

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
ACTION = re.compile(r"^[PCD]:")


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a frame (an action code's card too)."""
    found: set[str] = set()
    if isinstance(value, str):
        code = value[2:] if ACTION.match(value) else value
        if CARD.match(code):
            found.add(code)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= cards_in(key) | cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


async def play_on_sockets(site: LiveSite, table_id: int, people: dict[int, Socket]) -> None:
    """Each person acts on his turn with a random choice among what his page offers,
    until the table closes."""
    rng = random.Random(5)
    acted: dict[int, int] = {}
    while not any(isinstance(e, ev.TableClosed) for e in site.events):
        moved = False
        for user, socket in people.items():
            states = socket.states()
            if not states:
                continue
            state = states[-1]
            if state["seat"] is None or state["to_act"] != state["seat"]:
                continue
            if acted.get(user) == state["turn"]:
                continue
            options = list(state["legal"]) + [c["code"] for c in state["choices"]]
            if state["doubling"] is not None:
                targets = [t["seat"] for t in state["doubling"]["targets"]]
                options.append("D:-")
                if targets:
                    options.append(f"D:{rng.choice(targets)}")
            if not options:
                continue
            acted[user] = state["turn"]
            await socket.send({"type": "act", "turn": state["turn"], "action": rng.choice(options)})
            moved = True
        if not moved:
            await asyncio.sleep(0.002)


async def test_no_frame_shows_a_card_its_reader_may_not_see(tmp_path: Path) -> None:
    async with live_site(tmp_path / "live.sqlite", limit=FrameLimit(1000, 1000)) as site:
        view = await site.open_table((ANN, BOB))
        table_id = view.table_id
        seats = site.service.view(table_id).seats
        seat_of = {seat.user_id: index for index, seat in enumerate(seats)}
        ann = await Socket.open(site.socket_url, site.seat_token(table_id, ANN))
        bob = await Socket.open(site.socket_url, site.seat_token(table_id, BOB), "nl")
        watcher = await Socket.open(site.socket_url, site.watch_token(table_id))
        await asyncio.wait_for(play_on_sockets(site, table_id, {ANN: ann, BOB: bob}), 120)
        for socket in (ann, bob, watcher):
            await socket.closed()
        ended = next(e for e in site.events if isinstance(e, ev.MatchEnded))
        match = from_record(ended.record)
        assert len(match.deals) == match.rules.deals  # the whole match was played

        for reader, seat in ((ann, seat_of[ANN]), (bob, seat_of[BOB]), (watcher, None)):
            states = reader.states()
            assert len(states) > 100
            for frame in reader.frames:
                text = json.dumps(frame)
                assert "seed" not in text
            for state in states:
                if not state["deal"]:
                    assert cards_in(state) == set()
                    continue
                deal = match.deals[state["deal"] - 1]
                played = {card.code for _, card in deal.plays}
                own = set() if seat is None else {c.code for c in deal.hands[seat]}
                shown = cards_in(state)
                # his own cards (as dealt) and cards played face up: nothing else
                assert shown <= own | played, (state["deal"], shown - own - played)
                assert set(state["hand"]) <= own
                if seat is None:
                    assert state["hand"] == [] and state["legal"] == [] and not state["choices"]
                    assert state["doubling"] is None
                assert state["seat"] == seat
            assert any(state["trick"] for state in states)  # the play was shown
