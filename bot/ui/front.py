"""What the bot offers the objects discord.py builds itself, and the one way to reach it.

Most of the front end is built by the bot in order and handed what it uses. A button or
menu, though, is rebuilt by discord.py from a click's custom_id (a ``DynamicItem``), and
an autocomplete callback is called by discord.py too: neither can be handed anything.
What they may use is :class:`Front`, reached through the interaction's client with
:func:`front_of`; nothing else of the bot is in their reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord

if TYPE_CHECKING:
    from bot.archive import FinishedMatchService

    from .daily import DailyController
    from .hands import HandController
    from .lobby import LobbyController
    from .places import Places
    from .rematch import Rematch
    from .replay import Replays
    from .replies import Guard
    from .review import ReviewController
    from .standings import Boards
    from .tally import TallyController


@runtime_checkable
class Front(Protocol):
    """The parts of the bot a button, a menu or an autocomplete callback may use."""

    @property
    def guard(self) -> Guard:
        """Runs a click's work, turning a refusal into a polite private reply."""
        ...

    @property
    def places(self) -> Places:
        """Which table an interaction is about."""
        ...

    @property
    def lobby(self) -> LobbyController:
        """The lobby message's buttons."""
        ...

    @property
    def hands(self) -> HandController:
        """The hand messages: show, act, choose, double."""
        ...

    @property
    def rematch(self) -> Rematch:
        """Play again, under the final standings."""
        ...

    @property
    def boards(self) -> Boards:
        """The leaderboard's pages and the server's seasons."""
        ...

    @property
    def tally(self) -> TallyController:
        """The scoresheets' buttons, menus and result forms."""
        ...

    @property
    def daily(self) -> DailyController:
        """The daily deals' private messages: a move, a doubling toggle; the days offered."""
        ...

    @property
    def reviews(self) -> ReviewController:
        """Players' reviews of finished matches: the Review button, the deal menu."""
        ...

    @property
    def archive(self) -> FinishedMatchService:
        """The server's finished matches (the ``match`` option's list)."""
        ...

    @property
    def replays(self) -> Replays:
        """The replays of finished matches: their steps, deals and animations."""
        ...


def front_of(interaction: discord.Interaction[Any]) -> Front:
    """The bot's :class:`Front` behind an interaction discord.py routed to an object it
    built itself."""
    client = interaction.client
    if not isinstance(client, Front):
        raise TypeError(f"{type(client).__name__} is not the Bonken bot")
    return client
