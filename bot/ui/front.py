"""The one way a button, a menu, a form or an autocomplete reaches the bot, and the base
of every button and menu.

Most of the front end is built by the bot in order and handed what it uses. A button or
menu, though, is rebuilt by discord.py from a click's custom_id (a ``DynamicItem``), and
an autocomplete callback or a modal submit is called by discord.py too: none can be
handed anything. They reach the bot through the interaction's client, with
:func:`front_of`, which checks the client is the Bonken bot.

A click runs its work in the bot's guard (a refusal becomes a polite private reply, a
surprise a logged apology): :class:`Guarded` does that once for every button and menu,
and :func:`run_guarded` for the other callbacks discord.py makes. Each feature declares
its own items (subclasses of :class:`Guarded`) beside the work they call, and the parts
it uses as a ``Protocol`` of its own, so nothing here names a feature: this module
imports nothing of the front end.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar, overload, runtime_checkable

import discord

from bot.i18n import _

from .replies import UIRefusal

Interaction = discord.Interaction[Any]
ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
FrontT = TypeVar("FrontT")
NOTHING = r"(?!)"
"""A template no custom_id matches: :class:`Guarded` itself is never registered."""


class Guarding(Protocol):
    """Runs an interaction's work, a refusal answered privately (:class:`~bot.ui.replies.Guard`)."""

    async def __call__(
        self, interaction: Interaction, work: Callable[[], Awaitable[None]]
    ) -> None: ...


@runtime_checkable
class Front(Protocol):
    """What every callback discord.py makes may count on: the guard. The parts a feature
    uses it names in a ``Protocol`` of its own, which the bot offers as properties."""

    @property
    def guard(self) -> Guarding: ...


@overload
def front_of(interaction: Interaction) -> Front: ...


@overload
def front_of(interaction: Interaction, kind: type[FrontT]) -> FrontT: ...


def front_of(interaction: Interaction, kind: type[Any] = Front) -> Any:
    """The bot behind an interaction discord.py routed to an object it built itself, as
    ``kind`` (a runtime-checkable ``Protocol`` of the parts the caller uses)."""
    client = interaction.client
    if (type(client), kind) not in _FRONTS:
        if not isinstance(client, kind):
            raise TypeError(f"{type(client).__name__} is not the Bonken bot")
        _FRONTS.add((type(client), kind))
    return client


_FRONTS: set[tuple[type[Any], type[Any]]] = set()
"""The client classes found to be each ``kind`` of front: a protocol's ``isinstance``
walks the protocol's members and reads each one (a few per cent of a daily click's
time); the bot's class offers its parts as properties, so one instance that has them
says every one has."""


async def run_guarded(interaction: Interaction, work: Callable[[Any], Awaitable[None]]) -> None:
    """``work(front)`` in the bot's guard: for a callback discord.py makes (a modal
    submit), as :class:`Guarded` does for a click."""
    front = front_of(interaction)
    await front.guard(interaction, lambda: work(front))


class Guarded(discord.ui.DynamicItem[ItemT], template=NOTHING):
    """A button or menu whose click runs :meth:`clicked` in the bot's guard. A subclass
    gives its template, carries in its custom_id all its click needs, and types the
    ``front`` it is given by its feature's ``Protocol``."""

    async def callback(self, interaction: Interaction) -> None:
        await run_guarded(interaction, lambda front: self.clicked(interaction, front))

    async def clicked(self, interaction: Interaction, front: Any) -> None:
        """The click's work (the bot's parts in ``front``)."""
        raise NotImplementedError


class Settled(Guarded[ItemT], template=NOTHING):
    """A :class:`Guarded` item whose click is over when its callback returns: nothing
    answers or reads the interaction afterwards (no task, no timer holds it).

    discord.py ties each click's objects into reference cycles (the interaction and its
    response, the view rebuilt from the message and its buttons), so they outlive the
    click until the cyclic collector finds them: under the daily deals' load they
    reached its oldest generation, whose full passes then took a fifth of the event
    loop's time (``bench/daily.py``). Once the click is over the cycles are cut
    (:func:`release`) and reference counting frees them at once."""

    async def callback(self, interaction: Interaction) -> None:
        try:
            await super().callback(interaction)
        finally:
            release(interaction, self)


def release(interaction: Interaction, item: discord.ui.Item[Any]) -> None:
    """Cut the cycles discord.py made around a click that is over: the view rebuilt from
    its message lets go of its items, and the interaction of the response it cached (a
    private slot: a later ``interaction.response`` would be a new, unanswered one)."""
    if item.view is not None:
        item.view.clear_items()
    with contextlib.suppress(AttributeError):  # never asked for, or not discord.py's
        del interaction._cs_response  # type: ignore[attr-defined]


def picked(interaction: Interaction) -> list[str]:
    """The values a menu's click picked (a refusal if none: Discord sends at least one)."""
    data: Mapping[str, Any] = interaction.data or {}
    values = [str(value) for value in data.get("values") or []]
    if not values:
        raise UIRefusal(_("nothing was selected"))
    return values
