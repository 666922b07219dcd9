"""An in-process Discord for the bot: real discord.py objects, a fake HTTP side.

The bot under test is the real :class:`~bot.app.BonkenBot`. It logs in with
``Client.login`` and runs its real ``setup_hook`` (store, service, cogs, dynamic items,
command sync); only the network is replaced:

* :class:`FakeSession` stands in for the ``aiohttp`` session that discord.py's
  ``HTTPClient`` and the interaction webhooks send through. Everything above it is
  discord.py's own code: JSON and multipart bodies, the ``Authorization`` header, the
  rate limiter that reads ``X-RateLimit-*`` headers and retries a 429. The fake answers
  like Discord does (a message object for a post, a callback response for an interaction
  answer) and enforces Discord's per-channel "5 per 5 seconds" buckets, so a 429 is
  recorded if the bot ever outruns them. A post with ``enforce_nonce`` whose nonce the bot
  used in that channel in the last :data:`NONCE_WINDOW` seconds is answered with the
  message already there, as Discord does. The bot's ``http_trace`` hears each answer as
  it would from aiohttp.
* Users act by feeding ``INTERACTION_CREATE`` payloads to the gateway parser
  (``ConnectionState.parse_interaction_create``), exactly where a gateway event would
  enter: the command tree and the dynamic items take it from there.

Every HTTP request is kept as a :class:`Call`; :class:`Interaction` keeps one user
action with its answers and the time to the first one (Discord's 3-second rule).
``time_scale`` shrinks Discord's clocks (rate-limit windows) so a test can play a whole
match at full speed; ``1.0`` is Discord's real timing.

A test reads like what people do::

    ann = h.user("Ann")
    opened = await h.slash(ann, "new", turn_seconds=30)      # /bonken new turn_seconds:30
    await h.click(h.user("Bob"), f"bonken:lobby:{table_id}:join")
    choices = await h.autocomplete(ann, "choose", "contract")
    answer = await h.select(ann, menu_custom_id, ["trumps"], message=hand)
    assert answer.ephemeral and "that was for an earlier turn" in answer.text
    await h.idle()                                            # computers moved, edits sent
    h.fake.channel_posts(), h.fake.own_calls(), h.fake.rate_limited()
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar
from urllib.parse import urlsplit

import aiohttp
import discord
import emoji
from discord.http import Route
from multidict import CIMultiDict
from yarl import URL

from bot.app import BonkenBot
from bot.parts import Parts
from bot.review import ReviewSettings
from bot.settings import ActivitySettings, Settings
from bot.ui.pacing import Pacing
from tests.sqlite_template import fresh_sqlite

TOKEN = "MTAxNDk.harness-token.must-never-be-logged"
APP_ID = 1_100_000_000_000_000_001
GUILD_ID = 1_200_000_000_000_000_001
CHANNEL_ID = 1_300_000_000_000_000_001
OTHER_CHANNEL_ID = 1_300_000_000_000_000_002

EPHEMERAL = 64
"""Message flag: only the user who caused it sees the message."""
LAUNCH_ACTIVITY = 12
"""The interaction callback that opens the application's Activity."""
EMBEDDED = 1 << 17
"""The application flag of an application with Activities turned on."""

P = discord.Permissions
MEMBER_PERMISSIONS = P(
    view_channel=True, send_messages=True, read_message_history=True, use_application_commands=True
)
ADMIN_PERMISSIONS = MEMBER_PERMISSIONS | P(manage_guild=True)
BOT_PERMISSIONS = P(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
THREAD_PERMISSIONS = BOT_PERMISSIONS | P(create_public_threads=True, send_messages_in_threads=True)
"""The bot's permissions with threads allowed (the default, BOT_PERMISSIONS, has none:
a table then plays in its channel, as most tests expect)."""
PUBLIC_THREAD = 11
THREAD_NAME_LIMIT = 100

RATE_LIMIT = 5
"""Requests per window in one channel bucket (Discord's message create/edit limits)."""
RATE_WINDOW = 5.0
ACK_DEADLINE = 3.0
"""Discord drops an interaction that is not answered within 3 seconds."""
NONCE_WINDOW = 300.0
"""Seconds Discord remembers a message's nonce for ``enforce_nonce`` ("a few minutes")."""
IDLE_STEP = 0.002
"""Seconds :meth:`Harness.idle` waits between two looks while the bot is still busy."""
IDLE_LIMIT = 30.0
"""Seconds after which :meth:`Harness.idle` gives up: the bot never went quiet."""

REVIEW = ReviewSettings(seed=1, work=300, batches=1)
"""How the bot reviews a match here: little search, a second or two a whole review."""

T = TypeVar("T")
_ids = itertools.count(1_400_000_000_000_000_000)


def snowflake() -> int:
    return next(_ids)


def _now_iso() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(frozen=True)
class User:
    id: int
    name: str
    admin: bool = False
    locale: str = "en-US"
    """The user's Discord language, sent as every interaction's ``locale``."""

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
        }


@dataclass
class Call:
    """One HTTP request the bot made, as Discord would have received it."""

    at: float
    method: str
    path: str
    body: Any
    files: list[tuple[str, bytes]]
    status: int = 200
    authorization: str | None = None
    rate_headers: dict[str, str] = field(default_factory=dict)

    @property
    def own(self) -> bool:
        """Counted against the bot's REST budget: not an answer to an interaction."""
        return not self.path.startswith(("/interactions/", "/webhooks/"))

    @property
    def flags(self) -> int:
        return int((self.body or {}).get("flags") or 0) if isinstance(self.body, dict) else 0


