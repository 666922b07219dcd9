"""Which of the bot's channel requests Discord has answered, as the answers arrive.

discord.py returns from a request only after its rate limiter is done with it: when the
answer used up the channel's bucket, it sleeps until the bucket refills (up to 5 s)
before handing the answer back. A post that Discord has already created is then still
"being sent" for the presenter. At shutdown that sleep must not hold the bot up: the
post is out. An aiohttp trace on discord.py's session (``Client(http_trace=...)``)
counts the answers per channel and method the moment they arrive, so the presenter can
tell a request that is still on its way from one that is only waiting for its bucket.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from types import SimpleNamespace

import aiohttp

CHANNEL_REQUEST = re.compile(r"/channels/(\d+)/messages")
"""A post in a channel or thread (POST .../messages) or an edit of one of its messages
(PATCH .../messages/{id}); the thread of a message (.../messages/{id}/threads) too."""
RETRIED = frozenset({429, 500, 502, 504, 524})
"""Answers discord.py does not hand back but retries after a pause: not the end of a
request. Any other answer is (a post made, or refused for good)."""


@dataclass(frozen=True, slots=True)
class Request:
    """A request the presenter has begun: answered once its channel's count for its
    method has passed the count it began at."""

    method: str
    channel_id: int
    begun_at: int


class Answers:
    """Counts Discord's answers to channel message requests (see the module)."""

    def __init__(self) -> None:
        self._counts: Counter[tuple[str, int]] = Counter()
        self._statuses: dict[tuple[str, int], int] = {}
        """The status of each channel's and method's last answer."""

    def trace(self) -> aiohttp.TraceConfig:
        """The trace to give discord.py's ``Client`` as ``http_trace``."""
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._ended)
        return config

    async def _ended(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        found = CHANNEL_REQUEST.search(params.url.path)
        status = params.response.status
        if found is not None and status not in RETRIED:
            key = (params.method, int(found[1]))
            self._counts[key] += 1
            self._statuses[key] = status

    def begin(self, method: str, channel_id: int) -> Request:
        """A request about to be sent (its answer is the next one counted for it)."""
        return Request(method, channel_id, self._counts[method, channel_id])

    def answered(self, request: Request) -> bool:
        return self._counts[request.method, request.channel_id] > request.begun_at

    def made(self, request: Request) -> bool:
        """Answered, and Discord did what was asked (a post: it is in the channel)."""
        key = (request.method, request.channel_id)
        return self.answered(request) and 200 <= self._statuses[key] < 300
