"""The in-process harness's fake Discord, served on 127.0.0.1 for a real ``python -m bot``.

``tests/discord/discord_harness.py`` keeps Discord's state (messages, threads, interactions
and their webhooks, rate-limit buckets, nonces) and answers requests as Discord does; here
the same state answers over HTTP, and a gateway hands the bot READY and the people's
interactions (``INTERACTION_CREATE``). So a test can kill the process (SIGKILL), start it
again on the same Discord, and read what was posted, as a person in the channel would.

``hold`` picks a request whose answer is never sent: Discord has done it (a post is in the
channel), the bot has not heard so, which is where a kill hurts most. ``lose`` picks a
request that never reaches Discord (nor is answered): the bot was killed before it went.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tests.discord.discord_harness import (  # the harness lives with the Discord tests
    APP_ID,
    CHANNEL_ID,
    THREAD_PERMISSIONS,
    TOKEN,
    Call,
    FakeDiscord,
    Interaction,
    User,
    components,
    custom_ids,
    snowflake,
)
from tests.ops.fake_discord import BOOT, ROOT
from tests.ops.stop_clock import time_stop

HEARTBEAT_MS = 41250


class WireDiscord:
    """Discord for a bot process: REST and the gateway on a free port of 127.0.0.1."""

    def __init__(self, *, time_scale: float = 0.01) -> None:
        self.state = FakeDiscord(time_scale=time_scale)
        self.state.app_permissions = THREAD_PERMISSIONS  # as the README's invite grants
        self.hold: Callable[[Call], bool] | None = None
        """The request whose answer is held back (until the fake closes)."""
        self.held: Call | None = None
        self.lose: Callable[[Call], bool] | None = None
        self.lost: Call | None = None
        """The request that never reached Discord (the bot waits until the fake closes)."""
        self.delay: Callable[[Call], float] | None = None
        """Seconds to wait before answering a request (after Discord did it)."""
        self.ready = 0
        """How many times a bot process was told READY."""
        self._socket: web.WebSocketResponse | None = None
        self._sequence = 0
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def __aenter__(self) -> WireDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/ws", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._closing.set()
        assert self._runner is not None
        await self._runner.cleanup()

    # -- REST -------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        body, files = await _read(request)
        call = Call(
            time.monotonic(),
            request.method,
            "/" + request.match_info["path"],
            body,
            files,
            authorization=request.headers.get("Authorization"),
        )
        if self.lost is None and self.lose is not None and self.lose(call):
            self.lost = call
            self.state._changed.set()
            await self._closing.wait()  # Discord never made it; a killed bot never hears
        answer = self.state.answer(call)
        if self.delay is not None and (seconds := self.delay(call)) > 0:
            await asyncio.sleep(seconds)
        if self.held is None and self.hold is not None and self.hold(call):
            self.held = call
            self.state._changed.set()
            await self._closing.wait()  # the bot never hears; a killed one never will
        headers = {k: v for k, v in answer.headers.items() if k.lower() != "content-type"}
        if answer.status == 204:
            return web.Response(status=204, headers=headers)
        return web.Response(
            status=answer.status,
            body=(await answer.text()).encode(),
            headers={**headers, "Content-Type": "application/json"},
        )

    # -- the gateway ------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                break
            op = json.loads(message.data).get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                self._socket = ws
                await self._dispatch("READY", self._ready_payload())
                self.ready += 1
                self.state._changed.set()
        return ws

    def _ready_payload(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.state.bot_user.payload(), "bot": True},
            "guilds": [],
            "session_id": f"session-{self.ready}",
            "resume_gateway_url": self.url.replace("http://", "ws://") + "/ws",
            "application": {"id": str(APP_ID), "flags": 0},
        }

    async def _dispatch(self, kind: str, data: dict[str, Any]) -> None:
        assert self._socket is not None, "no bot is connected"
        self._sequence += 1
        payload = {"op": 0, "t": kind, "s": self._sequence, "d": data}
        await self._socket.send_str(json.dumps(payload))

    # -- people -----------------------------------------------------------------------

    async def slash(
        self, user: User, name: str, *, wait: bool = True, **options: Any
    ) -> Interaction:
        """``/bonken <name>`` typed by ``user`` in the channel; answered, unless not ``wait``."""
        group = next(c for c in self.state.commands if c["name"] == "bonken")
        spec = next(o for o in group["options"] if o["name"] == name)
        types = {o["name"]: o["type"] for o in spec.get("options", [])}
        inner = [{"name": k, "type": types[k], "value": v} for k, v in options.items()]
        data = {
            "id": group["id"],
            "name": "bonken",
            "type": 1,
            "options": [{"name": name, "type": 1, "options": inner}],
        }
        return await self._interact(self.state.interaction_payload(2, user, data), wait)

    async def click(self, user: User, custom_id: str, message: dict[str, Any]) -> Interaction:
        """``user`` presses a button of ``message``."""
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(self._on(user, data, message), True)

    async def select(
        self, user: User, custom_id: str, value: str, message: dict[str, Any]
    ) -> Interaction:
        """``user`` picks ``value`` in a menu of ``message``."""
        data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        return await self._interact(self._on(user, data, message), True)

    def _on(self, user: User, data: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
        channel = int(message["channel_id"])
        return self.state.interaction_payload(
            3, user, data, message=copy.deepcopy(message), channel_id=channel
        )

    async def _interact(self, payload: dict[str, Any], wait: bool) -> Interaction:
        await self._dispatch("INTERACTION_CREATE", payload)
        interaction = self.state.interactions[int(payload["id"])]
        if wait:
            await self.state.wait_for(lambda: interaction.callback is not None)
        return interaction

    # -- reading ----------------------------------------------------------------------

    def posts(self, channel_id: int) -> list[dict[str, Any]]:
        """Public messages in a channel or thread, oldest first, as they are now."""
        return [
            m
            for m in self.state.messages.values()
            if int(m["channel_id"]) == channel_id and not m["flags"] & 64
        ]

    def thread(self) -> int | None:
        """The one thread the bot opened, if any."""
        return next(iter(self.state.threads), None)


async def _read(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """A request's JSON, or its multipart's ``payload_json`` and files."""
    if not request.content_type.startswith("multipart/"):
        raw = await request.read()
        return (json.loads(raw) if raw else None), []
    body: Any = None
    files = []
    for name, value in (await request.post()).items():
        if isinstance(value, web.FileField):
            files.append((value.filename, value.file.read()))
        elif name == "payload_json":
            body = json.loads(value)
    return body, files


# -- a bot process ----------------------------------------------------------------------


class BotProcess:
    """``python -m bot`` against a :class:`WireDiscord`, its log read as it comes."""

    def __init__(self, wire: WireDiscord, tmp_path: Path, **settings: str) -> None:
        self.wire = wire
        self.tmp_path = tmp_path
        self.settings = settings
        self.log: list[str] = []
        self.process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> BotProcess:
        """Start it and wait until Discord told it READY."""
        ready = self.wire.ready
        env = {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            "DISCORD_TOKEN": TOKEN,
            "BONKEN_DATABASE": str(self.tmp_path / "bonken.sqlite3"),
            **self.settings,
        }
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            BOOT,
            self.wire.url,
            self.wire.url.replace("http://", "ws://") + "/ws",
            env=env,
            cwd=self.tmp_path,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # its own process group, as in a terminal of its own
        )
        self._reader = asyncio.create_task(self._read_log())
        await self.wire.state.wait_for(lambda: self.wire.ready > ready or self._died())
        assert not self._died(), self.text()
        return self

    def _died(self) -> bool:
        return self.process is not None and self.process.returncode is not None

    async def _read_log(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        async for line in self.process.stderr:
            self.log.append(line.decode().rstrip())

    def text(self) -> str:
        return "\n".join(self.log)

    async def kill(self) -> None:
        """SIGKILL: nothing more is sent or stored."""
        assert self.process is not None
        self.process.kill()
        await self.ended()

    async def stop(self, number: signal.Signals = signal.SIGINT, *, group: bool = False) -> float:
        """Send ``number`` (to the whole process group, as Ctrl-C in a terminal does, if
        ``group``); the seconds until the process ended, less its wait for a core
        (:func:`tests.ops.stop_clock.time_stop`)."""
        process = self.process
        assert process is not None
        if group:
            took, _ = await time_stop(
                process.pid, lambda: os.killpg(process.pid, number), self.ended()
            )
        else:
            took, _ = await time_stop(
                process.pid, lambda: process.send_signal(number), self.ended()
            )
        return took

    async def ended(self) -> int:
        assert self.process is not None and self._reader is not None
        async with asyncio.timeout(30):
            code = await self.process.wait()
            await self._reader
        return code

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            with contextlib.suppress(TimeoutError):
                await self.ended()


# -- playing a person's seat ----------------------------------------------------------


MOVES = re.compile(r"bonken:(play|choose|trump|dblok):")


def table_message(wire: WireDiscord) -> dict[str, Any] | None:
    """The newest message with a Show my hand button (the deal in play)."""
    shown = [
        m
        for m in wire.state.messages.values()
        if any(c.startswith("bonken:hand:") for c in custom_ids(m, enabled_only=True))
    ]
    return shown[-1] if shown else None


async def play_seat(wire: WireDiscord, user: User, until: Callable[[], bool]) -> None:
    """``user`` plays their seat through their hand message, as a person would (the first
    contract or trump offered, a pass when doubling, the first card they may play),
    until ``until()`` holds; their hand message lights up by itself on their turn."""
    hand: dict[str, Any] | None = None

    def next_step() -> str | None:
        if until():
            return "done"
        if hand is None:
            return "show" if table_message(wire) is not None else None
        return "move" if _move(hand) is not None else None

    while (step := await wire.state.wait_for(next_step)) != "done":
        if step == "show":
            table = table_message(wire)
            assert table is not None
            button = next(c for c in custom_ids(table) if c.startswith("bonken:hand:"))
            shown = await wire.click(user, button, table)
            hand = wire.state.messages.get(shown.original_id or 0)
            continue
        assert hand is not None
        move = _move(hand)
        assert move is not None
        kind, custom_id, value = move
        if kind == "menu":
            await wire.select(user, custom_id, value, hand)
        else:
            await wire.click(user, custom_id, hand)


def my_turn(wire: WireDiscord, user: User) -> bool:
    """``user``'s newest hand message offers a move: their turn has come."""
    hands = [
        m
        for mid, m in wire.state.messages.items()
        if wire.state.owner.get(mid) == user.id and any(MOVES.match(c) for c in custom_ids(m))
    ]
    return bool(hands) and _move(hands[-1]) is not None


def _move(hand: dict[str, Any]) -> tuple[str, str, str] | None:
    """The move the hand message offers now: (button or menu, its id, the value)."""
    for component in components(hand):
        custom_id = component.get("custom_id", "")
        if component.get("disabled") or not MOVES.match(custom_id):
            continue
        if component["type"] == 3:
            return "menu", custom_id, component["options"][0]["value"]
        if custom_id.startswith("bonken:play:") or custom_id.endswith(":pass"):
            return "button", custom_id, ""
    return None


def lines(posts: list[dict[str, Any]]) -> list[str]:
    """What the posts say, in order: each line of a post's text, then a deal message's
    title (a deal's end is the text above the next deal's message)."""
    said = []
    for post in posts:
        if post["content"]:
            said.extend(post["content"].split("\n"))
        if post["embeds"]:
            said.append(post["embeds"][0].get("title", ""))
    return said


__all__ = [
    "CHANNEL_ID",
    "BotProcess",
    "Call",
    "User",
    "WireDiscord",
    "custom_ids",
    "lines",
    "my_turn",
    "play_seat",
    "snowflake",
    "table_message",
]
