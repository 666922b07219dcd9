"""Whether the lobby offers **Play in an Activity**.

The button answers its click with Discord's ``launch_activity``, which Discord refuses
for an application whose Activities are not turned on. So the bot offers it only where
both halves are there: the operator gave the application's OAuth2 client
(``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET``, with which the Activity's page
learns who signed in), and the application has Activities turned on in the developer
portal, which Discord reports as the application's ``EMBEDDED`` flag when the bot logs
in (docs/operating.md, The Discord Activity).
"""

from __future__ import annotations

import discord

from bot.settings import ActivitySettings


def activity_offered(settings: ActivitySettings | None, flags: discord.ApplicationFlags) -> bool:
    """Whether the lobby shows Play in an Activity (see the module)."""
    return settings is not None and flags.embedded
