"""The table message: the one message of a table edited in place.

It is the lobby message until the match starts (a threaded match's lobby becomes its
summary instead), then each deal's message, posted by the feed. It is never edited per
event: a change marks it stale, and one editor applies the newest state, paced by its
:class:`~bot.ui.pacing.EditPacer` (Discord limits edits; quick changes share one) and
held to its :class:`~bot.ui.pacing.EditBudget` (a few edits at once after a calm spell,
then one every few seconds while play is fast), and lets the table's posts waiting to
go out go first. Whatever waited, the edit shows the state as it is when sent, never an
older one, and an edit that would show what the message already shows is not sent. Each
deal gets a fresh message (Discord limits edits to old messages); the last one's final
edit, which waits for no budget, shows the deal as it ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord
from discord.utils import MISSING

from bot import i18n
from bot.render.scene import scene_of
from bot.tables import TableView

from . import posts
from .delivery import Progress
from .pacing import EditBudget, EditPacer
from .pictures import TablePicture, drawn, show

log = logging.getLogger(__name__)

TABLE_MESSAGE = "table"
"""The role of the table message among the table's messages (kept with the table)."""


class TableMessage:
    def __init__(
        self,
        channel: Callable[[], discord.PartialMessageable],
        pacer: EditPacer,
        budget: EditBudget,
        progress: Progress,
        *,
        activity: bool = False,
        posts_clear: asyncio.Event | None = None,
    ) -> None:
        """``channel``: where the message is (the table's thread, or its channel, as it
        is when an edit is made); ``budget``: its edits over time; ``progress``: its
        editor's requests, for a stop; ``activity``: the lobby offers Play in an
        Activity; ``posts_clear``: set while the table has no post waiting to go out
        (the editor lets those go first)."""
        self._channel = channel
        self._activity = activity
        if posts_clear is None:
            posts_clear = asyncio.Event()
            posts_clear.set()
        self._posts_clear = posts_clear
        self.pacer = pacer
        self.budget = budget
        self._shown: object = None
        """What the message shows as of its last edit (None: not known), so an edit
        that changes nothing is not sent."""
        self._progress = progress
        self.view: TableView | None = None
        """The table as of the last event presented: what the message shows."""
        self.message_id: int | None = None
        self.deal: int | None = None
        """The deal the message was posted for (None: the lobby, or not known)."""
        self.lobby = True
        """The message is still the lobby message (no deal posted yet)."""
        self.closed: str | None = None
        """Why the table closed (a catalogue message), once it did."""
        self.tricks: list[str] = []
        """The current deal's finished tricks, one line each."""
        self.deadline: tuple[int, float] | None = None
        """(turn, Unix time) a person's turn runs out, for the countdown."""
        self.stale = asyncio.Event()
        """The message shows less than :attr:`view`: an edit is due."""
        self.lock = asyncio.Lock()
        """Held for every edit, so edits never overlap or reorder."""
        self.editor = asyncio.create_task(self._edit_loop())

    async def _edit_loop(self) -> None:
        while True:
            await self.stale.wait()
            # Waited outside the lock, so a deal's new message never waits for the budget.
            await self.pacer.wait_turn()
            await self.budget.ready()
            # The posts waiting go first: a deal's lines and its new message share the
            # channel's rate limit with the edits, and the newest state waits for them.
            await self._posts_clear.wait()
            async with self.lock:
                if self.stale.is_set():  # (a closing edit may have taken it meanwhile)
                    with self._progress.busy(), i18n.using(posts.table_language(self.view)):
                        await self.edit_now()

    async def edit_now(self, *, final: bool = False) -> None:
        """Edit the message to the newest state (``final``: the deal as it ended), paced.
        Call with :attr:`lock` held.

        The pause is counted from the end of the last edit: one that waited for Discord's
        rate limit is not followed by another at once."""
        await self.pacer.wait_turn()
        self.stale.clear()
        view = self.view
        if view is None or self.message_id is None:
            return
        channel = self._channel()
        message = channel.get_partial_message(self.message_id)
        try:
            if self.lobby:
                post = posts.lobby_message(
                    view, closed=self.closed is not None, activity=self._activity
                )
                if not self._changes(post, None):
                    return
                with self._progress.requesting("PATCH", channel.id):
                    await message.edit(embed=post.embed, view=post.buttons)
            else:
                turn_ends = self.deadline
                post = posts.deal_message(
                    view,
                    closed=self.closed,
                    final=final,
                    deadline=turn_ends[1] if turn_ends and turn_ends[0] == view.turn else None,
                    tricks=self.tricks,
                )
                assert post.embed is not None and isinstance(post.picture, TablePicture)
                scene = scene_of(view, over=post.picture.over) if view.settings.images else None
                if not self._changes(post, scene):
                    return
                picture = await drawn(post.picture, view)
                # An edit replaces the picture (one call, as a text edit); without one, a
                # stale picture is taken away. A table set to text only sends none.
                pictures = [] if picture is None else [picture]
                with self._progress.requesting("PATCH", channel.id):
                    await message.edit(
                        embed=show(post.embed, picture),
                        view=post.buttons,
                        attachments=pictures if view.settings.images else MISSING,
                    )
        except discord.HTTPException as error:
            self._shown = None  # not known: the next change is sent whatever it shows
            log.warning("channel %s: editing the table message failed: %s", channel.id, error)
        finally:
            self.pacer.edited()

    def _changes(self, post: posts.Post, scene: object) -> bool:
        """Whether ``post`` (with the picture of ``scene``) shows anything the message
        does not show yet; if so, it is counted as sent (:attr:`budget`)."""
        assert post.embed is not None
        buttons = None if post.buttons is None else post.buttons.to_components()
        shown = (post.embed.to_dict(), buttons, scene)
        if shown == self._shown:
            return False
        self._shown = shown
        self.budget.spend()
        return True

    async def close(self) -> None:
        """The message's last edit: the lobby as it started, or the deal as it ended
        (:attr:`view` is still that deal's). Call with :attr:`lock` held."""
        view = self.view
        if view is not None and (self.lobby or self.deal == view.deal_number):
            await self.edit_now(final=True)
            return
        # After a restart the deal it showed is gone: just take its buttons away.
        assert self.message_id is not None
        await self.pacer.wait_turn()
        self.budget.spend()
        channel = self._channel()
        try:
            with self._progress.requesting("PATCH", channel.id):
                await channel.get_partial_message(self.message_id).edit(view=None)
        except discord.HTTPException as error:
            log.warning("channel %s: closing the table message failed: %s", channel.id, error)
        finally:
            self.pacer.edited()

    def posted(self, message_id: int, view: TableView) -> None:
        """A deal's message was posted showing ``view``: it is the table message now."""
        self.message_id, self.deal, self.lobby = message_id, view.deal_number, False
        self._shown = None
        self.pacer.edited()
        self.stale.clear()

    def stop(self) -> None:
        self.editor.cancel()
