"""Stand-ins for the Discord side of one controller or feed, for tests that build it
themselves (no bot, no gateway, no HTTP): an interaction that records its answers, a
channel that records its posts and edits, the webhook edits of hand messages, the
presenter's lobby calls, the hands and the store as a feed sees them; and a table.

The controllers take ``discord.Interaction`` objects and the feed a channel getter;
these fakes have the attributes they read and record what they send, as Discord would
receive it, with the time it was sent.
"""

from __future__ import annotations

import asyncio
import datetime
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine import Match
from bot.store import Computer, HandLink, Human, TableSettings, TableStatus
from bot.tables import TableView
from bot.tables.table import Seat, Table, view_of

GUILD_ID = 1
TABLE_ID = 7
CHANNEL_ID = 10
THREAD_ID = 11
APP_ID = 99
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True
)
THREAD_PERMISSIONS = BOT_PERMISSIONS | discord.Permissions(
    create_public_threads=True, send_messages_in_threads=True
)
ANN, BOB = 101, 102
_ids = itertools.count(1000)


def table_view(
    *, started: bool = True, status: TableStatus = TableStatus.PLAYING, images: bool = True
) -> TableView:
    """Table TABLE_ID in CHANNEL_ID: Ann (whose name needs escaping) and Bob (South: the
    first deal's chooser), two computers; the first deal dealt (unless not ``started``)."""
    table = Table(
        table_id=TABLE_ID,
        guild_id=GUILD_ID,
        channel_id=CHANNEL_ID,
        host_id=ANN,
        settings=TableSettings(images=images),
        status=status if started else TableStatus.LOBBY,
    )
    table.seats = [
        Seat(Human(ANN), "Ann_"),
        Seat(Computer("normal"), "East bot"),
        Seat(Human(BOB), "Bob"),
        Seat(Computer("hard"), "West bot"),
    ]
    if started:
        table.match = Match([seat.name for seat in table.seats])
        table.match.deal_random(random.Random(3))
        table.match_id = 5
    return view_of(table)


@dataclass
class Sent:
    """One answer: ``kind`` is ``send`` (a new message), ``edit`` (the clicked one),
    ``modal`` (a form opened) or ``defer`` (acknowledged: ``thinking`` shows "thinking…"
    in a new message, else the clicked message is to be edited); after it (in
    ``FakeResponse.later``) ``original`` (an edit of the acknowledged answer's message) or
    ``followup`` (a message after the acknowledgement)."""

    kind: str
    content: str | None
    view: discord.ui.View | None
    embed: discord.Embed | None
    ephemeral: bool
    modal: discord.ui.Modal | None = None
    files: tuple[discord.File, ...] = ()
    thinking: bool = False

    def custom_ids(self, *, enabled_only: bool = False) -> list[str]:
        if self.view is None:
            return []
        return [
            item["custom_id"]
            for row in self.view.to_components()
            for item in row["components"]
            if not (enabled_only and item.get("disabled"))
        ]

    @property
    def file_names(self) -> list[str]:
        return [file.filename for file in self.files]


