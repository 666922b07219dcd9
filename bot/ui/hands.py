"""Private hand messages: show them, act from them, and keep them current.

A hand message is ephemeral, so only its interaction's webhook (application id and
token) can edit it, for 15 minutes. We keep the newest one per (table, player), in memory
and in the store, so the message lights up when the player's turn comes, also after a
restart, without anyone pressing Show my hand again. Refreshes run beside the channel's
queue (the webhook is not in the channel's rate-limit bucket), and a refresh that would
show what the message already shows is not sent. A minute before a token runs out, the
message says it is about to stop updating (Show my hand gives a fresh one). Tokens are
credentials: never logged. A hand message speaks its player's language (the locale of
the interaction that opened it), also when a refresh is caused by someone else's move.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot import i18n
from bot.engine import Action, MatchPhase
from bot.i18n import N_, _
from bot.store import HandLink, StoreError
from bot.store.delivery import DeliveryStore
from bot.tables import Hand, Refusal, TableReason, TableService

from . import components as c
from .hand import doubling_items, hand_message, trump_choices
from .web import URL_LENGTH, WebLinker, watch_button

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
Key = tuple[int, int]
"""(table id, user id)"""
Shown = tuple[str, list[dict[str, Any]]]
"""A hand message's content and components, as sent."""
TOKEN_LIFETIME = 14 * 60
"""Seconds we use an interaction token for; Discord allows 15 minutes."""
NOTICE_SECONDS = 60.0
"""A hand message whose token has less than this left says it is about to stop updating."""
SWEEP_SECONDS = 15.0
"""How often the tokens are checked for the notice (well inside ``NOTICE_SECONDS``)."""
STALE_NOTICE = N_(
    "⚠️ This hand message is about to stop updating: press **Show my hand** for a fresh one."
)
MATCH_OVER = N_("This match is over; the final standings are in <#{place}>.")
"""``place``: the thread or channel the match was played in."""
NOT_SEATED_WATCH = N_(
    "You are not seated at this table. **Watch** shows it in your browser as it is "
    "played, without anyone's hand."
)
TOKEN_IN_URL = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?]+")