@dataclass
class Interaction:
    """One user action fed to the bot, and what the bot answered."""

    id: int
    token: str
    type: int
    user: User
    data: dict[str, Any]
    message_id: int | None
    channel_id: int
    created: float
    answers: list[Call] = field(default_factory=list)
    callback: dict[str, Any] | None = None
    """The body of the interaction callback (``{"type": ..., "data": ...}``)."""
    original_id: int | None = None
    """The message the callback created or updated (what ``@original`` means)."""
    acked_at: float | None = None

    @property
    def latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.created

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback["type"]

    @property
    def reply(self) -> dict[str, Any]:
        """The data of the first answer (the callback's, else the first followup's)."""
        if self.callback is not None and self.callback.get("data") is not None:
            return self.callback["data"]
        for call in self.answers:
            if isinstance(call.body, dict):
                return call.body
        raise AssertionError(f"interaction {self.id} was not answered")

    @property
    def text(self) -> str:
        """Every text the user was shown in answer, content and embeds, joined."""
        parts = []
        for call in self.answers:
            body = call.body if isinstance(call.body, dict) else {}
            data = body.get("data") if "type" in body and "data" in body else body
            data = data or {}
            parts.append(data.get("content") or "")
            for embed in data.get("embeds") or []:
                parts.append(json.dumps(embed, ensure_ascii=False))
        return "\n".join(p for p in parts if p)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.reply.get("flags") or 0) & EPHEMERAL)


class _Response:
    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = {200: "OK", 204: "No Content", 400: "Bad Request", 404: "Not Found"}.get(
            status, "Too Many Requests" if status == 429 else "Error"
        )
        self.headers = CIMultiDict(headers or {})
        self._text = "" if body is None else json.dumps(body)
        if body is not None:
            self.headers["content-type"] = "application/json"

    async def text(self, encoding: str | None = None) -> str:
        return self._text

    async def __aenter__(self) -> _Response:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


async def request_ended(
    session: object, trace: aiohttp.TraceConfig | None, method: str, url: str, response: object
) -> None:
    """Tell the bot's ``trace`` (if any) that the answer to a request has come, as aiohttp
    tells it: how the bot counts its REST calls and their times."""
    if trace is not None:
        ended = aiohttp.TraceRequestEndParams(
            method,
            URL(url),
            CIMultiDict(),
            response,  # type: ignore[arg-type]
        )
        await trace.on_request_end.send(session, SimpleNamespace(), ended)  # type: ignore[arg-type]


class _Pending:
    """What ``session.request(...)`` returns: used as ``async with``."""

    def __init__(self, session: FakeSession, method: str, url: str, kwargs: dict[str, Any]):
        self.session, self.method, self.url, self.kwargs = session, method, url, kwargs

    async def __aenter__(self) -> _Response:
        fake = self.session.fake
        fake.in_flight += 1
        try:
            await asyncio.sleep(0)  # a request is never instantaneous: let others run
            if "/channels/" in self.url:
                await asyncio.sleep(fake.channel_delay)
            if fake.request_delay is not None:
                await asyncio.sleep(fake.request_delay(self.method, urlsplit(self.url).path))
            response = fake.handle(self.method, self.url, self.kwargs)
            await request_ended(self.session, self.session.trace, self.method, self.url, response)
            return response
        finally:
            fake.in_flight -= 1

    async def __aexit__(self, *exc: object) -> None:
        return None


class FakeSession:
    """The ``aiohttp.ClientSession`` discord.py sends every request through; ``trace``
    is the bot's ``http_trace``, if any."""

    def __init__(self, fake: FakeDiscord, trace: aiohttp.TraceConfig | None = None) -> None:
        self.fake = fake
        self.trace = trace
        if trace is not None:
            trace.freeze()
        self.closed = False

    def request(self, method: str, url: str, **kwargs: Any) -> _Pending:
        return _Pending(self, method, url, kwargs)

    async def close(self) -> None:
        self.closed = True


class _Bucket:
    def __init__(self) -> None:
        self.reset_at = 0.0
        self.used = 0


