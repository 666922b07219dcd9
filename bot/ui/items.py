"""Every feature's buttons and menus, for the bot to register, and the answer to a click
that none of them claims.

Each feature declares its own items beside the work they call (``ITEMS`` in its module);
this module only gathers them, with the custom_id kinds each one's buttons carry
(``bonken:<kind>:...``) and what a stale or mangled button of that feature is told: the
command that brings that feature's message back.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot import i18n
from bot.i18n import N_, _

from . import components, daily_message, daily_replay, replay, review, standings
from . import tally_components as tally
from .replies import say_privately

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


@dataclass(frozen=True)
class Feature:
    """One feature's buttons and menus: ``kinds`` are the custom_id kinds they carry,
    ``stale`` what a click on one that no longer parses is told (naming the feature's
    command)."""

    kinds: tuple[str, ...]
    items: tuple[type[discord.ui.DynamicItem[Any]], ...]
    stale: str


FEATURES = (
    Feature(
        ("lobby", "activity", "hand", "play", "choose", "trump", "dbl", "dblok", "again"),
        components.ITEMS,
        N_("this button is no longer valid; use the newest message (`/bonken hand` for your hand)"),
    ),
    Feature(
        ("lb",),
        standings.ITEMS,
        N_("this leaderboard button is no longer valid; `/bonken leaderboard` shows it again"),
    ),
    Feature(
        ("tally",),
        tally.ITEMS,
        N_(
            "this scoresheet button is no longer valid; use the buttons of the newest sheet "
            "(`/bonken tally new` starts a new one)"
        ),
    ),
    Feature(
        ("daily", "dailydbl"),
        daily_message.ITEMS,
        N_("this daily deals button is no longer valid; `/bonken daily` brings your deals back"),
    ),
    Feature(
        ("drm", "drs"),
        daily_replay.ITEMS,
        N_(
            "this daily replay button is no longer valid; `/bonken daily results:` offers "
            "the day's deals again"
        ),
    ),
    Feature(
        ("review", "rvdeal"),
        review.ITEMS,
        N_("this review button is no longer valid; `/bonken review` shows the review again"),
    ),
    Feature(
        ("replay", "rp", "rpa", "rpd"),
        replay.ITEMS,
        N_("this replay button is no longer valid; `/bonken replay` opens the match again"),
    ),
)
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = tuple(
    item for feature in FEATURES for item in feature.items
)
"""Every button and menu of the bot, registered at start (``setup_hook``)."""
UNKNOWN = N_("this button is no longer valid; use the newest message")
"""What a click on a custom_id of no feature's kind is told."""


def claimed(custom_id: str) -> bool:
    """True if one of :data:`DYNAMIC_ITEMS` answers a click with this custom_id."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)


def stale_words(custom_id: str) -> str:
    """What a click on ``custom_id`` that no item claims is told (the catalogue's text):
    the words of the feature whose kind it carries."""
    parts = custom_id.split(":")
    kind = parts[1] if len(parts) > 1 and parts[0] == "bonken" else ""
    for feature in FEATURES:
        if kind in feature.kinds:
            return feature.stale
    return UNKNOWN


async def answer_unclaimed(interaction: Interaction) -> None:
    """The last net for clicks: answer a component interaction no item of ours claims.

    discord.py hands a click to the ``DynamicItem`` whose template matches its custom_id
    and silently drops one that matches none (a button of an older version of the bot, a
    mangled id), so Discord would tell the user "This interaction failed". The templates
    are strict, so a claimed custom_id always parses and its callback (guarded) answers."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = data.get("custom_id")
    if isinstance(custom_id, str) and claimed(custom_id):
        return
    log.info("unclaimed component click: user=%s custom_id=%r", interaction.user.id, custom_id)
    with i18n.using(interaction.locale):
        words = _(stale_words(custom_id if isinstance(custom_id, str) else ""))
        await say_privately(interaction, f"⚠️ {words}")
