"""A match record as the file Discord is sent, encoded off the event loop.

A finished match's record holds every hand and play of up to 12 deals; encoding it is
work in proportion to the match, done in a worker thread so the event loop keeps
answering interactions meanwhile (as the pictures are drawn, see :mod:`.pictures`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import discord

from .pictures import attachment


def encoded(record: dict[str, Any]) -> bytes:
    """The record as the file holds it: indented JSON."""
    return json.dumps(record, indent=1).encode()


async def record_file(record: dict[str, Any], filename: str) -> discord.File:
    """The record as an attachment named ``filename``, encoded in a worker thread."""
    data = await asyncio.to_thread(encoded, record)
    return attachment(data, filename)