class FakeDiscord:
    """Discord's REST side: messages, interaction callbacks, command sync, rate limits."""

    def __init__(self, *, time_scale: float = 0.01, keep_calls: bool = True) -> None:
        """``keep_calls``: keep every request in :attr:`calls`, as the tests read them.
        A benchmark that reads none of them over minutes keeps none: tens of thousands
        of requests (each edit's embeds and buttons) would otherwise pile up in its
        process, objects the real bot does not have, and the cyclic collector's full
        passes walking them in the event loop's thread would lengthen the stalls it
        measures."""
        self.time_scale = time_scale
        self.keep_calls = keep_calls
        self.calls: list[Call] = []
        self.requests = 0
        """Requests answered so far (kept in :attr:`calls` or not)."""
        self.messages: dict[int, dict[str, Any]] = {}
        self.owner: dict[int, int] = {}
        """Ephemeral message id -> the one user who can see it."""
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.commands: list[dict[str, Any]] = []
        self.buckets: dict[tuple[str, str], _Bucket] = {}
        self.bot_user = User(snowflake(), "Bonken")
        self.channel_delay = 0.0
        """Seconds each channel message request takes (a slow network, a long queue)."""
        self.app_permissions = BOT_PERMISSIONS
        """What interactions say the bot may do in their channel (``app_permissions``)."""
        self.threads: dict[int, dict[str, Any]] = {}
        """Thread id -> the thread's channel object (a thread started on a message has
        that message's id, as in Discord)."""
        self.thread_refused: set[int] = set()
        """Channels where starting a thread fails with 403 Missing Permissions."""
        self.nonces: dict[tuple[int, str], tuple[float, int]] = {}
        self.application_flags = 0
        """The application's flags as Discord reports them (``EMBEDDED``: Activities on)."""
        """(channel, nonce) of the bot's posts -> (when, the message posted)."""
        self.deduplicated: list[Call] = []
        """Posts answered with the message their nonce named already."""
        self._changed = asyncio.Event()
        """Set by every request (see :meth:`wait_for`)."""
        self.last_in_window: Callable[[Call], float] | None = None
        """Seconds (real, if any) until the bucket a request uses refills, for a request
        that is to use it up: discord.py then waits that long before returning it."""
        self.request_delay: Callable[[str, str], float] | None = None
        """Seconds a request (method, path) takes to be answered, if any."""
        self.guild_locale = "en-US"
        """The guild's preferred locale, sent as every interaction's ``guild_locale``."""
        self.in_flight = 0
        """Requests the bot has begun and Discord not yet answered, a wait for a rate
        limit's reset included."""

    # -- what was sent --------------------------------------------------------------------

    def own_calls(self) -> list[Call]:
        return [call for call in self.calls if call.own]

    def rate_limited(self) -> list[Call]:
        return [call for call in self.calls if call.status == 429]

    def channel_posts(self, channel_id: int = CHANNEL_ID) -> list[dict[str, Any]]:
        """Messages the bot posted in the channel itself (not interaction answers), oldest
        first, as they are now (edits applied)."""
        return [
            m
            for m in self.messages.values()
            if int(m["channel_id"]) == channel_id and not m.get("interaction_token")
        ]

    def attachment(self, message: dict[str, Any], filename: str) -> bytes:
        """The bytes of the message's attachment named ``filename`` (as it is now)."""
        found = [a["data"] for a in message["attachments"] if a["filename"] == filename]
        assert found, f"no {filename} among {[a['filename'] for a in message['attachments']]}"
        return found[-1]

    def thread_of(self, message_id: int) -> dict[str, Any] | None:
        """The thread started on a message, if any."""
        return self.threads.get(message_id)

    def syncs(self) -> list[Call]:
        """The command syncs (bulk overwrites of the global or a guild's commands)."""
        return [
            call
            for call in self.calls
            if call.method == "PUT"
            and re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", call.path)
        ]

    def unexpected(self) -> list[Call]:
        return [call for call in self.calls if call.status == 404]

    # -- the HTTP side --------------------------------------------------------------------

    def handle(self, method: str, url: str, kwargs: dict[str, Any]) -> _Response:
        path = urlsplit(url).path.removeprefix("/api/v10")
        headers = kwargs.get("headers") or {}
        body, files = _decode(kwargs.get("data"))
        call = Call(
            time.monotonic(), method, path, body, files, authorization=headers.get("Authorization")
        )
        return self.answer(call)

    def answer(self, call: Call) -> _Response:
        """Discord's answer to a request (its body decoded), as it goes on record."""
        self.requests += 1
        if self.keep_calls:
            self.calls.append(call)
        limited = self._rate_limit(call)
        if limited is not None:
            call.status = 429
            self._changed.set()
            return limited
        status, answer = self._route(call)
        call.status = status
        self._changed.set()
        return _Response(status, _public(answer), call.rate_headers)

    async def wait_for(self, found: Callable[[], T | None], timeout: float = 30.0) -> T:
        """Wait until ``found()`` gives something (looked at again after every request)."""
        async with asyncio.timeout(timeout):
            while not (result := found()):
                self._changed.clear()
                await self._changed.wait()
        return result

    def _rate_limit(self, call: Call) -> _Response | None:
        """Discord's per-channel buckets for posting and for editing messages."""
        match = re.fullmatch(r"/channels/(\d+)/messages(/\d+)?", call.path)
        if match is None or call.method not in ("POST", "PATCH"):
            return None
        key = (call.method, match[1])
        bucket = self.buckets.setdefault(key, _Bucket())
        window = RATE_WINDOW * self.time_scale
        now = time.monotonic()
        if now >= bucket.reset_at:
            bucket.reset_at, bucket.used = now + window, 0
        if self.last_in_window is not None and (seconds := self.last_in_window(call)):
            # This request uses the bucket up, and it refills only ``seconds`` from now.
            bucket.used, bucket.reset_at = RATE_LIMIT - 1, now + seconds
        bucket.used += 1
        after = max(bucket.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(RATE_LIMIT),
            "X-RateLimit-Remaining": str(max(RATE_LIMIT - bucket.used, 0)),
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": f"{call.method}-messages",
        }
        if bucket.used > RATE_LIMIT:
            bucket.used -= 1
            headers["Via"] = "1.1 google"
            headers["X-RateLimit-Scope"] = "user"
            body = {"message": "You are being rate limited.", "retry_after": after, "global": False}
            return _Response(429, body, headers)
        call.rate_headers = headers
        return None

    def use_up_window(self, channel_id: int) -> None:
        """As if earlier requests (another process's) had just used this channel's
        rate-limit windows up."""
        for method in ("POST", "PATCH"):
            bucket = self.buckets.setdefault((method, str(channel_id)), _Bucket())
            bucket.used = RATE_LIMIT
            bucket.reset_at = time.monotonic() + RATE_WINDOW * self.time_scale

    def refused(self) -> list[Call]:
        """Requests Discord would have refused as malformed (400 Invalid Form Body)."""
        return [call for call in self.calls if call.status == 400]

    def _route(self, call: Call) -> tuple[int, Any]:
        m, path, body = call.method, call.path, call.body
        if m in ("POST", "PATCH") and (invalid := _invalid_emoji(body)) is not None:
            return 400, invalid
        if (m, path) == ("GET", "/users/@me"):
            return 200, {**self.bot_user.payload(), "bot": True, "flags": 0}
        if (m, path) == ("GET", "/oauth2/applications/@me"):
            return 200, self._application()
        if m == "PUT" and re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", path):
            self.commands = [
                {**command, "id": str(snowflake()), "application_id": str(APP_ID), "version": "1"}
                for command in body
            ]
            return 200, self.commands
        if (match := re.fullmatch(r"/channels/(\d+)/messages", path)) and m == "POST":
            if (thread := self.threads.get(int(match[1]))) is not None:
                if thread["thread_metadata"]["locked"]:
                    return 403, {"message": "Missing Permissions", "code": 50013}
                thread["thread_metadata"]["archived"] = False  # a post unarchives it
            if (twin := self._posted_as(int(match[1]), body)) is not None:
                self.deduplicated.append(call)
                return 200, twin
            message = self._create(int(match[1]), body, call.files)
            if body.get("enforce_nonce") and body.get("nonce") is not None:
                key = (int(match[1]), str(body["nonce"]))
                self.nonces[key] = (time.monotonic(), int(message["id"]))
            return 200, message
        if match := re.fullmatch(r"/channels/(\d+)/messages/(\d+)/threads", path):
            return self._start_thread(int(match[1]), int(match[2]), body)
        if (match := re.fullmatch(r"/channels/(\d+)", path)) and m == "PATCH":
            return self._edit_thread(int(match[1]), body)
        if match := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path):
            message = self.messages.get(int(match[2]))
            if message is None or message["flags"] & EPHEMERAL:  # ephemerals: only by token
                return 404, {"message": "Unknown Message", "code": 10008}
            if m == "PATCH":
                return 200, self._update(message, body, call.files)
            if m == "GET":
                return 200, message
        if match := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            return self._callback(call, int(match[1]), match[2])
        if match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)(/messages/(@original|\d+))?", path):
            return self._webhook(call, match[2], match[4])
        return 404, {"message": f"fake Discord does not know {m} {path}", "code": 0}

    def _posted_as(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any] | None:
        """Discord's ``enforce_nonce``: the bot's message posted in this channel with this
        nonce in the last few minutes, if it is still there."""
        if not body.get("enforce_nonce") or body.get("nonce") is None:
            return None
        when, message_id = self.nonces.get((channel_id, str(body["nonce"])), (0.0, 0))
        if time.monotonic() - when > NONCE_WINDOW:
            return None
        return self.messages.get(message_id)

    def _start_thread(
        self, channel_id: int, message_id: int, body: dict[str, Any]
    ) -> tuple[int, Any]:
        """POST /channels/{channel}/messages/{message}/threads: a public thread whose id is
        the message's; the bot that starts it is its first member."""
        message = self.messages.get(message_id)
        if message is None or int(message["channel_id"]) != channel_id:
            return 404, {"message": "Unknown Message", "code": 10008}
        if channel_id in self.thread_refused:
            return 403, {"message": "Missing Permissions", "code": 50013}
        name = body.get("name") or ""
        if not 1 <= len(name) <= THREAD_NAME_LIMIT:
            errors = {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "len"}]}}
            return 400, {"message": "Invalid Form Body", "code": 50035, "errors": errors}
        if message_id in self.threads:
            return 400, {"message": "A thread has already been created", "code": 160004}
        if body.get("auto_archive_duration") not in (60, 1440, 4320, 10080):
            return 400, {"message": "Invalid Form Body", "code": 50035}
        thread = {
            "id": str(message_id),
            "type": PUBLIC_THREAD,
            "guild_id": str(GUILD_ID),
            "parent_id": str(channel_id),
            "owner_id": str(self.bot_user.id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body["auto_archive_duration"],
                "archive_timestamp": _now_iso(),
                "locked": False,
            },
            "member_ids": [str(self.bot_user.id)],
        }
        self.threads[message_id] = thread
        message["thread"] = thread
        return 200, thread

    def _edit_thread(self, thread_id: int, body: dict[str, Any]) -> tuple[int, Any]:
        """PATCH /channels/{thread}: archive, lock or rename a thread."""
        thread = self.threads.get(thread_id)
        if thread is None:
            return 404, {"message": "Unknown Channel", "code": 10003}
        for key in ("archived", "locked", "auto_archive_duration"):
            if key in body:
                thread["thread_metadata"][key] = body[key]
        if "name" in body:
            thread["name"] = body["name"]
        return 200, thread

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "name": "Bonken",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.bot_user.payload(),
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "summary": "",
            "rpc_origins": [],
            "team": None,
        }

    def _create(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        token: str | None = None,
        owner: int | None = None,
    ) -> dict[str, Any]:
        message = {
            "id": str(snowflake()),
            "channel_id": str(channel_id),
            "author": {**self.bot_user.payload(), "bot": True},
            "content": "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": 0 if token is None else 20,
            "flags": 0,
        }
        if token is not None:
            message["interaction_token"] = token
            message["application_id"] = str(APP_ID)
            message["webhook_id"] = str(APP_ID)
        self._apply(message, body or {}, files)
        if (body or {}).get("nonce") is not None:
            message["nonce"] = str(body["nonce"])
        self.messages[int(message["id"])] = message
        if owner is not None and message["flags"] & EPHEMERAL:
            self.owner[int(message["id"])] = owner
        return message

    def _update(
        self, message: dict[str, Any], body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        self._apply(message, body or {}, files)
        message["edited_timestamp"] = _now_iso()
        message.setdefault("edits", 0)
        message["edits"] += 1
        return message

    @staticmethod
    def _apply(
        message: dict[str, Any], body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> None:
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] or ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            message["flags"] = int(body["flags"]) | (message["flags"] & EPHEMERAL)
        if "attachments" not in body and not files:
            return
        # As Discord: the attachments listed by id are kept (an edit listing none takes
        # them all away), the files uploaded with the request are added.
        listed = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = [a for a in message["attachments"] if a["id"] in listed]
        message["attachments"] = kept + [
            {
                "id": str(snowflake()),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.example/{name}",
                "proxy_url": f"https://cdn.example/{name}",
                "data": data,  # the bytes as uploaded (left out of what the bot is sent)
            }
            for name, data in files
        ]

    def _callback(self, call: Call, interaction_id: int, token: str) -> tuple[int, Any]:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            return 404, {"message": "Unknown interaction", "code": 10062}
        if interaction.callback is not None:
            return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}
        if time.monotonic() - interaction.created > ACK_DEADLINE:
            return 404, {"message": "Unknown interaction", "code": 10062}
        if call.body["type"] == LAUNCH_ACTIVITY and not self.application_flags & EMBEDDED:
            return 400, {"message": "Activities are not enabled for this application"}
        interaction.answers.append(call)
        interaction.callback = call.body
        interaction.acked_at = call.at
        kind, data = call.body["type"], call.body.get("data") or {}
        message = None
        if kind in (4, 5):  # a new message (5: "thinking…", filled in later)
            message = self._create(
                interaction.channel_id, data, call.files, token=token, owner=interaction.user.id
            )
        elif kind in (6, 7) and interaction.message_id is not None:  # the clicked message
            message = self.messages[interaction.message_id]
            if kind == 7:
                self._update(message, data, call.files)
        if message is not None:
            interaction.original_id = int(message["id"])
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction_id),
                "type": interaction.type,
                "response_message_id": message and message["id"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            }
        }
        if message is not None:
            answer["resource"] = {"type": kind, "message": message}
        return 200, answer

    def _webhook(self, call: Call, token: str, which: str | None) -> tuple[int, Any]:
        interaction = self._by_token.get(token)
        if interaction is None:
            return 404, {"message": "Unknown Webhook", "code": 10015}
        interaction.answers.append(call)
        if which is None:  # a followup
            if call.method != "POST":
                return 404, {"message": "Unknown", "code": 0}
            return 200, self._create(
                interaction.channel_id,
                call.body,
                call.files,
                token=token,
                owner=interaction.user.id,
            )
        message_id = interaction.original_id if which == "@original" else int(which)
        message = self.messages.get(message_id or 0)
        if message is None:
            return 404, {"message": "Unknown Message", "code": 10008}
        if call.method == "PATCH":
            return 200, self._update(message, call.body, call.files)
        if call.method == "GET":
            return 200, message
        if call.method == "DELETE":
            del self.messages[message_id]  # type: ignore[arg-type]
            return 204, None
        return 404, {"message": "Unknown", "code": 0}

    # -- users acting ---------------------------------------------------------------------

    def interaction_payload(
        self,
        kind: int,
        user: User,
        data: dict[str, Any],
        *,
        message: dict[str, Any] | None = None,
        channel_id: int = CHANNEL_ID,
        app_permissions: discord.Permissions | None = None,
    ) -> dict[str, Any]:
        interaction = Interaction(
            id=snowflake(),
            token=f"interaction-token-{snowflake()}",
            type=kind,
            user=user,
            data=data,
            message_id=int(message["id"]) if message else None,
            channel_id=channel_id,
            created=time.monotonic(),
        )
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        permissions = ADMIN_PERMISSIONS if user.admin else MEMBER_PERMISSIONS
        if app_permissions is None:
            app_permissions = self.app_permissions
        if channel_id in self.threads:
            permissions |= P(send_messages_in_threads=True)
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": "bonken",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "topic": None,
                "rate_limit_per_user": 0,
            },
            "member": {
                "user": user.payload(),
                "roles": [],
                "joined_at": _now_iso(),
                "deaf": False,
                "mute": False,
                "flags": 0,
                "nick": None,
                "avatar": None,
                "permissions": str(permissions.value),
            },
            "token": interaction.token,
            "version": 1,
            "locale": user.locale,
            "guild_locale": self.guild_locale,
            "app_permissions": str(app_permissions.value),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 26_214_400,
        }
        if (thread := self.threads.get(channel_id)) is not None:
            payload["channel"] = {k: v for k, v in thread.items() if k != "member_ids"}
        if message is not None:
            public = {k: v for k, v in message.items() if k not in ("interaction_token", "edits")}
            for attachment in public.get("attachments", []):
                attachment.pop("data", None)
            payload["message"] = public
        return payload