class FakeResponse:
    """``interaction.response``: answers once (a ``defer`` is an answer with nothing in
    it yet); ``hold`` keeps an answer in flight."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.later: list[Sent] = []
        """What came after the acknowledgement: edits of its message, followups."""
        self.hold: asyncio.Event | None = None

    def is_done(self) -> bool:
        return bool(self.sent)

    async def _answer(self, answer: Sent) -> None:
        assert not self.sent, "an interaction is answered once"
        if self.hold is not None:
            await self.hold.wait()
        self.sent.append(answer)

    async def send_message(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        ephemeral: bool = False,
        **_: Any,
    ) -> None:
        await self._answer(Sent("send", content, view, embed, ephemeral))

    async def edit_message(
        self,
        *,
        content: str | None = None,
        view: discord.ui.View | None = None,
        embed: discord.Embed | None = None,
        attachments: list[discord.File] | None = None,
        **_: Any,
    ) -> None:
        files = tuple(attachments or ())
        await self._answer(Sent("edit", content, view, embed, False, files=files))

    async def send_modal(self, modal: discord.ui.Modal) -> None:
        await self._answer(Sent("modal", None, None, None, True, modal))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False, **_: Any) -> None:
        await self._answer(Sent("defer", None, None, None, ephemeral, thinking=thinking))


class FakeFollowups:
    """``interaction.followup``: what is sent goes to the response's one record of what
    came after the answer (``later``)."""

    def __init__(self, response: FakeResponse) -> None:
        self._response = response

    @property
    def sent(self) -> list[Sent]:
        """The followups sent, in order."""
        return [later for later in self._response.later if later.kind == "followup"]

    async def send(
        self,
        content: str | None = None,
        *,
        ephemeral: bool = False,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        file: discord.File | None = None,
        **_: Any,
    ) -> None:
        assert self._response.is_done(), "a followup comes after the answer"
        files = () if file is None else (file,)
        self._response.later.append(Sent("followup", content, view, embed, ephemeral, files=files))


@dataclass
class FakeUser:
    id: int
    display_name: str


@dataclass
class FakeMessage:
    id: int = field(default_factory=lambda: next(_ids))
    flags: discord.MessageFlags = field(default_factory=discord.MessageFlags)


@dataclass
class FakeInteraction:
    """What the controllers read of an interaction, and its answers in ``response``."""

    user: FakeUser
    locale: str = "en-US"
    guild_locale: str = "en-US"
    channel_id: int | None = CHANNEL_ID
    guild_id: int | None = GUILD_ID
    channel: FakeChannel = field(default_factory=lambda: FakeChannel(CHANNEL_ID))
    app_permissions: discord.Permissions = BOT_PERMISSIONS
    permissions: discord.Permissions = field(default_factory=discord.Permissions)
    application_id: int = APP_ID
    token: str = field(default_factory=lambda: f"token-{next(_ids)}")
    id: int = field(default_factory=lambda: next(_ids))
    created_at: datetime.datetime = field(default_factory=discord.utils.utcnow)
    """When Discord made it (a real one's id says)."""
    data: dict[str, Any] = field(default_factory=dict)
    response: FakeResponse = field(default_factory=FakeResponse)
    message: FakeMessage = field(default_factory=FakeMessage)
    followup: FakeFollowups = field(init=False)

    def __post_init__(self) -> None:
        self.followup = FakeFollowups(self.response)

    async def edit_original_response(
        self,
        *,
        content: str | None = None,
        view: discord.ui.View | None = None,
        embed: discord.Embed | None = None,
        attachments: list[discord.File] | None = None,
        **_: Any,
    ) -> FakeMessage:
        assert self.response.sent, "the original response is edited after the answer"
        later = Sent("original", content, view, embed, False, files=tuple(attachments or ()))
        self.response.later.append(later)
        return self.message

    @property
    def edits(self) -> list[Sent]:
        """The edits of the interaction's own message after its answer, in order."""
        return [later for later in self.response.later if later.kind == "original"]

    async def original_response(self) -> FakeMessage:
        """The message the answer created (a lobby posted as a command's answer)."""
        assert self.response.sent, "not answered yet"
        return self.message

    @property
    def answer(self) -> Sent:
        (answer,) = self.response.sent
        return answer


def interaction(user_id: int, name: str = "", **options: Any) -> FakeInteraction:
    """An interaction of ``user_id`` (named ``name``) in the test channel."""
    return FakeInteraction(FakeUser(user_id, name or f"User {user_id}"), **options)


@dataclass
class Edit:
    link: HandLink
    content: str
    view: discord.ui.View | None


class FakeWebhookEdits:
    """The hand controller's ``edit``: records each edit of a hand message by its link."""

    def __init__(self) -> None:
        self.edits: list[Edit] = []

    async def __call__(self, link: HandLink, *, content: str, view: discord.ui.View | None) -> None:
        self.edits.append(Edit(link, content, view))


class FakeLobbyMessages:
    """The presenter as the lobby controller sees it: records what it is told."""

    def __init__(self) -> None:
        self.adopted: list[tuple[int, int]] = []

    def adopt_message(self, table_id: int, message_id: int) -> None:
        self.adopted.append((table_id, message_id))


@dataclass
class Delivered:
    """A post or an edit a channel received: its fields, and when it began and ended."""

    fields: dict[str, Any]
    began: float
    ended: float
    message_id: int


class FakeChannel:
    """A channel (or thread) as a feed uses discord.py's ``PartialMessageable``: each
    request takes ``seconds``; posts and edits are recorded in the order they ended."""

    def __init__(
        self,
        channel_id: int,
        *,
        seconds: float = 0.0,
        type: discord.ChannelType = discord.ChannelType.text,
    ) -> None:
        """``type``: what an interaction in it reads of it (a text channel, a thread)."""
        self.id = channel_id
        self.seconds = seconds
        self.type = type
        self.posts: list[Delivered] = []
        self.edits: list[Delivered] = []

    async def _request(
        self, into: list[Delivered], message_id: int, fields: dict[str, Any]
    ) -> None:
        began = time.monotonic()
        await asyncio.sleep(self.seconds)
        into.append(Delivered(fields, began, time.monotonic(), message_id))

    async def send(self, **fields: Any) -> FakeMessage:
        message = FakeMessage()
        await self._request(self.posts, message.id, fields)
        return message

    def get_partial_message(self, message_id: int) -> FakeMessageRef:
        return FakeMessageRef(self, message_id)


@dataclass
class FakeMessageRef:
    channel: FakeChannel
    id: int

    async def edit(self, **fields: Any) -> None:
        await self.channel._request(self.channel.edits, self.id, fields)


class FakeHands:
    """The hand controller as a feed sees it: whether a player's hand still updates."""

    def __init__(self, *, live: bool = True) -> None:
        self._live = live
        self.closed: list[tuple[int, str | None, str, int]] = []

    def live(self, table_id: int, user_id: int) -> bool:
        return self._live

    async def close_table(
        self, table_id: int, reason: str | None, language: str, place: int
    ) -> None:
        self.closed.append((table_id, reason, language, place))


class FakeDelivery:
    """The store as a feed sees it: the last line posted, and the message ids kept."""

    def __init__(self, last: tuple[int, int] = (0, 0)) -> None:
        self.last = last
        self.posted_lines: list[tuple[int, int]] = []
        self.remembered: list[tuple[str, int | None]] = []

    async def posted(self, table_id: int, line: tuple[int, int]) -> None:
        self.posted_lines.append(line)
        self.last = line

    async def last_posted(self, table_id: int) -> tuple[int, int]:
        return self.last

    async def remember(self, table_id: int, role: str, message_id: int | None) -> None:
        self.remembered.append((role, message_id))
