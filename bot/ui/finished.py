"""Which finished match an interaction is about, for what looks back at a match.

A match id is global, but a server sees only its own matches: one of another server is
refused in the same words as one that does not exist, so nothing says it is there. A
match still in play, or cancelled, has nothing to look back at yet: the refusal says
when it will have. Without an id, the newest finished match played in this channel, or
in the thread a table played in, is meant. The ``match`` option's list of the server's
recent finished matches is the replay's (``cogs.choices.match_autocomplete``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import rules_for
from bot.i18n import N_, _
from bot.store import MatchInfo, MatchStatus, NotFound
from bot.store.matches import MatchStore
from bot.tables import Refusal

from .threads import THREAD

Interaction = discord.Interaction[Any]
UNKNOWN = N_("there is no match {match} on this server; pick one from the list")
IN_PLAY = N_(
    "match {match} is still being played (deal {deal} of {deals}); it can be looked at "
    "once it is over"
)
CANCELLED = N_("match {match} was cancelled before its end: there is nothing to look back at")
NONE_HERE = N_(
    "no match played with cards has finished in this channel yet; pick one of this "
    "server's matches from the list"
)
LARGEST_ID = 2**63 - 1
"""The largest id a database keeps (a BIGINT): anything larger is no match."""


class FinishedMatches:
    """Finds a finished match of the interaction's server (see the module)."""

    def __init__(self, matches: MatchStore) -> None:
        self._matches = matches

    async def find(self, interaction: Interaction, match: str | None) -> MatchInfo:
        """The finished match ``match`` names (its id, as autocomplete gives it, or
        ``#12``), or the channel's newest; a :class:`Refusal` saying why not."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise Refusal(_("Bonken is played in a server's text channel"))
        if match is None or not match.strip():
            return await self._newest_here(interaction)
        text = match.strip().removeprefix("#")
        if not (text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= LARGEST_ID):
            raise Refusal(_(UNKNOWN, match=match.strip()[:20]))
        try:
            info = await self._matches.get_match(int(text))
        except NotFound:
            raise Refusal(_(UNKNOWN, match=text)) from None
        if info.guild_id != guild_id:
            raise Refusal(_(UNKNOWN, match=text))
        return _finished(info)

    async def _newest_here(self, interaction: Interaction) -> MatchInfo:
        """The newest finished match played here; failing that, the match in play here
        (refused below, saying how far it is)."""
        channel = interaction.channel_id or 0
        for status in (MatchStatus.FINISHED, MatchStatus.PLAYING):
            match_id = await self._matches.latest_in_channel(
                channel, thread_role=THREAD, status=status
            )
            if match_id is not None:
                info = await self._matches.get_match(match_id)
                if info.guild_id == interaction.guild_id:  # (a channel is one server's)
                    return _finished(info)
        raise Refusal(_(NONE_HERE))


def _finished(info: MatchInfo) -> MatchInfo:
    if info.status is MatchStatus.PLAYING:
        deals = rules_for(info.rules["variant"], info.rules.get("house_rules")).deals
        raise Refusal(_(IN_PLAY, match=info.match_id, deal=max(1, info.deals), deals=deals))
    if info.status is MatchStatus.CANCELLED:
        raise Refusal(_(CANCELLED, match=info.match_id))
    return info