def _public(body: Any) -> Any:
    """What Discord sends back: the fake's own bookkeeping (a message's interaction token,
    its edit count) left out."""
    if isinstance(body, dict):
        hidden = ("interaction_token", "edits", "data" if "filename" in body else "")
        return {k: _public(v) for k, v in body.items() if k not in hidden}
    if isinstance(body, list):
        return [_public(v) for v in body]
    return body


def _decode(data: Any) -> tuple[Any, list[tuple[str, bytes]]]:
    """A request body as Discord would read it: JSON, or multipart with payload_json."""
    text, files = raw_body(data)
    return (None if text is None else json.loads(text)), files


def raw_body(data: Any) -> tuple[str | bytes | None, list[tuple[str, bytes]]]:
    """A request body as it leaves discord.py, unread: its JSON text (a multipart's
    payload_json) and its files."""
    if data is None or isinstance(data, str | bytes):
        return data, []
    if isinstance(data, aiohttp.FormData):
        text = None
        files = []
        for options, _headers, value in data._fields:
            if options.get("name") == "payload_json":
                text = value
            elif "filename" in options:
                raw = value.read()
                value.seek(0)
                files.append((options["filename"], raw))
        return text, files
    raise TypeError(f"unexpected request body {type(data)}")


def _invalid_emoji(body: Any) -> dict[str, Any] | None:
    """Discord's answer to a message whose button or select option carries an emoji that
    is not one (a unicode emoji must be exactly one real emoji; a custom one has an id),
    or None if every emoji is valid."""
    if not isinstance(body, dict):
        return None
    data = body.get("data") if "type" in body and isinstance(body.get("data"), dict) else body
    for r, row in enumerate((data or {}).get("components") or []):
        for c, component in enumerate(row.get("components") or []):
            places = [((), component)]
            places += [
                (("options", str(o)), opt) for o, opt in enumerate(component.get("options") or [])
            ]
            for where, item in places:
                given = item.get("emoji")
                if not given or given.get("id") or emoji.is_emoji(given.get("name") or ""):
                    continue
                code = (
                    "SELECT_COMPONENT_OPTION_INVALID_EMOJI"
                    if where
                    else "BUTTON_COMPONENT_INVALID_EMOJI"
                )
                error: dict[str, Any] = {
                    "name": {"_errors": [{"code": code, "message": "Invalid emoji"}]}
                }
                for key in reversed(("components", str(r), "components", str(c), *where, "emoji")):
                    error = {key: error}
                return {"message": "Invalid Form Body", "code": 50035, "errors": error}
    return None


