"""Just enough of Discord on 127.0.0.1 for ``python -m bot`` to log in, sync, connect and
be told READY; and the launcher that points a ``python -m bot`` process at it.

The bot is not changed for the tests: ``launch`` starts a Python that sets discord.py's
REST base and gateway address to the fake, then runs ``bot`` as ``python -m bot`` would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "good-token"
BOT_ID = "1000"
BOT_USER = {
    "id": BOT_ID,
    "username": "Bonken",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}

BOOT = """
import importlib.machinery, runpy, sys
REST, GATEWAY = sys.argv[1] + "/api/v10", sys.argv[2]


def point_http(http):
    http.Route.BASE = REST


def point_gateway(gateway):
    import yarl

    gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(GATEWAY)


class PointAtTheFake:
    # discord.py's REST base and gateway address, set as each module is first imported:
    # a bot that stops before it imports discord.py (a bad setting) starts as quickly as
    # under ``python -m bot``, not after half a second of imports it never uses.
    POINT = {"discord.http": point_http, "discord.gateway": point_gateway}

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        point = cls.POINT.get(name)
        if point is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            point(module)

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, PointAtTheFake)
sys.argv = ["python -m bot"]
runpy.run_module("bot", run_name="__main__", alter_sys=True)
"""


class FakeDiscord:
    """REST: ``users/@me`` (401 unless the token is :data:`TOKEN`), the application and
    the command sync. Gateway: HELLO, heartbeat ACKs, READY with no guilds."""

    def __init__(
        self, close_after_ready: tuple[float, int] | None = None, sync_delay: float = 0
    ) -> None:
        self.close_after_ready = close_after_ready
        self.sync_delay = sync_delay
        """Seconds the command sync takes: the bot is still in ``setup_hook`` meanwhile."""
        self.syncing = asyncio.Event()
        """(seconds, code): close the gateway that long after READY, as Discord does
        with 4004 when the token is reset while the bot runs."""
        self.calls: list[str] = []
        self.close_codes: list[int | None] = []
        self.identified = asyncio.Event()
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_get("/api/v10/users/@me", self._me)
        app.router.add_get("/api/v10/oauth2/applications/@me", self._application)
        app.router.add_put("/api/v10/applications/{app}/commands", self._sync)
        app.router.add_put("/api/v10/applications/{app}/guilds/{guild}/commands", self._sync)
        app.router.add_get("/ws", self._gateway)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._runner is not None
        self._closing.set()
        await self._runner.cleanup()

    def _authorized(self, request: web.Request) -> bool:
        self.calls.append(f"{request.method} {request.path}")
        return request.headers.get("Authorization") == f"Bot {TOKEN}"

    async def _me(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        return _json(BOT_USER)

    async def _application(self, request: web.Request) -> web.Response:
        self._authorized(request)
        return _json(
            {
                "id": BOT_ID,
                "name": "Bonken",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": {**BOT_USER, "id": "1", "username": "owner", "bot": False},
                "verify_key": "0" * 64,
                "flags": 0,
            }
        )

    async def _sync(self, request: web.Request) -> web.Response:
        self._authorized(request)
        commands = await request.json()
        self.syncing.set()
        # The fake's own shutdown waits for its handlers: a sync still "under way" when
        # the test is done ends then, not sync_delay later.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._closing.wait(), self.sync_delay)
        return _json(
            [
                {**command, "id": str(2000 + n), "application_id": BOT_ID, "version": "1"}
                for n, command in enumerate(commands)
            ]
        )

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        while True:
            message = await ws.receive()
            if message.type is WSMsgType.CLOSE:
                self.close_codes.append(message.data)  # the code the bot closed with
                break
            if message.type is not WSMsgType.TEXT:
                self.close_codes.append(None)  # the connection dropped without a close
                break
            op = json.loads(message.data).get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                await ws.send_str(json.dumps({"op": 0, "s": 1, "t": "READY", "d": _ready()}))
                self.identified.set()
                if self.close_after_ready is not None:
                    seconds, code = self.close_after_ready
                    await asyncio.sleep(seconds)
                    await ws.close(code=code)
                    self.close_codes.append(code)
                    return ws
        await ws.close()
        return ws

    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only for exactly this content type (no charset).
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def _ready() -> dict[str, Any]:
    return {
        "v": 10,
        "user": BOT_USER,
        "guilds": [],
        "session_id": "session",
        "resume_gateway_url": "ws://127.0.0.1:1/",
        "application": {"id": BOT_ID, "flags": 0},
    }


def bot_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    """A clean environment for ``python -m bot``: the project importable, no ``.env``
    from the developer's machine (the process runs in ``tmp_path``), ``settings`` added."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
        "BONKEN_DATABASE": str(tmp_path / "data" / "bonken.sqlite3"),
        **settings,
    }


async def launch(
    rest_url: str, gateway_url: str, env: dict[str, str], cwd: Path
) -> asyncio.subprocess.Process:
    """``python -m bot`` with discord.py pointed at ``rest_url`` and ``gateway_url``."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        BOOT,
        rest_url,
        gateway_url,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
