"""Stand-ins for the Discord side of one controller, for tests that build the controller
themselves (no bot, no gateway, no HTTP): an interaction that records its answers, the
webhook edits of hand messages, the presenter's lobby calls.

A controller takes ``discord.Interaction`` objects; these fakes have the attributes the
controllers read and record what they send, as Discord would receive it.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.store import HandLink

GUILD_ID = 1
CHANNEL_ID = 10
THREAD_ID = 11
APP_ID = 99
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True
)
THREAD_PERMISSIONS = BOT_PERMISSIONS | discord.Permissions(
    create_public_threads=True, send_messages_in_threads=True
)
_ids = itertools.count(1000)


@dataclass
class Sent:
    """One answer: ``kind`` is ``send`` (a new message) or ``edit`` (the clicked one)."""

    kind: str
    content: str | None
    view: discord.ui.View | None
    embed: discord.Embed | None
    ephemeral: bool

    def custom_ids(self) -> list[str]:
        if self.view is None:
            return []
        return [
            item["custom_id"] for row in self.view.to_components() for item in row["components"]
        ]


class FakeResponse:
    """``interaction.response``: answers once; ``hold`` keeps an answer in flight."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
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
        **_: Any,
    ) -> None:
        await self._answer(Sent("edit", content, view, embed, False))


@dataclass
class FakeUser:
    id: int
    display_name: str


@dataclass
class FakeChannel:
    type: discord.ChannelType = discord.ChannelType.text


@dataclass
class FakeMessage:
    id: int = field(default_factory=lambda: next(_ids))


@dataclass
class FakeInteraction:
    """What the controllers read of an interaction, and its answers in ``response``."""

    user: FakeUser
    locale: str = "en-US"
    guild_locale: str = "en-US"
    channel_id: int | None = CHANNEL_ID
    guild_id: int | None = GUILD_ID
    channel: FakeChannel = field(default_factory=FakeChannel)
    app_permissions: discord.Permissions = BOT_PERMISSIONS
    permissions: discord.Permissions = field(default_factory=discord.Permissions)
    application_id: int = APP_ID
    token: str = field(default_factory=lambda: f"token-{next(_ids)}")
    id: int = field(default_factory=lambda: next(_ids))
    data: dict[str, Any] = field(default_factory=dict)
    response: FakeResponse = field(default_factory=FakeResponse)
    message: FakeMessage = field(default_factory=FakeMessage)

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