def components(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every button and menu of a message (inside its action rows)."""
    for row in message.get("components") or []:
        yield from row.get("components") or []


def custom_ids(message: dict[str, Any], *, enabled_only: bool = False) -> list[str]:
    return [
        c["custom_id"]
        for c in components(message)
        if "custom_id" in c and not (enabled_only and c.get("disabled"))
    ]


TEST_PACING = Pacing(restart_quiet=0.05, edit_refill_intervals=1.0)
"""Discord's edit pacing, a table message's edit budget earning one edit an interval (not
four: a test that waits for the table message waits no longer than it did before the
budget; the rate tests set the bot's own, :data:`BOT_EDIT_REFILL`), and a restored
channel's quiet of one rate-limit window at the tests' time scale (5 s × 0.01) instead of
Discord's 5 s."""
BOT_EDIT_REFILL = Pacing().edit_refill_intervals
"""The bot's own edit budget, in edit intervals."""
FAST_PACING = replace(TEST_PACING, edit_interval=0.02)
"""Edits 100× faster too, as the fake Discord's clocks (``time_scale=0.01``)."""


class Harness:
    """The bot with a fake Discord, and people acting in one guild channel."""

    def __init__(
        self,
        tmp_path: Path,
        *,
        pace: float = 0.0,
        time_scale: float = 0.01,
        fake: FakeDiscord | None = None,
        dev_guild_id: int | None = None,
        pacing: Pacing = TEST_PACING,
        activity: ActivitySettings | None = None,
        drawing_processes: int = 0,
    ) -> None:
        """``fake``: the Discord side of an earlier run, to restart the bot against (it
        keeps the commands synced then, as Discord does); ``pacing``: the presenter's;
        ``activity``: the Activity's OAuth2 client (its pages are not served here);
        ``drawing_processes``: the bot's (0: its picture thread draws, where a test can
        put a stand-in picture)."""
        self.fake = fake or FakeDiscord(time_scale=time_scale)
        database = tmp_path / "bonken.sqlite3"
        if not database.exists():  # a restart keeps the last run's
            fresh_sqlite(database)
        self.settings = Settings(
            token=TOKEN,
            database_path=database,
            dev_guild_id=dev_guild_id,
            pace=pace,
            think_seconds=0.01,
            activity=activity,
            drawing_processes=drawing_processes,
        )
        self.bot = BonkenBot(self.settings, pacing, REVIEW)
        self.users: dict[str, User] = {}

    async def start(self) -> Harness:
        http = self.bot.http
        session = FakeSession(self.fake, http.http_trace)

        async def static_login(token: str) -> Any:  # HTTPClient.static_login, minus aiohttp
            http._HTTPClient__session = session  # type: ignore[attr-defined]
            http._global_over = asyncio.Event()
            http._global_over.set()
            http.token = token
            return await http.request(Route("GET", "/users/@me"))

        send = http.request

        async def request(route: Route, **kwargs: Any) -> Any:  # counted while under way
            self.fake.in_flight += 1
            try:
                return await send(route, **kwargs)
            finally:
                self.fake.in_flight -= 1

        http.static_login = static_login  # type: ignore[method-assign]
        http.request = request  # type: ignore[method-assign]
        await self.bot.login(TOKEN)  # the real login: user, application, setup_hook, sync
        return self

    async def stop(self) -> None:
        await self.bot.close()

    @property
    def parts(self) -> Parts:
        """The bot's parts (its store, service, presenter, controllers), as it built them."""
        return self.bot.parts

    def user(self, name: str, *, admin: bool = False, locale: str = "en-US") -> User:
        """The guild member ``name`` (made on first use, speaking ``locale``)."""
        if name not in self.users:
            self.users[name] = User(snowflake(), name, admin, locale)
        return self.users[name]

    # -- feeding interactions -------------------------------------------------------------

    async def dispatch(self, payload: dict[str, Any]) -> Interaction:
        """Hand an INTERACTION_CREATE to the gateway parser and wait for its handlers."""
        before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)
        started = asyncio.all_tasks() - before
        if started:
            await asyncio.wait_for(asyncio.gather(*started), timeout=10)
        interaction = self.fake.interactions[int(payload["id"])]
        return interaction

    def _command(self, name: str) -> dict[str, Any]:
        group = next(c for c in self.fake.commands if c["name"] == "bonken")
        return next(o for o in group["options"] if o["name"] == name)

    def _command_data(self, name: str, options: dict[str, Any], focused: str | None = None):
        group = next(c for c in self.fake.commands if c["name"] == "bonken")
        spec = self._command(name)
        types = {o["name"]: o["type"] for o in spec.get("options", [])}
        inner = []
        for key, value in options.items():
            if key not in types:
                raise AssertionError(f"/bonken {name} has no option {key!r}")
            option = {"name": key, "type": types[key], "value": value}
            if key == focused:
                option["focused"] = True
            inner.append(option)
        sub = {"name": name, "type": 1, "options": inner}
        return {"id": group["id"], "name": "bonken", "type": 1, "options": [sub]}

    async def slash(
        self, user: User, name: str, *, channel_id: int = CHANNEL_ID, **options: Any
    ) -> Interaction:
        """``/bonken <name> option=value ...`` typed by ``user``."""
        data = self._command_data(name, options)
        return await self.dispatch(
            self.fake.interaction_payload(2, user, data, channel_id=channel_id)
        )

    async def admin(
        self, user: User, *path: str, channel_id: int = CHANNEL_ID, **options: Any
    ) -> Interaction:
        """``/bonken-admin <path...> option=value ...`` typed by ``user`` (``path``: a
        subcommand, or a subcommand group and its subcommand)."""
        group = next(c for c in self.fake.commands if c["name"] == "bonken-admin")
        specs = [group]
        for name in path:
            specs.append(next(o for o in specs[-1]["options"] if o["name"] == name))
        types = {o["name"]: o["type"] for o in specs[-1].get("options", [])}
        for key in options:
            if key not in types:
                raise AssertionError(f"/bonken-admin {' '.join(path)} has no option {key!r}")
        inner: list[dict[str, Any]] = [
            {"name": k, "type": types[k], "value": v} for k, v in options.items()
        ]
        for spec in reversed(specs[1:]):
            inner = [{"name": spec["name"], "type": spec["type"], "options": inner}]
        data = {"id": group["id"], "name": "bonken-admin", "type": 1, "options": inner}
        return await self.dispatch(
            self.fake.interaction_payload(2, user, data, channel_id=channel_id)
        )

    async def command(
        self, user: User, *path: str, channel_id: int = CHANNEL_ID, **options: Any
    ) -> Interaction:
        """``/bonken <path...> option=value ...`` (``path``: a subcommand group and its
        subcommand); a :class:`User` given as a value is a member option, resolved as
        Discord sends it."""
        group = next(c for c in self.fake.commands if c["name"] == "bonken")
        specs = [group]
        for name in path:
            specs.append(next(o for o in specs[-1]["options"] if o["name"] == name))
        types = {o["name"]: o["type"] for o in specs[-1].get("options", [])}
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        inner: list[dict[str, Any]] = []
        for key, value in options.items():
            if key not in types:
                raise AssertionError(f"/bonken {' '.join(path)} has no option {key!r}")
            if isinstance(value, User):
                resolved["users"][str(value.id)] = value.payload()
                resolved["members"][str(value.id)] = {
                    "roles": [],
                    "joined_at": _now_iso(),
                    "nick": None,
                    "avatar": None,
                    "flags": 0,
                    "permissions": str(MEMBER_PERMISSIONS.value),
                }
                value = str(value.id)
            inner.append({"name": key, "type": types[key], "value": value})
        for spec in reversed(specs[1:]):
            inner = [{"name": spec["name"], "type": spec["type"], "options": inner}]
        data = {"id": group["id"], "name": "bonken", "type": 1, "options": inner}
        if resolved["users"]:
            data["resolved"] = resolved
        return await self.dispatch(
            self.fake.interaction_payload(2, user, data, channel_id=channel_id)
        )

    async def submit(self, user: User, opened: Interaction, values: dict[str, str]) -> Interaction:
        """``user`` fills in the form the interaction ``opened`` answered with (its
        text inputs by custom_id) and submits it."""
        assert opened.callback_type == 9, opened.callback
        form = opened.callback["data"]
        rows = [
            {
                "type": 1,
                "components": [
                    {"type": 4, "custom_id": item["custom_id"], "value": values[item["custom_id"]]}
                    for item in row["components"]
                ],
            }
            for row in form["components"]
        ]
        data = {"custom_id": form["custom_id"], "components": rows}
        message = self.fake.messages.get(opened.message_id or 0)
        payload = self.fake.interaction_payload(
            5,
            user,
            data,
            message=copy.deepcopy(message) if message else None,
            channel_id=opened.channel_id,
        )
        return await self.dispatch(payload)

    async def autocomplete(
        self, user: User, name: str, focused: str, *, channel_id: int = CHANNEL_ID, **options: Any
    ) -> list[dict[str, Any]]:
        """The choices Discord would show while ``user`` types option ``focused``."""
        options.setdefault(focused, "")
        data = self._command_data(name, options, focused)
        interaction = await self.dispatch(
            self.fake.interaction_payload(4, user, data, channel_id=channel_id)
        )
        assert interaction.callback_type == 8, interaction.callback
        return interaction.callback["data"]["choices"]

    def find_message(self, user: User, custom_id: str) -> dict[str, Any]:
        """The newest message ``user`` can see that carries ``custom_id``."""
        for message_id in sorted(self.fake.messages, reverse=True):
            message = self.fake.messages[message_id]
            owner = self.fake.owner.get(message_id)
            if owner is not None and owner != user.id:
                continue
            if custom_id in custom_ids(message):
                return message
        raise AssertionError(f"{user.name} sees no message with {custom_id!r}")

    def old_message(self, custom_id: str, *, menu: bool = False) -> dict[str, Any]:
        """A message of the bot in the channel with one button (or a menu) carrying
        ``custom_id``, as an older version of the bot may have left behind."""
        if menu:
            option = {"label": "x", "value": "x"}
            component = {"type": 3, "custom_id": custom_id, "options": [option]}
        else:
            component = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
        body = {"content": "", "components": [{"type": 1, "components": [component]}]}
        return self.fake._create(CHANNEL_ID, body, [])

    async def click(
        self, user: User, custom_id: str, *, message: dict[str, Any] | None = None
    ) -> Interaction:
        """``user`` presses a button (a disabled one cannot be pressed, as in Discord)."""
        message = message or self.find_message(user, custom_id)
        button = next(c for c in components(message) if c.get("custom_id") == custom_id)
        assert button["type"] == 2, button
        assert not button.get("disabled"), f"{custom_id} is disabled"
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self.fake.interaction_payload(
            3, user, data, message=copy.deepcopy(message), channel_id=int(message["channel_id"])
        )
        return await self.dispatch(payload)

    async def select(
        self,
        user: User,
        custom_id: str,
        values: list[str],
        *,
        message: dict[str, Any] | None = None,
    ) -> Interaction:
        """``user`` picks ``values`` in a select menu (only values it offers)."""
        message = message or self.find_message(user, custom_id)
        menu = next(c for c in components(message) if c.get("custom_id") == custom_id)
        assert menu["type"] == 3, menu
        offered = {option["value"] for option in menu["options"]}
        assert set(values) <= offered, f"{values} not among {sorted(offered)}"
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload = self.fake.interaction_payload(
            3, user, data, message=copy.deepcopy(message), channel_id=int(message["channel_id"])
        )
        return await self.dispatch(payload)

    # -- waiting and looking --------------------------------------------------------------

    async def idle(self, quiet: float = 0.0) -> None:
        """Wait until the computers have moved, every event is presented and nothing the
        bot sends is still under way (see :meth:`_busy`): the coalesced edit has gone
        out. ``quiet``: and the bot has then sent nothing for that many seconds more."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + IDLE_LIMIT
        while loop.time() < deadline:
            count = self.fake.requests
            await self.parts.service.settle()
            await self.parts.presenter.idle()
            if quiet:
                await asyncio.sleep(quiet)
            if self.fake.requests == count and not self._busy():
                return
            await asyncio.sleep(IDLE_STEP)
        raise AssertionError("the bot never went quiet")

    def _busy(self) -> bool:
        """A request is under way, a table or summary edit is due or being made, a hand
        is being refreshed, or a computer is to move."""
        return (
            self.fake.in_flight > 0
            or self._editing()
            or bool(self.bot.hands._refreshing)
            or any(
                t.driver is not None and not t.driver.done()
                for t in self.parts.service.registry.all()
            )
        )

    def _editing(self) -> bool:
        return any(
            feed.table.stale.is_set()
            or feed.table.lock.locked()
            or (feed.summary is not None and (feed.summary.pending or feed.summary._lock.locked()))
            for feed in self.parts.presenter._feeds.values()
        )

    def table(self):  # type: ignore[no-untyped-def]
        return self.parts.service.table_in_channel(CHANNEL_ID)

    def hand_message(self, interaction: Interaction) -> dict[str, Any]:
        """The (ephemeral) message an interaction's answer created or updated, as now."""
        assert interaction.original_id is not None, "no message was created"
        return self.fake.messages[interaction.original_id]

    def posts_text(self) -> str:
        parts = []
        for message in self.fake.channel_posts():
            parts.append(message["content"] or "")
            parts.extend(json.dumps(e, ensure_ascii=False) for e in message["embeds"])
        return "\n".join(parts)


@contextlib.asynccontextmanager
async def running(tmp_path: Path, **kwargs: Any):  # type: ignore[no-untyped-def]
    harness = await Harness(tmp_path, **kwargs).start()
    try:
        yield harness
    finally:
        await harness.stop()


# -- playing a seat through the buttons ---------------------------------------------------


def seat_state(h: Harness, user: User):  # type: ignore[no-untyped-def]
    """(SeatView, turn) of ``user``: what the engine says, to check the UI against."""
    return h.parts.service.hand(h.table().table_id, user.id)


async def seated_match(h: Harness) -> tuple[User, User, int]:
    """Ann hosts, Bob joins, Ann starts (two computers fill the table): Ann, Bob and the
    table's id, once the first deal is shown."""
    ann, bob = h.user("Ann"), h.user("Bob")
    await h.slash(ann, "new")
    table_id = h.table().table_id
    await h.click(bob, f"bonken:lobby:{table_id}:join")
    await h.click(ann, f"bonken:lobby:{table_id}:start")
    await h.idle()
    return ann, bob, table_id


async def show_hand(h: Harness, user: User) -> Interaction:
    """``user`` presses **Show my hand** on the channel's current table message."""
    table = h.table()
    message = h.fake.messages[table.messages["table"]]
    return await h.click(user, f"bonken:hand:{table.table_id}", message=message)


async def act_by_buttons(h: Harness, user: User) -> Interaction:
    """One move of ``user`` (whose turn it is) made the way a person would: Show my hand,
    then the first contract offered (trumps via the trump menu), a pass when doubling,
    or the first card whose button is enabled."""
    from bot.engine import MatchPhase

    view, turn = seat_state(h, user)
    assert view.my_turn, "not this user's turn"
    tid = h.table().table_id
    hand = h.hand_message(await show_hand(h, user))
    if view.phase is MatchPhase.CHOOSING:
        menu = next(c for c in components(hand) if c["custom_id"].startswith("bonken:choose:"))
        value = menu["options"][0]["value"]
        done = await h.select(user, menu["custom_id"], [value], message=hand)
        if value == "trumps":
            trumps = next(c for c in components(hand) if c["custom_id"].startswith("bonken:trump:"))
            done = await h.select(user, trumps["custom_id"], [trumps["options"][0]["value"]])
    elif view.phase is MatchPhase.DOUBLING:
        done = await h.click(user, f"bonken:dblok:{tid}:{turn}:D:-:pass", message=hand)
    else:
        card = custom_ids(hand, enabled_only=True)[0]
        done = await h.click(user, card, message=hand)
    assert done.callback_type == 7 and not done.text.startswith("⚠️"), done.text
    await h.idle()
    return done


async def play_until(h: Harness, user: User, wanted, *, others: tuple[User, ...] = ()):  # type: ignore[no-untyped-def]
    """Play by buttons (for ``user`` and the other people seated, ``others``) until it
    is ``user``'s turn and ``wanted(view)`` holds."""
    await h.idle()
    for _ in range(800):
        view, _turn = seat_state(h, user)
        if view.my_turn and wanted(view):
            return
        mover = next((u for u in (user, *others) if seat_state(h, u)[0].my_turn), None)
        assert mover is not None, "the table waits for someone who is not playing"
        await act_by_buttons(h, mover)
    raise AssertionError("the wanted position never came")