class HideTokens(logging.Filter):
    """discord.py logs every interaction request's URL at DEBUG, and the URL holds the
    token: the token is replaced before the line reaches any handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = TOKEN_IN_URL.sub(r"\1<token>", record.getMessage()), None
        return True


logging.getLogger("discord.webhook.async_").addFilter(HideTokens())


class EditHand(Protocol):
    """Edits a hand message whose interaction has gone (see :class:`WebhookEdits`)."""

    async def __call__(
        self, link: HandLink, *, content: str, view: discord.ui.View | None
    ) -> None: ...


class HandController:
    def __init__(
        self,
        service: TableService,
        delivery: DeliveryStore,
        edit: EditHand,
        *,
        web: WebLinker | None = None,
        on_show: Callable[[int, int], Awaitable[None]] | None = None,
    ) -> None:
        """``delivery`` keeps the hand messages across a restart; ``edit`` changes one
        whose interaction is over (a refresh, the table closing); ``web`` gives each
        message its player's "Open the table" link (the live table); ``on_show(table,
        user)`` is told of a new hand message (the live table frees the link's claim)."""
        self._service = service
        self._web = web or WebLinker.none()
        self._on_show = on_show
        self._delivery = delivery
        self._edit = edit
        self._links: dict[Key, HandLink] = {}
        self._shown: dict[Key, Shown] = {}
        """What each linked message shows now (absent: not known, e.g. after a restart)."""
        self._refreshing: dict[Key, asyncio.Task[None]] = {}
        self._again: set[Key] = set()
        self._answering: set[Key] = set()
        self._deferred: set[Key] = set()
        """Refreshes asked for while an answer was in flight: sent after it."""
        self._sweeper: asyncio.Task[None] | None = None
        self._languages: dict[Key, str] = {}
        """Each linked message's language (its player's locale; after a restart, the
        table's until the player opens a new one)."""

    def _language(self, key: Key) -> str:
        if key in self._languages:
            return self._languages[key]
        try:
            return self._service.view(key[0]).settings.language or i18n.DEFAULT
        except Refusal:
            return i18n.DEFAULT

    async def _render(self, table_id: int, user_id: int) -> tuple[str, discord.ui.View]:
        return await self._message(table_id, user_id, self._service.hand(table_id, user_id))

    async def _message(
        self, table_id: int, user_id: int, hand: Hand
    ) -> tuple[str, discord.ui.View]:
        table = self._service.view(table_id)
        url = await self._web.table_seat(table.guild_id, table_id, user_id)
        return hand_message(table_id, hand.turn, hand.view, table.seats, table_url=url)

    async def _answer(
        self,
        interaction: Interaction,
        table_id: int,
        content: str,
        view: discord.ui.View,
        *,
        new: bool,
    ) -> None:
        """Answer with the hand (a ``new`` message, or the clicked one edited); this
        interaction's message is the player's hand message from now on."""
        key = (table_id, interaction.user.id)
        self._languages[key] = i18n.language_of(interaction.locale)
        self._answering.add(key)  # refreshes wait for this answer and its newer token
        try:
            if new:
                await interaction.response.send_message(content, view=view, ephemeral=True)
            else:
                await interaction.response.edit_message(content=content, view=view)
        finally:
            self._answering.discard(key)
        self._shown[key] = (content, view.to_components())
        await self._remember(interaction, table_id)
        if key in self._deferred:  # their turn came while we answered
            self._deferred.discard(key)
            self.request_refresh(*key)

    async def _remember(self, interaction: Interaction, table_id: int) -> None:
        user_id = interaction.user.id
        link = HandLink(
            table_id=table_id,
            user_id=user_id,
            application_id=interaction.application_id,
            token=interaction.token,
            expires_at=time.time() + TOKEN_LIFETIME,
        )
        self._links[(table_id, user_id)] = link
        self._sweep_soon()
        try:
            await self._delivery.keep_hand(link)
        except StoreError:
            log.exception("the hand message of %s is not kept across a restart", user_id)

    async def show(self, interaction: Interaction, table_id: int) -> None:
        """A new ephemeral hand message (Show my hand, ``/bonken hand``); someone not
        seated is offered the table as spectators see it, where the server allows it."""
        try:
            content, view = await self._render(table_id, interaction.user.id)
        except Refusal as refusal:
            if refusal.reason is TableReason.NOT_SEATED and await self._offer_watch(
                interaction, table_id
            ):
                return
            raise
        if self._on_show is not None:
            await self._on_show(table_id, interaction.user.id)
        await self._answer(interaction, table_id, content, view, new=True)

    async def _offer_watch(self, interaction: Interaction, table_id: int) -> bool:
        """Answer someone not seated with the live table's Watch link, if there is one."""
        url = await self._web.table_watch(self._service.view(table_id).guild_id, table_id)
        if url is None or len(url) > URL_LENGTH:
            return False
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(watch_button(url))
        await interaction.response.send_message(_(NOT_SEATED_WATCH), view=buttons, ephemeral=True)
        return True

    async def act(self, interaction: Interaction, table_id: int, turn: int, action: Action) -> None:
        """A click that acts; the hand message then shows, in place, the hand the
        service answers with."""
        hand = await self._service.act(table_id, interaction.user.id, turn, action)
        if hand is None:
            # This message says so itself; closing the table must not say it again.
            key = (table_id, interaction.user.id)
            self._links.pop(key, None)
            # A hand message is opened from the table message: where the match played.
            place = interaction.channel_id
            await interaction.response.edit_message(content=_(MATCH_OVER, place=place), view=None)
            await self._forget(key)
            return
        content, view = await self._message(table_id, interaction.user.id, hand)
        await self._answer(interaction, table_id, content, view, new=False)

    async def offer_trumps(self, interaction: Interaction, table_id: int, turn: int) -> None:
        """The chooser picked "Trumps…": show the trump options left."""
        seat_view = self._service.on_turn(
            table_id, interaction.user.id, turn, MatchPhase.CHOOSING
        ).view
        ui = discord.ui.View(timeout=None)
        ui.add_item(c.ContractSelect(table_id, turn, trump_choices(seat_view), kind="trump"))
        self._shown.pop((table_id, interaction.user.id), None)  # it shows something else now
        await interaction.response.edit_message(
            content=_("**Choose the trump suit** (or No Trump); +10 per trick taken."), view=ui
        )

    async def toggle_double(
        self, interaction: Interaction, table_id: int, turn: int, chosen: frozenset[int]
    ) -> None:
        """Flip one target of the doubling turn; nothing is sent to the table until Confirm."""
        seat_view = self._service.on_turn(
            table_id, interaction.user.id, turn, MatchPhase.DOUBLING
        ).view
        names = [seat.name for seat in self._service.view(table_id).seats]
        ui = discord.ui.View(timeout=None)
        for item in doubling_items(table_id, turn, seat_view, names, chosen):
            ui.add_item(item)
        self._shown.pop((table_id, interaction.user.id), None)  # it shows something else now
        await interaction.response.edit_message(view=ui)

    def live(self, table_id: int, user_id: int) -> bool:
        """True if the player's hand message still updates itself (its token is good
        for more than the notice time): else the turn ping tells them to press Show my
        hand."""
        link = self._links.get((table_id, user_id))
        return link is not None and link.expires_at - time.time() > NOTICE_SECONDS

    def request_refresh(self, table_id: int, user_id: int) -> None:
        """Bring the player's hand message up to date soon (their turn has come), without
        making the caller wait; requests that come while one is sent are merged."""
        key = (table_id, user_id)
        if key not in self._links:
            return
        task = self._refreshing.get(key)
        if task is not None and not task.done():
            self._again.add(key)
            return
        self._refreshing[key] = asyncio.create_task(self._refresh_until_current(key))

    async def _refresh_until_current(self, key: Key) -> None:
        try:
            while True:
                self._again.discard(key)
                await self.refresh(*key)
                if key not in self._again:
                    return
        finally:
            if self._refreshing.get(key) is asyncio.current_task():
                del self._refreshing[key]

    async def refresh(self, table_id: int, user_id: int) -> None:
        """Edit the player's hand message to the table as it is now, if that changes it."""
        key = (table_id, user_id)
        link = self._links.get(key)
        if link is None:
            return
        if key in self._answering:
            self._deferred.add(key)  # sent with the answer's newer token, once it is done
            return
        if time.time() >= link.expires_at:
            await self._forget(key)  # an expired token is never used
            return
        try:
            with i18n.using(self._language(key)):
                content, view = await self._render(table_id, user_id)
                notice = _(STALE_NOTICE)
        except Refusal:
            await self._forget(key)
            return
        if link.expires_at - time.time() <= NOTICE_SECONDS:
            content = f"{notice}\n{content}"  # its token runs out soon: say so
        shown = (content, view.to_components())
        if self._shown.get(key) == shown:
            return
        self._shown[key] = shown
        try:
            await self._edit(link, content=content, view=view)
        except discord.HTTPException as error:
            log.info("hand message of %s could not be refreshed: %s", user_id, error)
            await self._forget(key)

    async def restore(self, table_id: int) -> None:
        """After a restart: the table's hand messages whose tokens are still valid."""
        try:
            links = await self._delivery.hand_links(table_id)
        except StoreError:
            log.exception("table %s: the hand messages could not be restored", table_id)
            return
        for link in links:
            self._links[(link.table_id, link.user_id)] = link
        self._sweep_soon()

    def _sweep_soon(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep())

    async def _sweep(self) -> None:
        """While hand messages are linked: those about to lose their token get the
        notice (a refresh adds it), once, so the player knows to press Show my hand;
        the channel's turn reminder still pings them when their turn comes."""
        noticed: set[HandLink] = set()
        while self._links:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.time()
            for key, link in list(self._links.items()):
                if link not in noticed and link.expires_at - now <= NOTICE_SECONDS:
                    noticed.add(link)
                    self.request_refresh(*key)
            noticed &= set(self._links.values())

    async def _forget(self, key: Key) -> None:
        self._links.pop(key, None)
        self._shown.pop(key, None)
        self._languages.pop(key, None)
        try:
            await self._delivery.forget_hand(*key)
        except StoreError:
            log.exception("the hand message of %s could not be forgotten", key[1])

    async def close_table(
        self, table_id: int, reason: str | None, language: str, place: int
    ) -> None:
        """The table is gone: its open hand messages say so (the match is over, its
        standings in ``place``, its thread or channel; or the table closed for
        ``reason``, a catalogue message) and lose their buttons; a message of unknown
        language speaks the table's ``language``."""
        for key in [key for key in self._links if key[0] == table_id]:
            with i18n.using(self._languages.pop(key, language)):
                if reason is None:
                    text = _(MATCH_OVER, place=place)
                else:
                    text = _("The table is closed: {reason}.", reason=_(reason))
            link = self._links.pop(key)
            self._shown.pop(key, None)
            task = self._refreshing.pop(key, None)
            if task is not None:
                task.cancel()
            if time.time() >= link.expires_at:
                continue
            try:
                await self._edit(link, content=text, view=None)
            except discord.HTTPException as error:
                log.info("hand message of %s could not be closed: %s", key[1], error)
        try:
            await self._delivery.forget_hand(table_id)
        except StoreError:
            log.exception("table %s: its hand messages could not be forgotten", table_id)

    async def idle(self) -> None:
        """Wait until no refresh is being sent (tests, shutdown)."""
        while self._refreshing:
            await asyncio.gather(*self._refreshing.values(), return_exceptions=True)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in self._refreshing.values():
            task.cancel()
        self._refreshing.clear()


class WebhookEdits:
    """Edits the message of the interaction behind a :class:`~bot.store.HandLink`
    (``@original``), the request ``Interaction.edit_original_response`` makes;
    discord.py offers no public call for a stored token. It goes through the
    interaction's webhook, not the channel's bucket."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def __call__(self, link: HandLink, *, content: str, view: discord.ui.View | None) -> None:
        client = self._client
        webhook = discord.Webhook.partial(link.application_id, link.token, client=client)
        with handle_message_parameters(
            content=content, view=view, previous_allowed_mentions=client.allowed_mentions
        ) as params:
            await async_context.get().edit_original_interaction_response(
                link.application_id,
                link.token,
                session=webhook.session,
                proxy=client.http.proxy,
                proxy_auth=client.http.proxy_auth,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )
